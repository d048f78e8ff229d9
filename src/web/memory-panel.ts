/**
 * The memory panel of the page: a memory layout M (plain or Sw<B,M,S> o L), a TV layout and the
 * element size; the bank picture (docs/semantics.md §9.2), the wavefront table, and a button
 * that searches every Sw<B,M,S> o inner(M) on navigator.gpu's device (the CPU search where there
 * is none), ranked as the CLI ranks (vector kept, instructions, wavefronts); a found swizzle is
 * clicked into M and into the main layout input.
 *
 * The bank picture is a canvas that draws real tiles (the 128×64 tile's 8,192 cells): "fit" (the
 * default) sizes the cells so that the whole tile fits the panel, "cells" draws them at a
 * readable size in a scroller (only what is in view). Each cell is filled with its bank's colour
 * (32 told apart), labelled with its offset, the thread and value that access it (`T5 V2`) or its
 * bank; conflicted cells are outlined in red (a red edge where the cells are small). Hover names
 * the cell, its coordinate, offset, bank, accessor and conflict. The picture is exported as SVG
 * and TikZ (src/render/banks.ts).
 *
 * Stable test hooks: data-testid `mem-layout`, `mem-tv`, `mem-elem`, `mem-label`, `mem-view`,
 * `mem-table` (data-wavefronts, data-conflicts), `mem-canvas` (data-rows, data-cols, data-cells,
 * data-conflicted, data-view, data-label and the geometry in CSS pixels: data-cw, data-ch,
 * data-left, data-top), `mem-hover` (data-index of the hovered cell), `mem-export-svg`,
 * `mem-export-tikz`, `mem-search`, `mem-found` (buttons with data-layout, data-vector,
 * data-instructions).
 */
import { indexToCoord, size } from '../algebra/layout.js';
import { LayoutError } from '../algebra/errors.js';
import { formatTuple } from '../algebra/notation.js';
import { formatLayoutFunction, innerLayout, parseLayoutFunction, type LayoutFunction } from '../cute/composed.js';
import { threadValues } from '../memory/access.js';
import { bankMap, type BankMap, type BankReport } from '../memory/banks.js';
import { rankResults, searchCpu, swizzleCandidates, targetVectors, type AccessPattern } from '../memory/search.js';
import { accessorsOf, BANK_PALETTE, bankCellLabel, bankSvg, bankTikz, type Accessors, type BankLabel } from '../render/banks.js';
import { darkBackground } from '../render/colour.js';
import { composedPicture } from '../render/composed.js';
import { MAX_SHOW, type Picture } from '../render/grid.js';
import { cellAt, drawAxes, gridView, redrawOnScroll, sizedContext } from './canvas-picture.js';
import { fill, h } from './dom.js';
import { exportButtons } from './export.js';

export interface MemoryPanelHooks {
  /** the GPU device of the page's engine, or null (then the CPU searches) */
  device(): Promise<GPUDevice | null>;
  /** put a layout into the page's main input */
  useLayout(text: string): void;
}

const DEFAULTS = { m: 'Sw<3,3,3> o (8,64):(64,1)', tv: '((8,4),(8,2)):((1,64),(8,256))', e: '2' };
/** most cells the panel draws (the text exports stop at MAX_SHOW) */
const MAX_PICTURE = 1 << 18;
const AXIS_TOP = 22;

function row(label: string, input: HTMLElement): HTMLElement {
  return h('div', { class: 'field' }, h('label', {}, label), input);
}

function reportTable(r: BankReport): HTMLElement {
  const t = h(
    'table',
    { class: 'mem-table', 'data-testid': 'mem-table', 'data-wavefronts': String(r.wavefronts), 'data-conflicts': String(r.conflicts) },
    h('tr', {}, h('th', {}, 'vector'), h('td', {}, `${r.vector} value(s)`)),
    h('tr', {}, h('th', {}, 'instructions'), h('td', {}, String(r.instructions))),
    h('tr', {}, h('th', {}, 'phases'), h('td', {}, String(r.phases))),
    h('tr', {}, h('th', {}, 'wavefronts'), h('td', {}, `${r.wavefronts}${r.conflicts === 0 ? ' (conflict-free)' : ` (${r.conflicts} extra)`}`)),
    h('tr', {}, h('th', {}, 'sectors'), h('td', {}, `${r.sectors} (least ${r.minSectors})`)),
  );
  if (r.worst) {
    const w = r.worst;
    t.append(
      h(
        'tr',
        {},
        h('th', {}, 'worst phase'),
        h('td', {}, `warp ${w.warp}, instruction ${w.instruction}, phase ${w.phase}: ${w.wavefronts}-way in bank ${w.bank} (threads ${w.threads.join(', ')})`),
      ),
    );
  }
  return t;
}

/** What the bank canvas draws. */
interface BankView {
  readonly m: LayoutFunction;
  readonly pic: Picture;
  readonly map: BankMap;
  readonly acc: Accessors;
  readonly label: BankLabel;
  readonly fit: boolean;
}

/** The bank picture on a canvas (see the module comment); `hover` is the line under it. */
function bankCanvas(v: BankView, hover: HTMLElement): HTMLElement {
  const { pic, map, acc, label } = v;
  const { rows, cols, index } = pic.grid;
  const n = pic.offsets.length;
  const left = 10 + 8 * String(Math.max(rows - 1, 0)).length + 8;
  const top = AXIS_TOP;
  const wrap = h('div', { class: 'mem-canvas-wrap' });
  const scroller = h('div', { class: v.fit ? 'mem-scroller fit' : 'mem-scroller' });
  const spacer = h('div', {});
  let conflicted = 0;
  for (let x = 0; x < n; x++) if (map.ways[x]! > 1) conflicted++;
  const canvas = h('canvas', {
    'data-testid': 'mem-canvas',
    'data-rows': String(rows),
    'data-cols': String(cols),
    'data-cells': String(n),
    'data-conflicted': String(conflicted),
    'data-view': v.fit ? 'fit' : 'cells',
    'data-label': label,
    role: 'img',
    'aria-label': `banks of ${formatLayoutFunction(v.m)}`,
  });
  canvas.style.cssText = 'position:sticky;top:0;left:0;display:block';
  spacer.append(canvas);
  scroller.append(spacer);
  wrap.append(scroller);
  let cw = 0;
  let ch = 0;
  /** the cell size: fit the panel (width, and about 70% of the window's height), or readable */
  const measure = (): void => {
    if (v.fit) {
      const w = Math.max(cols * 2, (scroller.clientWidth || 800) - left - 4);
      const hh = Math.max(rows * 2, Math.min(640, Math.round(window.innerHeight * 0.7)) - top - 4);
      cw = Math.max(2, Math.min(48, Math.floor(w / cols)));
      ch = Math.max(2, Math.min(30, Math.floor(hh / rows)));
    } else {
      cw = label === 'tv' ? 64 : label === 'none' ? 24 : 44;
      ch = 28;
    }
    spacer.style.cssText = `position:relative;width:${left + cols * cw + 2}px;height:${top + rows * ch + 2}px`;
    canvas.dataset['cw'] = String(cw);
    canvas.dataset['ch'] = String(ch);
    canvas.dataset['left'] = String(left);
    canvas.dataset['top'] = String(top);
  };
  // labels at the size that fits the cells (the longest label sets it)
  let chars = 1;
  if (label !== 'none') for (let x = 0; x < n; x++) chars = Math.max(chars, bankCellLabel(label, x, pic.offsets[x]!, map.bank[x]!, acc).length);
  let hovered = -1;
  const draw = (): void => {
    measure();
    const width = left + cols * cw + 2;
    const height = top + rows * ch + 2;
    const vw = Math.min(scroller.clientWidth || width, width);
    const vh = Math.min(v.fit ? height : scroller.clientHeight || 560, height);
    const g = sizedContext(canvas, vw, vh);
    if (!g) return;
    const view = gridView(scroller, { rows, cols, cw, ch, top, left }, vw, vh);
    const { sx, sy, c0, c1, r0, r1 } = view;
    const font = Math.floor(Math.min(13, ch - 4, (cw - 3) / (0.62 * chars)));
    g.font = `${Math.max(font, 1)}px ui-monospace, Menlo, Consolas, monospace`;
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    const big = cw >= 8 && ch >= 8;
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const x = index(r, c);
        const b = map.bank[x]!;
        const px = left + c * cw - sx;
        const py = top + r * ch - sy;
        g.fillStyle = BANK_PALETTE[b]!;
        g.fillRect(px, py, cw, ch);
        if (big) {
          g.strokeStyle = 'rgba(42,47,58,0.35)';
          g.lineWidth = 0.6;
          g.strokeRect(px + 0.5, py + 0.5, cw, ch);
        }
        const text = font >= 7 ? bankCellLabel(label, x, pic.offsets[x]!, b, acc) : '';
        if (text && g.measureText(text).width <= cw - 3) {
          g.fillStyle = darkBackground(BANK_PALETTE[b]!, 1) ? '#ffffff' : '#1d2330';
          g.fillText(text, px + cw / 2, py + ch / 2 + 1);
        }
        if (map.ways[x]! > 1) {
          g.strokeStyle = '#d00000';
          if (big) {
            g.lineWidth = 2;
            g.strokeRect(px + 1.5, py + 1.5, cw - 3, ch - 3);
          } else {
            g.fillStyle = '#d00000';
            g.fillRect(px, py, Math.max(1, Math.floor(cw / 4)), ch);
          }
        }
        if (x === hovered) {
          g.strokeStyle = '#1d2330';
          g.lineWidth = 2;
          g.strokeRect(px + 1, py + 1, Math.max(1, cw - 2), Math.max(1, ch - 2));
        }
      }
    }
    drawAxes(g, view, { colGap: 28, rowGap: 14, pad: 6 });
  };
  const schedule = redrawOnScroll(scroller, draw);
  const idle = `${n.toLocaleString('en')} cells (${rows} × ${cols}); fill = bank, red = a conflicted bank in a phase that read the cell; hover a cell`;
  hover.textContent = idle;
  const at = (ev: MouseEvent): number => cellAt(ev, canvas, scroller, { rows, cols, cw, ch, top, left }, index);
  canvas.addEventListener('mousemove', (ev) => {
    const x = at(ev);
    if (x === hovered) return;
    hovered = x;
    schedule();
    if (x < 0) {
      delete hover.dataset['index'];
      hover.textContent = idle;
      return;
    }
    const w = map.ways[x]!;
    const who = acc.thread[x]! >= 0 ? `   T${acc.thread[x]} V${acc.value[x]}` : '   not accessed';
    hover.dataset['index'] = String(x);
    hover.textContent =
      `x = ${x}   coordinate ${formatTuple(indexToCoord(innerLayout(v.m), x))}   offset ${pic.offsets[x]}   bank ${map.bank[x]}${who}` +
      (w > 1 ? `   ${w}-way conflict` : w === 1 ? '   no conflict' : '');
  });
  canvas.addEventListener('mouseleave', () => {
    hovered = -1;
    schedule();
    delete hover.dataset['index'];
    hover.textContent = idle;
  });
  schedule();
  return wrap;
}

/** Build the panel into `host` (a card of the page). */
export function mountMemoryPanel(host: HTMLElement, hooks: MemoryPanelHooks): void {
  const mIn = h('input', { type: 'text', class: 'layout-in', 'data-testid': 'mem-layout', spellcheck: 'false', value: DEFAULTS.m });
  const tvIn = h('input', { type: 'text', class: 'layout-in', 'data-testid': 'mem-tv', spellcheck: 'false', value: DEFAULTS.tv });
  const eSel = h('select', { 'data-testid': 'mem-elem' }, ...[1, 2, 4, 8, 16].map((e) => h('option', { value: String(e) }, `${e} byte${e > 1 ? 's' : ''}`)));
  eSel.value = DEFAULTS.e;
  const labelSel = h(
    'select',
    { 'data-testid': 'mem-label' },
    h('option', { value: 'offset' }, 'offset'),
    h('option', { value: 'tv' }, 'thread, value (T5 V2)'),
    h('option', { value: 'bank' }, 'bank'),
    h('option', { value: 'none' }, 'nothing'),
  );
  const viewSel = h(
    'select',
    { 'data-testid': 'mem-view' },
    h('option', { value: 'fit' }, 'fit the panel'),
    h('option', { value: 'cells' }, 'readable cells (scroll)'),
  );
  const out = h('div', { class: 'mem-out' });
  const pic = h('div', { class: 'mem-picture' });
  const hover = h('div', { class: 'hover-line', 'data-testid': 'mem-hover' });
  const exports = h('div', { class: 'mem-exports' });
  const btn = h('button', { type: 'button', 'data-testid': 'mem-search' }, 'Find a conflict-free swizzle');
  const found = h('div', { class: 'mem-found', 'data-testid': 'mem-found' });
  const inputs = h(
    'div',
    { class: 'mem-inputs' },
    row('Memory layout M', mIn),
    row('TV layout (thread, value)', tvIn),
    row('Element size', eSel),
    row('Cells show', labelSel),
    row('View', viewSel),
  );
  fill(host, h('h2', {}, 'Shared-memory banks'), inputs, out, pic, hover, exports, btn, found);

  const read = (): { m: LayoutFunction; pattern: AccessPattern } => {
    const m = parseLayoutFunction(mIn.value, 'M');
    const tv = parseLayoutFunction(tvIn.value, 'TV');
    if ('kind' in tv) throw new LayoutError('domain', 'the TV layout must be a plain layout');
    return { m, pattern: { tv, e: Number(eSel.value) } };
  };

  const update = (): void => {
    try {
      const { m, pattern } = read();
      const map = bankMap(m, pattern.tv, pattern.e);
      fill(out, reportTable(map.report));
      const n = map.bank.length;
      if (n > MAX_PICTURE) {
        fill(pic, h('p', { class: 'placeholder' }, `${n} cells: too many to draw (at most ${MAX_PICTURE})`));
        fill(exports);
        hover.textContent = '';
        return;
      }
      const picture = composedPicture(m, { max: MAX_PICTURE });
      const tvs = threadValues(pattern.tv);
      const acc = accessorsOf(tvs.index, tvs.threads, n);
      const label = labelSel.value as BankLabel;
      fill(pic, bankCanvas({ m, pic: picture, map, acc, label, fit: viewSel.value === 'fit' }, hover));
      const opts = { label, accessors: acc };
      const tooBig = (): void => {
        if (size(innerLayout(m)) > MAX_SHOW) throw new LayoutError('bad-request', `${n} cells: too many to export (at most ${MAX_SHOW})`);
      };
      fill(
        exports,
        exportButtons('mem-export', {
          base: 'banks',
          svg: () => (tooBig(), bankSvg(picture, map.bank, map.ways, `banks of ${formatLayoutFunction(m)}, ${pattern.e}-byte elements`, opts)),
          tikz: () => (tooBig(), bankTikz(picture, map.bank, map.ways, opts)),
        }),
      );
    } catch (e) {
      fill(
        out,
        h('p', { class: 'inline-error', 'data-error-kind': e instanceof LayoutError ? e.kind : 'internal' }, e instanceof Error ? e.message : String(e)),
      );
      fill(pic);
      fill(exports);
      hover.textContent = '';
    }
  };

  btn.addEventListener('click', () => {
    void (async () => {
      btn.disabled = true;
      fill(found, 'searching…');
      try {
        const { m, pattern } = read();
        const base = innerLayout(m);
        const cands = swizzleCandidates(base);
        const device = await hooks.device();
        const t0 = performance.now();
        const results = device
          ? await new (await import('../engine/conflicts-gpu.js')).GpuConflictSearch(device).search(cands, [pattern])
          : searchCpu(cands, [pattern]);
        const target = targetVectors([pattern], base);
        const ranked = rankResults(cands, results, target);
        const free = ranked.filter((r) => r.conflictFree && r.kept);
        const secs = ((performance.now() - t0) / 1000).toFixed(2);
        fill(
          found,
          h(
            'p',
            { class: 'muted' },
            `${cands.length} swizzles, ${free.length} conflict-free at vector ${target[0]} (${device ? 'GPU' : 'CPU'}, ${secs} s)${free.length ? ': click one to use it' : '; the best:'}`,
          ),
          ...(free.length ? free : ranked).slice(0, 6).map((r) =>
            h(
              'button',
              {
                type: 'button',
                class: 'chip',
                'data-layout': r.layout,
                'data-vector': String(r.vectors?.[0] ?? ''),
                'data-instructions': String(r.instructions ?? ''),
                title: `vector ${r.vectors?.join('/') ?? '-'}, ${r.instructions ?? '-'} instructions, ${r.wavefronts} wavefronts in ${r.phases} phases`,
              },
              r.layout,
            ),
          ),
        );
        found.querySelectorAll<HTMLButtonElement>('button[data-layout]').forEach((b) =>
          b.addEventListener('click', () => {
            mIn.value = b.dataset['layout']!;
            hooks.useLayout(b.dataset['layout']!);
            update();
          }),
        );
      } catch (e) {
        fill(found, h('p', { class: 'inline-error' }, e instanceof Error ? e.message : String(e)));
      } finally {
        btn.disabled = false;
      }
    })();
  });
  for (const el of [mIn, tvIn]) el.addEventListener('input', update);
  for (const el of [eSel, labelSel, viewSel]) el.addEventListener('change', update);
  update();
}
