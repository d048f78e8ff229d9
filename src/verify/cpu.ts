/**
 * The CPU side of bulk verification, each check by its fastest exact method:
 * - compact: structural (Prop. 2.3.5.5): a flat layout with shape entries ≥ 2 (shape-1 entries
 *   take no part) is compact iff every stride is non-zero, its cosize equals its size, and
 *   sorted by stride its strides read 1, s_1, s_1·s_2, … . The cosize test rejects almost
 *   every non-compact candidate in one pass without sorting.
 * - injective: quick answers (a zero stride on a shape ≥ 2 or cosize < size: no; sorted strides
 *   with every d_k > Σ_{j<k} (s_j − 1)·d_j: yes), else a bitmap walk of Φ (odometer, no division).
 * - equality jobs: odometers over A and C, Φ_B by division.
 * - composed candidates Sw o K o L (FlatBatch.outer, docs/semantics.md §9.1): Φ = Sw(K + Φ_L). Injective iff
 *   L is (y ↦ Sw(K + y) is injective); compact by a walk of Φ into a bitmap of size(L).
 * No allocation per candidate: scratch typed arrays are reused.
 */
import { checkDeadline } from '../algebra/deadline.js';
import { compactEntries, injectiveEntries } from '../algebra/entries.js';
import type { BitmapKind, VerifyEngine } from './engine.js';
import { jobIndex, sizeAt, cosizeAt, isComposedAt, outerAt, type EqualJobs, type FlatBatch } from './packed.js';

export { compactEntries, injectiveEntries };

/** Φ of the entries [lo, hi) at x (division per entry) */
function phiAt(shapes: ArrayLike<number>, strides: ArrayLike<number>, lo: number, hi: number, x: number): number {
  let o = 0;
  let r = x;
  for (let k = lo; k < hi; k++) {
    const s = shapes[k]!;
    if (k === hi - 1) return o + r * strides[k]!;
    const q = Math.floor(r / s);
    o += (r - q * s) * strides[k]!;
    r = q;
  }
  return o;
}

/** Φ_B∘Φ_A = Φ_C on [0, size(A)) for job i */
export function equalJob(jobs: EqualJobs, i: number): boolean {
  const { a, b, c } = jobs;
  const ci = jobIndex(c, i);
  const n = sizeAt(a, i);
  if (sizeAt(c, ci) !== n) return false;
  let bi = -1;
  const composed = isComposedAt(a, i);
  let sizeB = Infinity;
  if (b) {
    bi = jobIndex(b, i);
    sizeB = sizeAt(b, bi);
    // cosize(A) ≤ size(B); a composed A's cosize is checked value by value below
    if (!composed && cosizeAt(a, i) > sizeB) return false;
  }
  const a0 = a.start[i]!;
  const a1 = a.start[i + 1]!;
  const c0 = c.start[ci]!;
  const c1 = c.start[ci + 1]!;
  const ca = new Array<number>(a1 - a0).fill(0);
  const cc = new Array<number>(c1 - c0).fill(0);
  const b0 = b ? b.start[bi]! : 0;
  const b1 = b ? b.start[bi + 1]! : 0;
  let oa = 0;
  let oc = 0;
  for (let x = 0; x < n; x++) {
    if ((x & 0xffff) === 0xffff) checkDeadline('verify (equality walk)');
    const va = composed ? outerAt(a, i, oa) : oa;
    if (va >= sizeB) return false;
    const v = b ? outerAt(b, bi, phiAt(b.shapes, b.strides, b0, b1, va)) : va;
    if (v !== outerAt(c, ci, oc)) return false;
    for (let j = 0; j < ca.length; j++) {
      const s = a.shapes[a0 + j]!;
      const d = a.strides[a0 + j]!;
      oa += d;
      if (++ca[j]! < s) break;
      oa -= s * d;
      ca[j] = 0;
    }
    for (let j = 0; j < cc.length; j++) {
      const s = c.shapes[c0 + j]!;
      const d = c.strides[c0 + j]!;
      oc += d;
      if (++cc[j]! < s) break;
      oc -= s * d;
      cc[j] = 0;
    }
  }
  return true;
}

export class CpuVerifyEngine implements VerifyEngine {
  readonly backend = 'cpu' as const;
  readonly adapter: string;
  readonly fallbacks = 0;

  constructor(adapter = 'cpu (structural checks and odometer walks in JavaScript)') {
    this.adapter = adapter;
  }

  bitmapCheckSync(kind: BitmapKind, batch: FlatBatch, out: Uint8Array = new Uint8Array(batch.count)): Uint8Array {
    const { start, shapes, strides } = batch;
    const f = kind === 'compact' ? compactEntries : injectiveEntries;
    if (batch.outer) {
      for (let i = 0; i < batch.count; i++) {
        if ((i & 0x3ff) === 0x3ff) checkDeadline('verify');
        out[i] = this.bitmapOne(kind, batch, i) ? 1 : 0;
      }
      return out;
    }
    for (let i = 0; i < batch.count; i++) {
      if ((i & 0x3ff) === 0x3ff) checkDeadline('verify');
      out[i] = f(shapes, strides, start[i]!, start[i + 1]!) ? 1 : 0;
    }
    return out;
  }

  /** compact / injective of candidate i alone, plain or composed (Sw o K o L: injective iff L
   *  is, as y ↦ Sw(K + y) is injective; compact iff Φ hits each of 0 … size − 1, by a walk) */
  bitmapOne(kind: BitmapKind, batch: FlatBatch, i: number): boolean {
    const lo = batch.start[i]!;
    const hi = batch.start[i + 1]!;
    if (kind === 'injective' || !isComposedAt(batch, i)) {
      return (kind === 'compact' ? compactEntries : injectiveEntries)(batch.shapes, batch.strides, lo, hi);
    }
    const n = sizeAt(batch, i);
    // n distinct values below n: compact (Def. 2.3.5.x); injectivity of L first, then the range
    if (!injectiveEntries(batch.shapes, batch.strides, lo, hi)) return false;
    for (let x = 0; x < n; x++) {
      if ((x & 0xffff) === 0xffff) checkDeadline('verify (compactness walk)');
      if (outerAt(batch, i, phiAt(batch.shapes, batch.strides, lo, hi, x)) >= n) return false;
    }
    return true;
  }

  async bitmapCheck(kind: BitmapKind, batch: FlatBatch): Promise<Uint8Array> {
    return this.bitmapCheckSync(kind, batch);
  }

  equalCheckSync(jobs: EqualJobs): Uint8Array {
    const out = new Uint8Array(jobs.a.count);
    for (let i = 0; i < jobs.a.count; i++) {
      if ((i & 0x3ff) === 0x3ff) checkDeadline('verify');
      out[i] = equalJob(jobs, i) ? 1 : 0;
    }
    return out;
  }

  async equalCheck(jobs: EqualJobs): Promise<Uint8Array> {
    return this.equalCheckSync(jobs);
  }

  async evalAll(batch: FlatBatch): Promise<Float64Array> {
    let total = 0;
    for (let i = 0; i < batch.count; i++) total += sizeAt(batch, i);
    const out = new Float64Array(total);
    let p = 0;
    for (let i = 0; i < batch.count; i++) {
      const n = sizeAt(batch, i);
      for (let x = 0; x < n; x++) out[p++] = outerAt(batch, i, phiAt(batch.shapes, batch.strides, batch.start[i]!, batch.start[i + 1]!, x));
    }
    return out;
  }

  dispose(): void {}
}
