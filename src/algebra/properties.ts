/**
 * Properties of layouts: compact (docs/semantics.md §4, Def. 2.3.5.1), non-degenerate (Def. 2.3.1.24),
 * tractable (docs/semantics.md §7, Def. 2.3.10.1).
 */
import { coalesce } from './coalesce.js';
import { sortedEntries } from './complement.js';
import { flat, size, type Layout } from './layout.js';

/** Def. 2.3.5.1: Φ_L is a bijection [0, size) → [0, size). Decided exactly through the
 *  structure (Prop. 2.3.5.5, via coal): sorted by stride, coal(L)'s entries must read
 *  (s_1..s_m):(1, s_1, s_1·s_2, …) — each stride the product of the shapes before it. */
export function isCompact(l: Layout): boolean {
  const c = flat(coalesce(l));
  if (size(l) === 1) return true;
  const { shapes, strides } = sortedEntries(c.shapes, c.strides, true);
  let expect = 1;
  for (let i = 0; i < shapes.length; i++) {
    if (strides[i] !== expect) return false;
    expect *= shapes[i]!;
  }
  return true;
}

/** Def. 2.3.10.1: sorted L♭ has s_i·d_i | d_{i+1} for every consecutive pair of entries with
 *  non-zero strides (shape-1 entries included, as the definition reads). */
export function isTractable(l: Layout): boolean {
  const f = flat(l);
  const { shapes, strides } = sortedEntries(f.shapes, f.strides, false);
  for (let i = 0; i + 1 < shapes.length; i++) {
    const d = strides[i]!;
    if (d === 0) continue;
    const p = shapes[i]! * d;
    if (p > Number.MAX_SAFE_INTEGER || strides[i + 1]! % p !== 0) return false;
  }
  return true;
}
