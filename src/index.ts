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
export { parseLayout, parseTuple, parseProfile, formatLayout, formatTuple, formatProfile } from './algebra/notation.js';
export { coalesce, coalesceFlat, coalesceRelative, isCoalesced, isCoalescedOver, relativeModes as relativeModesOfLayout } from './algebra/coalesce.js';
export { complement, isComplementable, isNComplementable, sortEntries, span } from './algebra/complement.js';
export { compose } from './algebra/compose.js';
export { logicalDivide, logicalProduct, productModulus } from './algebra/divide.js';
export { isCompact, isTractable } from './algebra/properties.js';
export { rightInverse, leftInverse } from './cute/inverse.js';
export { filter, filterZeros } from './cute/filter.js';
export { maxCommonVector, maxCommonLayout } from './cute/common.js';
export { sliceLayout, dice, sliceOffset, sliceComposed, diceComposed, parseSliceCoord, type SliceCoord } from './cute/slice.js';
export { upcast, downcast } from './cute/cast.js';
export { ops, opsByName, runOp } from './ops.js';
export type { OpSpec, OpContext, Json } from './op-spec.js';
export type * from './engine/backend.js';
