/**
 * The memory panel of the page (issue 12, item 5): a memory layout M (plain or Sw<B,M,S> o L),
 * a TV layout and the element size; the bank picture (cells labelled with the swizzled offset,
 * filled by bank, conflicted cells outlined), the wavefront table, and a button that searches
 * every Sw<B,M,S> o inner(M) on navigator.gpu's device (the CPU search where there is none);
 * a found swizzle is clicked into M and into the main layout input.
 * Stable test hooks: data-testid `mem-layout`, `mem-tv`, `mem-elem`, `mem-table` (with
 * data-wavefronts, data-conflicts), `mem-search`, `mem-found` (buttons with data-layout).
 */
import { LayoutError } from '../algebra/errors.js';
import { formatLayoutFunction, innerLayout, parseLayoutFunction, type LayoutFunction } from '../cute/composed.js';
import { bankMap, type BankReport } from '../memory/banks.js';
import { rankResults, searchCpu, swizzleCandidates, type AccessPattern } from '../memory/search.js';
import { bankSvg } from '../render/banks.js';
import { composedPicture } from '../render/composed.js';
import { fill, h } from './dom.js';

export interface MemoryPanelHooks {
  /** the GPU device of the page's engine, or null (then the CPU searches) */
  device(): Promise<GPUDevice | null>;
  /** put a layout into the page's main input */
  useLayout(text: string): void;
}

const DEFAULTS = { m: 'Sw<3,3,3> o (8,64):(64,1)', tv: '((8,4),(8,2)):((1,64),(8,256))', e: '2' };
const MAX_PICTURE = 4096;

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
    t.append(h('tr', {}, h('th', {}, 'worst phase'), h('td', {}, `warp ${w.warp}, instruction ${w.instruction}, phase ${w.phase}: ${w.wavefronts}-way in bank ${w.bank} (threads ${w.threads.join(', ')})`)));
  }
  return t;
}

/** Parse an SVG document into a node of this page (text never becomes HTML). */
function svgNode(text: string): Node {
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  return document.importNode(doc.documentElement, true);
}

/** Build the panel into `host` (a card of the page's side column). */
export function mountMemoryPanel(host: HTMLElement, hooks: MemoryPanelHooks): void {
  const mIn = h('input', { type: 'text', class: 'layout-in', 'data-testid': 'mem-layout', spellcheck: 'false', value: DEFAULTS.m });
  const tvIn = h('input', { type: 'text', class: 'layout-in', 'data-testid': 'mem-tv', spellcheck: 'false', value: DEFAULTS.tv });
  const eSel = h('select', { 'data-testid': 'mem-elem' }, ...[1, 2, 4, 8, 16].map((e) => h('option', { value: String(e) }, `${e} byte${e > 1 ? 's' : ''}`)));
  eSel.value = DEFAULTS.e;
  const out = h('div', { class: 'mem-out' });
  const pic = h('div', { class: 'mem-picture' });
  const btn = h('button', { type: 'button', 'data-testid': 'mem-search' }, 'Find a conflict-free swizzle');
  const found = h('div', { class: 'mem-found', 'data-testid': 'mem-found' });
  fill(host, h('h2', {}, 'Shared-memory banks'), row('Memory layout M', mIn), row('TV layout (thread, value)', tvIn), row('Element size', eSel), out, pic, btn, found);

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
      const inner = innerLayout(m);
      const n = map.bank.length;
      if (n <= MAX_PICTURE && inner) fill(pic, svgNode(bankSvg(composedPicture(m), map.bank, map.ways, `banks of ${formatLayoutFunction(m)}`)));
      else fill(pic, h('p', { class: 'placeholder' }, `${n} cells: too many to draw (at most ${MAX_PICTURE})`));
    } catch (e) {
      fill(out, h('p', { class: 'inline-error', 'data-error-kind': e instanceof LayoutError ? e.kind : 'internal' }, e instanceof Error ? e.message : String(e)));
      fill(pic);
    }
  };

  btn.addEventListener('click', () => {
    void (async () => {
      btn.disabled = true;
      fill(found, 'searching…');
      try {
        const { m, pattern } = read();
        const cands = swizzleCandidates(innerLayout(m));
        const device = await hooks.device();
        const t0 = performance.now();
        const results = device
          ? await new (await import('../memory/search-gpu.js')).GpuConflictSearch(device).search(cands, [pattern])
          : searchCpu(cands, [pattern]);
        const ranked = rankResults(cands, results);
        const free = ranked.filter((r) => r.conflictFree);
        const secs = ((performance.now() - t0) / 1000).toFixed(2);
        fill(
          found,
          h('p', { class: 'muted' }, `${free.length} of ${cands.length} swizzles conflict-free (${device ? 'GPU' : 'CPU'}, ${secs} s)${free.length ? ': click one to use it' : '; the best:'}`),
          ...(free.length ? free : ranked).slice(0, 6).map((r) =>
            h('button', { type: 'button', class: 'chip', 'data-layout': r.layout, title: `${r.wavefronts} wavefronts in ${r.phases} phases` }, r.layout),
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
  for (const el of [mIn, tvIn, eSel]) el.addEventListener('input', update);
  eSel.addEventListener('change', update);
  update();
}
