/**
 * The sides of a plan (docs/planner.md, "Sides"): what writes the tile into shared
 * memory and what reads it back, each turned once into the accesses it makes (an AccessPattern
 * over the tile's column-major indices), priced on the machine's bank model with the instructions
 * the machine has. A side is an interface, `accepts` and `price` over a candidate, so that the
 * descriptor sides (descriptor-sides.ts: `tma`, `wgmma`, `umma`, no bank cost) stand beside them.
 */
import { checkDeadline } from '../algebra/deadline.js';
import { LayoutError, domainError } from '../algebra/errors.js';
import { mode, size, type Layout } from '../algebra/layout.js';
import { formatLayout } from '../algebra/notation.js';
import { activeAtomThreads, tileAccesses, type CopySide } from '../atoms/conflicts.js';
import type { TiledCopy } from '../atoms/tiled-copy.js';
import { operandModes, type Operand, type TiledMma } from '../atoms/tiled-mma.js';
import { phiTable, threadShape } from '../memory/access.js';
import type { LinearLayout } from '../linear/value.js';
import type { Candidate, Tile } from './families.js';
import type { RegisterBases } from './triton.js';

export type { Tile } from './families.js';
import { phaseGroups } from '../memory/machines.js';
import { matrixInstructions, roleAccess, type Machine } from './machine.js';
import { leastWavefronts, priceSide, SwizzledSide, type AccessPattern, type PriceScratch, type SidePrice } from './price.js';

/** Which way a side moves the tile: into shared memory or out of it. */
export type Role = 'write' | 'read';

/** A side of a plan: whether it can move the tile held by a candidate, and at what price. */
export interface Side {
  readonly role: Role;
  /** what the side is, for messages (`st.shared`, `SM75_U32x4_LDSM_N`, …) */
  readonly what: string;
  /** the side's price on the candidate, or null when it does not accept it */
  price(c: Candidate, s: PriceScratch): SidePrice | null;
  /** whether the side accepts the candidate */
  accepts(c: Candidate, s: PriceScratch): boolean;
  /** the least wavefronts any layout could cost the side (docs/planner.md's lower bound) */
  readonly least: number;
  /** the accesses, for the brute-force checks (null for descriptor sides): the first of `patterns` */
  readonly pattern: AccessPattern | null;
  /** every access pattern the side may use (ld/st.shared, ldmatrix/stmatrix) */
  readonly patterns: readonly AccessPattern[];
  /** an F2-linear register side's register and lane bases, for Triton's construction (else null) */
  readonly registers: RegisterBases | null;
  /** the side as plain data, from which sideFromWire (wire.ts) builds it again in a worker thread (absent: it stays on one thread) */
  readonly wire?: SideWire;
}

/** An access pattern as plain data: its functions of the width tabulated per width (names, bytes). */
export interface PatternWire {
  readonly threads: number;
  readonly values: number;
  readonly index: Int32Array;
  readonly access: AccessPattern['access'];
  readonly live?: Uint8Array;
  readonly widths: readonly number[];
  readonly names: readonly string[];
  readonly bytes: readonly number[];
}

/** A side as plain data (structured-clone safe): an access side's patterns, or a descriptor side's kind. */
export type SideWire =
  | {
      readonly kind: 'access';
      readonly role: Role;
      readonly what: string;
      readonly patterns: readonly PatternWire[];
      readonly registers: RegisterBases | null;
      /** the side's least wavefronts, derived once */
      readonly least: number;
    }
  | {
      readonly kind: 'descriptor';
      readonly role: Role;
      readonly desc: { readonly kind: 'tma' } | { readonly kind: 'wgmma' | 'umma'; readonly major: 'K' | 'MN' };
    };

/** A pattern as plain data (PatternWire). */
export const patternWire = (p: AccessPattern): PatternWire => ({
  threads: p.threads,
  values: p.values,
  index: p.index,
  access: p.access,
  ...(p.live === undefined ? {} : { live: p.live }),
  widths: p.widths,
  names: p.widths.map((w) => p.instruction(w)),
  bytes: p.widths.map((w) => p.vectorBytes(w)),
});

/** The widths a thread's values may move by (docs/semantics.md §9.2): powers of two w with w·e ≤ 16 dividing the values, widest first. */
export function vectorWidths(values: number, e: number): number[] {
  const out: number[] = [];
  for (let w = 16 / e; w >= 1; w /= 2) if (values % w === 0) out.push(w);
  return out;
}

/**
 * A side over its access patterns (the ld/st.shared pattern, and where the machine has them the
 * matrix instruction's): it accepts what one of them can move, at the cheapest price (fewest
 * wavefronts, then instructions, then the first pattern), each priced by priceSide (the swizzle
 * family from per-base phase tables).
 */
export function accessSide(
  role: Role,
  what: string,
  ps: AccessPattern | AccessPattern[],
  tile: Tile,
  m: Machine,
  registers: RegisterBases | null = null,
  known?: { readonly least: number },
): Side {
  const patterns = Array.isArray(ps) ? ps : [ps];
  const p = patterns[0]!;
  for (let x = 0; x < p.index.length; x++) {
    if ((x & 0xffff) === 0xffff) checkDeadline('the accesses of a side');
    const i = p.index[x]!;
    if (i >= tile.size) {
      throw domainError(
        `the ${role} side (${what}) reaches tile index ${i} (thread ${x % p.threads}, value ${Math.floor(x / p.threads)}) beyond the tile's ${tile.size} elements`,
      );
    }
  }
  // the swizzle family's candidates from per-base phase tables (every thread live, NVIDIA: memory/phases.ts's model)
  const sws = patterns.map((q) => (q.live === undefined && m.vendor === 'nvidia' ? new SwizzledSide(q, tile.e) : null));
  const priceOne = (k: number, c: Candidate, s: PriceScratch): SidePrice | null => {
    const sw = sws[k]!;
    return c.swizzle !== undefined && sw !== null
      ? sw.price(c.swizzle.base, c.swizzle.baseOffsets, c.swizzle.bits, c.offsets, m, s)
      : priceSide(patterns[k]!, c.offsets, tile.size, tile.e, m, s);
  };
  const price = (c: Candidate, s: PriceScratch): SidePrice | null => {
    let best: SidePrice | null = null;
    for (let k = 0; k < patterns.length; k++) {
      const x = priceOne(k, c, s);
      if (x !== null && (best === null || x.wavefronts < best.wavefronts || (x.wavefronts === best.wavefronts && x.instructions < best.instructions))) best = x;
    }
    return best;
  };
  // `known`: the side built again from its wire (wire.ts), its least already derived
  const least = known?.least ?? Math.min(...patterns.map((q) => leastWavefronts(q, tile.e, m)));
  const wire: SideWire = { kind: 'access', role, what, patterns: patterns.map(patternWire), registers, least };
  return { role, what, price, accepts: (c, s) => price(c, s) !== null, least, pattern: p, patterns, registers, wire };
}

const plainName = (role: Role): string => (role === 'write' ? 'st.shared' : 'ld.shared');

/**
 * The ldmatrix.x4 (read) / stmatrix.x4 (write) pattern of a thread-value table of 16-bit values
 * (full warps, 8 values a thread per instruction), as 16-byte accesses of virtual threads (docs/planner.md,
 * "Sides"): lane 8k + r of warp g gives the address of row r of matrix k, which holds values 8q + 2k,
 * 8q + 2k + 1 of threads 32g + 4r … 32g + 4r + 3 in that order (the PTX fragment of an 8×8 b16
 * matrix); the row must be 16 contiguous, aligned bytes. Null where the instruction does not apply.
 */
export function matrixPattern(role: Role, threads: number, values: number, index: Int32Array, e: number, m: Machine): AccessPattern | null {
  const mx = matrixInstructions(m);
  if (e !== 2 || threads % 32 !== 0 || values % 8 !== 0 || !(role === 'read' ? mx.ldmatrix : mx.stmatrix)) return null;
  const T = threads;
  const out = new Int32Array(index.length);
  for (let g = 0; g < T / 32; g++) {
    if ((g & 15) === 15) checkDeadline('the accesses of a side');
    for (let q = 0; q < values / 8; q++) {
      for (let k = 0; k < 4; k++) {
        for (let r = 0; r < 8; r++) {
          for (let i = 0; i < 8; i++) {
            const src = 32 * g + 4 * r + (i >> 1) + T * (8 * q + 2 * k + (i & 1));
            out[32 * g + 8 * k + r + T * (8 * q + i)] = index[src]!;
          }
        }
      }
    }
  }
  const name = role === 'read' ? 'ldmatrix.x4' : 'stmatrix.x4';
  return { threads, values, index: out, access: roleAccess(role), widths: [8], instruction: () => name, vectorBytes: () => 16 };
}

/** The name of the machine's plain shared-memory instruction of `bytes` per thread for the role: `st.shared` /
 *  `ld.shared` on NVIDIA (the width shown apart), the row of the machine's table on AMD (`ds_write_b128`); `domain`
 *  where the machine's table has no phases for it (machines.ts phaseGroups). */
export function sharedInstruction(role: Role, bytes: number, m: Machine): string {
  return m.vendor === 'nvidia' ? plainName(role) : phaseGroups(m, bytes, roleAccess(role)).instruction;
}

/**
 * The ld/st.shared pattern of a thread-value table (every width, named by the role), and the matrix pattern where it
 * applies. On AMD the widths are those of ds_read/ds_write_b32, b64, b128 (4, 8, 16 bytes: the widths whose phase
 * groups are published); `domain` when the values allow none of them.
 */
function sharedPattern(role: Role, threads: number, values: number, index: Int32Array, e: number, m: Machine): AccessPattern[] {
  const widths = vectorWidths(values, e).filter((w) => m.vendor === 'nvidia' || w * e >= 4);
  if (widths.length === 0) {
    throw domainError(
      `${m.name}: the ${role} side's ${values} values of ${e} bytes a thread allow no access of 4, 8 or 16 bytes, and no phase grouping of sub-dword LDS accesses is published`,
    );
  }
  const names = new Map(widths.map((w) => [w, sharedInstruction(role, w * e, m)]));
  const plain: AccessPattern = { threads, values, index, access: roleAccess(role), widths, instruction: (w) => names.get(w)!, vectorBytes: (w) => w * e };
  const mat = matrixPattern(role, threads, values, index, e, m);
  return mat === null ? [plain] : [plain, mat];
}

/**
 * The register, lane and warp bases of a thread-value table when it is F2-linear over a
 * power-of-two tile (every index the XOR of the images of the set bits of t + T·j, T and V powers of
 * two, 32-lane warps), for Triton's construction; null otherwise.
 */
export function linearBases(threads: number, values: number, index: Int32Array, tile: Tile): RegisterBases | null {
  const pow2 = (x: number): boolean => x >= 1 && (x & (x - 1)) === 0;
  if (!pow2(threads) || !pow2(values) || !pow2(tile.size) || threads < 32) return null;
  const img: number[] = [];
  for (let b = 1; b < index.length; b *= 2) img.push(index[b]!);
  for (let x = 0; x < index.length; x++) {
    if ((x & 0xffff) === 0xffff) checkDeadline('the accesses of a side');
    let v = 0;
    for (let k = 0, y = x; y !== 0; k++, y >>>= 1) if ((y & 1) === 1) v ^= img[k]!;
    if (v !== index[x]) return null;
  }
  const tb = Math.log2(threads);
  return { reg: img.slice(tb).filter((b) => b !== 0), lane: img.slice(0, 5), warp: img.slice(5, tb).filter((b) => b !== 0) };
}

/**
 * A TV layout side ((thread, value) → tile index, docs/semantics.md §10's column-major index), moved by
 * ld/st.shared. Errors: `domain` for a TV that is not rank 2 or reaches beyond the tile.
 */
export function tvSide(role: Role, tv: Layout, tile: Tile, m: Machine): Side {
  const { threads, values } = threadShape(tv);
  const index = Int32Array.from(phiTable(tv));
  const p = sharedPattern(role, threads, values, index, tile.e, m);
  return accessSide(role, formatLayout(tv), p, tile, m, linearBases(threads, values, index, tile));
}

/** The out-dims dim0 … dim(k−1) of an LL by position, each of the tile's mode size; else `domain`. */
function dimOrder(l: LinearLayout, tile: Tile): number[] {
  const k = tile.shape.length;
  if (l.outDims.length !== k) throw domainError(`the LL has ${l.outDims.length} out-dims; the tile has ${k} modes`);
  return tile.shape.map((n, d) => {
    const j = l.outDims.findIndex((o) => o.name === `dim${d}`);
    if (j < 0) throw domainError(`the LL has no out-dim dim${d}`);
    if (l.outDims[j]!.size !== n) throw domainError(`the LL's dim${d} has size ${l.outDims[j]!.size}; the tile's mode ${d + 1} has ${n}`);
    return j;
  });
}

/**
 * A Triton register LL side (docs/semantics.md §11): thread t = lane + lanes·warp, value j = register, the
 * tile index of L(register = j, lane, warp) (XOR of the bases of the set bits), moved by
 * ld/st.shared. Errors: `domain` for other in-dims, a block dim of size > 1, out-dims that are
 * not the tile's dim0 … dim(k−1) with its sizes.
 */
export function llSide(role: Role, l: LinearLayout, tile: Tile, m: Machine): Side {
  const pos = dimOrder(l, tile);
  const bases = (name: string): readonly (readonly number[])[] => l.inDims.find((d) => d.name === name)?.bases ?? [];
  for (const d of l.inDims) {
    if (!['register', 'lane', 'warp', 'block'].includes(d.name)) throw domainError(`the LL's in-dim '${d.name}' is not register, lane, warp or block`);
  }
  if (bases('block').length > 0) throw domainError("the bank model is per CTA: the LL's block in-dim must have size 1");
  const img = (b: readonly number[]): number => {
    let v = 0;
    let scale = 1;
    for (let d = 0; d < pos.length; d++) {
      v += b[pos[d]!]! * scale;
      scale *= tile.shape[d]!;
    }
    return v;
  };
  const lanes = bases('lane');
  const warps = bases('warp');
  const regs = bases('register');
  if (lanes.length + warps.length + regs.length > 24) throw new LayoutError('overflow', 'the LL has more than 2^24 (thread, value) pairs');
  const images = [...lanes, ...warps, ...regs].map(img);
  const index = new Int32Array(2 ** images.length);
  for (let k = 0, p = 1; k < images.length; k++, p *= 2) {
    checkDeadline('the accesses of an LL');
    for (let x = 0; x < p; x++) index[p + x] = index[x]! ^ images[k]!;
  }
  const threads = 2 ** (lanes.length + warps.length);
  const values = 2 ** regs.length;
  const nonzero = (bs: readonly (readonly number[])[]): number[] => bs.map(img).filter((b) => b !== 0);
  const registers: RegisterBases = { reg: nonzero(regs), lane: lanes.map(img), warp: nonzero(warps) };
  return accessSide(role, 'LL', sharedPattern(role, threads, values, index, tile.e, m), tile, m, registers);
}

/** The thread-value table of a TV over a sub-tile `sub` repeated over the tile (docs/semantics.md §10.4's partition of the whole
 *  tile): value w + W·q of thread t is the sub-tile index of (t, w) placed in repeat q (column-major repeats). */
function tiledIndex(tv: Layout, sub: readonly number[], tile: Tile, what: string): { threads: number; values: number; index: Int32Array } {
  const { threads: T, values: W } = threadShape(tv);
  const n = tile.shape;
  if (sub.length > n.length || sub.some((s, i) => n[i]! % s !== 0)) {
    throw domainError(`${what} covers a (${sub.join(',')}) tile, which does not divide the tile (${n.join(',')})`);
  }
  const subs = [...sub, ...n.slice(sub.length).map(() => 1)];
  const reps = n.map((x, i) => x / subs[i]!);
  const sigma: number[] = [];
  let p = 1;
  for (const x of n) {
    sigma.push(p);
    p *= x;
  }
  const place = (local: number): number => {
    let id = 0;
    for (let i = 0; i < subs.length; i++) {
      const c = local % subs[i]!;
      local = (local - c) / subs[i]!;
      id += c * sigma[i]!;
    }
    return id;
  };
  const repeats = reps.reduce((a, b) => a * b, 1);
  const rest = new Int32Array(repeats);
  for (let q = 0; q < repeats; q++) {
    let x = q;
    let off = 0;
    for (let i = 0; i < reps.length; i++) {
      const c = x % reps[i]!;
      x = (x - c) / reps[i]!;
      off += c * subs[i]! * sigma[i]!;
    }
    rest[q] = off;
  }
  const tab = phiTable(tv);
  const index = new Int32Array(T * W * repeats);
  for (let q = 0; q < repeats; q++) {
    checkDeadline('the accesses of a side');
    for (let x = 0; x < T * W; x++) index[x + T * W * q] = place(tab[x]!) + rest[q]!;
  }
  return { threads: T, values: W * repeats, index };
}

/**
 * An MMA operand side (`{"mma": …, "operand": X}`): the operand's TV layout over its tile ((M,K),
 * (N,K) or (M,N) of the tiled MMA), repeated over the plan's tile, moved by ld/st.shared.
 * Errors: `domain` when the operand's tile does not divide the plan's.
 */
export function operandSide(role: Role, mma: TiledMma, x: Operand, tile: Tile, m: Machine): Side {
  const tv = x === 'A' ? mma.layoutA_TV : x === 'B' ? mma.layoutB_TV : mma.layoutC_TV;
  const sub = operandModes[x].map((i) => mma.tileShape[i]!);
  const t = tiledIndex(tv, sub, tile, `operand ${x} of ${mma.atom.name}`);
  const p = sharedPattern(role, t.threads, t.values, t.index, tile.e, m);
  return accessSide(role, `operand ${x} of ${mma.atom.name}`, p, tile, m, linearBases(t.threads, t.values, t.index, tile));
}

/** The instruction of a copy atom on its shared-memory side moving `bytes` per thread: ldmatrix/stmatrix .xN (.trans),
 *  else the machine's plain instruction (sharedInstruction). */
export function copyInstruction(atom: string, role: Role, m: Machine, bytes: number): string {
  const mat = /_U(8|16|32)x(\d+)_(LDSM|STSM)_(N|T)$/.exec(atom);
  if (mat === null) return sharedInstruction(role, bytes, m);
  const [, ub, k, op, nt] = mat;
  const ld = op === 'LDSM';
  if (ld !== (role === 'read')) throw domainError(`${atom} ${ld ? 'reads' : 'writes'} shared memory: it cannot be the ${role} side`);
  const mx = matrixInstructions(m);
  if (ld ? !mx.ldmatrix : !mx.stmatrix)
    throw domainError(`${atom}: ${ld ? 'ldmatrix' : 'stmatrix'} is not on ${m.name} (NVIDIA ${ld ? 'sm75' : 'sm90'} and later)`);
  const x = (Number(ub) * Number(k)) / 32;
  return `${ld ? 'ldmatrix' : 'stmatrix'}.x${x}${nt === 'T' ? '.trans' : ''}`;
}

/**
 * A tiled copy side (docs/semantics.md §10.5): its shared-memory side (dst for the write, src for the read),
 * every thread's partition of the whole tile, v = NX values per atom call, the atom's repeated
 * rows left out (activeAtomThreads). Errors: `domain` for a value size other than e, a call of
 * more than 16 bytes, an ldmatrix write or stmatrix read, a matrix instruction the machine lacks,
 * and those of partition_S/D.
 */
export function copySide(role: Role, c: TiledCopy, tile: Tile, m: Machine): Side {
  const sd: CopySide = role === 'write' ? 'dst' : 'src';
  const name = c.atom.name;
  if (c.atom.bits !== 8 * tile.e) throw domainError(`${name} moves ${c.atom.bits}-bit values; the tile's elements are ${8 * tile.e} bits`);
  const x = sd === 'src' ? c.atom.src : c.atom.dst;
  const at = size(c.atom.thrID);
  const nx = size(mode(x, 2));
  if (nx * tile.e > 16) throw domainError(`${name} moves ${nx * tile.e} bytes per thread per call; the bank model covers at most 16`);
  const instruction = copyInstruction(name, role, m, nx * tile.e);
  const tvs = tileAccesses(c, sd, { shape: [...tile.shape], stride: tile.shape.map(() => 0) });
  if (tvs.values % nx !== 0) throw domainError(`each thread holds ${tvs.values} values, not a multiple of the atom's ${nx}`);
  const active = activeAtomThreads(x, at);
  const live = active.every((a) => a) ? undefined : Uint8Array.from({ length: tvs.threads }, (_, t) => (active[t % at] ? 1 : 0));
  const matrix = instruction.includes('matrix');
  const p: AccessPattern = {
    threads: tvs.threads,
    values: tvs.values,
    index: tvs.index,
    access: roleAccess(role),
    ...(live === undefined ? {} : { live }),
    widths: [nx],
    instruction: () => instruction,
    vectorBytes: (w) => (matrix ? 16 : w * tile.e),
  };
  return accessSide(role, name, p, tile, m);
}
