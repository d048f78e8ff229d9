/**
 * The planner's oracle (docs/planner.md), written from docs/planner.md and not from src/planner: the families
 * enumerated by their definitions with offsets computed from coordinates, each candidate priced by
 * the independent bank counter of test/memory/brute-banks.ts (on AMD's waves through its machine
 * parameter), the Pareto front and the lower bound derived by brute force.
 */
import { amdBrute, bruteBanks, type BruteMachine } from '../memory/brute-banks.js';

/** A side as the oracle sees it: T threads, V values, the tile index of (t, j) at t + T·j. */
export interface BruteSide {
  readonly T: number;
  readonly V: number;
  readonly index: ArrayLike<number>;
  /** whether the side may use ldmatrix/stmatrix.x4 (16-bit values on a machine that has it) */
  readonly matrix?: boolean;
  /** the machine and direction it is priced on (absent: NVIDIA's §9.2 model); on AMD only 4-, 8- and 16-byte accesses */
  readonly machine?: BruteMachine;
}

/** A side on an AMD machine, its direction by role: amdBrute's phases. */
export const onAmd = (side: BruteSide, n: 'gfx942' | 'gfx950', role: 'write' | 'read'): BruteSide => ({
  ...side,
  matrix: false,
  machine: amdBrute(n, role === 'read'),
});

/** The vector widths (values) a side's machine allows, widest first: w·e ≤ 16, and on AMD w·e ≥ 4. */
const widthsOf = (side: BruteSide, e: number): number[] =>
  [16, 8, 4, 2, 1].map((b) => b / e).filter((w) => Number.isInteger(w) && w >= 1 && (side.machine === undefined || w * e >= 4));

/** A candidate: its family and its offsets by tile index. */
export interface BruteCandidate {
  readonly family: string;
  readonly offsets: number[];
}

const swz = (y: number, b: number, m: number, s: number): number => y ^ (((y >> (m + s)) & ((1 << b) - 1)) << m);

/** Offsets of the compact layout of `shape` with strides growing in `order`, the second mode's stride padded by p. */
function base(shape: number[], order: number[], p = 0): number[] {
  const stride: number[] = [];
  let run = 1;
  order.forEach((i, k) => {
    stride[i] = k === 1 ? run + p : run;
    run = stride[i]! * shape[i]!;
  });
  const n = shape.reduce((a, b) => a * b, 1);
  return Array.from({ length: n }, (_, x) => {
    let o = 0;
    shape.forEach((s, i) => {
      o += (x % s) * stride[i]!;
      x = Math.floor(x / s);
    });
    return o;
  });
}

function permutations(r: number): number[][] {
  if (r === 1) return [[0]];
  return permutations(r - 1).flatMap((p) => Array.from({ length: r }, (_, i) => [...p.slice(0, i), r - 1, ...p.slice(i)]));
}

/** Distinct functions only, first kept. */
function distinct(cs: BruteCandidate[]): BruteCandidate[] {
  const seen = new Set<string>();
  return cs.filter((c) => {
    const k = c.offsets.join(',');
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** The swizzle, padded and atoms families over a tile of e-byte elements (docs/planner.md's definitions). */
export function bruteFamilies(shape: number[], e: number): Record<string, BruteCandidate[]> {
  const n = shape.reduce((a, b) => a * b, 1);
  const orders = permutations(shape.length);
  const nb = Math.ceil(Math.log2(n));
  const sw: BruteCandidate[] = orders.map((o) => ({ family: 'swizzle', offsets: base(shape, o) }));
  for (const o of orders)
    for (let b = 1; b <= nb; b++)
      for (let s = b; s <= nb; s++) for (let m = 0; m + s + b <= nb; m++) sw.push({ family: 'swizzle', offsets: base(shape, o).map((y) => swz(y, b, m, s)) });
  const pad: BruteCandidate[] = [];
  const pmax = 128 / e;
  if (shape.length >= 2) for (const o of orders) for (let p = 1; p <= pmax; p++) pad.push({ family: 'padded', offsets: base(shape, o, p) });
  for (const o of orders) {
    // y ↦ y + ⌊y/I⌋·P is a layout over the tile's modes when I = (product of the first k ordered modes) · d, d | the next
    const prefix = [1];
    for (const i of o) prefix.push(prefix[prefix.length - 1]! * shape[i]!);
    for (let I = 1; I < n; I *= 2) {
      const clean = o.some((i, k) => I % prefix[k]! === 0 && shape[i]! % (I / prefix[k]!) === 0);
      if (!clean) continue;
      for (let P = 1; P <= pmax; P *= 2) pad.push({ family: 'padded', offsets: base(shape, o).map((y) => y + Math.floor(y / I) * P) });
    }
  }
  const atoms: BruteCandidate[] = [];
  if (shape.length === 2 && e <= 4) {
    for (const major of ['K', 'MN'])
      for (let b = 0; b < 4; b++) {
        const w = (16 << b) / e;
        const [a0, a1] = major === 'K' ? [8, w] : [w, 8];
        if (shape[0]! % a0 !== 0 || shape[1]! % a1 !== 0) continue;
        const r0 = shape[0]! / a0;
        const r1 = shape[1]! / a1;
        for (const order of ['col', 'row']) {
          const offsets = Array.from({ length: n }, (_, x) => {
            const i = x % shape[0]!;
            const j = Math.floor(x / shape[0]!);
            const inAtom = major === 'K' ? (i % 8) * w + (j % w) : (i % w) + w * (j % 8);
            const blk = order === 'col' ? Math.floor(i / a0) + r0 * Math.floor(j / a1) : Math.floor(j / a1) + r1 * Math.floor(i / a0);
            const y = inAtom + 8 * w * blk;
            return b === 0 ? y : swz(y, b, 4 - Math.log2(e), 3);
          });
          atoms.push({ family: 'atoms', offsets });
        }
      }
  }
  return { swizzle: distinct(sw), padded: distinct(pad), atoms: distinct(atoms) };
}

type Price = { vector: number; instructions: number; phases: number; wavefronts: number };

/** The oracle's ld/st.shared price of a side on offsets (widest vector that works, §9.2), or null when none divides. */
export function bruteShared(side: BruteSide, offsets: ArrayLike<number>, e: number): Price | null {
  const off = (t: number, j: number): number => offsets[side.index[t + side.T * j]!]!;
  if (side.machine === undefined) {
    const r = bruteBanks(off, side.T, side.V, e);
    return r === 'bad-vector' ? null : r;
  }
  for (const w of widthsOf(side, e)) {
    const r = bruteBanks(off, side.T, side.V, e, w, side.machine);
    if (r !== 'bad-vector') return r;
  }
  return null;
}

/** The element of the 8×8 b16 matrix fragment that lane 8k + r of warp g addresses, value i of instruction q: row r of
 *  matrix k holds values 8q + 2k, 8q + 2k + 1 of threads 4r … 4r + 3 of the warp (PTX ISA, ldmatrix / stmatrix). */
const fragment = (T: number, t: number, j: number): number => {
  const g = Math.floor(t / 32);
  const k = Math.floor((t % 32) / 8);
  const r = t % 8;
  const q = Math.floor(j / 8);
  const i = j % 8;
  return 32 * g + 4 * r + Math.floor(i / 2) + T * (8 * q + 2 * k + (i % 2));
};

/** The oracle's ldmatrix/stmatrix.x4 price (16-bit values, full warps, 8 values a thread per instruction), or null. */
export function bruteMatrix(side: BruteSide, offsets: ArrayLike<number>, e: number): Price | null {
  if (e !== 2 || side.T % 32 !== 0 || side.V % 8 !== 0) return null;
  const r = bruteBanks((t, j) => offsets[side.index[fragment(side.T, t, j)]!]!, side.T, side.V, e, 8);
  return r === 'bad-vector' ? null : r;
}

/** The oracle's price of a side: the cheaper of ld/st.shared and (with `matrix`) the matrix instruction. */
export function brutePrice(side: BruteSide, offsets: ArrayLike<number>, e: number): Price | null {
  const a = bruteShared(side, offsets, e);
  const b = side.matrix ? bruteMatrix(side, offsets, e) : null;
  if (a === null || b === null) return a ?? b;
  return b.wavefronts < a.wavefronts || (b.wavefronts === a.wavefronts && b.instructions < a.instructions) ? b : a;
}

/** The least wavefronts of a side: the phases at the widest width whose vectors hold distinct tile indices. */
export function bruteLeast(side: BruteSide, e: number): number {
  const plain = bruteLeastShared(side, e);
  if (!(side.matrix && e === 2 && side.T % 32 === 0 && side.V % 8 === 0)) return plain;
  // the matrix instruction: its rows must hold distinct elements; 4 phases of 8 rows per instruction
  for (let t = 0; t < side.T; t++)
    for (let q = 0; q < side.V; q += 8) {
      const s = new Set<number>();
      for (let i = 0; i < 8; i++) s.add(side.index[fragment(side.T, t, q + i)]!);
      if (s.size !== 8) return plain;
    }
  return Math.min(plain, (side.T / 32) * (side.V / 8) * 4);
}

function bruteLeastShared(side: BruteSide, e: number): number {
  if (side.machine !== undefined) return bruteLeastOn(side, e, side.machine);
  for (let w = 16 / e; w >= 1; w /= 2) {
    if (side.V % w !== 0) continue;
    let ok = true;
    for (let t = 0; t < side.T && ok; t++)
      for (let k = 0; k < side.V && ok; k += w) {
        const s = new Set<number>();
        for (let i = 0; i < w; i++) s.add(side.index[t + side.T * (k + i)]!);
        ok = s.size === w;
      }
    if (!ok) continue;
    const tpp = w * e <= 4 ? 32 : 128 / (w * e);
    let phases = 0;
    for (let g = 0; g * 32 < side.T; g++) phases += Math.ceil(Math.min(32, side.T - 32 * g) / tpp);
    return (phases * side.V) / w;
  }
  throw new Error('unreachable: w = 1 always works');
}

/** Whether every vector of w values of the side holds distinct tile indices. */
function distinctAt(side: BruteSide, w: number): boolean {
  for (let t = 0; t < side.T; t++)
    for (let k = 0; k < side.V; k += w) {
      const s = new Set<number>();
      for (let i = 0; i < w; i++) s.add(side.index[t + side.T * (k + i)]!);
      if (s.size !== w) return false;
    }
  return true;
}

/** The least wavefronts on a machine of the brute force: the fewest phases (distinct phase numbers of the lanes present,
 *  per wave and instruction) over the widths whose vectors hold distinct indices. */
function bruteLeastOn(side: BruteSide, e: number, mc: BruteMachine): number {
  let least = Number.POSITIVE_INFINITY;
  for (const w of widthsOf(side, e)) {
    if (side.V % w !== 0 || !distinctAt(side, w)) continue;
    let phases = 0;
    for (let g = 0; g * mc.wave < side.T; g++) {
      const fs = new Set<number>();
      for (let l = 0; l < mc.wave && g * mc.wave + l < side.T; l++) fs.add(mc.phase(l, w * e));
      phases += fs.size;
    }
    least = Math.min(least, (phases * side.V) / w);
  }
  return least;
}

/** (write, read, bytes) of each candidate both sides accept; the non-dominated triples among them. */
export function bruteFront(cs: BruteCandidate[], write: BruteSide, read: BruteSide, e: number): { all: number[][]; front: Set<string> } {
  const all: number[][] = [];
  for (const c of cs) {
    const w = brutePrice(write, c.offsets, e);
    const r = brutePrice(read, c.offsets, e);
    if (w && r) all.push([w.wavefronts, r.wavefronts, (Math.max(...c.offsets) + 1) * e]);
  }
  const dom = (x: number[], y: number[]): boolean => x.every((v, i) => v <= y[i]!) && x.some((v, i) => v < y[i]!);
  const front = new Set(all.filter((t) => !all.some((u) => dom(u, t))).map((t) => t.join(',')));
  return { all, front };
}
