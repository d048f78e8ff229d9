/**
 * The k-blocks of an MMA operand tile in shared memory (docs/descriptors.md §3): a wgmma (SM90)
 * or UMMA (SM100) instruction reads 256 bits of K per row — 16 elements of a 16-bit type, 8 of
 * tf32, 32 of an 8-bit type — so an (MN, K) tile is K / (256 / bits) k-blocks, each the (MN, 256 /
 * bits) slice that one descriptor describes. CuTe partitions the tile the same way and advances
 * the descriptor's start address by the slice's offset (`DescriptorIterator`); the layout each
 * descriptor is built from is the slice with that offset taken out, which is what `gmma_desc`
 * takes. (The slice spans the whole MN extent: the descriptor's canonical forms repeat along MN.)
 */
import { LayoutError } from '../algebra/errors.js';
import { makeLayout, mode, phi, rank, size } from '../algebra/layout.js';
import { innerLayout, mapInner, type LayoutFunction } from '../cute/composed.js';
import { zippedDivide } from '../cute/divide.js';

/** One k-block of an operand tile. */
export interface KBlock {
  /** the first K index of the block */
  readonly k: number;
  /** the plain layout's offset of the block's first element, (0, k), in elements: the start address
   *  CuTe adds to the descriptor (the swizzle acts on the absolute address) */
  readonly offset: number;
  /** the block's layout, offset taken out: the (MN, 256 / bits) slice, under S's swizzle */
  readonly layout: LayoutFunction;
}

/**
 * The k-blocks of the operand tile S (rank 2, (MN, K), in elements of `bytes` bytes):
 * zipped_divide of S's plain part by (MN:1, kb:1) with kb = 32 / bytes; k-block j is the tile
 * mode, at offset Φ_rest(j). Pre-condition: bytes ∈ {1, 2, 4, 8}. Errors: `domain` when S is not
 * of rank 2 or K is not a multiple of kb; those of zipped_divide.
 * @example kBlocks(parseLayoutFunction('Sw<3,3,3> o ((8,8),(64,1)):((64,512),(1,0))'), 2)[1].offset // 16
 */
export function kBlocks(s: LayoutFunction, bytes: number): KBlock[] {
  const l = innerLayout(s);
  if (rank(l) !== 2) throw new LayoutError('domain', `an MMA operand tile is (MN, K), of rank 2; this one has rank ${rank(l)}`);
  const kb = 32 / bytes;
  const mn = size(mode(l, 1));
  const k = size(mode(l, 2));
  if (k % kb !== 0) throw new LayoutError('domain', `K = ${k} is not a multiple of the k-block of ${kb} elements (256 bits of K per instruction)`);
  const z = zippedDivide(l, [makeLayout(mn, 1), makeLayout(kb, 1)]);
  const tile = mode(z, 1);
  const rest = mode(z, 2);
  return Array.from({ length: k / kb }, (_, j) => ({ k: j * kb, offset: phi(rest, j), layout: mapInner(s, () => tile) }));
}
