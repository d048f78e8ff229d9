/**
 * Pictures of large layouts (more cells than the SVG picture draws, up to 2^20) on a canvas
 * that draws only what is in view: a scroller holds a spacer the size of the whole grid and a
 * sticky canvas the size of the view, redrawn on scroll. Cells are as wide as their labels when
 * the whole grid fits the browser's limits, else narrower and unlabelled (the colour then says
 * the offset, blue to red, or the tile). Hover names the index, its coordinate and its offset,
 * and outlines every cell in view with the same offset, as the SVG picture does.
 *
 * Test hooks: `data-testid="picture-canvas"` with data-rows, data-cols, data-cells and the
 * geometry in CSS pixels (data-cw, data-ch, data-left, data-top); the hover line gets
 * data-index of the cell under the pointer.
 */
import { indexToCoord } from '../algebra/layout.js';
import { formatTuple } from '../algebra/notation.js';
import { innerLayout, type LayoutFunction } from '../cute/composed.js';
import { entryOpacity, hslHex, tileColour } from '../render/colour.js';
import { composedPicture } from '../render/composed.js';
import { swizzleClass, type Picture } from '../render/grid.js';
import { swizzleKey } from '../render/svg.js';
import { h } from './dom.js';
import type { TileOf } from '../render/tiles.js';

/** Most cells the canvas picture draws. */
export const MAX_CANVAS_CELLS = 1 << 20;
/** the largest extent (px) the spacer gets: well inside every browser's element-size limit */
const MAX_EXTENT = 4_000_000;
const AXIS_TOP = 22;

/** #rrggbb of colour c at opacity op over white */
function overWhite(c: string, op: number): string {
  const v = [1, 3, 5].map((i) => Math.round(parseInt(c.slice(i, i + 2), 16) * op + 255 * (1 - op)));
  return `#${v.map((x) => x.toString(16).padStart(2, '0')).join('')}`;
}

/** How a picture is drawn (SVG in picture.ts, a canvas here for large layouts). */
export interface PictureOptions {
  /** data-testid of every cell ("cell" for the main picture only) */
  testid: string;
  /** the tile and the entry within it of index x, for ⊘ and ⊗ pictures */
  tileOf?: (x: number) => TileOf | null;
  tiles?: number;
  tileSize?: number;
  /** the coordinate of tile k in the shape of the tiles, which the hover names (`tile (2,3)`) */
  coordOf?: (tile: number) => string;
  /** a line under the picture for hover information */
  hover: HTMLElement;
  caption?: string;
}

/** The canvas picture of L, plain or composed (pre-condition: size(L) ≤ MAX_CANVAS_CELLS). */
export function drawLayoutCanvas(l: LayoutFunction, o: PictureOptions): HTMLElement {
  const p: Picture = composedPicture(l, { max: MAX_CANVAS_CELLS });
  const inner = innerLayout(l);
  const { rows, cols, index } = p.grid;
  const n = p.offsets.length;
  let maxOff = 0;
  for (let x = 0; x < n; x++) if (p.offsets[x]! > maxOff) maxOff = p.offsets[x]!;
  const digits = Math.max(String(maxOff).length, String(cols - 1).length);
  const cw = Math.max(1, Math.min(Math.max(38, 9 * digits + 14), Math.floor(MAX_EXTENT / cols)));
  const ch = Math.max(1, Math.min(30, Math.floor(MAX_EXTENT / rows)));
  const labels = cw >= 9 * String(maxOff).length + 8 && ch >= 16;
  const left = 10 + 8 * String(rows - 1).length + 8;
  const top = AXIS_TOP;
  const width = left + cols * cw + 2;
  const height = top + rows * ch + 2;

  const tileOf = o.tileOf;
  const fillOf = (x: number): string => {
    const t = tileOf?.(x) ?? null;
    if (t) return overWhite(tileColour(t.tile), entryOpacity(t.entry, o.tileSize ?? 1));
    if (p.swizzle) return overWhite(tileColour(swizzleClass(p.offsets[x]!, p.swizzle)), 0.55);
    if (labels) return '#ffffff';
    return hslHex(240 - (240 * p.offsets[x]!) / Math.max(1, maxOff), 0.7, 0.55);
  };

  // what the colours say: the swizzled bits, else (unlabelled) the offset
  const swNote = p.swizzle && !tileOf ? swizzleKey(p.swizzle) : null;
  const colourNote = labels ? (swNote ? `; ${swNote}` : '') : `: too many to label; ${swNote ?? `colour = offset, blue 0 → red ${maxOff}`}`;
  const wrap = h('div', { class: 'picture' });
  const scroller = h('div', { class: 'scroller' });
  const spacer = h('div', { class: 'spacer' });
  spacer.style.cssText = `position:relative;width:${width}px;height:${height}px`;
  const canvas = h('canvas', {
    'data-testid': 'picture-canvas',
    'data-rows': String(rows),
    'data-cols': String(cols),
    'data-cells': String(n),
    'data-cw': String(cw),
    'data-ch': String(ch),
    'data-left': String(left),
    'data-top': String(top),
    role: 'img',
    'aria-label': o.caption ?? 'layout picture',
  });
  canvas.style.cssText = 'position:sticky;top:0;left:0;display:block';
  spacer.append(canvas);
  scroller.append(spacer);
  wrap.append(
    scroller,
    h('p', { class: 'note' }, `${n.toLocaleString('en')} cells (${rows} × ${cols})${colourNote}; scroll to see them all, hover for each cell.`),
  );

  let hovered = -1;
  const draw = (): void => {
    const vw = Math.min(scroller.clientWidth || 800, width);
    const vh = Math.min(scroller.clientHeight || 560, height);
    const g = sizedContext(canvas, vw, vh);
    if (!g) return;
    const view = gridView(scroller, { rows, cols, cw, ch, top, left }, vw, vh);
    const { sx, sy, c0, c1, r0, r1 } = view;
    const same = hovered >= 0 ? p.offsets[hovered]! : NaN;
    g.font = '13px ui-monospace, Menlo, Consolas, monospace';
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const x = index(r, c);
        const px = left + c * cw - sx;
        const py = top + r * ch - sy;
        g.fillStyle = fillOf(x);
        g.fillRect(px, py, cw, ch);
        if (cw >= 4 && ch >= 4) {
          g.strokeStyle = '#2a2f3a';
          g.lineWidth = 0.6;
          g.strokeRect(px + 0.5, py + 0.5, cw, ch);
        }
        if (labels) {
          g.fillStyle = '#1d2330';
          g.fillText(String(p.offsets[x]), px + cw / 2, py + ch / 2 + 1);
        }
        if (p.offsets[x] === same) {
          g.strokeStyle = x === hovered ? '#d63a2f' : '#f0a500';
          g.lineWidth = 2.5;
          g.strokeRect(px + 1.5, py + 1.5, Math.max(1, cw - 3), Math.max(1, ch - 3));
        }
      }
    }
    drawAxes(g, view, { colGap: 40, rowGap: 16, pad: 8 });
  };
  const schedule = redrawOnScroll(scroller, draw);

  /** the index under the pointer, or -1 */
  const at = (ev: MouseEvent): number => cellAt(ev, canvas, scroller, { rows, cols, cw, ch, top, left }, index);
  canvas.addEventListener('mousemove', (ev) => {
    const x = at(ev);
    if (x === hovered) return;
    hovered = x;
    schedule();
    if (x < 0) {
      delete o.hover.dataset['index'];
      o.hover.textContent = o.hover.dataset['idle'] ?? '';
      return;
    }
    const v = p.offsets[x]!;
    let k = 0;
    for (let y = 0; y < n; y++) if (p.offsets[y] === v) k++;
    const t = tileOf?.(x) ?? null;
    o.hover.dataset['index'] = String(x);
    o.hover.textContent =
      `x = ${x}   coordinate ${formatTuple(indexToCoord(inner, x))}   Φ(x) = ${v}` +
      (t ? `   tile ${o.coordOf?.(t.tile) ?? t.tile}, entry ${t.entry}` : '') +
      (k > 1 ? `   (offset ${v} is hit ${k} times)` : '');
  });
  canvas.addEventListener('mouseleave', () => {
    hovered = -1;
    schedule();
    delete o.hover.dataset['index'];
    o.hover.textContent = o.hover.dataset['idle'] ?? '';
  });
  schedule();
  return wrap;
}

/** The visible window of a scrolled grid of cells on a canvas: viewport, margins, cell size, scroll, cells in view. */
export interface GridView {
  readonly vw: number;
  readonly vh: number;
  readonly top: number;
  readonly left: number;
  readonly cw: number;
  readonly ch: number;
  readonly sx: number;
  readonly sy: number;
  readonly c0: number;
  readonly c1: number;
  readonly r0: number;
  readonly r1: number;
}

/** The canvas sized to vw × vh CSS pixels at the device's pixel ratio, its context scaled to CSS pixels and cleared;
 *  null without a 2D context. */
export function sizedContext(canvas: HTMLCanvasElement, vw: number, vh: number): CanvasRenderingContext2D | null {
  const dpr = window.devicePixelRatio || 1;
  if (canvas.width !== Math.round(vw * dpr) || canvas.height !== Math.round(vh * dpr)) {
    canvas.width = Math.round(vw * dpr);
    canvas.height = Math.round(vh * dpr);
    canvas.style.width = `${vw}px`;
    canvas.style.height = `${vh}px`;
  }
  const g = canvas.getContext('2d');
  if (!g) return null;
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.clearRect(0, 0, vw, vh);
  return g;
}

/** A grid of rows × cols cells of cw × ch pixels, after margins top and left, scrolled as `scroller` is, seen in a
 *  vw × vh window: column c is on screen at left + c·cw − sx, row r at top + r·ch − sy; c0…c1 and r0…r1 show. */
export function gridView(
  scroller: HTMLElement,
  grid: { rows: number; cols: number; cw: number; ch: number; top: number; left: number },
  vw: number,
  vh: number,
): GridView {
  const { rows, cols, cw, ch, top, left } = grid;
  const sx = scroller.scrollLeft;
  const sy = scroller.scrollTop;
  return {
    vw,
    vh,
    top,
    left,
    cw,
    ch,
    sx,
    sy,
    c0: Math.max(0, Math.floor(sx / cw)),
    c1: Math.min(cols - 1, Math.floor((sx + vw - left) / cw)),
    r0: Math.max(0, Math.floor(sy / ch)),
    r1: Math.min(rows - 1, Math.floor((sy + vh - top) / ch)),
  };
}

/** The redraw of a scrolled picture: `draw` once per animation frame at most, on scrolling and resizing `scroller`
 *  and whenever the returned schedule is called (hover, first paint). */
export function redrawOnScroll(scroller: HTMLElement, draw: () => void): () => void {
  let frame = 0;
  const schedule = (): void => {
    if (!frame)
      frame = requestAnimationFrame(() => {
        frame = 0;
        draw();
      });
  };
  scroller.addEventListener('scroll', schedule, { passive: true });
  new ResizeObserver(schedule).observe(scroller);
  return schedule;
}

/** The cell under the pointer in a grid drawn as gridView sees it (index(r, c)), or −1 off the cells. */
export function cellAt(
  ev: MouseEvent,
  canvas: HTMLCanvasElement,
  scroller: HTMLElement,
  grid: { rows: number; cols: number; cw: number; ch: number; top: number; left: number },
  index: (r: number, c: number) => number,
): number {
  const { rows, cols, cw, ch, top, left } = grid;
  const rect = canvas.getBoundingClientRect();
  const x = ev.clientX - rect.left;
  const y = ev.clientY - rect.top;
  const c = Math.floor((x + scroller.scrollLeft - left) / cw);
  const r = Math.floor((y + scroller.scrollTop - top) / ch);
  return r >= 0 && r < rows && c >= 0 && c < cols && x >= left && y >= top ? index(r, c) : -1;
}

/** The axes that stay in view over a scrolled grid: column indices on top, row indices on the left, every
 *  k-th one so that labels keep at least colGap / rowGap pixels apart; pad is the gap before the grid. */
export function drawAxes(g: CanvasRenderingContext2D, v: GridView, o: { colGap: number; rowGap: number; pad: number }): void {
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, v.vw, v.top);
  g.fillRect(0, 0, v.left, v.vh);
  g.fillStyle = '#8a91a3';
  g.font = '11px ui-monospace, Menlo, Consolas, monospace';
  g.textAlign = 'center';
  const step = Math.max(1, Math.ceil(o.colGap / v.cw));
  for (let c = v.c0 - (v.c0 % step); c <= v.c1; c += step) if (c >= 0) g.fillText(String(c), v.left + c * v.cw - v.sx + v.cw / 2, v.top / 2 + 2);
  g.textAlign = 'right';
  const rstep = Math.max(1, Math.ceil(o.rowGap / v.ch));
  for (let r = v.r0 - (v.r0 % rstep); r <= v.r1; r += rstep) if (r >= 0) g.fillText(String(r), v.left - o.pad, v.top + r * v.ch - v.sy + v.ch / 2);
}
