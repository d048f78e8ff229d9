/**
 * Exporting a picture of the page as a file: buttons that hand the browser a text document (SVG
 * or TikZ, from src/render/) to save. Test hooks: the buttons' data-testid (`<prefix>-svg`,
 * `<prefix>-tikz`) and data-file (the file name offered).
 */
import { h } from './dom.js';

/** Offer `text` as a download named `name`. */
export function downloadText(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h('a', { href: url, download: name });
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The document makers of one picture, and the base of its file names. */
export interface PictureExport {
  readonly base: string;
  readonly svg: () => string;
  readonly tikz: () => string;
}

/** "Save SVG" and "Save TikZ" buttons for a picture; a maker that throws (a picture too large
 *  for the text media) leaves its message as the button's title. */
export function exportButtons(prefix: string, ex: PictureExport): HTMLElement {
  const row = h('div', { class: 'export-row' });
  for (const [kind, ext, type, make] of [
    ['svg', 'svg', 'image/svg+xml', ex.svg],
    ['tikz', 'tex', 'text/x-tex', ex.tikz],
  ] as const) {
    const file = `${ex.base}.${ext}`;
    const b = h(
      'button',
      { type: 'button', class: 'small', 'data-testid': `${prefix}-${kind}`, 'data-file': file, title: `save the picture as ${file}` },
      kind === 'svg' ? 'Save SVG' : 'Save TikZ',
    );
    b.addEventListener('click', () => {
      try {
        downloadText(file, type, make());
      } catch (e) {
        b.title = e instanceof Error ? e.message : String(e);
      }
    });
    row.append(b);
  }
  return row;
}
