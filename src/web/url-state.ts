/**
 * Every panel's state in the page's address (issue 25, item 9), so that a setup (an atom, a copy, a linear layout, a
 * memory layout and its side) is shared by its link: a panel's fields (its inputs, selects and text areas with a
 * data-testid) are keys of the query, named by that test id, written when they change and read back when the panel
 * mounts. A field at the value it mounted with is left out of the address. main.ts owns its own keys (layout, op,
 * layout2, arg); every other key is kept as it is.
 */

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

const isField = (e: EventTarget | null): e is Field => e instanceof HTMLInputElement || e instanceof HTMLSelectElement || e instanceof HTMLTextAreaElement;

/** Set (or, for null, remove) one key of the address, the others kept; the history entry is replaced. */
export function setUrlParam(key: string, value: string | null): void {
  const q = new URLSearchParams(location.search);
  if (value === null) q.delete(key);
  else q.set(key, value);
  const text = q.toString();
  const url = `${location.pathname}${text ? `?${text}` : ''}`;
  if (url !== `${location.pathname}${location.search}`) history.replaceState(null, '', url);
}

/** The fields of a panel that the address keeps (by their test ids, in document order). */
function fieldsOf(host: HTMLElement): Field[] {
  return [...host.querySelectorAll<Field>('input[data-testid], select[data-testid], textarea[data-testid]')].filter(
    (f) => !(f instanceof HTMLInputElement) || f.type !== 'file',
  );
}

/**
 * Restore `host`'s fields from the address (in document order, each with the input and change events a user's edit
 * raises, so the panel redraws as for one), then keep the address up to date with them. Call once the panel has
 * mounted.
 */
export function persistPanel(host: HTMLElement): void {
  const defaults = new Map<string, string>();
  const q = new URLSearchParams(location.search);
  for (const f of fieldsOf(host)) {
    const key = f.dataset['testid']!;
    defaults.set(key, f.value);
    const v = q.get(key);
    if (v === null || v === f.value) continue;
    f.value = v;
    f.dispatchEvent(new Event('input', { bubbles: true }));
    f.dispatchEvent(new Event('change', { bubbles: true }));
  }
  const save = (ev: Event): void => {
    const f = ev.target;
    if (!isField(f)) return;
    const key = f.dataset['testid'];
    if (key === undefined || !defaults.has(key)) return;
    setUrlParam(key, f.value === defaults.get(key) ? null : f.value);
  };
  host.addEventListener('input', save);
  host.addEventListener('change', save);
}
