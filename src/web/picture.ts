/**
 * Pictures of layouts, as SVG, in the style of the paper's figures: a grid of cells labelled
 * with Φ(x), grouped exactly as the CLI's `show` groups them (gridShape: rank 2 as rows ×
 * columns, rank 1 as one row, the modes after the first grouped into columns), with row and
 * column indices along the edges. Hovering a cell names its index, its nested coordinate and
 * its offset, and lights every cell with the same offset (collisions jump out).
 *
 * For A ⊘ B and A ⊗ B a cell's colour says which tile it belongs to and its opacity which
 * entry of the tile it is (Remark 2.3.8.3).
 */
import { indexToCoord, size } from '../algebra/layout.js';
import { formatTuple } from '../algebra/notation.js';
import { innerLayout, type LayoutFunction } from '../cute/composed.js';
import { darkBackground, entryOpacity, tileColour } from '../render/colour.js';
import { composedPicture } from '../render/composed.js';
import { swizzleClass } from '../render/grid.js';
import { swizzleKey } from '../render/svg.js';
import type { TileOf } from '../render/tiles.js';
import { drawLayoutCanvas, MAX_CANVAS_CELLS, type PictureOptions } from './canvas-picture.js';
import { h, s } from './dom.js';

/** Most cells an SVG picture draws; larger layouts, up to MAX_CANVAS_CELLS, go on a canvas. */
export const MAX_CELLS = 4096;
export { MAX_CANVAS_CELLS };

export type { PictureOptions };

/**
 * The picture of a layout function: a plain layout, or a composed layout Sw<B,M,S> o K o L drawn
 * on L's grid with the offsets after the swizzle, Sw(K + Φ_L(x)) (docs/semantics.md §9.1), its
 * untiled cells coloured by the bits the swizzle writes (as `show` colours them).
 */
export function drawLayout(l: LayoutFunction, o: PictureOptions): HTMLElement {
  const inner = innerLayout(l);
  const n = size(inner);
  const wrap = h('div', { class: 'picture' });
  if (n > MAX_CANVAS_CELLS) {
    wrap.append(h('p', { class: 'note' }, `size ${n} is too large to draw (at most ${MAX_CANVAS_CELLS} cells); the operations still work.`));
    return wrap;
  }
  if (n > MAX_CELLS) return drawLayoutCanvas(l, o);
  const pic = composedPicture(l, { max: MAX_CELLS });
  const { rows, cols, index } = pic.grid;
  const offsets = pic.offsets;
  const sw = o.tileOf ? undefined : pic.swizzle;
  let widest = 1;
  for (let x = 0; x < n; x++) {
    const v = offsets[x]!;
    if (v >= 10 ** widest) widest = String(v).length;
  }
  widest = Math.max(widest, String(cols - 1).length);
  const cw = Math.max(38, 10 * widest + 16);
  const ch = 36;
  const left = 10 + 8 * String(rows - 1).length + 8;
  const top = 26;
  const width = left + cols * cw + 2;
  const height = top + rows * ch + 2;
  const svg = s('svg', {
    class: 'grid',
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    role: 'img',
    'aria-label': o.caption ?? 'layout picture',
  });
  // column and row indices, as print_layout prints them
  for (let c = 0; c < cols; c++) {
    svg.append(s('text', { class: 'axis', x: left + c * cw + cw / 2, y: top - 8, 'text-anchor': 'middle' }, c));
  }
  for (let r = 0; r < rows; r++) {
    svg.append(s('text', { class: 'axis', x: left - 8, y: top + r * ch + ch / 2 + 4, 'text-anchor': 'end' }, r));
  }
  const byOffset = new Map<number, SVGGElement[]>();
  const tiles = new Map<SVGGElement, TileOf>();
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const x = index(r, c);
      const v = offsets[x]!;
      const t = o.tileOf?.(x) ?? null;
      const g = s('g', {
        class: t ? 'cell tiled' : 'cell',
        'data-testid': o.testid,
        'data-index': x,
        'data-offset': v,
        'data-row': r,
        'data-col': c,
        transform: `translate(${left + c * cw},${top + r * ch})`,
      });
      const rect = s('rect', { width: cw, height: ch, class: 'bg' });
      if (t) {
        g.setAttribute('data-tile', String(t.tile));
        g.setAttribute('data-entry', String(t.entry));
        tiles.set(g, t);
        // inline style: a stylesheet rule would beat presentation attributes
        const colour = tileColour(t.tile);
        const op = entryOpacity(t.entry, o.tileSize ?? 1);
        rect.style.fill = colour;
        rect.style.fillOpacity = op.toFixed(3);
        if (darkBackground(colour, op)) g.classList.add('on-dark');
      } else if (sw) {
        const k = swizzleClass(v, sw);
        g.setAttribute('data-swizzle', String(k));
        rect.style.fill = tileColour(k);
        rect.style.fillOpacity = '0.55';
        if (darkBackground(tileColour(k), 0.55)) g.classList.add('on-dark');
      }
      const label = s('text', { x: cw / 2, y: ch / 2 + 5 });
      label.textContent = String(v);
      g.append(rect, label);
      let same = byOffset.get(v);
      if (!same) byOffset.set(v, (same = []));
      same.push(g);
      svg.append(g);
    }
  }
  /** the tooltip of a cell, made when first hovered (thousands of <title>s up front are slow) */
  const tipOf = (g: SVGGElement): string => {
    const x = Number(g.getAttribute('data-index'));
    const t = tiles.get(g);
    const head = `x = ${x}   coordinate ${formatTuple(indexToCoord(inner, x))}   Φ(x) = ${offsets[x]}`;
    const tip = t ? `${head}   tile ${o.coordOf?.(t.tile) ?? t.tile}, entry ${t.entry}` : head;
    if (!g.querySelector('title')) g.prepend(s('title', {}, tip));
    return tip;
  };
  // outer frame
  svg.append(s('rect', { x: left, y: top, width: cols * cw, height: rows * ch, class: 'outer' }));
  let lit: SVGGElement[] = [];
  const unlight = (): void => {
    for (const g of lit) g.classList.remove('same', 'hover');
    lit = [];
  };
  svg.addEventListener('mouseover', (ev) => {
    const g = (ev.target as Element).closest('g.cell') as SVGGElement | null;
    if (!g) return;
    unlight();
    const v = Number(g.getAttribute('data-offset'));
    lit = byOffset.get(v) ?? [];
    for (const e of lit) e.classList.add('same');
    g.classList.add('hover');
    lit = [...lit, g];
    const k = (byOffset.get(v) ?? []).length;
    o.hover.textContent = tipOf(g) + (k > 1 ? `   (offset ${v} is hit ${k} times)` : '');
  });
  svg.addEventListener('mouseleave', () => {
    unlight();
    o.hover.textContent = o.hover.dataset['idle'] ?? '';
  });
  const scroller = h('div', { class: 'scroller' });
  scroller.append(svg);
  wrap.append(scroller);
  if (o.tileOf && o.tiles !== undefined && o.tileSize !== undefined) wrap.append(legend(o.tiles, o.tileSize));
  if (sw) wrap.append(h('div', { class: 'legend', 'data-testid': 'swizzle-key' }, swizzleKey(sw)));
  return wrap;
}

/** The key of a tiled picture: one swatch per tile (up to a dozen), and the opacity ramp. */
function legend(tiles: number, tileSize: number): HTMLElement {
  const el = h('div', { class: 'legend' });
  const shown = Math.min(tiles, 12);
  el.append(h('span', { class: 'legend-title' }, `${tiles} tile${tiles === 1 ? '' : 's'} of ${tileSize}:`));
  for (let k = 0; k < shown; k++) {
    const sw = h('span', { class: 'swatch', title: `tile ${k}` });
    sw.style.background = tileColour(k);
    el.append(sw);
  }
  if (tiles > shown) el.append(h('span', { class: 'muted' }, `… ${tiles - shown} more`));
  el.append(h('span', { class: 'legend-title gap' }, `entry 0 → ${tileSize - 1}:`));
  const ramp = h('span', { class: 'ramp' });
  ramp.style.background = `linear-gradient(to right, rgba(78,121,167,1), rgba(78,121,167,${entryOpacity(tileSize - 1, tileSize).toFixed(2)}))`;
  el.append(ramp);
  return el;
}
