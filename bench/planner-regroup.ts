/**
 * What register regrouping would gain (issue 28, "Checked against", last paragraph; docs/planner.md "The price"): for
 * each of Triton's SwizzleTest pairs (test/fixtures/plan-swizzletest.jsonl), Triton's layout (the plan's `triton`
 * entry) and our best (front[0]), each side priced in the value order it states (docs/semantics.md §9.2, what the
 * planner answers) and with a thread's registers regrouped freely into vectors, as Triton's lowering does.
 *
 * Regrouped, as Triton's lowering regroups (largestVectorisation: a change of register basis, the same for every
 * thread): where the side's offsets over M are F2-linear in its value index (o(t, j) = o(t, 0) ⊕ ⊕_{i ∈ j} d_i, checked
 * on every access: Triton's layouts and the swizzles of a power-of-two tile), the widest 2^k ≤ 16 bytes with offsets
 * 1, 2, …, 2^(k−1) in span(d_i) moves as one vector: its registers are those offsets' preimages, then the stated
 * registers independent of them in their order; instruction 0 of every thread is its stated value 0, as before. The
 * side is priced by price.ts's priceSide on that order (ld/st.shared or ds_read/ds_write; the matrix instructions keep
 * their fixed fragment); the last column totals the cheaper of the two per side. A side that is not linear over M
 * (a padded layout) has no regrouped figure ("-").
 * Run: npx tsx bench/planner-regroup.ts
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseLayoutFunction } from '../src/cute/composed.js';
import { parseLL } from '../src/linear/forms.js';
import { Pool32 } from '../src/memory/access.js';
import { loadPlanner, planArgs } from '../src/ops/planner.js';
import { isLayoutError } from '../src/algebra/errors.js';
import { offsetsOf } from '../src/planner/families.js';
import { machineOf } from '../src/planner/machine.js';
import { type AccessPattern, PriceScratch, priceSide, type SidePrice } from '../src/planner/price.js';
import { llSide, type Side, type Tile } from '../src/planner/sides.js';
import { offsetsOfBases } from '../src/planner/triton.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CASES = readFileSync(join(root, 'test', 'fixtures', 'plan-swizzletest.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as { id: string; args: [Record<string, unknown>] });
const E: Record<string, number> = { float_e4m3_t: 1, half_t: 2, bfloat16_t: 2, float: 4 };

/** The side's accesses with every thread's values in Triton's regrouped order (the header), or null when they are not F2-linear over M. */
export function regrouped(p: AccessPattern, offsets: Int32Array, e: number): AccessPattern | null {
  const { threads: T, values: V, index } = p;
  if ((V & (V - 1)) !== 0) return null;
  const bits = Math.log2(V);
  const o = (t: number, j: number): number => offsets[index[t + T * j]!]!;
  const d = Array.from({ length: bits }, (_, i) => o(0, 1 << i) ^ o(0, 0));
  for (let t = 0; t < T; t++) {
    for (let j = 0; j < V; j++) {
      let x = o(t, 0);
      for (let i = 0; i < bits; i++) if ((j >> i) & 1) x ^= d[i]!;
      if (x !== o(t, j)) return null;
    }
  }
  // value-index combinations reaching each offset of span(d): a table over the span (V entries at most)
  const reach = new Map<number, number>([[0, 0]]);
  for (let i = 0; i < bits; i++) for (const [off, j] of [...reach]) if (!reach.has(off ^ d[i]!)) reach.set(off ^ d[i]!, j ^ (1 << i));
  let k = 0;
  while (k < bits && 2 ** (k + 1) * e <= 16 && reach.has(1 << k)) k++;
  const chosen = Array.from({ length: k }, (_, i) => reach.get(1 << i)!);
  // then the stated registers independent of those chosen, in their order
  const spanned = new Set([0]);
  const widen = (v: number): void => {
    for (const x of [...spanned]) spanned.add(x ^ v);
  };
  chosen.forEach(widen);
  for (let i = 0; i < bits && chosen.length < bits; i++) {
    if (spanned.has(1 << i)) continue;
    chosen.push(1 << i);
    widen(1 << i);
  }
  const out = new Int32Array(index.length);
  for (let j = 0; j < V; j++) {
    let src = 0;
    for (let b = 0; b < bits; b++) if ((j >> b) & 1) src ^= chosen[b]!;
    for (let t = 0; t < T; t++) out[t + T * j] = index[t + T * src]!;
  }
  return { ...p, index: out };
}

/** The stated price (the side's, as the plan answers), the regrouped order's, and the cheaper of the two. */
function prices(side: Side, offsets: Int32Array, tile: Tile, s: PriceScratch): { stated: SidePrice; regroup: SidePrice | null; best: SidePrice } {
  const stated = side.price({ family: 'linear', layout: { shape: 1, stride: 0 }, atom: null, offsets, cosize: tile.size, key: '', index: 0 }, s)!;
  const p = side.pattern!;
  const q = regrouped(p, offsets, tile.e);
  const regroup = q === null ? null : priceSide(q, offsets, tile.size, tile.e, machineOf(MACHINE), s);
  const better =
    regroup !== null && (regroup.wavefronts < stated.wavefronts || (regroup.wavefronts === stated.wavefronts && regroup.instructions < stated.instructions));
  const best = better ? regroup : stated;
  return { stated, regroup, best };
}

let MACHINE = 'sm90';

/** The offsets by tile index of a printed plan entry: a CuTe layout, or Triton's `#ttg.shared_linear` (offset bases). */
function entryOffsets(layout: string, tile: Tile): Int32Array {
  if (!layout.startsWith('#ttg')) return offsetsOf(parseLayoutFunction(layout), new Pool32())!.offsets.slice();
  const ll = parseLL(layout);
  const bases = ll.inDims.find((d) => d.name === 'offset')!.bases;
  return offsetsOfBases(bases.map((b) => b.reduce((v, c, d) => v + c * tile.shape.slice(0, d).reduce((a, x) => a * x, 1), 0)));
}

await loadPlanner();
const fmt = (x: SidePrice | null): string => (x === null ? '-' : `${x.wavefronts} (${x.vectorBytes} B × ${x.instructions})`);
const head = ['pair', 'arch', 'layout', 'write stated', 'write regrouped', 'read stated', 'read regrouped', 'total stated → the cheaper'];
const rows: string[][] = [];
for (const c of CASES) {
  const req = c.args[0];
  MACHINE = String(req.arch ?? 'sm90');
  const shape = String(req.tile).slice(1, -1).split(',').map(Number);
  const tile: Tile = { shape, size: shape.reduce((a, b) => a * b, 1), e: E[String(req.dtype)]! };
  const m = machineOf(MACHINE);
  const write = llSide('write', parseLL((req.write as { ll: string }).ll), tile, m);
  const read = llSide('read', parseLL((req.read as { ll: string }).ll), tile, m);
  const plan = planArgs(req);
  // the best with the linear family asked for too (none where its count passes 2^53)
  let withLinear: typeof plan | null = null;
  try {
    withLinear = planArgs({ ...req, families: ['swizzle', 'linear', 'padded', 'atoms'] });
  } catch (e) {
    if (!isLayoutError(e) || e.kind !== 'overflow') throw e;
  }
  const s = new PriceScratch();
  for (const [name, entry] of [
    ['triton', plan.triton],
    ['ours', plan.front[0]!],
    ['ours, linear too', withLinear?.front[0] ?? null],
  ] as const) {
    if (entry === null) continue;
    const offsets = entryOffsets(entry.layout, tile);
    const w = prices(write, offsets, tile, s);
    const r = prices(read, offsets, tile, s);
    const shown = name === 'triton' ? 'triton' : `${name}: ${entry.layout.length > 60 ? `${entry.layout.slice(0, 57)}...` : entry.layout}`;
    rows.push([
      c.id,
      MACHINE,
      shown,
      fmt(w.stated),
      fmt(w.regroup),
      fmt(r.stated),
      fmt(r.regroup),
      `${w.stated.wavefronts + r.stated.wavefronts} → ${w.best.wavefronts + r.best.wavefronts}`,
    ]);
  }
}
const widths = head.map((h, j) => Math.max(h.length, ...rows.map((r) => r[j]!.length)));
const line = (r: string[]): string => r.map((x, j) => x.padEnd(widths[j]!)).join('  ');
console.log('wavefronts (vector bytes × instructions) per side, in the stated value order and with registers regrouped');
console.log(line(head));
for (const r of rows) console.log(line(r));
