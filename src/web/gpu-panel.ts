/**
 * The GPU panel: the adapter that navigator.gpu gives, and the bulk checks (check compact,
 * check complement, check compose, tile map) run by the same engine code as Node
 * (src/engine/gpu.ts on the browser's GPUDevice; src/engine/cpu.ts without WebGPU).
 *
 * The checks go through the ops table (src/ops/table.ts) like every other operation of the page, so
 * the page, the CLI and `batch` answer alike. Until the evaluator's bulk ops are registered in
 * that table (src/ops/bulk.ts), the page calls the same Backend methods itself and
 * shapes the answer as docs/protocol.md "Bulk checks" does. The backends come from the page's device
 * holder (gpu-device.ts).
 */
import { LayoutError } from '../algebra/errors.js';
import { concat, phi, size, type Layout } from '../algebra/layout.js';
import { formatLayout } from '../algebra/notation.js';
import { readLayout } from '../ops/args.js';
import type { Backend, BackendName } from '../engine/backend.js';
import { opsByName, runOpDirect, type Json, type OpContext } from '../ops/table.js';
import { fill, h } from './dom.js';

export type CheckName = 'check_compact' | 'check_complement' | 'check_compose' | 'tile_map';

export interface CheckOutcome {
  name: CheckName;
  args: string[];
  backend: BackendName;
  adapter: string;
  ms: number;
  result?: Json;
  verdict: 'pass' | 'fail' | 'error';
  error?: { kind: string; message: string };
  /** how the page reached the engine: through the ops table, or the Backend directly */
  via: 'ops' | 'backend';
}

const j = (n: number | bigint): Json => (typeof n === 'bigint' ? (n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n.toString()) : n);

/** The check on one backend: through the ops table when it has the op, else on the Backend. */
export async function runCheck(name: CheckName, args: readonly string[], backend: Backend): Promise<{ result: Json; via: 'ops' | 'backend' }> {
  const ctx: OpContext = { backendChoice: backend.info.backend, backend: async () => backend };
  if (opsByName.has(name)) return { result: await runOpDirect(name, args, ctx, true), via: 'ops' };
  const L = (i: number, what: string): Layout => readLayout(args[i] ?? '', what);
  switch (name) {
    case 'check_compact':
    case 'check_complement': {
      const l = name === 'check_compact' ? L(0, 'L') : readLayout(runOpDirect('concat', [args[0] ?? '', args[1] ?? ''], ctx, true) as string);
      if (name === 'check_complement') L(1, 'B');
      const r = await backend.checkCompact(l);
      return {
        result: { compact: r.compact, image: j(r.image), outOfRange: j(r.outOfRange), collisions: j(r.collisions), witness: r.witness },
        via: 'backend',
      };
    }
    case 'check_compose': {
      const b = L(0, 'B');
      const a = L(1, 'A');
      const c = args[2] ? L(2, 'C') : readLayout(runOpDirect('compose', [args[0]!, args[1]!], ctx, true) as string);
      const r = await backend.checkCompose(b, a, c);
      return { result: { equal: r.equal, mismatches: j(r.mismatches), witness: r.witness, composite: formatLayout(r.composite) }, via: 'backend' };
    }
    case 'tile_map': {
      const a = L(0, 'A');
      L(1, 'B');
      if (size(a) > 65536) throw new LayoutError('domain', `tile_map: size(A) = ${size(a)} exceeds 65,536`);
      const r = await backend.tileMap(a, L(1, 'B'));
      return { result: { tileSize: r.tileSize, tiles: r.tiles, offsets: r.offsets }, via: 'backend' };
    }
  }
}

/** pass/fail of a check's result (tile map: the tiles hit A's image exactly as often as A) */
export function verdictOf(name: CheckName, args: readonly string[], result: Json): boolean {
  const r = result as Record<string, Json>;
  if (name === 'check_compact' || name === 'check_complement') return r['compact'] === true;
  if (name === 'check_compose') return r['equal'] === true;
  const a = readLayout(args[0]!);
  const got = (r['offsets'] as number[][]).flat().sort((x, y) => x - y);
  const want = Array.from({ length: size(a) }, (_, x) => phi(a, x)).sort((x, y) => x - y);
  return got.length === want.length && got.every((v, i) => v === want[i]);
}

export async function checkOn(name: CheckName, args: readonly string[], backend: Backend): Promise<CheckOutcome> {
  const t0 = performance.now();
  const base = { name, args: [...args], backend: backend.info.backend, adapter: backend.info.adapter };
  try {
    const { result, via } = await runCheck(name, args, backend);
    const ms = performance.now() - t0;
    return { ...base, ms, result, via, verdict: verdictOf(name, args, result) ? 'pass' : 'fail' };
  } catch (e) {
    const ms = performance.now() - t0;
    const kind = e instanceof LayoutError ? e.kind : 'internal';
    const message = e instanceof Error ? e.message : String(e);
    return { ...base, ms, verdict: 'error', error: { kind, message }, via: opsByName.has(name) ? 'ops' : 'backend' };
  }
}

const TITLES: Record<CheckName, string> = {
  check_compact: 'check compact',
  check_complement: 'check complement',
  check_compose: 'check compose',
  tile_map: 'tile map',
};

function operandsText(name: CheckName, args: readonly string[]): string {
  switch (name) {
    case 'check_compact':
      return `L = ${args[0]}`;
    case 'check_complement':
      return `A = ${args[0]}, B = ${args[1]}`;
    case 'check_compose':
      return `B = ${args[0]}, A = ${args[1]}`;
    case 'tile_map':
      return `A = ${args[0]}, B = ${args[1]}`;
  }
}

const safePhi = (text: string | undefined, x: number): string => {
  try {
    return String(phi(readLayout(text ?? ''), x));
  } catch {
    return '?';
  }
};

/** one sentence that says what the result means, with its witnesses */
function explain(o: CheckOutcome): string {
  const r = o.result as Record<string, Json>;
  switch (o.name) {
    case 'check_compact':
    case 'check_complement': {
      // the layout checked: L, or the concatenation (A, B) (docs/semantics.md §4.2: B complements A when (A, B) is compact)
      let l: string | undefined;
      let n: number | null = null;
      try {
        const lay = o.name === 'check_compact' ? readLayout(o.args[0] ?? '') : concat(readLayout(o.args[0] ?? ''), readLayout(o.args[1] ?? ''));
        l = formatLayout(lay);
        n = size(lay);
      } catch {
        /* the inputs no longer parse: the sentence leaves the size out */
      }
      const below = n === null ? '' : ` below ${n}`;
      if (r['compact'] === true) {
        return o.name === 'check_compact'
          ? `Φ_L hits every offset${below} exactly once: L is compact.`
          : `(A, B) = ${l} hits every offset${below} exactly once: B = ${o.args[1]} is a complement of A = ${o.args[0]}.`;
      }
      const w = r['witness'] as number[] | null;
      let ws = '';
      if (w && w.length === 2) ws = ` Witness: Φ(${w[0]}) = Φ(${w[1]}) = ${safePhi(l, w[0]!)}.`;
      else if (w && w.length === 1) ws = ` Witness: Φ(${w[0]}) = ${safePhi(l, w[0]!)}${n === null ? '' : ` ≥ ${n}`}.`;
      if (w && o.name === 'check_complement') {
        try {
          const sa = size(readLayout(o.args[0]!));
          ws += ` (index x = a + ${sa}·b: ${w.map((x) => `${x} = ${x % sa} + ${sa}·${Math.floor(x / sa)}`).join(', ')})`;
        } catch {
          /* no more */
        }
      }
      const head =
        o.name === 'check_compact' ? 'L is not compact' : `B = ${o.args[1]} does not complement A = ${o.args[0]}: (A, B)${l ? ` = ${l}` : ''} is not compact`;
      return `${head}: ${r['image']} distinct offsets${below}, ${r['outOfRange']} out of range, ${r['collisions']} collisions.${ws}`;
    }
    case 'check_compose': {
      const c = String(r['composite']);
      if (r['equal'] === true) return `Φ_C(x) = Φ_B(Φ_A(x)) for every x < size(A), with C = ${c}.`;
      const w = r['witness'] as number | null;
      let ws = '';
      if (w !== null) {
        const a = safePhi(o.args[1], w);
        ws = ` First witness x = ${w}: Φ_C(x) = ${safePhi(c, w)}, Φ_B(Φ_A(x)) = Φ_B(${a}) = ${a === '?' ? '?' : safePhi(o.args[0], Number(a))}.`;
      }
      return `C = ${c} differs from B∘A at ${r['mismatches']} indices.${ws}`;
    }
    case 'tile_map': {
      const ok = o.verdict === 'pass';
      return `${r['tiles']} tiles of ${r['tileSize']}: together they hit A's image ${ok ? 'exactly as often as A does' : 'NOT as A does'}.`;
    }
  }
}

function tileTable(r: Record<string, Json>): HTMLElement {
  const offsets = r['offsets'] as number[][];
  const rows = offsets.slice(0, 8);
  const table = h('table', { class: 'tiles' });
  const head = h('tr', {}, h('th', {}, 'tile'));
  const width = Math.min(offsets[0]?.length ?? 0, 16);
  for (let i = 0; i < width; i++) head.append(h('th', {}, i));
  if ((offsets[0]?.length ?? 0) > width) head.append(h('th', {}, '…'));
  table.append(head);
  rows.forEach((row, k) => {
    const tr = h('tr', {}, h('th', {}, k));
    for (let i = 0; i < width; i++) tr.append(h('td', {}, row[i]!));
    if (row.length > width) tr.append(h('td', {}, '…'));
    table.append(tr);
  });
  if (offsets.length > rows.length) {
    table.append(h('tr', {}, h('td', { colspan: String(width + 2), class: 'muted' }, `… ${offsets.length - rows.length} more tiles`)));
  }
  return table;
}

const fmtMs = (ms: number): string => (ms < 10 ? `${ms.toFixed(2)} ms` : ms < 1000 ? `${ms.toFixed(1)} ms` : `${(ms / 1000).toFixed(2)} s`);

/** The card of one outcome, with the CPU's answer beside it when it ran on the GPU. */
export function outcomeCard(o: CheckOutcome, cpu?: CheckOutcome): HTMLElement {
  const card = h('div', {
    class: `gpu-result ${o.verdict}`,
    'data-testid': 'gpu-result',
    'data-verdict': o.verdict,
    'data-backend': o.backend,
    'data-op': o.name,
    ...(o.error ? { 'data-error-kind': o.error.kind } : {}),
  });
  const badge = h('span', { class: `verdict ${o.verdict}` }, o.verdict === 'error' ? 'ERROR' : o.verdict.toUpperCase());
  card.append(h('div', { class: 'gpu-head' }, badge, h('strong', {}, TITLES[o.name]), h('span', { class: 'operands' }, operandsText(o.name, o.args))));
  if (o.error) {
    card.append(h('p', { class: 'explain' }, `${o.error.kind}: ${o.error.message}`));
  } else {
    card.append(h('p', { class: 'explain', 'data-testid': 'gpu-explain' }, explain(o)));
    if (o.name === 'tile_map') card.append(tileTable(o.result as Record<string, Json>));
  }
  card.append(
    h(
      'div',
      { class: 'gpu-meta' },
      h('span', { class: `chip backend-${o.backend}` }, o.backend.toUpperCase()),
      h('span', { 'data-testid': 'gpu-time' }, fmtMs(o.ms)),
      h('span', { class: 'muted' }, o.adapter),
    ),
  );
  if (cpu) {
    const agree = JSON.stringify(cpu.result ?? cpu.error?.kind) === JSON.stringify(o.result ?? o.error?.kind);
    card.append(
      h(
        'div',
        { class: `agree ${agree ? 'yes' : 'no'}`, 'data-testid': 'gpu-agree', 'data-agree': String(agree) },
        agree
          ? `✓ the CPU backend gives the same answer (${fmtMs(cpu.ms)})`
          : `✗ the CPU backend answers differently (${fmtMs(cpu.ms)}): ${JSON.stringify(cpu.result ?? cpu.error)}`,
      ),
    );
  }
  const details = h('details', { class: 'raw' }, h('summary', {}, 'result as in the batch protocol'));
  const pre = h('pre', { 'data-testid': 'gpu-json' });
  pre.textContent = JSON.stringify(o.result ?? { error: o.error }, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  details.append(pre);
  card.append(details);
  return card;
}

/** The adapter line when the device was lost: says so, and that the next check acquires a new one. */
export function lostLineEl(el: HTMLElement, why: string): void {
  el.dataset['lost'] = 'true';
  fill(el, h('span', { class: 'dot off' }), 'GPU device lost ', h('span', { class: 'muted' }, `(${why})`), ': the next check acquires a new device.');
}

export function adapterLineEl(el: HTMLElement, a: { ok: boolean; text: string; software: boolean }, webgpu: boolean): void {
  el.dataset['ready'] = 'true';
  delete el.dataset['lost'];
  el.dataset['backend'] = a.ok ? 'gpu' : 'cpu';
  if (a.ok) {
    fill(el, h('span', { class: 'dot ok' }), 'WebGPU adapter: ', h('strong', {}, a.text));
  } else {
    fill(el, h('span', { class: 'dot off' }), webgpu ? 'WebGPU without an adapter: CPU backend' : 'No WebGPU: CPU backend');
  }
}
