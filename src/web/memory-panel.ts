/**
 * The memory panel of the page: a memory layout M (plain or Sw<B,M,S> o L), one side of a transfer in any of its
 * forms (ops/bank-sides.ts, which `layoutgpu conflicts` reads too: a TV layout, a tiled copy priced over the whole tile
 * as `copy_bank_conflicts` prices it, an MMA operand, a Triton register layout or encoding writing M's shared LL), the
 * element size and the machine (`--arch`); the bank picture (docs/semantics.md §9.2), the wavefront table (the figures
 * of `conflicts … --json` for the same inputs), and a button that searches every Sw<B,M,S> o inner(M): for a TV
 * layout on navigator.gpu's device (the CPU search where there is none), for the other forms each candidate priced as
 * the form is (searchSide); ranked as `verify conflict-free` ranks (the vector widths kept: the widest any candidate
 * reaches, then instructions, wavefronts). A found swizzle is clicked into M and into the main layout input.
 *
 * The bank picture is a canvas that draws real tiles (the 128×64 tile's 8,192 cells): "fit" (the
 * default) sizes the cells so that the whole tile fits the panel, "cells" draws them at a
 * readable size in a scroller (only what is in view). Each cell is filled with its bank's colour
 * (32 told apart), labelled with its offset, the thread and value that access it (`T5 V2`) or its
 * bank; conflicted cells are outlined in red (a red edge where the cells are small). Hover names
 * the cell, its coordinate, offset, bank, accessor and conflict. The picture is exported as SVG
 * and TikZ (src/render/banks.ts).
 *
 * Stable test hooks: data-testid `mem-layout`, `mem-form` (tv, copy, mma, ll), `mem-tv` (the side's text in its
 * form), `mem-elem`, `mem-arch` (sm80, sm90, sm100, gfx942, gfx950), `mem-side` (a copy's shared-memory side: auto, src, dst), `mem-operand` (A, B, C), `mem-label`,
 * `mem-view`, `mem-priced` (what was priced), `mem-table` (data-wavefronts, data-conflicts), `mem-canvas` (data-rows,
 * data-cols, data-cells, data-conflicted, data-view, data-label and the geometry in CSS pixels: data-cw, data-ch,
 * data-left, data-top), `mem-hover` (data-index of the hovered cell), `mem-export-svg`, `mem-export-tikz`,
 * `mem-search`, `mem-found` (buttons with data-layout, data-vector, data-instructions).
 */
import { indexToCoord, modes, size } from '../algebra/layout.js';
import { LayoutError } from '../algebra/errors.js';
import { formatTuple } from '../algebra/notation.js';
import { formatLayoutFunction, innerLayout, type LayoutFunction } from '../cute/composed.js';
import { readLayoutFunction } from '../ops/args.js';
import type { BankReport } from '../memory/banks.js';
import { DEFAULT_MACHINE, MACHINE_NAMES, machineByName, type BankTarget } from '../memory/machines.js';
import { keptVectors, rankResults, searchCpu, swizzleCandidates, widenVectors, type AccessPattern, type CandidateResult } from '../memory/search.js';
import { bankSide, loadBankSides, searchSide, sideOver, SIDE_FORMS, type BankSideForm, type SideWithoutMemory } from '../ops/bank-sides.js';
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

function row(label: string, input: HTMLElement, wide = false): HTMLElement {
  return h('div', { class: wide ? 'field wide' : 'field' }, h('label', {}, label), input);
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

/** What the bank canvas draws: per tile index its bank and the conflict it met (bankSide's picture). */
export interface BankView {
  readonly m: LayoutFunction;
  readonly pic: Picture;
  readonly map: { readonly bank: Int32Array; readonly ways: Int32Array };
  readonly acc: Accessors;
  readonly label: BankLabel;
  readonly fit: boolean;
  /** the canvas's data-testid (the memory panel's `mem-canvas` when absent) */
  readonly testid?: string;
}

/** The bank picture on a canvas (see the module comment); `hover` is the line under it. (The planner panel's too.) */
export function bankCanvas(v: BankView, hover: HTMLElement): HTMLElement {
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
    'data-testid': v.testid ?? 'mem-canvas',
    'data-rows': String(rows),
    'data-cols': String(cols),
    'data-cells': String(n),
    'data-conflicted': String(conflicted),
    'data-view': v.fit ? 'fit' : 'cells',
    'data-label': label,
    role: 'img',
    'aria-label': `banks of ${v.pic.name ?? formatLayoutFunction(v.m)}`,
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

type SideForm = BankSideForm['form'];

/** The side forms as the chooser names them, and as the side's field is labelled (ops/bank-sides.ts reads each). */
const FORM_NAMES: Record<SideForm, string> = { tv: 'TV layout', copy: 'tiled copy', mma: 'MMA operand', ll: 'Triton layout' };
const FORM_LABELS: Record<SideForm, string> = {
  tv: 'TV layout (thread, value) → tile index',
  copy: 'tiled copy (JSON object: atom, bits, thr/val or mma/operand)',
  mma: 'MMA operand (tiled MMA JSON object: atom, layout, permutation)',
  ll: 'Triton register layout (an LL in any form, or a #ttg encoding)',
};
const FORM_PLACEHOLDERS: Record<SideForm, string> = {
  tv: 'e.g. ((8,4),(8,2)):((1,64),(8,256))',
  copy: '{"atom":"SM75_U32x4_LDSM_N","bits":16,"thr":"(32,4):(4,1)","val":"(1,8)"}',
  mma: '{"atom":"SM80_16x8x16_F32F16F16F32_TN","layout":"(2,2,1)"}',
  ll: '#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>',
};

/** The panel's options, each a select of the page (and so a key of its address, url-state.ts). */
function options(): Record<'e' | 'arch' | 'side' | 'operand' | 'label' | 'view', HTMLSelectElement> {
  const sel = (testid: string, opts: readonly [string, string][]): HTMLSelectElement =>
    h('select', { 'data-testid': testid }, ...opts.map(([v, t]) => h('option', { value: v }, t)));
  return {
    e: sel(
      'mem-elem',
      [1, 2, 4, 8, 16].map((e) => [String(e), `${e} byte${e > 1 ? 's' : ''}`]),
    ),
    arch: sel(
      'mem-arch',
      MACHINE_NAMES.map((a) => [a, a === DEFAULT_MACHINE ? `${a} (the default)` : a]),
    ),
    side: sel('mem-side', [
      ['auto', 'by the atom'],
      ['src', 'src'],
      ['dst', 'dst'],
    ]),
    operand: sel('mem-operand', [
      ['A', 'A'],
      ['B', 'B'],
      ['C', 'C'],
    ]),
    label: sel('mem-label', [
      ['offset', 'offset'],
      ['tv', 'thread, value (T5 V2)'],
      ['bank', 'bank'],
      ['none', 'nothing'],
    ]),
    view: sel('mem-view', [
      ['fit', 'fit the panel'],
      ['cells', 'readable cells (scroll)'],
    ]),
  };
}

/** Build the panel into `host` (a card of the page). */
export function mountMemoryPanel(host: HTMLElement, hooks: MemoryPanelHooks): void {
  const mIn = h('textarea', { rows: '1', class: 'layout-in', 'data-testid': 'mem-layout', spellcheck: 'false' });
  mIn.value = DEFAULTS.m;
  const formSel = h('select', { 'data-testid': 'mem-form' }, ...SIDE_FORMS.map((f) => h('option', { value: f }, FORM_NAMES[f])));
  const tvIn = h('textarea', { rows: '1', class: 'layout-in', 'data-testid': 'mem-tv', spellcheck: 'false' });
  tvIn.value = DEFAULTS.tv;
  const opt = options();
  opt.e.value = DEFAULTS.e;
  opt.arch.value = DEFAULT_MACHINE;
  const out = h('div', { class: 'mem-out' });
  const priced = h('p', { class: 'muted', 'data-testid': 'mem-priced' });
  const pic = h('div', { class: 'mem-picture' });
  const hover = h('div', { class: 'hover-line', 'data-testid': 'mem-hover' });
  const exports = h('div', { class: 'mem-exports' });
  const btn = h('button', { type: 'button', 'data-testid': 'mem-search' }, 'Find a conflict-free swizzle');
  const found = h('div', { class: 'mem-found', 'data-testid': 'mem-found' });
  const sideLabel = h('label', {}, FORM_LABELS.tv);
  const fields = {
    e: row('Element size', opt.e),
    arch: row('Machine (--arch)', opt.arch),
    side: row('Shared-memory side (ldmatrix: src; stmatrix, cp.async: dst)', opt.side),
    operand: row('Operand', opt.operand),
  };
  const inputs = h(
    'div',
    { class: 'mem-inputs' },
    row('Memory layout M', mIn, true),
    row('The side is a', formSel),
    h('div', { class: 'field wide' }, sideLabel, tvIn),
    fields.e,
    fields.arch,
    fields.side,
    fields.operand,
    row('Cells show', opt.label),
    row('View', opt.view),
  );
  fill(host, h('h2', {}, 'Shared-memory banks'), inputs, out, priced, pic, hover, exports, btn, found);

  /** the side as bankSide reads it, without its memory (an LL's encoding over the tile of M: `--shape`) */
  const request = (m: LayoutFunction): SideWithoutMemory => {
    const text = tvIn.value;
    const elem = Number(opt.e.value);
    const form = formSel.value as SideForm;
    if (form === 'copy') return { form, copy: text, ...(opt.side.value === 'auto' ? {} : { side: opt.side.value }) };
    if (form === 'mma') return { form, mma: text, operand: opt.operand.value, elem };
    if (form === 'll') return { form, r: text, shape: modes(innerLayout(m)).map(size).join('x'), elem };
    return { form, tv: text, elem };
  };
  /** the machine: none at the default, as `conflicts` without --arch (§9.2's NVIDIA model, which is sm90's) */
  const target = (): BankTarget | undefined => (opt.arch.value === DEFAULT_MACHINE ? undefined : { machine: machineByName(opt.arch.value) });
  /** the form's fields: the element size where the form needs one, the copy's side, the operand */
  const showFields = (form: SideForm): void => {
    fields.e.hidden = form === 'copy';
    fields.side.hidden = form !== 'copy';
    fields.operand.hidden = form !== 'mma';
    sideLabel.textContent = FORM_LABELS[form];
    tvIn.placeholder = FORM_PLACEHOLDERS[form];
  };
  const clear = (): void => {
    fill(pic);
    fill(exports);
    fill(priced);
    hover.textContent = '';
  };
  const fail = (e: unknown): void => {
    fill(out, h('p', { class: 'inline-error', 'data-error-kind': e instanceof LayoutError ? e.kind : 'internal' }, e instanceof Error ? e.message : String(e)));
    clear();
  };

  let generation = 0;
  const update = (): void => {
    const form = formSel.value as SideForm;
    showFields(form);
    const g = ++generation;
    const loading = loadBankSides(form);
    // the atoms' and the linear layouts' rooms load on first use; the newest request then draws
    if (loading) {
      fill(out, h('p', { class: 'muted' }, 'loading…'));
      void loading.then(() => g === generation && show(), fail);
    } else show();
  };

  const show = (): void => {
    try {
      const m = readLayoutFunction(mIn.value, 'M');
      const n = size(innerLayout(m));
      // the analysis of `conflicts … --json` for the same inputs, and its picture (as `conflicts --svg` draws it)
      const a = bankSide(sideOver(request(m), m), n <= MAX_PICTURE, target());
      fill(out, reportTable(a.report));
      fill(priced, `priced: ${a.heading}`);
      if (a.picture === null) {
        clear();
        fill(pic, h('p', { class: 'placeholder' }, `${n} cells: too many to draw (at most ${MAX_PICTURE})`));
        return;
      }
      const { bank, ways, accesses } = a.picture;
      const picture = composedPicture(m, { max: MAX_PICTURE });
      const acc = accessorsOf(accesses.index, accesses.threads, n);
      const label = opt.label.value as BankLabel;
      fill(pic, bankCanvas({ m, pic: picture, map: { bank, ways }, acc, label, fit: opt.view.value === 'fit' }, hover));
      const exportOpts = { label, accessors: acc };
      const tooBig = (): void => {
        if (n > MAX_SHOW) throw new LayoutError('bad-request', `${n} cells: too many to export (at most ${MAX_SHOW})`);
      };
      fill(
        exports,
        exportButtons('mem-export', {
          base: 'banks',
          svg: () => (tooBig(), bankSvg(picture, bank, ways, a.caption, exportOpts)),
          tikz: () => (tooBig(), bankTikz(picture, bank, ways, exportOpts)),
        }),
      );
    } catch (e) {
      fail(e);
    }
  };

  btn.addEventListener('click', () => {
    void (async () => {
      btn.disabled = true;
      fill(found, 'searching…');
      try {
        const form = formSel.value as SideForm;
        await loadBankSides(form);
        const m = readLayoutFunction(mIn.value, 'M');
        const side = request(m);
        const on = target();
        const cands = swizzleCandidates(innerLayout(m));
        const t0 = performance.now();
        let results: CandidateResult[];
        let where = 'CPU';
        if (side.form === 'tv') {
          // a TV layout: the search of `verify conflict-free --swizzles` (on the GPU where there is one)
          const tv = readLayoutFunction(side.tv, 'TV');
          if ('kind' in tv) throw new LayoutError('domain', 'the TV layout must be a plain layout');
          const pattern: AccessPattern = { tv, e: side.elem!, ...(on ? { target: on } : {}) };
          const device = await hooks.device();
          if (device) where = 'GPU';
          results = device
            ? await new (await import('../engine/conflicts-gpu.js')).GpuConflictSearch(device).search(cands, [pattern])
            : searchCpu(cands, [pattern]);
        } else {
          // every other form: each candidate priced as bankSide prices the form over it (searchSide)
          results = searchSide(cands, side, on);
        }
        // the widths kept, by verify conflict-free's rule (no --vec here): the widest vector any accessible candidate reaches
        const kept = keptVectors([{}], widenVectors([], results));
        const ranked = rankResults(cands, results, kept);
        const free = ranked.filter((x) => x.conflictFree && x.kept);
        const secs = ((performance.now() - t0) / 1000).toFixed(2);
        fill(
          found,
          h(
            'p',
            { class: 'muted' },
            `${cands.length} swizzles, ${free.length} conflict-free at vector ${kept[0]} (${where}, ${secs} s)${free.length ? ': click one to use it' : '; the best:'}`,
          ),
          ...(free.length ? free : ranked).slice(0, 6).map((x) =>
            h(
              'button',
              {
                type: 'button',
                class: 'chip',
                'data-layout': x.layout,
                'data-vector': String(x.vectors?.[0] ?? ''),
                'data-instructions': String(x.instructions ?? ''),
                title: `vector ${x.vectors?.join('/') ?? '-'}, ${x.instructions ?? '-'} instructions, ${x.wavefronts} wavefronts in ${x.phases} phases`,
              },
              x.layout,
            ),
          ),
        );
        found.querySelectorAll<HTMLButtonElement>('button[data-layout]').forEach((b) =>
          b.addEventListener('click', () => {
            mIn.value = b.dataset['layout']!;
            mIn.dispatchEvent(new Event('input', { bubbles: true }));
            hooks.useLayout(b.dataset['layout']!);
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
  for (const el of [formSel, ...Object.values(opt)]) el.addEventListener('change', update);
  update();
}
