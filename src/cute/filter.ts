/**
 * Filters (docs/semantics.md §8.5; CuTe `filter_zeros`, `filter` of include/cute/layout.hpp).
 */
import { coalesce } from '../algebra/coalesce.js';
import { mapShape, type Layout } from '../algebra/layout.js';

/**
 * CuTe's `filter_zeros(L)`: every entry with stride 0 gets shape 1; the structure and the
 * strides are kept. Pre: a layout (any size). Errors: none.
 * Example: filterZeros(parseLayout('(4,1,(2,3)):(1,5,(0,8))')) is (4,1,(1,3)):(1,5,(0,8)).
 */
export function filterZeros(l: Layout): Layout {
  return mapShape(l, (s, d) => (d === 0 ? 1 : s));
}

/**
 * CuTe's `filter(L)` = coal(filter_zeros(L)): every stride-0 and shape-1 entry gone, the
 * rest coalesced; 1:0 when nothing remains. Errors: none beyond L's own.
 * Example: filter(parseLayout('(4,1,(2,3)):(1,5,(0,8))')) is (4,3):(1,8).
 */
export function filter(l: Layout): Layout {
  return coalesce(filterZeros(l));
}
