/**
 * The inline check of the main card's inputs (docs/page.md): what a field holds, parsed as the op will read it, and
 * the message under it with the culprit marked.
 */
import { LayoutError } from '../algebra/errors.js';
import type { Layout } from '../algebra/layout.js';
import { parseLayout } from '../algebra/notation.js';
import { looksComposed, parseLayoutFunction } from '../cute/composed.js';
import { isByMode, parseLayoutArg, parseTiler } from '../cute/tiler.js';
import { fill, h } from './dom.js';

export interface Parsed {
  layout: Layout | null;
  error: LayoutError | null;
}

/** Parses an input. With `anySize` (the op takes layouts of any size: the structural ops,
 *  size, cosize, eval), a layout beyond 2^53 − 1 is not an inline error: the op's exact answer
 *  is the one outcome shown for the input (there is just no picture). With `asTiler`, the input
 *  is a tiler field (docs/semantics.md §8.2). */
export function parse(text: string, what: string, anySize = false, asTiler = false, fn = false): Parsed {
  if (!text.trim()) return { layout: null, error: null };
  try {
    if (fn && looksComposed(text)) {
      // a composed layout (Sw<B,M,S> o L) where the op takes one: its own errors; no picture
      parseLayoutFunction(text, what, anySize);
      return { layout: null, error: null };
    }
    if (asTiler) {
      // a tiler field: `<…>` and `_` are fine; only a one-dimensional tiler is a layout
      const t = parseTiler(text, what);
      return { layout: isByMode(t) || t === '_' ? null : (t as Layout), error: null };
    }
    return { layout: parseLayoutArg(text, what), error: null };
  } catch (e) {
    const err = e instanceof LayoutError ? e : new LayoutError('parse', String(e));
    if (anySize && err.kind === 'overflow') {
      try {
        parseLayout(text, what, true);
        return { layout: null, error: null };
      } catch {
        /* another error: report the first */
      }
    }
    return { layout: null, error: err };
  }
}

/** the inline error under an input: the message, and the input with the culprit marked */
export function showInlineError(el: HTMLElement, input: HTMLInputElement | HTMLTextAreaElement, text: string, err: LayoutError | null): void {
  input.classList.toggle('invalid', err !== null);
  input.setAttribute('aria-invalid', String(err !== null));
  if (!err) {
    el.hidden = true;
    el.replaceChildren();
    delete el.dataset['errorKind'];
    return;
  }
  el.hidden = false;
  el.dataset['errorKind'] = err.kind;
  const m = /at offset (\d+)/.exec(err.message);
  const children: (Node | string)[] = [h('span', { class: 'kind' }, err.kind), ' ', h('span', { class: 'msg' }, err.message)];
  if (m) {
    const pos = Number(m[1]);
    el.dataset['position'] = String(pos);
    const mark = h('div', { class: 'caret-line' });
    mark.append(h('span', {}, text.slice(0, pos)), h('mark', {}, pos < text.length ? text.slice(pos, pos + 1) : ' '), h('span', {}, text.slice(pos + 1)));
    children.push(mark);
  } else {
    delete el.dataset['position'];
  }
  fill(el, ...children);
}
