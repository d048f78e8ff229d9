/**
 * The descriptors panel of the page (issue 27; docs/descriptors.md): will the hardware accept
 * this layout? Choose an element type, a global layout and a shared-memory tile — a layout, or one of CUTLASS's GMMA
 * shared-memory atoms by name tiled to a shape (tile_to_shape) — and see the TMA tensor map CuTe's make_tma_copy builds
 * (`tma_desc`), its boxes drawn over the shared-memory tile and over the global tile (colour = box, one label per box,
 * hover = the box's TMA coordinates), the wgmma (sm90) or UMMA (sm100) descriptor of each k-block of the tile
 * (`gmma_desc`, K- or MN-major), the alignment the tile needs, and, where a check fails, the rule in words. Every
 * answer comes from the op table (src/ops/), as `batch` gives it; the pictures from src/render/tma-boxes.ts.
 * Stable test hooks: data-testid `desc-dtype`, `desc-gmem`, `desc-source` (layout | atom), `desc-smem`, `desc-atom`,
 * `desc-shape`, `desc-tiler`, `desc-major`, `desc-arch`; `desc-tile` (data-layout: the tile used), `desc-tile-error`;
 * `tma-field` (data-key, data-value: the result's JSON), `tma-error` (data-error-kind), `tma-picture` (the SVG, or `tma-picture-error`; its
 * `box-block` rects with data-box, data-row, data-col, data-rows, data-cols per panel `box-panel`); `gmma-block`
 * (data-k, data-offset, data-layout) with its `gmma-field`s or a `gmma-error`; `desc-alignment` (data-bytes).
 */
import { LayoutError } from '../algebra/errors.js';
import { formatLayoutFunction } from '../cute/composed.js';
import { readLayoutFunction, readTuple } from '../ops/args.js';
import { kBlocks } from '../descriptors/kblocks.js';
import { runOpDirect, type Json, type OpContext } from '../ops/table.js';
import { boxSvg } from '../render/tma-boxes.js';
import { tmaBoxPicture } from '../render/tma-pictures.js';
import type { TmaArgs } from '../descriptors/api.js';
import { atomByName, atomTiledTo, SMEM_ATOMS } from '../descriptors/atoms.js';
import { dtypeNames, dtypeOf } from '../descriptors/dtype.js';
import { fill, h } from './dom.js';
import { isIntegerText } from '../algebra/int-text.js';

const DEFAULTS = {
  dtype: 'bfloat16_t',
  gmem: '(4096,4096):(4096,1)',
  source: 'atom',
  smem: 'Sw<3,3,3> o ((8,16),(64,1)):((64,512),(1,0))',
  atom: 'Layout_K_SW128_Atom',
  shape: '128x64',
  tiler: '',
  major: 'K',
  arch: 'sm90',
};

/** The ops need no backend (no bulk check): a context that says so if one is ever asked for. */
const CTX: OpContext = { backendChoice: 'cpu', backend: () => Promise.reject(new LayoutError('bad-request', 'the descriptor ops use no backend')) };

const errorLine = (id: string, e: unknown): HTMLElement =>
  h(
    'p',
    { class: 'inline-error', 'data-testid': id, 'data-error-kind': e instanceof LayoutError ? e.kind : 'internal' },
    h('span', { class: 'kind' }, e instanceof LayoutError ? e.kind : 'internal'),
    ' ',
    e instanceof Error ? e.message : String(e),
  );

const field = (label: string, input: HTMLElement): HTMLElement => h('div', { class: 'field' }, h('label', {}, label), input);

/** `128x64`, `128,64` or `(128,64)` as CuTe's shape text `(128,64)`. */
function shapeText(text: string): string {
  const parts = text
    .trim()
    .replace(/^[([]|[)\]]$/g, '')
    .split(/\s*[x,×]\s*/);
  if (parts.length === 0 || parts.some((p) => !isIntegerText(p))) throw new LayoutError('parse', `shape: expected sizes like 128x64, got '${text}'`);
  return `(${parts.join(',')})`;
}

/** The tile of CUTLASS's atom `name` over the element type, tiled to the shape (tile_to_shape), as text. */
function atomTile(name: string, dtype: string, shape: string): string {
  const a = atomByName(name);
  if (a === undefined) throw new LayoutError('domain', `no shared-memory atom '${name}'`);
  return formatLayoutFunction(atomTiledTo(a, dtypeOf(dtype), readTuple(shapeText(shape), 'shape')));
}

/** A value as the panel shows it: a string as is, anything else as JSON. */
const shown = (v: Json): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** A result object's keys as a wrapping row of `key value` pairs, each with its JSON in data-value. */
function fieldsRow(id: string, result: Json): HTMLElement {
  const items = Object.entries(result as Record<string, Json>).map(([k, v]) =>
    h(
      'span',
      { 'data-testid': id, 'data-key': k, 'data-value': JSON.stringify(v), style: 'white-space:nowrap' },
      h('span', { class: 'hint' }, `${k} `),
      h('code', {}, shown(v)),
    ),
  );
  return h('div', { style: 'display:flex;flex-wrap:wrap;gap:6px 18px;margin:8px 0' }, ...items);
}

/** The k-blocks' descriptors as one table: a row per k-block (its K range and start), a column per result key. */
const GMMA_KEYS = ['layoutType', 'lbo', 'sbo', 'baseOffset', 'smemAlignment', 'desc'];
const cellStyle = 'padding:2px 10px;text-align:left;border-bottom:1px solid #e1e4e8';

/** The SVG of the boxes, parsed from the renderer's text (our own markup, every user text escaped in it). */
function svgNode(text: string): Element {
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  const svg = document.importNode(doc.documentElement, true);
  svg.setAttribute('data-testid', 'tma-picture');
  return svg;
}

/** Build the panel into `host` (a card of the page). */
export function mountDescriptorsPanel(host: HTMLElement): void {
  const select = (id: string, values: readonly string[], value: string, label = (v: string): string => v): HTMLSelectElement => {
    const el = h('select', { 'data-testid': id }, ...values.map((v) => h('option', { value: v }, label(v))));
    el.value = value;
    return el;
  };
  const text = (id: string, value: string, placeholder: string): HTMLInputElement =>
    h('input', { type: 'text', class: 'layout-in', 'data-testid': id, spellcheck: 'false', value, placeholder });
  const dtypeSel = select('desc-dtype', dtypeNames(), DEFAULTS.dtype);
  const gmemIn = text('desc-gmem', DEFAULTS.gmem, 'global layout, e.g. (4096,4096):(4096,1)');
  const sourceSel = select('desc-source', ['atom', 'layout'], DEFAULTS.source, (v) => (v === 'atom' ? 'a CUTLASS atom tiled to a shape' : 'a layout'));
  const smemIn = text('desc-smem', DEFAULTS.smem, 'shared-memory tile, plain or Sw<B,M,S> o L');
  const atomSel = select(
    'desc-atom',
    SMEM_ATOMS.map((a) => a.name),
    DEFAULTS.atom,
    (v) => `${v}<T>`,
  );
  const shapeIn = text('desc-shape', DEFAULTS.shape, 'tile shape, e.g. 128x64');
  const tilerIn = text('desc-tiler', DEFAULTS.tiler, 'optional: CTA tiler (default: the tile’s mode sizes)');
  const majorSel = select('desc-major', ['K', 'MN'], DEFAULTS.major, (v) => `${v}-major`);
  const archSel = select('desc-arch', ['sm90', 'sm100'], DEFAULTS.arch, (v) => (v === 'sm90' ? 'sm90 (wgmma)' : 'sm100 (UMMA)'));
  const smemField = field('Shared-memory layout (elements)', smemIn);
  const atomField = field('Atom', atomSel);
  const shapeField = field('Tiled to the shape', shapeIn);
  const tileOut = h('div', {});
  const tmaOut = h('div', {});
  const picOut = h('div', { class: 'picture-box', style: 'overflow-x:auto' });
  const gmmaOut = h('div', {});
  const alignOut = h('div', {});
  fill(
    host,
    h('h2', {}, 'Descriptors: TMA tensor maps and wgmma / UMMA'),
    h(
      'p',
      { class: 'hint' },
      'A global layout and a shared-memory tile (elements): the tensor map CuTe builds for the TMA, its boxes over the tile and over the global tile, ' +
        'the matrix descriptor of each k-block, the alignment — and, where the hardware would refuse, the rule.',
    ),
    h('div', { class: 'operands' }, field('Element type', dtypeSel), field('Global layout (elements)', gmemIn), field('Shared-memory tile', sourceSel)),
    h('div', { class: 'operands' }, smemField, atomField, shapeField, field('Tiler (optional)', tilerIn)),
    tileOut,
    h('h3', {}, 'TMA tensor map (tma_desc)'),
    tmaOut,
    picOut,
    h('h3', {}, 'Matrix descriptor per k-block (gmma_desc)'),
    h('div', { class: 'operands' }, field('Major', majorSel), field('Architecture', archSel)),
    gmmaOut,
    alignOut,
  );

  let generation = 0;
  const update = async (): Promise<void> => {
    const mine = ++generation;
    const atom = sourceSel.value === 'atom';
    smemField.hidden = atom;
    atomField.hidden = !atom;
    shapeField.hidden = !atom;
    const dtype = dtypeSel.value;
    let smem: string;
    try {
      smem = atom ? atomTile(atomSel.value, dtype, shapeIn.value) : smemIn.value;
      fill(tileOut, h('p', {}, 'tile: ', h('code', { 'data-testid': 'desc-tile', 'data-layout': smem }, smem)));
    } catch (e) {
      fill(tileOut, errorLine('desc-tile-error', e));
      for (const el of [tmaOut, picOut, gmmaOut, alignOut]) fill(el);
      return;
    }
    const tmaArg: TmaArgs = { gmem: gmemIn.value, smem, dtype };
    if (tilerIn.value.trim() !== '') tmaArg.tiler = tilerIn.value;
    const aligns: string[] = [];
    let tmaAlign = 0;
    let tma: HTMLElement;
    let pic: Node | null = null;
    try {
      const r = (await runOpDirect('tma_desc', [tmaArg], CTX)) as Record<string, Json>;
      if (mine !== generation) return;
      tma = fieldsRow('tma-field', r);
      tmaAlign = Number(r['smemAlignment']);
      aligns.push(`the TMA needs the tile on a ${tmaAlign}-byte boundary (swizzle ${r['swizzle']})`);
      try {
        pic = svgNode(boxSvg(tmaBoxPicture(tmaArg)));
      } catch (e) {
        pic = errorLine('tma-picture-error', e); // a tile too big to draw
      }
    } catch (e) {
      if (mine !== generation) return;
      tma = errorLine('tma-error', e);
    }
    const blocks: HTMLElement[] = [];
    let align = 0;
    try {
      const s = readLayoutFunction(smem, 'smem');
      const e = dtypeOf(dtype).bytes;
      for (const b of kBlocks(s, e)) {
        const layout = formatLayoutFunction(b.layout);
        const head = [h('td', { style: cellStyle }, `${b.k}…${b.k + 32 / e - 1}`), h('td', { style: cellStyle }, `+${b.offset * e} B`)];
        let body: HTMLElement[];
        try {
          const r = (await runOpDirect('gmma_desc', [{ smem: layout, dtype, major: majorSel.value, arch: archSel.value }], CTX)) as Record<string, Json>;
          align = Math.max(align, Number(r['smemAlignment']));
          body = Object.entries(r).map(([k, v]) =>
            h('td', { style: cellStyle, 'data-testid': 'gmma-field', 'data-key': k, 'data-value': JSON.stringify(v) }, h('code', {}, shown(v))),
          );
        } catch (err) {
          body = [h('td', { style: cellStyle, colspan: String(GMMA_KEYS.length) }, errorLine('gmma-error', err))];
        }
        const attrs = { 'data-testid': 'gmma-block', 'data-k': String(b.k), 'data-offset': String(b.offset), 'data-layout': layout, title: layout };
        blocks.push(h('tr', attrs, ...head, ...body));
      }
    } catch (err) {
      blocks.push(h('tr', {}, h('td', { colspan: String(GMMA_KEYS.length + 2) }, errorLine('gmma-error', err))));
    }
    if (mine !== generation) return;
    if (align > 0) aligns.push(`the matrix descriptor's base offset is 0: the tile must start on a ${align}-byte boundary`);
    fill(tmaOut, tma);
    fill(picOut, pic ?? h('p', { class: 'placeholder' }, 'no boxes: the tensor map is refused'));
    const th = (t: string): HTMLElement => h('th', { style: cellStyle }, t);
    const headRow = h('tr', {}, th('k'), th('start'), ...GMMA_KEYS.map(th));
    fill(gmmaOut, h('table', { style: 'border-collapse:collapse;margin:8px 0;font-size:13px' }, h('thead', {}, headRow), h('tbody', {}, ...blocks)));
    const bytes = Math.max(tmaAlign, align);
    fill(alignOut, h('p', { 'data-testid': 'desc-alignment', 'data-bytes': String(bytes) }, aligns.length ? `Alignment: ${aligns.join('; ')}.` : ''));
  };
  for (const el of [gmemIn, smemIn, shapeIn, tilerIn]) el.addEventListener('input', () => void update());
  for (const el of [dtypeSel, sourceSel, atomSel, majorSel, archSel]) el.addEventListener('change', () => void update());
  void update();
}
