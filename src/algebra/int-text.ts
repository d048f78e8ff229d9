/**
 * Integers as the request wrote them (docs/protocol.md: a message names the problem, and a number it
 * quotes is never rounded). A JSON number beyond 2^53 − 1 reaches an op as the nearest double
 * (9007199254740993 as 9007199254740992, 99999999999999999999999 as 1e+23), so the text that wrote
 * it is kept aside while the request runs: `withIntTexts(integerTexts(text), f)` runs f knowing the
 * texts of text's integers beyond 2^53 − 1, and `intText(v)` quotes v: v itself when it is a safe
 * integer, else the text that wrote it, else (no text known, or two texts that round to the same
 * double) the words "an integer beyond 2^53 − 1". Like the deadline (deadline.ts), the texts are in
 * force for the synchronous part of the request.
 */

/** What a message says of an integer beyond 2^53 − 1 whose text is not known. */
export const BEYOND_SAFE = 'an integer beyond 2^53 − 1';

/** the texts in force: a double → the one text that wrote it (null: two texts round to it) */
let inForce: ReadonlyMap<number, string | null> = new Map();
/** text in force whose integers are not read yet (setRequestText) */
let pending: string | null = null;

/** a JSON number token, or a double-quoted string (skipped, so its digits are not read as numbers) */
const TOKEN = /"(?:[^"\\]|\\.)*"|-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/g;

/** Add text t for v to m (null when another text already rounds to v). */
function add(m: Map<number, string | null>, v: number, t: string | null): void {
  if (!m.has(v)) m.set(v, t);
  else if (m.get(v) !== t) m.set(v, null);
}

/**
 * The texts of the integers beyond 2^53 − 1 written in s (JSON, or any text with numbers outside
 * double-quoted strings): the double each becomes → its text, or null when two texts become the
 * same double. Example: integerTexts('[9007199254740993, 1]') maps 9007199254740992 to '9007199254740993'.
 */
const MAYBE_UNSAFE = /[0-9]{16}|[0-9][eE]/;
const NONE: ReadonlyMap<number, string | null> = new Map();

export function integerTexts(s: string): ReadonlyMap<number, string | null> {
  // an unsafe integer is written with at least 16 digits or with an exponent (the common case: none, nothing allocated)
  if (!MAYBE_UNSAFE.test(s)) return NONE;
  const out = new Map<number, string | null>();
  for (const m of s.matchAll(TOKEN)) {
    const t = m[0];
    if (t.charCodeAt(0) === 0x22) continue;
    const v = Number(t);
    if (Number.isInteger(v) && !Number.isSafeInteger(v)) add(out, v, t);
  }
  return out;
}

/** Run f with the texts `m` in force as well as those already in force (nested calls add up). */
export function withIntTexts<T>(m: ReadonlyMap<number, string | null>, f: () => T): T {
  if (m.size === 0) return f();
  const saved = inForce;
  const next = new Map(saved);
  for (const [v, t] of m) add(next, v, t);
  inForce = next;
  try {
    return f();
  } finally {
    inForce = saved;
  }
}

/**
 * The text of the request now running (batch sets it for each line, null after the line's synchronous part): its
 * integers are read only if a message quotes one. Cheaper than a wrapper on the per-line hot path.
 */
export function setRequestText(text: string | null): void {
  pending = text;
}

/**
 * The texts in force now, carried into async code (after an await, withIntTexts' scope has ended): the runner puts
 * them in force again around f. Example: `const texts = carryIntTexts(); await load(); texts(() => run())`.
 */
export function carryIntTexts(): <T>(f: () => T) => T {
  const m = inForce;
  const p = pending;
  return <T>(f: () => T): T => {
    const savedM = inForce;
    const savedP = pending;
    inForce = m;
    pending = p;
    try {
      return f();
    } finally {
      inForce = savedM;
      pending = savedP;
    }
  };
}

/** The text that wrote v when v is a safe integer (itself) or a known unsafe one; else null. */
export function knownIntText(v: number): string | null {
  if (Number.isSafeInteger(v) || !Number.isInteger(v)) return String(v);
  if (pending !== null) {
    const all = new Map(inForce);
    for (const [w, t] of integerTexts(pending)) add(all, w, t);
    return all.get(v) ?? null;
  }
  return inForce.get(v) ?? null;
}

/** v as a message quotes it: knownIntText(v), else BEYOND_SAFE. */
export function intText(v: number): string {
  return knownIntText(v) ?? BEYOND_SAFE;
}

/** the one integer text: decimal digits */
const DIGITS = /^\d+$/;

/**
 * Whether `text` is a decimal integer (of any size: the caller checks the range): digits, after a `-` where `signed`,
 * nothing around them (a reader that allows white space around passes `text.trim()`, which removes what `\s` matches).
 * The one test of an integer typed as text: the CLI's options and arguments, the table's 'int' arguments on the
 * command line, the page's fields, LAYOUTGPU_THREADS.
 * Example: isIntegerText('12') is true; isIntegerText(' 12') and isIntegerText('-3') are false; isIntegerText('-3', true) is true.
 */
export function isIntegerText(text: string, signed = false): boolean {
  return DIGITS.test(signed && text.startsWith('-') ? text.slice(1) : text);
}
