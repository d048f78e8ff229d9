/**
 * The inline check of the main card's inputs (docs/page.md): the message under a field with the culprit marked. A
 * field is read as the op will read it by ops/args.ts's readField.
 */
import type { LayoutError } from '../algebra/errors.js';
import { fill, h } from './dom.js';

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
