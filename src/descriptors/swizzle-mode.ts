/**
 * The hardware's shared-memory swizzle modes (docs/descriptors.md §1.2). A swizzle Sw<B,M,S> of
 * a layout in elements of e bytes is CuTe's byte-unit Swizzle<B, M + log2 e, S> (the swizzle behind a `smem_ptr_flag`);
 * the byte swizzle names the mode, CuTe's `get_tma_swizzle_bits` / `get_tma_swizzle_base` (copy_traits_sm90_tma_swizzle.hpp)
 * and the GMMA / UMMA `layout_type` with their reasons where it names none.
 */
import { domainError } from '../algebra/errors.js';
import { formatLayoutFunction, type LayoutFunction } from '../cute/composed.js';
import type { Swizzle } from '../cute/swizzle.js';
import type { DType } from './dtype.js';

/** A hardware swizzle mode: its TMA name (`CU_TENSOR_MAP_SWIZZLE_…` without the prefix) and what it implies. */
export interface SwizzleMode {
  /** `NONE`, `32B`, `64B`, `128B`, `128B_ATOM_32B`, `128B_ATOM_64B` */
  readonly name: string;
  /** the byte-unit swizzle, Swizzle<B,M,S> (B = 0 for NONE) */
  readonly bytes: Swizzle;
  /** the widest row of a TMA box it takes, in bytes (the driver's limit on boxDim[0]·e); 0 for NONE (no limit) */
  readonly span: number;
  /** the boundary a tile must start on, in bytes: the swizzle's repeating pattern (128 unswizzled, the TMA's own minimum) */
  readonly smemAlignment: number;
  /** W: the 16-byte units per swizzled row (1, 2, 4, 8), the canonical forms' atom width (docs/descriptors.md §3) */
  readonly units: number;
}

const mode = (name: string, b: number, m: number, s: number, span: number, smemAlignment: number, units: number): SwizzleMode => ({
  name,
  bytes: { bits: b, base: m, shift: s },
  span,
  smemAlignment,
  units,
});

/** The six modes of docs/descriptors.md §1. */
export const SWIZZLE_MODES = {
  none: mode('NONE', 0, 4, 3, 0, 128, 1),
  b32: mode('32B', 1, 4, 3, 32, 256, 2),
  b64: mode('64B', 2, 4, 3, 64, 512, 4),
  b128: mode('128B', 3, 4, 3, 128, 1024, 8),
  atom32: mode('128B_ATOM_32B', 2, 5, 2, 128, 1024, 8),
  atom64: mode('128B_ATOM_64B', 2, 6, 3, 128, 1024, 8),
} as const;

/** `Swizzle<B,M,S>`: CuTe's print of a byte-unit swizzle (an element one prints `Sw<B,M,S>`). */
export const formatByteSwizzle = (b: Swizzle): string => `Swizzle<${b.bits},${b.base},${b.shift}>`;

/**
 * The byte-unit swizzle of an element swizzle (docs/descriptors.md §1): Sw<B,M,S> over e-byte elements is Swizzle<B, M + log2 e, S>.
 * Example: byteSwizzle(Sw<3,3,3>, half_t) is Swizzle<3,4,3>.
 */
export const byteSwizzle = (sw: Swizzle, dt: DType): Swizzle => ({ bits: sw.bits, base: sw.base + dt.log2Bytes, shift: sw.shift });

/** The failure of a swizzle with no mode: the op, the layout and type it came from, the byte swizzle and CuTe's reason. */
function noMode(op: string, smem: LayoutFunction, dt: DType, b: Swizzle, what: string, reason: string): never {
  throw domainError(`${op}: smem ${formatLayoutFunction(smem)} over ${dt.name}: the byte swizzle ${formatByteSwizzle(b)} has no ${what}: ${reason}`);
}

/**
 * The mode of S's swizzle as the TMA reads it (CuTe's `get_tma_swizzle_bits` and `get_tma_swizzle_base`) for its byte
 * swizzle b, `null` for a plain layout. Errors: `domain` with CuTe's reason: M = 4 takes B ≤ 3 and S = 3; M = 5 takes
 * B = 2, S = 2; M = 6 takes B = 2 and, here, S = 3 (the only one the hardware's 128B_ATOM_64B permutes as; CuTe leaves S
 * unchecked). Example: the byte swizzle Swizzle<3,4,3> is 128B.
 */
export function tmaSwizzleMode(b: Swizzle | null, smem: LayoutFunction, dt: DType): SwizzleMode {
  if (b === null) return SWIZZLE_MODES.none;
  const what = 'TMA swizzle mode';
  if (b.base === 4) {
    if (b.bits > 3) noMode('tma_desc', smem, dt, b, what, 'expected B = 0, 1, 2 or 3 when M = 4');
    if (b.shift !== 3) noMode('tma_desc', smem, dt, b, what, 'expected S = 3 when M = 4');
    return BY_BITS[b.bits]!;
  }
  if (b.base === 5) {
    if (b.bits !== 2) noMode('tma_desc', smem, dt, b, what, 'expected B = 2 when M = 5');
    if (b.shift !== 2) noMode('tma_desc', smem, dt, b, what, 'expected S = 2 when M = 5');
    return SWIZZLE_MODES.atom32;
  }
  if (b.base === 6) {
    if (b.bits !== 2) noMode('tma_desc', smem, dt, b, what, 'expected B = 2 when M = 6');
    if (b.shift !== 3) noMode('tma_desc', smem, dt, b, what, 'expected S = 3 when M = 6 (the 128B_ATOM_64B mode)');
    return SWIZZLE_MODES.atom64;
  }
  return noMode('tma_desc', smem, dt, b, what, 'expected M = 4 (16-byte chunks), 5 or 6 (32- or 64-byte chunks within 128 bytes)');
}

/** the M = 4 modes by B */
const BY_BITS: readonly SwizzleMode[] = [SWIZZLE_MODES.none, SWIZZLE_MODES.b32, SWIZZLE_MODES.b64, SWIZZLE_MODES.b128];

/**
 * The mode of S's swizzle as a matrix descriptor reads it (CuTe's GMMA and UMMA `layout_type`; docs/descriptors.md §3):
 * a plain layout, or any B = 0 swizzle (the identity), is none; M = 4 takes B ≤ 3 and S = 3; M = 5 (sm100 only) B = 2,
 * S = 2, the 128B_BASE32B mode. Errors: `domain` with the reason. Example: the byte swizzle Swizzle<1,4,3> is 32B.
 */
export function mmaSwizzleMode(b: Swizzle | null, arch: 'sm90' | 'sm100', smem: LayoutFunction, dt: DType): SwizzleMode {
  if (b === null || b.bits === 0) return SWIZZLE_MODES.none;
  const what = `${arch === 'sm90' ? 'GMMA' : 'UMMA'} layout type`;
  if (b.base === 4) {
    if (b.bits > 3) noMode('gmma_desc', smem, dt, b, what, 'expected B = 0, 1, 2 or 3 when M = 4');
    if (b.shift !== 3) noMode('gmma_desc', smem, dt, b, what, 'expected S = 3 when M = 4');
    return BY_BITS[b.bits]!;
  }
  if (b.base === 5 && arch === 'sm90')
    noMode('gmma_desc', smem, dt, b, what, 'the BASE32B swizzle (Swizzle<2,5,2>) has no SM90 layout type; it is SM100 (UMMA) only');
  if (b.base === 5) {
    if (b.bits !== 2) noMode('gmma_desc', smem, dt, b, what, 'expected B = 2 when M = 5');
    if (b.shift !== 2) noMode('gmma_desc', smem, dt, b, what, 'expected S = 2 when M = 5');
    return SWIZZLE_MODES.atom32;
  }
  return noMode('gmma_desc', smem, dt, b, what, `expected M = 4 (16-byte chunks)${arch === 'sm100' ? ' or M = 5 (SWIZZLE_128B_BASE32B)' : ''}`);
}
