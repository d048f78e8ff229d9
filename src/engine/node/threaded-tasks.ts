/**
 * The bulk checks' parts, as run in a pool worker (pool-worker.ts) over an index range
 * [lo, hi). Each part calls the CPU backend's compiled functions (cpu.ts: fill, digest, find,
 * phi) and returns plain data that threaded-cpu.ts merges; layouts travel as their coalesced
 * flattening coal♭(L♭) (the same Φ, size and cosize). Deadlines and progress are checked
 * between blocks.
 */
import { LayoutError } from '../../algebra/errors.js';
import { makeFlat, type Layout } from '../../algebra/layout.js';
import { compareComposite, CpuBackend } from '../cpu.js';
import { TWO32 } from '../prep.js';

/** a layout as plain data: its coalesced flattening */
export interface FlatSpec {
  shapes: number[];
  strides: number[];
}

interface TaskCtx {
  deadline: number;
  progress(done: number): void;
}

/** indices per block between deadline / progress checks */
const BLOCK = 1 << 20;
/** offsets per fill buffer of the compactness part */
const FILL = 1 << 14;

const cpu = new CpuBackend();
const layoutOf = (f: FlatSpec): Layout => makeFlat(f.shapes, f.strides);

function blocks(lo: number, hi: number, ctx: TaskCtx, work: (s: number, n: number) => void): void {
  for (let s = lo; s < hi; ) {
    const n = Math.min(BLOCK, hi - s);
    work(s, n);
    s += n;
    ctx.progress(s - lo);
    if (s < hi && Date.now() >= ctx.deadline) throw new LayoutError('timeout', `a worker's part ran past the deadline after ${s - lo} of ${hi - lo} indices`);
  }
}

/** Part of digest_range: exact Σ (decimal string), min and max of Φ over [lo, hi). */
export interface DigestPart {
  sum: string;
  min: number;
  max: number;
}

/**
 * Part of check_compact over the indices [lo, hi): offsets in the window [w0, w0 + wn) are
 * marked in this part's own bitmap (shared memory, but written by this thread only, so plain
 * stores suffice: no locked operation per index). Collisions within the part are counted here.
 * The threaded check runs it with an empty window to find the least out-of-range index.
 */
export interface CompactPart {
  /** #x in [lo, hi) with Φ(x) ≥ size (counted when countOor) */
  oor: number;
  /** least such x, or −1 */
  oorW: number;
  /** Σ (m − 1) over the offsets of the window that this part hits m ≥ 1 times */
  coll: number;
  /** least offset this part hits twice or more, or Infinity */
  collV: number;
}

/** number of set bits of a 32-bit word */
function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) as number;
}

export const handlers = {
  digest(p: { l: FlatSpec; lo: number; hi: number }, ctx: TaskCtx): DigestPart {
    const c = cpu.compiled(layoutOf(p.l));
    const acc = { sum: 0n, min: Infinity, max: -Infinity };
    blocks(p.lo, p.hi, ctx, (s, n) => c.digest(s, n, acc));
    return { sum: acc.sum.toString(), min: acc.min, max: acc.max };
  },

  compact(p: { l: FlatSpec; lo: number; hi: number; bits: SharedArrayBuffer; w0: number; wn: number; countOor: boolean }, ctx: TaskCtx): CompactPart {
    // the CPU backend's own generated bitmap scan (cpu.ts), on this part's bitmap
    const c = cpu.compiled(layoutOf(p.l));
    const bits = new Uint32Array(p.bits);
    const st = { oor: 0, oorW: -1, coll: 0, collV: Infinity, countOor: p.countOor };
    blocks(p.lo, p.hi, ctx, (s, n) => c.compact(s, n, bits, p.w0, p.wn, st));
    return { oor: st.oor, oorW: st.oorW, coll: st.coll, collV: st.collV };
  },

  /**
   * The collisions between parts over the words [lo, hi) of their bitmaps: an offset marked by
   * j ≥ 1 parts adds j − 1 (so, with the parts' own counts, every offset hit m times adds
   * m − 1); the least offset marked by two parts or more.
   */
  /**
   * One window [w0, w0 + wn) of a threaded check_compact: the index blocks (pairs lo, n) of the
   * stride-sorted layout `l` whose offsets can land in it (window-plan.ts), marked in this
   * window's own bitmap; out-of-range offsets are not counted here (the caller derives them
   * from the hits). Returns the hits (set bits plus collisions) and the collisions.
   */
  compactWindow(
    p: { l: FlatSpec; blocks: number[]; bits: SharedArrayBuffer; w0: number; wn: number },
    ctx: TaskCtx,
  ): { hits: number; coll: number; collV: number } {
    const c = cpu.compiled(layoutOf(p.l));
    const bits = new Uint32Array(p.bits);
    const st = { oor: 0, oorW: -1, coll: 0, collV: Infinity, countOor: false };
    let done = 0;
    for (let i = 0; i < p.blocks.length; i += 2) {
      const lo = p.blocks[i]!;
      const n = p.blocks[i + 1]!;
      blocks(lo, lo + n, { deadline: ctx.deadline, progress: (d) => ctx.progress(done + d) }, (s, m) => c.compact(s, m, bits, p.w0, p.wn, st));
      done += n;
    }
    let set = 0;
    for (let i = 0; i < bits.length; i++) set += popcount(bits[i]!);
    return { hits: set + st.coll, coll: st.coll, collV: st.collV };
  },

  find(p: { l: FlatSpec; lo: number; hi: number; v: number }, ctx: TaskCtx): { first: number; last: number } {
    const c = cpu.compiled(layoutOf(p.l));
    const st = { first: -1, last: -1 };
    blocks(p.lo, p.hi, ctx, (s, n) => c.find(s, n, p.v, st));
    return st;
  },

  compose(p: { b: FlatSpec; a: FlatSpec; c: FlatSpec; lo: number; hi: number }, ctx: TaskCtx): { mismatches: number; witness: number } {
    const A = cpu.compiled(layoutOf(p.a));
    const B = cpu.compiled(layoutOf(p.b));
    const C = cpu.compiled(layoutOf(p.c));
    const va = A.p.cosize <= TWO32 ? new Uint32Array(FILL) : new Float64Array(FILL);
    const vc = C.p.cosize <= TWO32 ? new Uint32Array(FILL) : new Float64Array(FILL);
    const acc = { mismatches: 0, witness: -1 };
    blocks(p.lo, p.hi, ctx, (s0, n0) => compareComposite(A, B.phi, C, s0, n0, va, vc, acc));
    return acc;
  },
};
