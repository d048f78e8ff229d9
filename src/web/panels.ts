/**
 * The panels of the page below its main cards (the memory, atoms and linear-layout panels, and any added later): a
 * panel mounts into its card and keeps its fields in the page's address (url-state.ts).
 */
import { h } from './dom.js';
import { persistPanel } from './url-state.js';

/** A panel of the page: its card (an element of index.html, or one made as a full-width row of the page) and how it
 *  mounts there. Every panel keeps its fields in the address (web/url-state.ts); a new panel is one more entry. */
export interface Panel {
  readonly card: string;
  readonly make?: boolean;
  readonly mount: (host: HTMLElement) => void | Promise<void>;
}

/** Mount a panel into its card (made when `make` and absent), then keep its fields in the address. */
export function mountPanel(p: Panel): void {
  let host = document.getElementById(p.card);
  if (!host && p.make) {
    host = h('div', { class: 'card', id: p.card });
    document.querySelector('.page')?.append(host);
  }
  if (!host) return;
  const card = host;
  const done = p.mount(card);
  if (done instanceof Promise) void done.then(() => persistPanel(card));
  else persistPanel(card);
}
