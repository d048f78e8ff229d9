/**
 * The planner panel of the page (issue 28; docs/planner.md, docs/page.md "The planner panel"): which shared-memory
 * layout for a tile that one side writes and another reads? The fields are `layoutgpu plan`'s options (the tile, the
 * element type, the write and read sides, the machine, the families, top); the plan is the table's plan_smem, as the
 * CLI and `batch` run it. It shows the front as a table and as a plot of write against read wavefronts (one point per
 * entry, Triton's layout marked), the certificate in the CLI's line, and for the entry chosen (a row or a point) both
 * sides' bank pictures on its layout (ops/plan-view.ts), each with its instruction and figures. Errors are inline.
 *
 * Stable test hooks: data-testid `plan-tile`, `plan-dtype`, `plan-write`, `plan-read`, `plan-arch`, `plan-families`,
 * `plan-top`, `plan-label`, `plan-entry` (the entry chosen: 1, 2, … or `triton`, kept by its rank when the plan
 * changes, the first where the front is shorter; a key of the address like every field), `plan-example` (data-example); `plan-field-error` (data-field, data-error-kind), `plan-error`
 * (data-error-kind), `plan-status` (data-request: the request planned, as JSON); `plan-front` (the table) with `plan-row`s and the plot `plan-plot` with
 * `plan-point`s (each data-index, data-layout, data-write, data-read, data-bytes; `aria-selected` on the chosen one),
 * `plan-certificate` (data-kind, data-count), `plan-detail` (data-index, data-layout) with a `plan-side` per side
 * (data-role, data-instruction, data-wavefronts, data-phases, data-conflicts) holding its picture `plan-banks`
 * (data-role, data-layout, data-conflicted: an SVG up to 4,096 cells, else the memory panel's canvas `plan-canvas`
 * with its `plan-hover` line) and its `plan-export-<role>-svg` / `-tikz` buttons, or a `plan-no-banks` note.
 */
import { LayoutError } from '../algebra/errors.js';
import { withDeadline } from '../algebra/deadline.js';
import { size } from '../algebra/layout.js';
import { dtypeNames } from '../descriptors/dtype.js';
import { DEFAULT_MACHINE, MACHINE_NAMES } from '../memory/machines.js';
import { loadPlanView, MAX_PLAN_PICTURE, planEntryView, planSideText, planTileText, type PlanEntryView, type PlanSideView } from '../ops/plan-view.js';
import { formatPlan } from '../ops/planner.js';
import { loadOp, runOpDirect, type OpContext } from '../ops/table.js';
import type { PlanEntry, PlanResult } from '../planner/plan.js';
import { bankSvg, bankTikz, type BankLabel } from '../render/banks.js';
import { MAX_SHOW } from '../render/grid.js';
import { fill, h, s } from './dom.js';
import { exportButtons } from './export.js';
import { bankCanvas } from './memory-panel.js';
import { showInlineError } from './inline-check.js';

/** A pair to plan, one click each (docs/planner.md's worked conversion, the README's pair, an epilogue). */
interface PlanExample {
  readonly id: string;
  readonly title: string;
  readonly tile: string;
  readonly dtype: string;
  readonly arch: string;
  readonly write: string;
  readonly read: string;
}

const LL = (reg: string, lane: string): string =>
  JSON.stringify({ ll: `DistributedLinearLayout(reg_bases=${reg}, lane_bases=${lane}, warp_bases=[], block_bases=[], shape=[16, 16])` });

const PLAN_EXAMPLES: readonly PlanExample[] = [
  {
    id: 'swizzletest-16x16',
    title: "16×16 bf16, blocked → mma (Triton's SwizzleTest)",
    tile: '16x16',
    dtype: 'bfloat16_t',
    arch: 'sm80',
    write: LL('[[0, 1], [0, 2], [0, 4]]', '[[0, 8], [1, 0], [2, 0], [4, 0], [8, 0]]'),
    read: LL('[[0, 1], [8, 0], [0, 8]]', '[[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]'),
  },
  {
    id: 'readme-128x64',
    title: '128×64 fp16, rows → MMA fragments (the README)',
    tile: '128x64',
    dtype: 'half_t',
    arch: 'sm90',
    write: '((8,16),(8,8)):((1024,1),(128,16))',
    read: '((8,4,4),(8,2,4)):((1,1024,8),(128,4096,32))',
  },
  {
    id: 'epilogue-tma',
    title: '128×128 fp32 epilogue → TMA store',
    tile: '128x128',
    dtype: 'float',
    arch: 'sm90',
    write: '((4,32),(4,4,8)):((512,1),(128,32,2048))',
    read: 'tma',
  },
];

const FIRST = PLAN_EXAMPLES[0]!;

/** plan_smem needs no backend: a context that says so if one is ever asked for. */
const CTX: OpContext = { backendChoice: 'cpu', backend: () => Promise.reject(new LayoutError('bad-request', 'plan_smem uses no backend')) };

/** The longest a plan runs on the page before it answers `timeout`. */
const PLAN_MS = 30_000;

const kindOf = (e: unknown): string => (e instanceof LayoutError ? e.kind : 'internal');
const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

const errorLine = (id: string, e: unknown): HTMLElement =>
  h('p', { class: 'inline-error', 'data-testid': id, 'data-error-kind': kindOf(e) }, h('span', { class: 'kind' }, kindOf(e)), ' ', messageOf(e));

const field = (label: string, input: HTMLElement, wide = false, ...more: HTMLElement[]): HTMLElement =>
  h('div', { class: wide ? 'field wide' : 'field' }, h('label', {}, label), input, ...more);

/** A side's figures as the CLI's table writes them: `st.shared.128 4/4` (instruction, wavefronts/phases). */
const sideCell = (p: PlanEntry['write']): string =>
  `${p.instruction}${p.instruction.endsWith('shared') ? `.${8 * p.vectorBytes}` : ''} ${p.wavefronts}/${p.phases}`;

/** The family column: the family, and what the descriptors accept of the layout (`swizzle (tma, K B128)`). */
const familyCell = (x: PlanEntry): string => x.family + (x.tma || x.gmma ? ` (${[x.tma ? 'tma' : '', x.gmma ?? ''].filter((t) => t !== '').join(', ')})` : '');

/** An entry of the answer by its key (1, 2, … or `triton`). */
function entryAt(r: PlanResult, key: string): PlanEntry | null {
  if (key === 'triton') return r.triton;
  const i = Number(key);
  return Number.isInteger(i) && i >= 1 && i <= r.front.length ? r.front[i - 1]! : null;
}

/** The attributes every entry's row and point carry. */
const entryAttrs = (key: string, x: PlanEntry, chosen: boolean): Record<string, string> => ({
  'data-index': key,
  'data-layout': x.layout,
  'data-write': String(x.write.wavefronts),
  'data-read': String(x.read.wavefronts),
  'data-bytes': String(x.bytes),
  'aria-selected': String(chosen),
});

/** The front as the CLI's table (a row per entry, Triton's last); a row is a button that chooses its entry. */
function frontTable(r: PlanResult, chosen: string, choose: (key: string) => void): HTMLElement {
  const head = ['#', 'write (wavefronts/phases)', 'read (wavefronts/phases)', 'bytes', 'family', 'layout'];
  const rows: [string, PlanEntry][] = r.front.map((x, i) => [String(i + 1), x]);
  if (r.triton) rows.push(['triton', r.triton]);
  const body = rows.map(([key, x]) => {
    const tr = h(
      'tr',
      { 'data-testid': 'plan-row', ...entryAttrs(key, x, key === chosen), tabindex: '0', role: 'button', class: key === chosen ? 'chosen' : undefined },
      h('td', {}, key),
      h('td', {}, h('code', {}, sideCell(x.write))),
      h('td', {}, h('code', {}, sideCell(x.read))),
      h('td', {}, String(x.bytes)),
      h('td', {}, familyCell(x)),
      h('td', {}, h('code', {}, x.layout)),
    );
    tr.addEventListener('click', () => choose(key));
    tr.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' || ev.key === ' ') {
        ev.preventDefault();
        choose(key);
      }
    });
    return tr;
  });
  return h(
    'div',
    { class: 'plan-table-box' },
    h('table', { class: 'plan-front', 'data-testid': 'plan-front' }, h('thead', {}, h('tr', {}, ...head.map((t) => h('th', {}, t)))), h('tbody', {}, ...body)),
  );
}

const PLOT = { w: 330, h: 240, left: 48, right: 14, top: 14, bottom: 40 };

/**
 * The front as a plot of write (across) against read (up) wavefronts: a circle per entry labelled with its rank,
 * Triton's layout a diamond; entries at the same wavefronts are drawn side by side about their point.
 */
function frontPlot(r: PlanResult, chosen: string, choose: (key: string) => void): SVGSVGElement {
  const all: [string, PlanEntry][] = r.front.map((x, i) => [String(i + 1), x]);
  if (r.triton) all.push(['triton', r.triton]);
  const maxW = Math.max(1, ...all.map(([, x]) => x.write.wavefronts));
  const maxR = Math.max(1, ...all.map(([, x]) => x.read.wavefronts));
  const pw = PLOT.w - PLOT.left - PLOT.right;
  const ph = PLOT.h - PLOT.top - PLOT.bottom;
  const X = (v: number): number => PLOT.left + (v / maxW) * pw * 0.9;
  const Y = (v: number): number => PLOT.top + ph - (v / maxR) * ph * 0.9;
  const svg = s('svg', {
    class: 'plan-plot',
    'data-testid': 'plan-plot',
    width: PLOT.w,
    height: PLOT.h,
    viewBox: `0 0 ${PLOT.w} ${PLOT.h}`,
    role: 'img',
    'aria-label': 'the front: write against read wavefronts',
  });
  const x0 = PLOT.left;
  const y0 = PLOT.top + ph;
  svg.append(
    s('line', { x1: x0, y1: y0, x2: x0 + pw, y2: y0, class: 'axis-line' }),
    s('line', { x1: x0, y1: y0, x2: x0, y2: PLOT.top, class: 'axis-line' }),
    s('text', { x: x0 + pw / 2, y: PLOT.h - 6, 'text-anchor': 'middle', class: 'axis-label' }, 'write wavefronts'),
    s(
      'text',
      { x: 12, y: PLOT.top + ph / 2, 'text-anchor': 'middle', class: 'axis-label', transform: `rotate(-90 12 ${PLOT.top + ph / 2})` },
      'read wavefronts',
    ),
  );
  for (const [v, at] of [
    [0, x0],
    [maxW, X(maxW)],
  ] as const)
    svg.append(s('text', { x: at, y: y0 + 16, 'text-anchor': 'middle', class: 'axis-tick' }, String(v)));
  for (const [v, at] of [
    [0, y0],
    [maxR, Y(maxR)],
  ] as const)
    svg.append(s('text', { x: x0 - 6, y: at + 4, 'text-anchor': 'end', class: 'axis-tick' }, String(v)));
  // the entries at one point, side by side
  const groups = new Map<string, string[]>();
  for (const [key, x] of all) {
    const g = `${x.write.wavefronts}/${x.read.wavefronts}`;
    groups.set(g, [...(groups.get(g) ?? []), key]);
  }
  for (const [key, x] of all) {
    const g = groups.get(`${x.write.wavefronts}/${x.read.wavefronts}`)!;
    const k = g.indexOf(key);
    const cx = X(x.write.wavefronts) + (k - (g.length - 1) / 2) * 16;
    const cy = Y(x.read.wavefronts);
    const on = key === chosen;
    const triton = key === 'triton';
    const mark = triton
      ? s('rect', { x: cx - 6, y: cy - 6, width: 12, height: 12, transform: `rotate(45 ${cx} ${cy})`, class: 'mark triton' })
      : s('circle', { cx, cy, r: 7, class: 'mark' });
    const label = triton ? 'Triton' : key;
    const title = `${triton ? "Triton's layout" : `entry ${key}`}: ${x.layout}; write ${x.write.wavefronts}, read ${x.read.wavefronts} wavefronts, ${x.bytes} bytes`;
    const pt = s(
      'g',
      { 'data-testid': 'plan-point', ...entryAttrs(key, x, on), class: on ? 'plan-point chosen' : 'plan-point', tabindex: '0', role: 'button' },
      s('title', {}, title),
      mark,
      triton
        ? s('text', { x: cx, y: cy - 11, 'text-anchor': 'middle', class: 'point-label' }, label)
        : s('text', { x: cx, y: cy + 3.5, 'text-anchor': 'middle', class: 'point-label' }, label),
    );
    pt.addEventListener('click', () => choose(key));
    pt.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' || ev.key === ' ') {
        ev.preventDefault();
        choose(key);
      }
    });
    svg.append(pt);
  }
  return svg;
}

/** Most cells a bank picture draws as SVG (as the page's layout pictures); beyond, memory-panel.ts's canvas. */
const MAX_SVG = 4096;

/** A side's bank picture on the entry's layout: an SVG (render/banks.ts) for a small tile, else the memory panel's
 *  canvas, with Save SVG / TikZ; null for a descriptor side or a tile too large to draw. */
function bankPicture(view: PlanEntryView, side: PlanSideView, layout: string, label: BankLabel): HTMLElement | null {
  const { picture } = view;
  const b = side.banks;
  if (picture === null || b === null) return null;
  const box = h('div', {
    class: 'plan-banks',
    'data-testid': 'plan-banks',
    'data-role': side.role,
    'data-layout': layout,
    'data-conflicted': String(side.conflicted),
  });
  const opts = { label, accessors: b.accessors };
  const n = picture.offsets.length;
  if (n <= MAX_SVG) {
    const doc = new DOMParser().parseFromString(bankSvg(picture, b.bank, b.ways, side.caption, opts), 'image/svg+xml');
    box.append(document.importNode(doc.documentElement, true));
  } else {
    const hover = h('div', { class: 'hover-line', 'data-testid': 'plan-hover', 'data-role': side.role });
    const map = { bank: b.bank, ways: b.ways };
    box.append(bankCanvas({ m: view.grid, pic: picture, map, acc: b.accessors, label, fit: true, testid: 'plan-canvas' }, hover), hover);
  }
  if (n <= MAX_SHOW) {
    box.append(
      exportButtons(`plan-export-${side.role}`, {
        base: `banks-${side.role}`,
        svg: () => bankSvg(picture, b.bank, b.ways, side.caption, opts),
        tikz: () => bankTikz(picture, b.bank, b.ways, opts),
      }),
    );
  }
  return box;
}

/** A side's figures (the op's answer for the entry) and its bank picture on the entry's layout. */
function sideBox(p: PlanEntry['write'], view: PlanEntryView, side: PlanSideView, layout: string, label: BankLabel): HTMLElement {
  const role = side.role;
  const rows: [string, string][] = [
    ['instruction', p.instruction],
    ['bytes a thread', String(p.vectorBytes)],
    ['instructions', String(p.instructions)],
    ['phases', String(p.phases)],
    ['wavefronts', `${p.wavefronts}${p.wavefronts === p.phases ? ' (conflict-free)' : ` (${p.conflicts} extra)`}`],
  ];
  const table = h('table', { class: 'mem-table' }, ...rows.map(([k, v]) => h('tr', {}, h('th', {}, k), h('td', {}, v))));
  const unit = p.instruction === 'tma' ? 'box' : 'k-block';
  const why =
    side.price === null && view.picture !== null
      ? `${side.what} moves the tile without the banks: no bank picture (${p.instructions} ${unit}${p.instructions === 1 ? '' : 's'})`
      : `${size(view.grid)} cells: too many to draw (at most ${MAX_PLAN_PICTURE})`;
  const picture = bankPicture(view, side, layout, label) ?? h('p', { class: 'placeholder', 'data-testid': 'plan-no-banks', 'data-role': role }, why);
  return h(
    'div',
    {
      class: 'plan-side',
      'data-testid': 'plan-side',
      'data-role': role,
      'data-instruction': p.instruction,
      'data-wavefronts': String(p.wavefronts),
      'data-phases': String(p.phases),
      'data-conflicts': String(p.conflicts),
    },
    h('h3', {}, `${role === 'write' ? 'Write' : 'Read'} side: `, h('code', {}, side.what)),
    table,
    picture,
  );
}

/** Build the panel into `host` (a card of the page). */
export function mountPlannerPanel(host: HTMLElement): void {
  const text = (id: string, value: string, placeholder: string): HTMLInputElement =>
    h('input', { type: 'text', class: 'layout-in', 'data-testid': id, spellcheck: 'false', value, placeholder });
  const area = (id: string, value: string, placeholder: string): HTMLTextAreaElement => {
    const t = h('textarea', { rows: '1', class: 'layout-in', 'data-testid': id, spellcheck: 'false', placeholder });
    t.value = value;
    return t;
  };
  const select = (id: string, values: readonly string[], value: string, label = (v: string): string => v): HTMLSelectElement => {
    const el = h('select', { 'data-testid': id }, ...values.map((v) => h('option', { value: v }, label(v))));
    el.value = value;
    return el;
  };
  const tileIn = text('plan-tile', FIRST.tile, 'the tile, e.g. 128x64 or (128,64)');
  const dtypeSel = select('plan-dtype', dtypeNames(), FIRST.dtype);
  const writeIn = area('plan-write', FIRST.write, 'a TV layout, "tma", or JSON: {"ll": …}, {"encoding": …}, a tiled copy, {"mma": …, "operand": "A"}');
  const readIn = area('plan-read', FIRST.read, 'the same forms, or the tensor core: {"wgmma": "K"}, {"umma": "MN"}');
  const archSel = select('plan-arch', MACHINE_NAMES, FIRST.arch, (v) => (v === DEFAULT_MACHINE ? `${v} (the default)` : v));
  const familiesIn = text('plan-families', '', 'swizzle, padded, atoms; or a list: swizzle, linear, padded, atoms');
  const topIn = text('plan-top', '8', 'entries of the front');
  const labelSel = select('plan-label', ['offset', 'tv', 'bank', 'none'], 'offset', (v) =>
    v === 'tv' ? 'thread, value (T5 V2)' : v === 'none' ? 'nothing' : v,
  );
  const entryIn = h('input', { type: 'hidden', 'data-testid': 'plan-entry', value: '1' });
  const errorEl = (f: string): HTMLElement => h('div', { class: 'inline-error', 'data-testid': 'plan-field-error', 'data-field': f, hidden: '' });
  const errs = { tile: errorEl('tile'), write: errorEl('write'), read: errorEl('read'), top: errorEl('top') };
  const examples = PLAN_EXAMPLES.map((x) => {
    const b = h('button', { type: 'button', class: 'ghost small', 'data-testid': 'plan-example', 'data-example': x.id }, x.title);
    b.addEventListener('click', () => {
      tileIn.value = x.tile;
      dtypeSel.value = x.dtype;
      archSel.value = x.arch;
      writeIn.value = x.write;
      readIn.value = x.read;
      familiesIn.value = '';
      for (const el of [tileIn, dtypeSel, archSel, writeIn, readIn, familiesIn]) el.dispatchEvent(new Event('change', { bubbles: true }));
    });
    return b;
  });
  const status = h('p', { class: 'muted', 'data-testid': 'plan-status' });
  const errorOut = h('div', {});
  const certificate = h('p', {});
  const frontOut = h('div', { class: 'plan-front-row' });
  const detailOut = h('div', {});
  fill(
    host,
    h('h2', {}, 'Planner: the shared-memory layout for a write and a read side'),
    h(
      'p',
      { class: 'hint' },
      'Every candidate of the families priced on both sides with the bank model (',
      h('code', {}, 'plan_smem'),
      ', as ',
      h('code', {}, 'layoutgpu plan'),
      ' runs it): the Pareto front over (write wavefronts, read wavefronts, bytes), its certificate, and the layout Triton builds. ' +
        'Choose an entry for its banks.',
    ),
    h('div', { class: 'plan-examples' }, h('span', { class: 'muted' }, 'Examples:'), ...examples),
    h(
      'div',
      { class: 'plan-inputs' },
      field('Tile', tileIn, false, errs.tile),
      field('Element type', dtypeSel),
      field('Machine (--arch)', archSel),
      field('Families', familiesIn),
      field('Top', topIn, false, errs.top),
      field('Cells show', labelSel),
      field('Write side', writeIn, true, errs.write),
      field('Read side', readIn, true, errs.read),
    ),
    entryIn,
    status,
    errorOut,
    certificate,
    frontOut,
    detailOut,
  );

  /** the request as `layoutgpu plan` builds it from its options; a field's error is shown under it */
  const request = (): Record<string, unknown> | null => {
    let ok = true;
    const read = <T>(f: keyof typeof errs, input: HTMLInputElement | HTMLTextAreaElement, get: () => T): T | undefined => {
      try {
        const v = get();
        showInlineError(errs[f], input, input.value, null);
        return v;
      } catch (e) {
        ok = false;
        showInlineError(errs[f], input, input.value, e instanceof LayoutError ? e : new LayoutError('bad-request', messageOf(e)));
        return undefined;
      }
    };
    const req: Record<string, unknown> = {
      tile: read('tile', tileIn, () => planTileText(tileIn.value)),
      dtype: dtypeSel.value,
      write: read('write', writeIn, () => planSideText(writeIn.value, 'write')),
      read: read('read', readIn, () => planSideText(readIn.value, 'read')),
      arch: archSel.value,
    };
    const families = familiesIn.value.split(/[\s,]+/).filter((f) => f !== '');
    if (families.length > 0) req.families = families;
    const top = read('top', topIn, () => {
      const t = topIn.value.trim();
      if (t === '') return undefined;
      if (!/^\d+$/.test(t)) throw new LayoutError('bad-request', `top must be a positive integer, got '${t.slice(0, 24)}'`);
      return Number(t);
    });
    if (top !== undefined) req.top = top;
    return ok ? req : null;
  };

  let current: { req: Record<string, unknown>; result: PlanResult; note: string } | null = null;
  let generation = 0;
  let timer = 0;

  /** the entry chosen, drawn: its row and point marked, both sides' figures and banks */
  const showEntry = (): void => {
    if (current === null) return;
    const { req, result } = current;
    let key = entryIn.value;
    if (entryAt(result, key) === null) key = '1';
    const x = entryAt(result, key)!;
    for (const el of host.querySelectorAll<Element>('[data-testid="plan-row"], [data-testid="plan-point"]')) {
      const on = el.getAttribute('data-index') === key;
      el.setAttribute('aria-selected', String(on));
      el.classList.toggle('chosen', on);
    }
    try {
      const view = planEntryView(req, x.layout);
      const label = labelSel.value as BankLabel;
      const name = key === 'triton' ? "Triton's layout" : `Entry ${key}`;
      const facts = `${x.family}, ${x.bytes} bytes; tma ${x.tma ? 'yes' : 'no'}; wgmma/umma ${x.gmma ?? 'no'}`;
      fill(
        detailOut,
        h(
          'div',
          { class: 'plan-detail', 'data-testid': 'plan-detail', 'data-index': key, 'data-layout': x.layout },
          h('h3', {}, `${name}: `, h('code', {}, x.layout)),
          h('p', { class: 'muted' }, facts),
          h('div', { class: 'plan-sides' }, sideBox(x.write, view, view.sides[0]!, x.layout, label), sideBox(x.read, view, view.sides[1]!, x.layout, label)),
        ),
      );
    } catch (e) {
      fill(detailOut, errorLine('plan-error', e));
    }
  };

  const choose = (key: string): void => {
    entryIn.value = key;
    entryIn.dispatchEvent(new Event('change', { bubbles: true }));
  };

  const clearResult = (): void => {
    current = null;
    for (const el of [certificate, frontOut, detailOut, errorOut]) fill(el);
  };

  const run = async (): Promise<void> => {
    const g = ++generation;
    const req = request();
    if (req === null) {
      clearResult();
      fill(status);
      return;
    }
    const key = JSON.stringify(req);
    if (current !== null && JSON.stringify(current.req) === key) {
      // the plan shown is this request's (a run begun since, for another, is left)
      fill(status, current.note);
      status.dataset['request'] = key;
      return;
    }
    fill(status, 'planning…');
    delete status.dataset['request'];
    try {
      await loadOp('plan_smem');
      await loadPlanView();
      await new Promise((ok) => setTimeout(ok, 0)); // the status is drawn before the plan takes the thread
      if (g !== generation) return;
      const t0 = performance.now();
      const r = withDeadline(PLAN_MS, () => runOpDirect('plan_smem', [req], CTX));
      const result = (r instanceof Promise ? await r : r) as unknown as PlanResult;
      if (g !== generation) return;
      const secs = ((performance.now() - t0) / 1000).toFixed(2);
      const count = Object.values(result.searched).reduce((a, b) => a + b, 0);
      const note = `${count} candidates priced in ${secs} s`;
      fill(status, note);
      status.dataset['request'] = key;
      fill(errorOut);
      current = { req, result, note };
      const lines = formatPlan(result).split('\n');
      const cert = lines.find((l) => l.startsWith('certificate:')) ?? '';
      const triton = lines.find((l) => l.startsWith('triton: none'));
      fill(
        certificate,
        h('span', { 'data-testid': 'plan-certificate', 'data-kind': result.certificate.kind, 'data-count': String(result.certificate.count) }, cert),
        triton ? h('span', { class: 'muted' }, ` · ${triton}`) : null,
      );
      const chosen = entryAt(result, entryIn.value) === null ? '1' : entryIn.value;
      fill(frontOut, frontPlot(result, chosen, choose), frontTable(result, chosen, choose));
      showEntry();
    } catch (e) {
      if (g !== generation) return;
      clearResult();
      fill(status);
      fill(errorOut, errorLine('plan-error', e));
    }
  };

  /** a field of the request changed: a new plan once typing pauses (the entry chosen is kept by its rank) */
  const edited = (): void => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => void run(), 250);
  };
  for (const el of [tileIn, writeIn, readIn, familiesIn, topIn]) el.addEventListener('input', edited);
  for (const el of [tileIn, dtypeSel, archSel, writeIn, readIn, familiesIn, topIn]) el.addEventListener('change', edited);
  entryIn.addEventListener('change', showEntry);
  entryIn.addEventListener('input', showEntry);
  labelSel.addEventListener('change', showEntry);
  void run();
}
