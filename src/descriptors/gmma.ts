/**
 * Matrix descriptors (docs/descriptors.md §3): the 64-bit shared-memory descriptor CuTe's
 * `GMMA::make_gmma_desc<Major>` (sm90, wgmma) or `UMMA::make_umma_desc<Major>` (sm100, tcgen05) builds for the operand
 * tile of one MMA k-block, a rank-2 (MN, K) layout in elements: S recast to 16-byte units (U), divided into CuTe's
 * canonical form, each stride its asserts name checked, and the fields packed as mma_sm90_desc.hpp / mma_sm100_desc.hpp
 * lay them out (start address 0).
 */
import { domainError, LayoutError } from '../algebra/errors.js';
import { flat, mode, rank, size, type Layout } from '../algebra/layout.js';
import { formatLayout } from '../algebra/notation.js';
import { upcast } from '../cute/cast.js';
import { formatLayoutFunction, innerLayout, isComposed, type LayoutFunction } from '../cute/composed.js';
import type { DType } from './dtype.js';
import { byteSwizzle, mmaSwizzleMode, SWIZZLE_MODES, type SwizzleMode } from './swizzle-mode.js';

/** The operand's contiguous direction: K or MN (CuTe's GMMA::Major, UMMA::Major). */
export type Major = 'K' | 'MN';
/** sm90: wgmma's GmmaDescriptor (make_gmma_desc); sm100: tcgen05's SmemDescriptor (make_umma_desc). */
export type MmaArch = 'sm90' | 'sm100';

/** What gmma_desc takes, parsed. */
export interface GmmaInput {
  readonly smem: LayoutFunction;
  readonly dtype: DType;
  readonly major: Major;
  readonly arch?: MmaArch | undefined;
}

/** The descriptor (docs/descriptors.md §3's result): lbo and sbo in 16-byte units, desc the 64 bits as `0x` and 16 hex digits. */
export interface GmmaDescriptor {
  layoutType: string;
  lbo: number;
  sbo: number;
  baseOffset: number;
  smemAlignment: number;
  desc: string;
}

/** One mode of U divided by a:1 (CuTe's logical_divide by Layout<a,_1>): the tile's and the rest's single strides. */
interface Divided {
  readonly tile: number;
  readonly rest: number;
}

/** the name CuTe's asserts use for the form */
const formName = (arch: MmaArch, major: Major): string => `${arch === 'sm90' ? 'GMMA' : 'UMMA'}_${major}`;

const notCanonical = (arch: MmaArch, major: Major, why: string): never => {
  throw domainError(`gmma_desc: not a canonical ${formName(arch, major)} layout: ${why}`);
};

/**
 * Mode `i` of U divided by a:1 as CuTe's canonical check reads it: its entries coalesced, the first a indices one
 * stride (the tile) and the rest one stride (a part of size 1 reads as stride 0, as CuTe's composition makes it).
 * Errors: `domain`, CuTe's profile failure ("no flat offset mode") naming the mode.
 */
export function divideMode(u: Layout, i: number, a: number, arch: MmaArch, major: Major): Divided {
  const m = mode(u, i + 1);
  const f = flat(m);
  const s: number[] = [];
  const d: number[] = [];
  for (let k = 0; k < f.shapes.length; k++) {
    const sk = f.shapes[k]!;
    if (sk === 1) continue;
    const last = s.length - 1;
    if (last >= 0 && f.strides[k] === s[last]! * d[last]!) s[last]! *= sk;
    else {
      s.push(sk);
      d.push(f.strides[k]!);
    }
  }
  const total = size(m);
  if (total % a !== 0) notCanonical(arch, major, `${shownMode(u, i)} has size ${total}, not a multiple of ${a} (expected profile failure)`);
  if (a === 1) {
    if (s.length > 1) notCanonical(arch, major, `${shownMode(u, i)} is not one stride (expected profile failure: no flat offset mode)`);
    return { tile: 0, rest: s.length === 0 ? 0 : d[0]! };
  }
  if (s[0]! % a !== 0)
    notCanonical(arch, major, `the first ${a} units of ${shownMode(u, i)} are not one stride (expected profile failure: no flat offset mode)`);
  const restCount = (s[0] === a ? 0 : 1) + s.length - 1;
  if (restCount > 1)
    notCanonical(arch, major, `the rest of ${shownMode(u, i)} after ${a} units is not one stride (expected profile failure: no flat offset mode)`);
  const rest = s[0] !== a ? a * d[0]! : s.length > 1 ? d[1]! : 0;
  return { tile: d[0]!, rest };
}

/** `mode 1 of U = …, …`: a mode named in a failure (formatted only then) */
const shownMode = (u: Layout, i: number): string => `mode ${i + 1} of U = ${formatLayout(u)}, ${formatLayout(mode(u, i + 1))}`;

/** U: S recast to 16-byte units (CuTe's recast<uint128_t>, an upcast by 16 / e). Errors: `domain` naming S when an
 *  entry's stride neither divides nor is divided by 16 / e. */
function recastToUnits(s: Layout, dt: DType): Layout {
  try {
    return upcast(s, 16 / dt.bytes);
  } catch (e) {
    if (e instanceof LayoutError && e.kind === 'domain') {
      throw domainError(`gmma_desc: ${formatLayout(s)} over ${dt.name} cannot be recast to 16-byte units (CuTe's recast<uint128_t>): ${e.message}`);
    }
    throw e;
  }
}

/** The layout-type names and codes of docs/descriptors.md §3 (mma_sm90_desc.hpp's LayoutType, mma_sm100_desc.hpp's). */
const LAYOUT_TYPES: Readonly<Record<MmaArch, Readonly<Record<string, readonly [string, number]>>>> = {
  sm90: { NONE: ['INTERLEAVE', 0], '32B': ['B32', 3], '64B': ['B64', 2], '128B': ['B128', 1] },
  sm100: {
    NONE: ['SWIZZLE_NONE', 0],
    '128B_ATOM_32B': ['SWIZZLE_128B_BASE32B', 1],
    '128B': ['SWIZZLE_128B', 2],
    '64B': ['SWIZZLE_64B', 4],
    '32B': ['SWIZZLE_32B', 6],
  },
};

/** The swizzle mode of S (plain or B = 0: none) for a descriptor; K ≠ 0 is `domain`. */
function smemMode(s: LayoutFunction, dt: DType, arch: MmaArch): SwizzleMode {
  if (!isComposed(s)) return SWIZZLE_MODES.none;
  if (s.offset !== 0)
    throw domainError(`gmma_desc: the smem layout ${formatLayoutFunction(s)} has offset ${s.offset}: a descriptor starts at the tile's base (K = 0)`);
  return mmaSwizzleMode(byteSwizzle(s.swizzle, dt), arch, s, dt);
}

/** The K and MN extents CuTe checks (docs/descriptors.md §3): K-major MN a multiple of 8 (both archs) and, on sm90, K = 2 or 4
 *  units; sm90 MN-major K = 128, 256 or 512 bits of elements. */
function checkExtents(u: Layout, dt: DType, major: Major, arch: MmaArch): void {
  const mn = size(mode(u, 1));
  const k = size(mode(u, 2));
  if (major === 'K') {
    if (mn % 8 !== 0) notCanonical(arch, major, `expected MN-size multiple of 8, got ${mn}`);
    if (arch === 'sm90' && k !== 2 && k !== 4) {
      notCanonical(arch, major, `expected K-size 2 (or 4, sparse) in units of uint128_t, got ${k} (${k * (16 / dt.bytes)} ${dt.name}: pass one k-block)`);
    }
  } else if (arch === 'sm90') {
    const allowed = [256, 128, 512].map((b) => b / (8 * dt.bytes)).filter((x) => Number.isInteger(x));
    if (!allowed.includes(k)) notCanonical(arch, major, `expected K-size ${allowed.join(', ')} (256, 128 or 512 / sizeof_bits<${dt.name}>), got ${k}`);
  }
}

/** A stride CuTe's asserts name: `domain` ("expected stride failure") with the stride found and the one expected. */
function expectStride(arch: MmaArch, major: Major, u: Layout, what: string, found: number, wanted: number): void {
  if (found !== wanted) notCanonical(arch, major, `expected stride failure: ${what} is ${found}, expected ${wanted} (U = ${formatLayout(u)})`);
}

const FIELD_LIMIT = 2 ** 14;

/** The 64 bits (docs/descriptors.md §3): LBO bits 16–29, SBO 32–45, base offset 49–51, layout type 62–63 (sm90) or 61–63 with
 *  version 1 at 46–47 (sm100), start address 0. */
export function packDescriptor(arch: MmaArch, code: number, lbo: number, sbo: number): string {
  let bits = (BigInt(lbo) << 16n) | (BigInt(sbo) << 32n);
  bits |= arch === 'sm90' ? BigInt(code) << 62n : (1n << 46n) | (BigInt(code) << 61n);
  return `0x${bits.toString(16).padStart(16, '0')}`;
}

/**
 * The matrix descriptor of docs/descriptors.md §3 for parsed values (gmmaDesc in api.ts takes strings too). Errors: `domain` for
 * each failed check (rank 2, the recast to 16-byte units, the layout type, the extents, the canonical form's profile and
 * strides, a field beyond its 14 bits), naming the form and the numbers. Example: Sw<3,3,3> o ((8,8),16):((64,512),1),
 * half_t, K → B128, lbo 1, sbo 64, desc 0x4000004000010000.
 */
export function gmmaDescriptor(input: GmmaInput): GmmaDescriptor {
  const { smem, dtype: dt, major } = input;
  const arch = input.arch ?? 'sm90';
  const s = innerLayout(smem);
  if (rank(s) !== 2) throw domainError(`gmma_desc: the operand tile ${formatLayoutFunction(smem)} has rank ${rank(s)}; descriptors take rank-2 (MN, K) tiles`);
  const sw = smemMode(smem, dt, arch);
  if (arch === 'sm100' && major === 'K' && sw === SWIZZLE_MODES.atom32)
    throw domainError('gmma_desc: SWIZZLE_128B_BASE32B is invalid for K-major (CuTe static_assert)');
  const [layoutType, code] = LAYOUT_TYPES[arch][sw.name]!;
  const u = recastToUnits(s, dt);
  checkExtents(u, dt, major, arch);
  const w = sw.units;
  const swizzled = sw !== SWIZZLE_MODES.none;
  let lbo: number;
  let sbo: number;
  if (major === 'K') {
    // ((8,n),2):((W,SBO),1) swizzled, ((8,n),2):((1,SBO),LBO) none
    const m0 = divideMode(u, 0, 8, arch, major);
    const m1 = divideMode(u, 1, 2, arch, major);
    expectStride(arch, major, u, 'the stride of the 8 rows', m0.tile, w);
    if (swizzled) expectStride(arch, major, u, 'the stride of the 2 K units', m1.tile, 1);
    sbo = m0.rest;
    lbo = m1.tile;
  } else {
    // ((W,n),(8,k)):((1,LBO),(W,SBO)) swizzled, ((1,n),(8,k)):((X,SBO),(1,LBO)) none
    const kAtom = sw === SWIZZLE_MODES.atom32 ? 4 : 8;
    const m0 = divideMode(u, 0, w, arch, major);
    const m1 = divideMode(u, 1, kAtom, arch, major);
    if (swizzled) expectStride(arch, major, u, `the stride of the ${w} MN units`, m0.tile, 1);
    expectStride(arch, major, u, `the stride of the ${kAtom} K rows`, m1.tile, w);
    sbo = swizzled ? m1.rest : m0.rest;
    lbo = swizzled ? m0.rest : m1.rest;
  }
  for (const [name, v] of [
    ['LBO', lbo],
    ['SBO', sbo],
  ] as const) {
    if (v >= FIELD_LIMIT) throw domainError(`gmma_desc: ${name} = ${v} units (${v * 16} bytes) does not fit the descriptor's 14 bits`);
  }
  return { layoutType, lbo, sbo, baseOffset: 0, smemAlignment: swizzled ? sw.smemAlignment : 16, desc: packDescriptor(arch, code, lbo, sbo) };
}
