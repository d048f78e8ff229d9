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
export { parseLayout, parseTuple, parseProfile, formatLayout, formatTuple, formatProfile, colMajorStride, isShapeOnly } from './algebra/notation.js';
export { coalesce, coalesceFlat, coalesceRelative, isCoalesced, isCoalescedOver, relativeModes as relativeModesOfLayout } from './algebra/coalesce.js';
export { complement, isComplementable, isNComplementable, sortEntries, span } from './algebra/complement.js';
// compose, logicalDivide and logicalProduct take a layout or a tiler as their second argument, as
// CuTe's do (docs/semantics.md §8.2–8.3): a layout with strides is one-dimensional (the paper's
// B∘A, A ⊘ B, A ⊗ B), a shape (`parseLayout('(32,32)')`, `parseTiler('(32,32)')`) or <…> by mode
export { composeByMode as compose, composeByMode as composition, logicalDivideByMode as logicalDivide } from './cute/divide.js';
export { logicalProductByMode as logicalProduct } from './cute/product.js';
export { productModulus } from './algebra/divide.js';
// CuTe's names beside the paper's: get (0-based modes), crd2idx, idx2crd (docs/vocabulary.md)
export { get, crd2idx, idx2crd } from './ops/cute-names.js';
export { isCompact, isTractable } from './algebra/properties.js';
// CuTe's vocabulary (docs/semantics.md §8.1–8.4): tilers, by-mode operations, zipped/tiled/flat forms,
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
// composed layouts Sw<B,M,S> o K o L (docs/semantics.md §9.1): one parser for a plain or composed
// layout (with CuTe's, the CuTe DSL's and pycute's prints of a swizzle), its printer, Φ and cosize
export { type Swizzle, makeSwizzle, formatSwizzle, applySwizzle, applySwizzleBig } from './cute/swizzle.js';
export {
  type ComposedLayout,
  type LayoutFunction,
  parseLayoutFunction,
  formatLayoutFunction,
  makeComposed,
  isComposed,
  innerLayout,
  phiComposed,
  phiLayoutFunctionBig,
  coordToOffsetLayoutFunction,
  cosizeLayoutFunction,
  mapInner,
} from './cute/composed.js';
// the memory system (docs/semantics.md §9.2): bank conflicts and sectors of a TV access, and the
// swizzle search: rankResults(cands, searchCpu(cands, patterns), targetVectors(patterns, base))
// over cands = swizzleCandidates(base)
export { type BankReport, type WorstPhase, type BankMap, type InstructionRow, BANKS, WARP, bankConflicts, bankMap, instructionTable } from './memory/banks.js';
export {
  type Access,
  type BankTarget,
  type Machine,
  type MachineName,
  type PhaseGroups,
  type PhaseRow,
  DEFAULT_MACHINE,
  MACHINE_NAMES,
  MACHINES,
  machineByName,
  phaseGroups,
} from './memory/machines.js';
export {
  type AccessPattern,
  type CandidateResult,
  type Ranked,
  swizzleCandidates,
  searchCpu,
  targetVectors,
  rankResults,
} from './memory/search.js';
// the hardware's atoms (docs/atoms.md): MMA and copy atoms by CuTe's names, tiled MMAs and
// copies, per-thread partitions, local tiles, and the bank conflicts of a tiled copy
export type { MmaAtomData, CopyAtomData } from './atoms/types.js';
export { mmaAtomData, copyAtomData, mmaAtomNames, copyAtomNames } from './atoms/registry.js';
export { type MmaAtom, type CopyAtom, mmaAtom, copyAtom } from './atoms/atom.js';
export { type TiledMma, type Operand, makeTiledMma } from './atoms/tiled-mma.js';
export { type TiledCopy, makeTiledCopy, makeTiledCopyFromMma } from './atoms/tiled-copy.js';
export { type TensorResult, partitionMma, partitionCopy, localTile, localPartition, parseProjection } from './atoms/partition.js';
export { type CopySide, copyBankConflicts } from './atoms/conflicts.js';
export { type TvPicture, mmaPicture, copyPicture, tvAscii, tvSvg, tvTikz } from './render/tv.js';
// Triton's linear layouts (docs/linear.md): the value, its printed forms, Triton's operations
// (receiver first, ll-prefixed here where a name would clash), the encodings, the bridge to CuTe
export { type LinearLayout, type InDim, type OutDim, makeLinearLayout, identity1D, zeros1D, supremum } from './linear/value.js';
export { parseLL, formatLL, toCanonicalJson, tritonString } from './linear/forms.js';
export {
  apply as llApply,
  compose as llCompose,
  product as llProduct,
  invert as llInvert,
  pseudoinvert as llPseudoinvert,
  invertAndCompose as llInvertAndCompose,
  isInjective as llIsInjective,
  isSurjective as llIsSurjective,
  isInvertible as llIsInvertible,
  divideLeft as llDivideLeft,
  divideRight as llDivideRight,
  sublayout as llSublayout,
  freeVariableMasks as llFreeVariableMasks,
  equalLayouts as llEqual,
} from './linear/operations.js';
export { type LinearCheck, type BridgeKind, type ToLLOptions, checkLinear, toLL, fromLL, defaultKind } from './linear/bridge.js';
export { llFromEncoding } from './linear/encodings.js';
// the shared-memory layout planner (docs/planner.md): sides, families, the price, plan_smem, Triton's layout
export { type Role, type Side, type Tile, tvSide, llSide, operandSide, copySide, vectorWidths } from './planner/sides.js';
export { type Candidate, type FamilyName, FAMILIES, BUILT_FAMILIES, candidates, memberCount } from './planner/families.js';
export { type DescriptorKind, descriptorSide, rowMajorGmem } from './planner/descriptor-sides.js';
export { type AccessPattern as PlanAccessPattern, type SidePrice, PriceScratch, priceSide, leastWavefronts } from './planner/price.js';
export { type PlanRequest, type PlanResult, type PlanEntry, type Certificate, type PlanOptions, planSmem, enumerationOf } from './planner/plan.js';
export { type PlanShardReport, type PlanShardEntry, type PlanPart, planShard, mergePlanShards } from './planner/shard.js';
export { type RegisterBases, type TritonLayout, type TritonTarget, tritonBases, tritonTarget } from './planner/triton.js';
export { llBankConflicts } from './linear/banks.js';
// What the TMA and the tensor cores accept (docs/descriptors.md): tensor maps, matrix descriptors, the atoms
export { type TmaArgs, type GmmaArgs, tmaDesc, gmmaDesc } from './descriptors/api.js';
export { type TmaInput, type TmaDescriptor, tmaDescriptor } from './descriptors/tma.js';
export { type GmmaInput, type GmmaDescriptor, type Major, type MmaArch, gmmaDescriptor } from './descriptors/gmma.js';
export { type TmaBoxMap, tmaBoxMap } from './descriptors/boxes.js';
export { type TensorMapFields, checkTensorMap } from './descriptors/contract.js';
export { type DType, DTYPES, dtypeOf } from './descriptors/dtype.js';
export { type AtomSpec, SMEM_ATOMS, atomByName, atomLayout, atomName, atomTiledTo } from './descriptors/atoms.js';
export { ops, opsByName, runOp } from './ops/table.js';
export type { OpSpec, OpContext, Json } from './ops/spec.js';
export type * from './engine/backend.js';
