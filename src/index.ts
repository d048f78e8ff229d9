/**
 * layoutgpu: CuTe layout algebra, exact on the CPU (the paper's names), with layout functions
 * evaluated in bulk on the GPU through WebGPU.
 */
export * from './algebra/errors.js';
export * as tuple from './algebra/tuple.js';
export type { Tuple, Profile } from './algebra/tuple.js';
export {
  type Layout,
  type Flat,
  makeLayout,
  makeFlat,
  flat,
  rank,
  length,
  depth,
  size,
  cosize,
  profile,
  mode,
  modes,
  entry,
  flatten,
  concat,
  substitute as substituteLayout,
  withProfile,
  isNondegenerate,
  phi,
  indexToCoord,
  coordToOffset,
  layoutsEqual,
  EMPTY,
  TRIVIAL,
} from './algebra/layout.js';
export { parseLayout, parseTuple, parseProfile, formatLayout, formatTuple, formatProfile, colMajorStride } from './algebra/notation.js';
export { coalesce, coalesceFlat, coalesceRelative, isCoalesced, isCoalescedOver, relativeModes as relativeModesOfLayout } from './algebra/coalesce.js';
export { complement, isComplementable, isNComplementable, sortEntries, span } from './algebra/complement.js';
export { compose } from './algebra/compose.js';
export { logicalDivide, logicalProduct, productModulus } from './algebra/divide.js';
export { isCompact, isTractable } from './algebra/properties.js';
// CuTe's vocabulary (SPEC §8.1–8.4): tilers, by-mode operations, zipped/tiled/flat forms,
// blocked/raked products, tile_to_shape, make_layout
export {
  type Tiler,
  type ByModeTiler,
  type Underscore,
  UNDERSCORE,
  isByMode,
  isUnderscore,
  parseTiler,
  formatTiler,
  parseLayoutArg,
} from './cute/tiler.js';
export { composeByMode, logicalDivideByMode, zippedDivide, tiledDivide, flatDivide } from './cute/divide.js';
export { logicalProductByMode, zippedProduct, tiledProduct, flatProduct, blockedProduct, rakedProduct, tileToShape } from './cute/product.js';
export { makeOrderedLayout, type LayoutOrder } from './cute/make.js';
export { rightInverse, leftInverse } from './cute/inverse.js';
export { filter, filterZeros } from './cute/filter.js';
export { maxCommonVector, maxCommonLayout } from './cute/common.js';
export { sliceLayout, dice, sliceOffset, parseSliceCoord, type SliceCoord } from './cute/slice.js';
export { upcast, downcast } from './cute/cast.js';
export { ops, opsByName, runOp } from './ops.js';
export type { OpSpec, OpContext, Json } from './op-spec.js';
export type * from './engine/backend.js';
