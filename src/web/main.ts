/**
 * The browser demo of layoutgpu. Every operation goes through the ops table (src/ops/table.ts), the
 * same one the CLI and `batch` use; the pictures share the CLI's grid grouping (gridShape);
 * the GPU checks run the engine (src/engine/) on navigator.gpu's device.
 *
 * Nothing the user types is ever inserted as HTML: all text goes in through textContent.
 */
import { LayoutError } from '../algebra/errors.js';
import { innerLayout, type LayoutFunction } from '../cute/composed.js';
import { mode, rank, size, type Layout } from '../algebra/layout.js';
import { formatTuple } from '../algebra/notation.js';
import { isByMode, tileUnzip, type Tiler } from '../cute/tiler.js';
import { opsByName, ops, runOpDirect, type Json, type OpContext, type OpSpec } from '../ops/table.js';
import { PAGE_GROUPS } from '../ops/spec.js';
import { isComposedText, readField, readLayout, readLayoutFunction, readTiler } from '../ops/args.js';
import { byId, fill, h } from './dom.js';
import { EXAMPLES } from './examples.js';
import { Engines } from './gpu-device.js';
import { adapterLineEl, checkOn, lostLineEl, outcomeCard, type CheckName } from './gpu-panel.js';
import { offsetsOf, type Picture } from '../render/grid.js';
import { composedPicture } from '../render/composed.js';
import { svgPicture } from '../render/svg.js';
import { tikzPicture } from '../render/tikz.js';
import { exportButtons } from './export.js';
import { modeTiling, permutationTiling, tileCoordIn, type Tiling } from '../render/tiles.js';
import { drawLayout, MAX_CANVAS_CELLS } from './picture.js';
import { mountMemoryPanel } from './memory-panel.js';
import { setUrlParam } from './url-state.js';
import { mountPanel, type Panel } from './panels.js';
import { exampleText, extraArgs, formula, type Extra } from './op-form.js';
import { showInlineError } from './inline-check.js';

// ---------------------------------------------------------------------------------------------
// state and the address bar

interface State {
  layout: string;
  op: string;
  layout2: string;
  arg: string;
}

const DEFAULT: State = { layout: '(4,8):(1,4)', op: 'logical_divide', layout2: '(2,2):(1,4)', arg: '' };

function readUrl(): State {
  const q = new URLSearchParams(location.search);
  const layout = q.get('layout');
  if (layout === null) return { ...DEFAULT, op: q.get('op') ?? DEFAULT.op };
  return { layout, op: q.get('op') ?? 'coalesce', layout2: q.get('layout2') ?? '', arg: q.get('arg') ?? '' };
}

/** The main cards' keys of the address (the panels' keys are kept: web/url-state.ts). */
function writeUrl(st: State): void {
  setUrlParam('layout', st.layout);
  setUrlParam('op', st.op);
  setUrlParam('layout2', st.layout2 || null);
  setUrlParam('arg', st.arg || null);
}

// ---------------------------------------------------------------------------------------------
// elements

const input1 = byId<HTMLInputElement>('layout-input');
const input2 = byId<HTMLInputElement>('layout-input-2');
const argInput = byId<HTMLInputElement>('arg-input');
const opSel = byId<HTMLSelectElement>('op');
const resultEl = byId<HTMLOutputElement>('result');
const banner = byId('banner');

const cpuCtx: OpContext = { backendChoice: 'cpu', backend: async () => engines.cpu };
const engines = new Engines();

/** The chooser: the rows of each of the page's groups (their `page`), in the table's order, then "More"; the bulk
 *  checks (`page: 'check'`) are the GPU card's buttons. */
function buildOpChooser(): void {
  const add = (label: string, specs: readonly OpSpec[]): void => {
    const group = h('optgroup', { label });
    for (const o of specs) group.append(h('option', { value: o.name }, `${o.name.replace(/_/g, ' ')}${o.symbol ? `  ${o.symbol}` : ''}`));
    if (group.childElementCount) opSel.append(group);
  };
  for (const label of PAGE_GROUPS)
    add(
      label,
      ops.filter((o) => o.page === label),
    );
  add(
    'More',
    ops.filter((o) => o.page === undefined),
  );
}

/** Whether the chooser offers op `name` (a row of the table, not one of the GPU card's checks). */
const offered = (name: string): boolean => {
  const page = opsByName.get(name)?.page;
  return opsByName.has(name) && page !== 'check';
};

// ---------------------------------------------------------------------------------------------
// the page's update: everything is recomputed from the state on each keystroke

function errorOf(e: unknown): LayoutError {
  return e instanceof LayoutError ? e : new LayoutError('bad-request', e instanceof Error ? e.message : String(e));
}

function run(name: string, raw: string[]): Json {
  const r = runOpDirect(name, raw, cpuCtx, true);
  if (r instanceof Promise) throw new LayoutError('bad-request', 'asynchronous op');
  return r;
}

function tryRun(name: string, raw: string[]): Json | LayoutError {
  try {
    return run(name, raw);
  } catch (e) {
    return errorOf(e);
  }
}

function showFacts(text: string, ok: boolean): void {
  const el = byId('facts');
  if (!ok) {
    el.replaceChildren();
    return;
  }
  const chips: HTMLElement[] = [];
  // the rows with a chip among the facts (their `fact`), in the table's order
  for (const { name: op, fact: label } of ops) {
    if (label === undefined) continue;
    const v = tryRun(op, [text]);
    if (v instanceof LayoutError) continue;
    const isBool = typeof v === 'boolean';
    const chip = h(
      'button',
      { type: 'button', class: `fact ${isBool ? (v ? 'yes' : 'no') : 'num'}`, 'data-fact': op, title: `${opsByName.get(op)!.summary} (click to choose it)` },
      isBool ? h('span', { class: 'mark' }, v ? '✓' : '✗') : h('span', { class: 'k' }, label),
      isBool ? ` ${label}` : h('span', { class: 'v' }, String(v)),
    );
    chip.addEventListener('click', () => {
      opSel.value = op;
      update();
    });
    chips.push(chip);
  }
  fill(el, ...chips);
}

/** tile and entry of each index of A under A ⊘ T: with I the column-major layout of A's shape
 *  (Φ_I is the identity on indices), Z = zipped_divide(I, T) maps x = entry + size(tile)·tile
 *  to the index of A it divides to (Def. 2.3.8.1, Remark 2.3.8.3; by mode for a tiler) */
function divisionTiles(aText: string, tText: string): Tiling | null {
  try {
    const a = readLayout(aText);
    const n = size(a);
    if (n > MAX_CANVAS_CELLS) return null;
    const z = readLayout(run('zipped_divide', [formatTuple(a.shape), tText]) as string);
    return tilesOfPermutation(z);
  } catch {
    return null;
  }
}

/** for Z = (tile, rest) whose Φ permutes [0, size): index Φ_Z(x) is entry x mod size(tile) of
 *  tile ⌊x / size(tile)⌋ */
function tilesOfPermutation(z: Layout): Tiling {
  const offsets = offsetsOf(z);
  return permutationTiling(size(z), size(mode(z, 1)), (x) => offsets[x]!, rank(z) >= 2 ? tileCoordIn(mode(z, 2)) : undefined);
}

function resultTilesFor(op: string, r: Layout, tText: string): Tiling | null {
  // the ops whose result pictures are coloured by tile (their `tiling`, docs/semantics.md §8.3): mode 1 of a zipped or
  // tiled result is the tile; a logical divide or product by a by-mode tiler is unzipped first
  if (!opsByName.get(op)?.tiling?.result) return null;
  try {
    if (op === 'logical_divide' || op === 'logical_product') {
      const t: Tiler = readTiler(tText);
      if (isByMode(t)) return tilesOfPermutation(tileUnzip(op, readLayout(formatTuple(r.shape)), t));
    }
    return resultTiles(r);
  } catch {
    return null;
  }
}

/** tiles of a result R = A ⊘ B or A ⊗ B: mode 1 is the tile, mode 2 which tile */
const resultTiles = (r: Layout): Tiling => modeTiling(r);

function state(): State {
  return { layout: input1.value, op: opSel.value, layout2: input2.value, arg: argInput.value };
}

function setResult(value: Json | LayoutError | null, pending?: string): void {
  resultEl.className = '';
  delete resultEl.dataset['errorKind'];
  resultEl.removeAttribute('role');
  resultEl.removeAttribute('tabindex');
  resultEl.removeAttribute('title');
  const actions = byId('result-actions');
  actions.replaceChildren();
  if (pending !== undefined) {
    resultEl.className = 'pending';
    resultEl.textContent = pending;
    return;
  }
  if (value instanceof LayoutError) {
    resultEl.className = 'error';
    resultEl.dataset['errorKind'] = value.kind;
    resultEl.textContent = value.message;
    return;
  }
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  resultEl.textContent = text;
  resultEl.dataset['type'] = typeof value;
  if (typeof value === 'boolean') resultEl.className = value ? 'bool yes' : 'bool no';
  const asLayout = typeof value === 'string' ? readField(value, 'result').layout : null;
  if (asLayout) {
    resultEl.className = 'layout clickable';
    resultEl.setAttribute('role', 'button');
    resultEl.setAttribute('tabindex', '0');
    resultEl.title = 'click to make this the layout L';
    const useAs = (target: HTMLInputElement, label: string, testid: string): HTMLButtonElement => {
      const b = h('button', { type: 'button', class: 'ghost small', 'data-testid': testid }, label);
      b.addEventListener('click', () => {
        target.value = text;
        update();
        target.focus();
      });
      return b;
    };
    actions.append(useAs(input1, 'use as L', 'use-result'), useAs(input2, 'use as L₂', 'use-result-2'));
  }
}

function update(): void {
  const st = state();
  writeUrl(st);
  const spec = opsByName.get(st.op);
  const extra = spec ? extraArgs(spec) : {};

  // labels follow the op's argument names (compose is B∘A: L is B, L₂ is A)
  const a0 = spec?.args[0]?.name ?? 'L';
  fill(byId('l1-label'), 'Layout ', h('var', {}, a0));
  byId('l2-field').hidden = !extra.layout2;
  if (extra.layout2) {
    const tiler = extra.layout2.kind === 'tiler';
    fill(byId('l2-label'), tiler ? 'Tiler ' : 'Second layout ', h('var', {}, extra.layout2.name), extra.layout2.optional ? ' (optional)' : '');
    input2.placeholder = tiler ? 'a layout, a shape (32,16), <3:4,_> or _' : 'e.g. (2,2):(1,4)';
  }
  byId('arg-field').hidden = !extra.arg;
  if (extra.arg) {
    const a = extra.arg;
    const hint = extra.more
      ? `${extra.more.length} integers, e.g. 0 16`
      : a.kind === 'int'
        ? 'an integer'
        : a.kind === 'tuple'
          ? 'a tuple, e.g. (4,(9,25))'
          : a.kind === 'coord'
            ? 'a coordinate, e.g. (1,(2,0))'
            : a.kind === 'profile'
              ? 'a profile, e.g. (*,(*,*))'
              : a.name === 'O'
                ? 'col, row or an order, e.g. (1,0)'
                : a.name === 'C'
                  ? 'a coordinate with _, e.g. (_,(1,_))'
                  : a.kind;
    fill(byId('arg-label'), h('var', {}, a.name), a.optional ? ' (optional)' : '');
    argInput.placeholder = hint;
  }
  byId('op-summary').textContent = spec?.summary ?? '';
  byId('result-formula').textContent = formula(st.op, spec, st, extra);

  // the main layout: inline error, facts, picture
  // one outcome per input: the inline check accepts what the op accepts (any size, composed)
  const p1 = readField(st.layout, a0, spec?.args[0] && { op: st.op, arg: spec.args[0] });
  showInlineError(byId('l1-error'), input1, st.layout, p1.error);
  const p2 = extra.layout2 ? readField(st.layout2, extra.layout2.name, { op: st.op, arg: extra.layout2 }) : { layout: null, error: null };
  showInlineError(byId('l2-error'), input2, st.layout2, p2.error);
  // a layout beyond 2^53 − 1 still has facts (size, cosize, rank…): those that refuse are left out
  showFacts(st.layout, p1.layout !== null || (p1.error === null && st.layout.trim() !== ''));

  // the operation, through the ops table
  const value = runCurrentOp(st, spec, extra, p1.error);
  const resultLayout = typeof value === 'string' && st.op !== 'parse' ? readField(value, 'result').layout : null;

  // the pictures: at once when small, else once typing pauses (thousands of cells take a while)
  window.clearTimeout(drawTimer);
  const cost = (l: Layout | null): number => (l && size(l) <= MAX_CANVAS_CELLS ? size(l) : 0);
  const draw = (): void => {
    drawMain(st, extra, p1.layout, p1.error, p2.error === null && st.layout2.trim() !== '');
    drawResult(st, value, resultLayout);
  };
  if (cost(p1.layout) + cost(resultLayout) > SYNC_CELLS) {
    fill(byId('picture'), h('p', { class: 'placeholder' }, 'drawing…'));
    byId('result-box').hidden = true;
    drawTimer = window.setTimeout(draw, 160);
  } else draw();
}

/** cells drawn synchronously on a keystroke; larger pictures wait for a pause */
const SYNC_CELLS = 1024;
let drawTimer = 0;

function drawMain(st: State, extra: Extra, l: Layout | null, err: LayoutError | null, has2: boolean): void {
  const pic = byId('picture');
  const hover = byId('hover');
  if (l) {
    const a0 = opsByName.get(st.op)?.args[0]?.name ?? 'L';
    const divides = opsByName.get(st.op)?.tiling?.argument === true;
    const tiled = divides && has2 ? divisionTiles(st.layout, st.layout2) : null;
    hover.dataset['idle'] = tiled
      ? `${a0} tiled by ${extra.layout2?.name ?? 'B'}: colour = tile, opacity = entry of the tile (hover a cell)`
      : 'hover a cell for its index, coordinate and offset';
    hover.textContent = hover.dataset['idle'];
    fill(pic, drawLayout(l, { testid: 'cell', hover, caption: `picture of ${st.layout}`, ...(tiled ?? {}) }), ...pictureExports(l, tiled));
  } else if (isComposedText(st.layout) && composedOrNull(st.layout)) {
    // a composed layout: drawn on its inner layout's grid with the offsets after the swizzle
    hover.dataset['idle'] = 'hover a cell for its index, coordinate and offset (after the swizzle)';
    hover.textContent = hover.dataset['idle'];
    fill(
      pic,
      drawLayout(composedOrNull(st.layout)!, { testid: 'cell', hover, caption: `picture of ${st.layout}` }),
      ...pictureExports(composedOrNull(st.layout)!, null),
    );
  } else {
    const msg = err
      ? 'no picture: the layout does not parse'
      : st.layout.trim()
        ? 'no picture: the layout is larger than 2^53 − 1 cells'
        : 'type a layout to see its picture';
    fill(pic, h('p', { class: 'placeholder' }, msg));
    hover.textContent = '';
  }
}

/** "Save SVG" / "Save TikZ" of the main picture, as `show` writes them (src/render/); none where there is no
 *  picture (a layout too large to draw: drawLayout says so instead) */
function pictureExports(l: LayoutFunction, tiling: Tiling | null): HTMLElement[] {
  if (size(innerLayout(l)) > MAX_CANVAS_CELLS) return [];
  const make = (): Picture => composedPicture(l, tiling ? { tiling } : {});
  return [exportButtons('picture-export', { base: 'layout', svg: () => svgPicture(make()), tikz: () => tikzPicture(make()) })];
}

/** the composed layout a text holds, or null (not one, or one the picture cannot draw) */
function composedOrNull(text: string): LayoutFunction | null {
  try {
    return readLayoutFunction(text, 'L');
  } catch {
    return null;
  }
}

/** a picture of a layout result; for ⊘ and ⊗ coloured by tile */
function drawResult(st: State, value: Json | LayoutError | undefined, r: Layout | null): void {
  const box = byId('result-box');
  box.hidden = true;
  if (!r) return;
  const rh = byId('result-hover');
  const tiled = resultTilesFor(st.op, r, st.layout2);
  rh.dataset['idle'] = tiled ? 'colour = tile, opacity = entry of the tile: each column one tile, each row one entry (Remark 2.3.8.3)' : 'the result, pictured';
  rh.textContent = rh.dataset['idle'];
  fill(byId('result-picture'), drawLayout(r, { testid: 'result-cell', hover: rh, caption: `picture of ${String(value)}`, ...(tiled ?? {}) }));
  box.hidden = false;
}

/** runs the chosen op on the inputs and shows the answer; undefined while there is none yet */
function runCurrentOp(st: State, spec: OpSpec | undefined, extra: Extra, parseError: LayoutError | null): Json | LayoutError | undefined {
  if (!spec) {
    setResult(new LayoutError('bad-request', `unknown op '${st.op}'`));
    return undefined;
  }
  const raw: string[] = [st.layout];
  if (extra.layout2) {
    if (st.layout2.trim()) raw.push(st.layout2);
    else if (!extra.layout2.optional) {
      if (parseError) setResult(parseError);
      else setResult(null, `type the second layout ${extra.layout2.name}`);
      return undefined;
    }
  }
  if (extra.arg) {
    if (st.arg.trim()) raw.push(...(extra.more ? st.arg.trim().split(/[\s,]+/) : [st.arg]));
    else if (!extra.arg.optional) {
      if (parseError) setResult(parseError);
      else setResult(null, `type ${extra.arg.name}`);
      return undefined;
    }
  }
  let value: Json | LayoutError;
  try {
    const r = runOpDirect(st.op, raw, cpuCtx, true);
    if (r instanceof Promise) {
      setResult(null, 'running…');
      const key = JSON.stringify(state());
      r.then(
        (v) => JSON.stringify(state()) === key && setResult(v),
        (e: unknown) => JSON.stringify(state()) === key && setResult(errorOf(e)),
      );
      return undefined;
    }
    value = r;
  } catch (e) {
    value = errorOf(e);
  }
  setResult(value);
  return value;
}

// ---------------------------------------------------------------------------------------------
// the GPU panel

const results = byId('gpu-results');
const backendSel = byId<HTMLSelectElement>('backend');
let checkRunning = false;

async function initGpu(): Promise<void> {
  engines.onLost = (why) => lostLineEl(byId('adapter'), why);
  const a = await engines.adapterText();
  adapterLineEl(byId('adapter'), a, engines.webgpu);
  if (!a.ok) {
    backendSel.value = 'cpu';
    (backendSel.querySelector('option[value="gpu"]') as HTMLOptionElement).disabled = true;
    banner.hidden = false;
    fill(
      banner,
      h('strong', {}, engines.webgpu ? 'WebGPU is present, but it gave no adapter.' : 'This browser has no WebGPU.'),
      ' The checks run on the CPU backend (the same engine, as generated JavaScript). ',
      h('span', { class: 'muted' }, a.text),
    );
  } else if (a.software && !/software/i.test(a.text)) {
    byId('adapter').append(h('span', { class: 'chip soft' }, 'software'));
  }
}

function checkArgs(name: CheckName): string[] {
  const l1 = input1.value;
  const l2 = input2.value;
  if (name === 'check_compact') return [l1];
  if (name === 'check_complement' && !l2.trim()) {
    const c = tryRun('complement', [l1]);
    return [l1, typeof c === 'string' ? c : l2];
  }
  return [l1, l2];
}

async function runCheckButton(name: CheckName): Promise<void> {
  if (checkRunning) return;
  checkRunning = true;
  const buttons = document.querySelectorAll<HTMLButtonElement>('[data-check]');
  buttons.forEach((b) => (b.disabled = true));
  const busy = h('div', { class: 'busy', 'data-testid': 'gpu-busy' }, `running ${name.replace(/_/g, ' ')}…`);
  results.prepend(busy);
  try {
    const args = checkArgs(name);
    const wasLost = engines.lostWhy !== null;
    const gpu = backendSel.value === 'gpu' ? await engines.gpu() : null;
    // after a lost device the panel names the new one
    if (wasLost && gpu) adapterLineEl(byId('adapter'), await engines.adapterText(), engines.webgpu);
    const main = gpu ?? engines.cpu;
    const o = await checkOn(name, args, main);
    // the CPU's answer beside a GPU answer: the two backends must agree exactly
    const cpu = main !== engines.cpu ? await checkOn(name, args, engines.cpu) : undefined;
    busy.remove();
    results.prepend(outcomeCard(o, cpu));
    if (o.backend === 'gpu' && o.error?.kind === 'gpu') {
      banner.hidden = false;
      fill(
        banner,
        h('strong', {}, 'The GPU failed on this check.'),
        ' Choose “CPU” under “Run on” to keep checking on the CPU backend. ',
        h('span', { class: 'muted' }, o.error.message),
      );
    }
    while (results.childElementCount > 6) results.lastElementChild?.remove();
  } finally {
    busy.remove();
    checkRunning = false;
    buttons.forEach((b) => (b.disabled = false));
  }
}

// ---------------------------------------------------------------------------------------------
// examples

function buildExamples(): void {
  const ul = byId('examples');
  for (const ex of EXAMPLES) {
    if (!opsByName.has(ex.op)) continue;
    const b = h(
      'button',
      { type: 'button', class: 'example', 'data-testid': 'example' },
      h('span', { class: 'ref' }, ex.ref),
      h('span', { class: 'title' }, ex.title),
      h('code', {}, exampleText(ex)),
    );
    b.addEventListener('click', () => {
      input1.value = ex.layout;
      input2.value = ex.layout2 ?? '';
      argInput.value = ex.arg ?? '';
      opSel.value = ex.op;
      update();
    });
    ul.append(h('li', {}, b));
  }
}

// ---------------------------------------------------------------------------------------------
// the panels (panels.ts): a new one is one more entry

const PANELS: readonly Panel[] = [
  // the memory panel (src/web/memory-panel.ts): a full-width row, so the picture gets the room it needs
  {
    card: 'memory-card',
    make: true,
    mount: (host) =>
      mountMemoryPanel(host, {
        device: async () => ((await engines.gpu()) as unknown as { device?: GPUDevice } | null)?.device ?? null,
        useLayout: (text) => {
          input1.value = text;
          update();
        },
      }),
  },
  { card: 'atoms-card', mount: async (host) => (await import('./atoms-panel.js')).mountAtomsPanel(host) },
  { card: 'linear-card', mount: async (host) => (await import('./linear-panel.js')).mountLinearPanel(host) },
  // the descriptors panel (src/web/descriptors-panel.ts): a full-width row of its own, as the memory panel's
  {
    card: 'descriptors-card',
    make: true,
    mount: async (host) => {
      host.setAttribute('data-testid', 'descriptors-card');
      (await import('./descriptors-panel.js')).mountDescriptorsPanel(host);
    },
  },
  // the planner panel (src/web/planner-panel.ts): a full-width row, its front, plot and both sides' banks
  {
    card: 'planner-card',
    make: true,
    mount: async (host) => {
      host.setAttribute('data-testid', 'planner-card');
      (await import('./planner-panel.js')).mountPlannerPanel(host);
    },
  },
];

// ---------------------------------------------------------------------------------------------
// start

function start(): void {
  buildOpChooser();
  buildExamples();
  const st = readUrl();
  input1.value = st.layout;
  input2.value = st.layout2;
  argInput.value = st.arg;
  opSel.value = offered(st.op) ? st.op : 'coalesce';
  for (const el of [input1, input2, argInput]) el.addEventListener('input', update);
  // the one-line fields are text areas that grow with their text (style.css): Enter adds no line
  document.addEventListener('keydown', (ev) => {
    const t = ev.target;
    if (ev.key === 'Enter' && t instanceof HTMLTextAreaElement && t.rows === 1 && t.classList.contains('layout-in')) ev.preventDefault();
  });
  opSel.addEventListener('change', update);
  resultEl.addEventListener('click', () => {
    if (!resultEl.classList.contains('clickable')) return;
    input1.value = resultEl.textContent ?? '';
    update();
    input1.focus();
  });
  resultEl.addEventListener('keydown', (ev) => {
    if ((ev.key === 'Enter' || ev.key === ' ') && resultEl.classList.contains('clickable')) {
      ev.preventDefault();
      resultEl.click();
    }
  });
  document
    .querySelectorAll<HTMLButtonElement>('[data-check]')
    .forEach((b) => b.addEventListener('click', () => void runCheckButton(b.dataset['check'] as CheckName)));
  byId('copy-link').addEventListener('click', () => {
    const b = byId('copy-link');
    navigator.clipboard?.writeText(location.href).then(
      () => (b.textContent = 'Link copied'),
      () => (b.textContent = 'Copy the address bar'),
    );
    setTimeout(() => (b.textContent = 'Copy link'), 1500);
  });
  update();
  for (const p of PANELS) mountPanel(p);
  document.body.dataset['ready'] = 'true';
  void initGpu();
}

start();
