/**
 * The linear-layout panel of the page (issue 21, "The page"; docs/linear.md, "The bridge to
 * CuTe"): paste a linear layout in any form (JSON, Triton's print, a Gluon repr, `#ttg.linear`)
 * or a `#ttg.` encoding with a shape, and see it as a CuTe layout (`from_ll`) with its picture —
 * each cell of a register layout labelled `T<t> V<v>` with the first (thread, value) holding it
 * and coloured by thread, each cell of a shared layout labelled with its (smallest) offset and
 * filled by its bank; the other way round, paste a CuTe layout and see `to_ll` in Triton's print.
 * The pictures are drawn from the LL itself, so a layout without a CuTe form is pictured too.
 * Stable test hooks: data-testid `ll-input`, `ll-shape`, `ll-elem`, `ll-kind` (data-kind),
 * `ll-cute` (data-layout), `ll-print`, `ll-error` (data-error-kind), `ll-picture` (data-rows,
 * data-cols), `ll-cell` (data-row, data-col, data-thread, data-value, data-holders, data-offset,
 * data-bank); beyond 4,096 cells the canvas `ll-canvas` and its hover line `ll-hover` (canvasPicture);
 * `cute-input`, `cute-kind`, `cute-tile`, `cute-ll` (data-json), `cute-error`.
 */
import { LayoutError } from '../algebra/errors.js';
import { formatLayoutFunction } from '../cute/composed.js';
import { readLayoutFunction } from '../ops/args.js';
import { fromLL, toLL, type BridgeKind } from '../linear/bridge.js';
import { llFromEncoding } from '../linear/encodings.js';
import { parseLL, toCanonicalJson, tritonString } from '../linear/forms.js';
import type { LinearLayout } from '../linear/value.js';
import { BANK_PALETTE } from '../render/banks.js';
import { threadColour } from '../render/tv.js';
import { cellAt, drawAxes, gridView, redrawOnScroll, sizedContext } from './canvas-picture.js';
import { fill, h, s } from './dom.js';

const DEFAULTS = {
  ll: '#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>',
  shape: '16x8',
  cute: 'Sw<3,3,3> o (8,64):(64,1)',
  kind: 'shared',
  tile: '',
};
/** Most cells drawn as SVG (one element each, the test hooks per cell), most cells drawn at all (on a canvas beyond
 *  the SVG's: a 128×64 tile, as the memory panel draws it), and most inputs a picture evaluates. */
const MAX_SVG_CELLS = 4096;
const MAX_CELLS = 1 << 16;
const MAX_INPUTS = 1 << 18;
const CW = 44;
const CH = 28;

/** `128x64`, `128,64` or `[128, 64]` as integers; empty: null. */
function readSizes(text: string, what: string): number[] | null {
  const t = text.trim();
  if (t === '') return null;
  const parts = t.replace(/^\[|\]$/g, '').split(/\s*[x,×]\s*/);
  const xs = parts.map((p) => Number(p));
  if (xs.some((x) => !Number.isSafeInteger(x))) throw new LayoutError('parse', `${what}: expected sizes like 128x64, got '${text}'`);
  return xs;
}

/** Whether the text is an encoding attribute (a `#ttg.` attribute other than linear and shared_linear). */
const isEncoding = (text: string): boolean => /^\s*(#[\w$.]+\s*=\s*)?#ttg\.(?!linear<|shared_linear<)/.test(text);

/** The LL of the panel's input: an encoding over the shape, or any form of an LL. */
function readLL(text: string, shape: string): LinearLayout {
  if (isEncoding(text)) {
    const sizes = readSizes(shape, 'shape');
    if (sizes === null) throw new LayoutError('domain', 'an encoding needs a shape, e.g. 128x64');
    return llFromEncoding(text, sizes);
  }
  return parseLL(text);
}

/** The tile coordinates of an out value (dim0, dim1, … by name) as (row, col) of a picture, or null beyond rank 2. */
function grid(l: LinearLayout): { rows: number; cols: number; cell: (v: readonly number[]) => number } | null {
  const at = (d: number): number => l.outDims.findIndex((o) => o.name === `dim${d}`);
  const j0 = at(0);
  const j1 = at(1);
  if (j0 < 0 || l.outDims.length > 2 || (l.outDims.length === 2 && j1 < 0)) return null;
  const rows = l.outDims[j0]!.size;
  const cols = j1 < 0 ? 1 : l.outDims[j1]!.size;
  return { rows, cols, cell: (v) => v[j0]! + rows * (j1 < 0 ? 0 : v[j1]!) };
}

/** L at a flattened input (in-dims in order, first lowest). */
function valueAt(l: LinearLayout, x: number): number[] {
  const out = l.outDims.map(() => 0);
  let rest = x;
  for (const d of l.inDims) {
    for (const b of d.bases) {
      if (rest % 2 === 1) for (let j = 0; j < out.length; j++) out[j] = out[j]! ^ b[j]!;
      rest = Math.floor(rest / 2);
    }
  }
  return out;
}

const bitsOf = (l: LinearLayout, name: string): number => l.inDims.find((d) => d.name === name)?.bases.length ?? 0;

/** The picture of a register LL: each cell the first (thread, value) in x = t + T·v order that holds it. */
function registerPicture(l: LinearLayout, g: NonNullable<ReturnType<typeof grid>>): Look {
  const n = g.rows * g.cols;
  const thread = new Int32Array(n).fill(-1);
  const value = new Int32Array(n).fill(-1);
  const holders = new Int32Array(n);
  const [nl, nw, nb, nr] = ['lane', 'warp', 'block', 'register'].map((k) => 2 ** bitsOf(l, k));
  const T = nl! * nw! * nb!;
  const order = l.inDims.map((d) => d.name);
  for (let v = 0; v < nr!; v++) {
    for (let t = 0; t < T; t++) {
      const coord: Record<string, number> = { register: v, lane: t % nl!, warp: Math.floor(t / nl!) % nw!, block: Math.floor(t / (nl! * nw!)) };
      let x = 0;
      let scale = 1;
      for (const name of order) {
        x += (coord[name] ?? 0) * scale;
        scale *= 2 ** bitsOf(l, name);
      }
      const c = g.cell(valueAt(l, x));
      holders[c]!++;
      if (thread[c] === -1) {
        thread[c] = t;
        value[c] = v;
      }
    }
  }
  return (i, r, c) => {
    const t = thread[i]!;
    const attrs = { 'data-thread': t < 0 ? undefined : t, 'data-value': t < 0 ? undefined : value[i], 'data-holders': holders[i] };
    const shared = holders[i]! > 1 ? `, held by ${holders[i]} (thread, value) pairs` : '';
    const tip = t < 0 ? `(${r}, ${c}): no thread` : `thread ${t}, value ${value[i]} at (${r}, ${c})${shared}`;
    return { attrs, fillColour: t < 0 ? '#ffffff' : threadColour(t), lines: t < 0 ? [] : [`T${t}`, `V${value[i]}`], tip };
  };
}

/** The picture of a shared LL: each cell its smallest offset, filled by the bank of that offset for e-byte elements. */
function sharedPicture(l: LinearLayout, g: NonNullable<ReturnType<typeof grid>>, e: number): Look {
  const n = g.rows * g.cols;
  const offset = new Float64Array(n).fill(-1);
  const ob = bitsOf(l, 'offset');
  const at = l.inDims.findIndex((d) => d.name === 'offset');
  const below = l.inDims.slice(0, at).reduce((a, d) => a + d.bases.length, 0);
  for (let o = 2 ** ob - 1; o >= 0; o--) offset[g.cell(valueAt(l, o * 2 ** below))] = o;
  return (i, r, c) => {
    const o = offset[i]!;
    const bank = o < 0 ? -1 : Math.floor((e * o) / 4) % 32;
    const tip = o < 0 ? `(${r}, ${c}): stored nowhere` : `(${r}, ${c}) at offset ${o}, bank ${bank}`;
    const attrs = { 'data-offset': o < 0 ? undefined : o, 'data-bank': o < 0 ? undefined : bank };
    return { attrs, fillColour: o < 0 ? '#ffffff' : BANK_PALETTE[bank]!, lines: o < 0 ? [] : [String(o)], tip };
  };
}

interface CellLook {
  attrs: Record<string, number | undefined>;
  fillColour: string;
  lines: string[];
  tip: string;
}

/** What a picture shows of cell i at (r, c). */
type Look = (i: number, r: number, c: number) => CellLook;

/**
 * A picture too big for one SVG element per cell (a 128×64 tile), drawn as the memory panel draws its tile: a sticky
 * canvas over a spacer the size of the grid, only the cells in view redrawn on scroll (canvas-picture.ts), each cell's
 * fill and labels as the SVG picture's, its tip on the hover line. Test hooks: `ll-canvas` (data-rows, data-cols,
 * data-cells, data-cw, data-ch, data-left, data-top), `ll-hover` (data-index, data-row, data-col of the cell under the pointer).
 */
function canvasPicture(g: NonNullable<ReturnType<typeof grid>>, look: Look): HTMLElement {
  const { rows, cols } = g;
  const looks = Array.from({ length: rows * cols }, (_, i) => look(i, i % rows, Math.floor(i / rows)));
  const left = 10 + 8 * String(rows - 1).length + 8;
  const top = 22;
  const cw = CW;
  const ch = CH;
  const canvas = h('canvas', {
    'data-testid': 'll-canvas',
    'data-rows': String(rows),
    'data-cols': String(cols),
    'data-cells': String(rows * cols),
    'data-cw': String(cw),
    'data-ch': String(ch),
    'data-left': String(left),
    'data-top': String(top),
    role: 'img',
  });
  canvas.style.cssText = 'position:sticky;top:0;left:0;display:block';
  const spacer = h('div', {});
  spacer.style.cssText = `position:relative;width:${left + cols * cw + 2}px;height:${top + rows * ch + 2}px`;
  spacer.append(canvas);
  const scroller = h('div', { class: 'mem-scroller' });
  scroller.append(spacer);
  const idle = `${(rows * cols).toLocaleString('en')} cells (${rows} × ${cols}); hover a cell`;
  const hover = h('p', { class: 'hint', 'data-testid': 'll-hover' }, idle);
  const index = (r: number, c: number): number => r + rows * c;
  const geometry = { rows, cols, cw, ch, top, left };
  const draw = (): void => {
    const width = left + cols * cw + 2;
    const height = top + rows * ch + 2;
    const vw = Math.min(scroller.clientWidth || width, width);
    const vh = Math.min(scroller.clientHeight || 560, height);
    const ctx = sizedContext(canvas, vw, vh);
    if (!ctx) return;
    const v = gridView(scroller, geometry, vw, vh);
    ctx.font = '10px ui-monospace, Menlo, Consolas, monospace';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (let r = v.r0; r <= v.r1; r++) {
      for (let c = v.c0; c <= v.c1; c++) {
        const k = looks[index(r, c)]!;
        const px = left + c * cw - v.sx;
        const py = top + r * ch - v.sy;
        ctx.fillStyle = k.fillColour;
        ctx.fillRect(px, py, cw, ch);
        ctx.strokeStyle = '#000000';
        ctx.lineWidth = 0.5;
        ctx.strokeRect(px + 0.25, py + 0.25, cw - 0.5, ch - 0.5);
        ctx.fillStyle = '#1b1f24';
        k.lines.forEach((t, q) => ctx.fillText(t, px + cw / 2, py + (k.lines.length === 1 ? ch / 2 : 8 + 12 * q)));
      }
    }
    drawAxes(ctx, v, { colGap: 28, rowGap: 14, pad: 6 });
  };
  const schedule = redrawOnScroll(scroller, draw);
  canvas.addEventListener('mousemove', (ev) => {
    const i = cellAt(ev, canvas, scroller, geometry, index);
    if (i < 0) {
      delete hover.dataset['index'];
      hover.textContent = idle;
      return;
    }
    Object.assign(hover.dataset, { index: String(i), row: String(i % rows), col: String(Math.floor(i / rows)) });
    hover.textContent = looks[i]!.tip;
  });
  schedule();
  return h('div', { class: 'mem-canvas-wrap' }, scroller, hover);
}

function picture(g: NonNullable<ReturnType<typeof grid>>, look: Look): SVGSVGElement {
  const size = { width: g.cols * CW + 2, height: g.rows * CH + 2 };
  const svg = s('svg', { ...size, 'data-testid': 'll-picture', 'data-rows': g.rows, 'data-cols': g.cols, 'font-family': 'monospace', 'font-size': 10 });
  for (let c = 0; c < g.cols; c++) {
    for (let r = 0; r < g.rows; r++) {
      const i = r + g.rows * c;
      const k = look(i, r, c);
      const cell = s('g', { 'data-testid': 'll-cell', 'data-row': r, 'data-col': c, ...k.attrs, transform: `translate(${1 + c * CW},${1 + r * CH})` });
      cell.append(s('title', {}, k.tip), s('rect', { width: CW, height: CH, fill: k.fillColour, stroke: '#000', 'stroke-width': 0.5 }));
      k.lines.forEach((t, q) => cell.append(s('text', { x: CW / 2, y: k.lines.length === 1 ? 18 : 12 + 12 * q, 'text-anchor': 'middle' }, t)));
      svg.append(cell);
    }
  }
  return svg;
}

const errorLine = (id: string, e: unknown): HTMLElement =>
  h(
    'p',
    { class: 'inline-error', 'data-testid': id, 'data-error-kind': e instanceof LayoutError ? e.kind : 'internal' },
    e instanceof Error ? e.message : String(e),
  );

function field(label: string, input: HTMLElement): HTMLElement {
  return h('div', { class: 'field' }, h('label', {}, label), input);
}

/** Build the panel into `host` (a card of the page). */
export function mountLinearPanel(host: HTMLElement): void {
  const llIn = h('textarea', { class: 'layout-in', 'data-testid': 'll-input', spellcheck: 'false', rows: '4' });
  llIn.value = DEFAULTS.ll;
  const text = (id: string, value: string, placeholder: string): HTMLInputElement =>
    h('input', { type: 'text', class: 'layout-in', 'data-testid': id, spellcheck: 'false', value, placeholder });
  const shapeIn = text('ll-shape', DEFAULTS.shape, 'for an encoding: 128x64');
  const eSel = h('select', { 'data-testid': 'll-elem' }, ...[1, 2, 4, 8, 16].map((e) => h('option', { value: String(e) }, `${e} byte${e > 1 ? 's' : ''}`)));
  eSel.value = '2';
  const llOut = h('div', { class: 'll-out' });
  const cuteIn = h('input', { type: 'text', class: 'layout-in', 'data-testid': 'cute-input', spellcheck: 'false', value: DEFAULTS.cute });
  const kindSel = h('select', { 'data-testid': 'cute-kind' }, ...['function', 'tv', 'shared'].map((k) => h('option', { value: k }, k)));
  kindSel.value = DEFAULTS.kind;
  const tileIn = text('cute-tile', DEFAULTS.tile, 'tile, e.g. 16x8 (tv; shared: optional)');
  const cuteOut = h('div', { class: 'll-out' });
  fill(
    host,
    h('h2', {}, 'Linear layouts (Triton)'),
    h(
      'p',
      { class: 'hint' },
      'A linear layout in any form (JSON, Triton print, Gluon repr, #ttg.linear), or a #ttg encoding with a shape: its CuTe layout and picture.',
    ),
    field('Linear layout or encoding', llIn),
    field('Shape (encodings)', shapeIn),
    field('Element size (banks)', eSel),
    llOut,
    h('p', { class: 'hint' }, 'A CuTe layout (plain or Sw<B,M,S> o L): its linear layout, as Triton prints it.'),
    field('CuTe layout', cuteIn),
    field('Kind', kindSel),
    field('Tile', tileIn),
    cuteOut,
  );

  const updateLL = (): void => {
    let l: LinearLayout;
    try {
      l = readLL(llIn.value, shapeIn.value);
    } catch (e) {
      fill(llOut, errorLine('ll-error', e));
      return;
    }
    const shared = l.inDims.some((d) => d.name === 'offset');
    const register = l.inDims.length > 0 && l.inDims.every((d) => ['register', 'lane', 'warp', 'block'].includes(d.name));
    const kind: BridgeKind = register ? 'tv' : shared ? 'shared' : 'function';
    let cute: HTMLElement;
    try {
      const c = formatLayoutFunction(fromLL(l));
      cute = h('p', {}, 'CuTe: ', h('code', { 'data-testid': 'll-cute', 'data-layout': c }, c));
    } catch (e) {
      cute = errorLine('ll-error', e);
    }
    const g = grid(l);
    const inputs = 2 ** l.inDims.reduce((a, d) => a + d.bases.length, 0);
    let pic: Node;
    if (g === null || kind === 'function') pic = h('p', { class: 'placeholder' }, 'pictures are drawn for register and shared layouts of rank 1 or 2');
    else if (g.rows * g.cols > MAX_CELLS || inputs > MAX_INPUTS) {
      pic = h('p', { class: 'placeholder' }, `${g.rows * g.cols} cells from ${inputs} inputs: too many to draw (at most ${MAX_CELLS} cells)`);
    } else {
      const look = kind === 'tv' ? registerPicture(l, g) : sharedPicture(l, g, Number(eSel.value));
      pic = g.rows * g.cols > MAX_SVG_CELLS ? canvasPicture(g, look) : picture(g, look);
    }
    const kindLine = h('p', { 'data-testid': 'll-kind', 'data-kind': kind }, `kind: ${kind}`);
    fill(llOut, kindLine, cute, h('pre', { 'data-testid': 'll-print' }, tritonString(l).slice(1)), h('div', { class: 'picture-box' }, pic));
  };

  const updateCute = (): void => {
    try {
      const c = readLayoutFunction(cuteIn.value, 'C');
      const tile = readSizes(tileIn.value, 'tile');
      const l = toLL(c, kindSel.value as BridgeKind, tile === null ? {} : { tile });
      fill(cuteOut, h('pre', { 'data-testid': 'cute-ll', 'data-json': JSON.stringify(toCanonicalJson(l)) }, tritonString(l).slice(1)));
    } catch (e) {
      fill(cuteOut, errorLine('cute-error', e));
    }
  };

  for (const el of [llIn, shapeIn]) el.addEventListener('input', updateLL);
  eSel.addEventListener('change', updateLL);
  for (const el of [cuteIn, tileIn]) el.addEventListener('input', updateCute);
  kindSel.addEventListener('change', updateCute);
  updateLL();
  updateCute();
}
