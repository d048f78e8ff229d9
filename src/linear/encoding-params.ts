/**
 * The parameters of an encoding attribute (docs/linear.md, "Encodings"), read from the tree of
 * attr.ts with the checks Triton's verifiers make: the keys an encoding takes, integers, booleans,
 * lists of powers of two, an `order` permutation, the `CGALayout` vectors. A missing or unknown key
 * or a value of the wrong type is `parse`; a value Triton refuses is `domain`.
 */
import { LayoutError } from '../algebra/errors.js';
import type { Attr, AttrValue } from './attr.js';
import { MAX_DIM_LOG2 } from './value.js';

const domain = (msg: string): LayoutError => new LayoutError('domain', msg);
const parseError = (msg: string): LayoutError => new LayoutError('parse', msg);

/** A power of two from 1 to 2^30 (the limit of a dim). */
export const isPow2 = (n: number): boolean => Number.isSafeInteger(n) && n >= 1 && n <= 2 ** MAX_DIM_LOG2 && (n & (n - 1)) === 0;

/** The keys an encoding reads: required ones, then optional ones. */
export interface Keys {
  readonly required: readonly string[];
  readonly optional: readonly string[];
}

/** Checks the keys of `a` (an unknown key, a missing one or extra parameters after the dictionary: `parse`). */
export function checkKeys(a: Attr, keys: Keys): void {
  const what = `#ttg.${a.name}`;
  for (const k of a.params.keys()) {
    if (!keys.required.includes(k) && !keys.optional.includes(k)) throw parseError(`${what}: unknown key '${k}'`);
  }
  for (const k of keys.required) if (!a.params.has(k)) throw parseError(`${what}: missing key '${k}'`);
  if (a.extra.size > 0) throw parseError(`${what}: unexpected '${[...a.extra.keys()][0]}' after the dictionary`);
}

/** The integer at `key` (not an integer: `parse`; beyond 2^53 − 1: `domain`). */
export function intParam(a: Attr, key: string): number {
  const v = a.params.get(key);
  if (typeof v !== 'number') throw parseError(`#ttg.${a.name}: '${key}' must be an integer`);
  if (!Number.isSafeInteger(v)) throw domain(`#ttg.${a.name}: ${key} is out of range (beyond 2^53-1)`);
  return v;
}

/** The boolean at `key`, `dflt` when absent (not a boolean: `parse`). */
export function boolParam(a: Attr, key: string, dflt: boolean): boolean {
  const v = a.params.get(key);
  if (v === undefined) return dflt;
  if (typeof v !== 'boolean') throw parseError(`#ttg.${a.name}: '${key}' must be true or false`);
  return v;
}

/** `v` as a list of integers, read for `key` (not one: `parse`; an entry beyond 2^53 − 1: `domain`). */
function intsOf(a: Attr, key: string, v: AttrValue | undefined): number[] {
  if (!Array.isArray(v) || !(v as readonly AttrValue[]).every((x) => typeof x === 'number')) {
    throw parseError(`#ttg.${a.name}: '${key}' must be a list of integers`);
  }
  const xs = v as number[];
  for (const x of xs) if (!Number.isSafeInteger(x)) throw domain(`#ttg.${a.name}: ${key} has an entry out of range (beyond 2^53-1)`);
  return xs;
}

/** The list of integers at `key` (intsOf). */
export const intsParam = (a: Attr, key: string): number[] => intsOf(a, key, a.params.get(key));

/** A list of powers of two of length r. */
export function pow2List(a: Attr, key: string, r: number): number[] {
  const xs = intsParam(a, key);
  if (xs.length !== r) throw domain(`#ttg.${a.name}: ${key} has ${xs.length} entries for rank ${r}`);
  for (const x of xs) if (!isPow2(x)) throw domain(`#ttg.${a.name}: ${key} = [${xs.join(', ')}] has ${x}, not a power of two`);
  return xs;
}

/** `order`: a permutation of 0 … r−1. */
export function orderParam(a: Attr, key: string, r: number): number[] {
  const xs = intsParam(a, key);
  const seen = new Set(xs);
  if (xs.length !== r || seen.size !== r || xs.some((x) => x < 0 || x >= r)) {
    throw domain(`#ttg.${a.name}: ${key} = [${xs.join(', ')}] is not a permutation of 0..${r - 1}`);
  }
  return xs;
}

/** The CGALayout vectors (one per block bit, r entries each), or null when absent. */
export function cgaParam(a: Attr, r: number): number[][] | null {
  const v = a.params.get('CGALayout');
  if (v === undefined) return null;
  if (!Array.isArray(v)) throw parseError(`#ttg.${a.name}: 'CGALayout' must be a list of lists of integers`);
  return (v as readonly AttrValue[]).map((b) => {
    const xs = intsOf(a, 'CGALayout', b);
    if (xs.length !== r) throw domain(`#ttg.${a.name}: a CGALayout vector has ${xs.length} entries for rank ${r}`);
    for (const x of xs) if (x < 0 || x >= 2 ** MAX_DIM_LOG2) throw domain(`#ttg.${a.name}: CGALayout has ${x}, out of range`);
    return xs;
  });
}
