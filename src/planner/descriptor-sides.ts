/**
 * The descriptor sides of a plan (docs/planner.md, "Sides"): `tma` (the TMA
 * writes or reads the whole tile) and `{"wgmma": major}` / `{"umma": major}` (the tensor core reads
 * it). Each accepts a candidate exactly when the descriptors room's functions do (docs/descriptors.md §2, §3:
 * tmaDescriptor, gmmaDescriptor of every k-block), and costs no bank wavefronts. The same
 * functions decide every entry's `tma` and `gmma` fields (expressibility).
 */
import { domainError, isLayoutError } from '../algebra/errors.js';
import { makeLayout, type Layout } from '../algebra/layout.js';
import type { LayoutFunction } from '../cute/composed.js';
import type { DType } from '../descriptors/dtype.js';
import { gmmaDescriptor, type Major, type MmaArch } from '../descriptors/gmma.js';
import { kBlocks } from '../descriptors/kblocks.js';
import { tmaDescriptor, type TmaDescriptor } from '../descriptors/tma.js';
import type { Candidate, Tile } from './families.js';
import type { Machine } from './machine.js';
import type { SidePrice } from './price.js';
import type { Role, Side } from './sides.js';

/** A descriptor side as the request names it. */
export type DescriptorKind = { readonly kind: 'tma' } | { readonly kind: 'wgmma' | 'umma'; readonly major: Major };

/**
 * The global tensor a `tma` side's tile is assumed to lie in: row-major over the tile's shape (the
 * last mode contiguous, each earlier mode's stride the product of the later sizes), the tensor of a
 * row-major (M, K) matrix of exactly the tile's extent, as CUTLASS's examples hold their operands.
 * @example rowMajorGmem([128, 64]) // (128,64):(64,1)
 */
export function rowMajorGmem(shape: readonly number[]): Layout {
  const stride = new Array<number>(shape.length).fill(1);
  for (let i = shape.length - 2; i >= 0; i--) stride[i] = stride[i + 1]! * shape[i + 1]!;
  return makeLayout([...shape], stride);
}

/** Runs a descriptor function: its answer, or null where it refuses (any LayoutError but a deadline's). */
function accepted<T>(f: () => T): T | null {
  try {
    return f();
  } catch (e) {
    if (isLayoutError(e) && e.kind !== 'timeout') return null;
    throw e;
  }
}

/** The tensor map docs/descriptors.md §2 builds for the candidate layout over rowMajorGmem of the tile (default tiler), or null. */
export function tmaOf(layout: LayoutFunction, tile: Tile, dt: DType): TmaDescriptor | null {
  return accepted(() => tmaDescriptor({ gmem: rowMajorGmem(tile.shape), smem: layout, dtype: dt }));
}

/**
 * The layout type docs/descriptors.md §3 gives every k-block of the candidate as an (MN, K) operand of that major
 * (kblocks.ts: K / (256 / bits) slices, each its own descriptor), or null when one is refused or
 * the blocks disagree. The number of k-blocks comes with it (the instructions of the side).
 */
export function gmmaOf(layout: LayoutFunction, dt: DType, major: Major, arch: MmaArch): { layoutType: string; blocks: number } | null {
  const blocks = accepted(() => kBlocks(layout, dt.bytes));
  if (blocks === null) return null;
  let layoutType: string | null = null;
  for (const b of blocks) {
    const d = accepted(() => gmmaDescriptor({ smem: b.layout, dtype: dt, major, arch }));
    if (d === null || (layoutType !== null && d.layoutType !== layoutType)) return null;
    layoutType = d.layoutType;
  }
  return layoutType === null ? null : { layoutType, blocks: blocks.length };
}

/**
 * An entry's `gmma` (docs/protocol.md): the first major, K then MN, for which the candidate is an
 * operand the machine's tensor core takes (sm100: UMMA's rules, else wgmma's), as `K B128` (the
 * major and the descriptor's layout type); null when neither is, or the tile is not of rank 2.
 */
export function gmmaField(layout: LayoutFunction, tile: Tile, dt: DType, m: Machine): string | null {
  if (tile.shape.length !== 2) return null;
  const arch: MmaArch = m.name === 'sm100' ? 'sm100' : 'sm90';
  for (const major of ['K', 'MN'] as const) {
    const g = gmmaOf(layout, dt, major, arch);
    if (g !== null) return `${major} ${g.layoutType}`;
  }
  return null;
}

const ZERO = { vectorBytes: 0, wavefronts: 0, phases: 0, conflicts: 0 };

/** The machines a descriptor side runs on: the TMA from sm90, wgmma on sm90, UMMA (tcgen05) on sm100. */
const ARCHS: Record<DescriptorKind['kind'], readonly string[]> = { tma: ['sm90', 'sm100'], wgmma: ['sm90'], umma: ['sm100'] };

/**
 * A descriptor side (docs/planner.md, "Sides"): it accepts a candidate iff docs/descriptors.md does — `tma`:
 * tmaDescriptor over rowMajorGmem(tile) (instructions: its boxes); `wgmma` / `umma`: gmmaDescriptor
 * (sm90 / sm100) of every k-block of the (MN, K) tile (instructions: the k-blocks) — at 0 wavefronts
 * (instruction `tma`, `wgmma`, `umma`). Errors: `domain` for a machine without it, a tensor core
 * as the write side, and a wgmma/umma tile that is not (MN, K) with K a multiple of 256 bits.
 */
export function descriptorSide(role: Role, d: DescriptorKind, tile: Tile, dt: DType, m: Machine): Side {
  const what = d.kind === 'tma' ? 'tma' : `${d.kind} ${d.major}-major`;
  if (!ARCHS[d.kind].includes(m.name)) throw domainError(`the ${role} side ${what}: ${m.name} has no ${d.kind} (${ARCHS[d.kind].join(', ')})`);
  let price: (c: Candidate) => SidePrice | null;
  if (d.kind === 'tma') {
    price = (c) => {
      const t = tmaOf(c.layout, tile, dt);
      return t === null ? null : { instruction: 'tma', instructions: t.boxes, ...ZERO };
    };
  } else {
    if (role === 'write') throw domainError(`${what} reads shared memory: it cannot be the write side`);
    const kb = 32 / dt.bytes;
    if (tile.shape.length !== 2) throw domainError(`${what}: an MMA operand tile is (MN, K), of rank 2; the tile has rank ${tile.shape.length}`);
    if (tile.shape[1]! % kb !== 0) throw domainError(`${what}: K = ${tile.shape[1]} is not a multiple of the k-block of ${kb} elements (256 bits)`);
    const { kind, major } = d;
    const arch: MmaArch = kind === 'wgmma' ? 'sm90' : 'sm100';
    price = (c) => {
      const g = gmmaOf(c.layout, dt, major, arch);
      return g === null ? null : { instruction: kind, instructions: g.blocks, ...ZERO };
    };
  }
  return {
    role,
    what,
    price,
    accepts: (c) => price(c) !== null,
    least: 0,
    pattern: null,
    patterns: [],
    registers: null,
    wire: { kind: 'descriptor', role, desc: d },
  };
}
