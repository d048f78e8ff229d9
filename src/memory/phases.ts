/**
 * The phases of one access pattern over one base layout, tabulated once so that the swizzle
 * search (search.ts) can price every Sw<B,M,S> o base from them (docs/semantics.md §9.2). Two exact facts:
 *
 * 1. Sw(y) = y ⊕ f(y & mask) with f a shift of the masked bits, so f(a | b) = f(a) | f(b).
 *    When the base holds vectors of w values (aligned, contiguous), the candidate holds them
 *    iff w = 1, or the source bits all lie at or above log2 w and f(U) has no bit below log2 w,
 *    U the OR of every vector lead's offset (a source bit inside the vector breaks every
 *    vector; a target bit below log2 w moves some lead off alignment).
 * 2. In a phase whose lead offsets agree on the masked bits, Sw XORs every lead with one
 *    constant c (no bit below log2 w): byte addresses XOR with e·c, which maps words to words
 *    and banks to banks one to one, so the phase's wavefronts are the base's.
 * 3. Since f is linear, Sw(y ⊕ C) = Sw(y) ⊕ Sw(C): two phases whose leads differ lane by lane
 *    by one constant C (the same lead ⊕ first-lead sequence) are XOR-translates of each other
 *    under every swizzle that keeps the vectors (Sw(C) is then aligned), so by 2 they take the
 *    same wavefronts. The table keeps one phase per such class, with its multiplicity.
 */
import { checkDeadline } from '../algebra/deadline.js';
import type { Swizzle } from '../cute/swizzle.js';
import { sourceLow, topBit } from '../cute/swizzle.js';
import type { ThreadValues } from './access.js';
import { type BankScratch, threadsPerPhase, WARP } from './banks.js';

/** Offsets below 2^30 take 32-bit operations. */
const LIMIT = 2 ** 30;

/** The phases of a pattern at vector width w over base offsets, one per class of fact 3
 *  (in order of first appearance: warp, instruction, phase; leads in lane order). */
export interface PhaseTable {
  /** values per vector */
  readonly w: number;
  /** bytes per thread per instruction (w·e) */
  readonly width: number;
  readonly e: number;
  /** the phases of the pattern (not the classes) */
  readonly phases: number;
  /** the classes */
  readonly classes: number;
  /** per class, its number of phases */
  readonly mult: Int32Array;
  /** class p's representative's leads are lead[first[p] … first[p] + lanes[p]) */
  readonly first: Int32Array;
  readonly lanes: Int32Array;
  /** element offsets of the vector leads */
  readonly lead: Int32Array;
  /** per phase, the OR of (lead ⊕ first lead): the bits that vary within it */
  readonly vary: Int32Array;
  /** per phase, the wavefronts of the base itself */
  readonly count: Int32Array;
  /** OR of every lead */
  readonly union: number;
  /** the base's wavefronts summed */
  readonly total: number;
}

/**
 * Tabulate the phases of pattern `tvs` (element size e) at vector width w over `base`
 * (Φ_L(Φ_TV(t, j)) at t + T·j). Pre-conditions: w divides the value count and the base holds
 * vectors of w. Null when a lead is not below 2^30 (the caller takes the general path).
 * Example: phaseTable(offsets of (128,64):(64,1) read row-wise, tvs, 2, 8, scratch).phases.
 */
export function phaseTable(base: Float64Array, tvs: ThreadValues, e: number, w: number, scratch: BankScratch): PhaseTable | null {
  const { threads: T, values: V } = tvs;
  const warps = Math.ceil(T / WARP);
  const perWarp = V / w;
  const width = w * e;
  const tpp = threadsPerPhase(width);
  const perInstr = Math.ceil(Math.min(WARP, T) / tpp);
  const cap = warps * perWarp * perInstr;
  const first = new Int32Array(cap);
  const lanes = new Int32Array(cap);
  const vary = new Int32Array(cap);
  const count = new Int32Array(cap);
  const lead = new Int32Array(warps * perWarp * WARP);
  const bytes = new Float64Array(WARP);
  let union = 0;
  let total = 0;
  const mult = new Int32Array(cap);
  const byKey = new Map<string, number>();
  let p = 0;
  let q = 0;
  for (let g = 0; g < warps; g++) {
    if ((g & 63) === 63) checkDeadline('the phase table');
    const ln = Math.min(WARP, T - g * WARP);
    for (let k = 0; k < perWarp; k++) {
      const row = (g * perWarp + k) * WARP;
      for (let lane = 0; lane < ln; lane++) {
        const y = base[g * WARP + lane + T * k * w]!;
        if (!(y >= 0 && y < LIMIT)) return null;
        lead[row + lane] = y;
        union |= y;
      }
      for (let f = 0; f * tpp < ln; f++) {
        const s = row + f * tpp;
        const n = Math.min(tpp, ln - f * tpp);
        let v = 0;
        for (let i = 0; i < n; i++) {
          v |= lead[s + i]! ^ lead[s]!;
          bytes[i] = e * lead[s + i]!;
        }
        let key = '';
        for (let i = 1; i < n; i++) key += `${lead[s + i]! ^ lead[s]!},`;
        const seen = byKey.get(key);
        p++;
        if (seen !== undefined) {
          mult[seen] = mult[seen]! + 1;
          total += count[seen]!;
          continue;
        }
        const c = scratch.phase(bytes, 0, n, width);
        byKey.set(key, q);
        first[q] = s;
        lanes[q] = n;
        vary[q] = v;
        count[q] = c;
        mult[q] = 1;
        total += c;
        q++;
      }
    }
  }
  return {
    w,
    width,
    e,
    phases: p,
    classes: q,
    mult: mult.subarray(0, q),
    first: first.subarray(0, q),
    lanes: lanes.subarray(0, q),
    lead,
    vary: vary.subarray(0, q),
    count: count.subarray(0, q),
    union,
    total,
  };
}

/** The swizzle as 32-bit mask and shifts: Sw(y) = y ^ (((y & mask) >>> r) << l); null when
 *  its bits reach beyond bit 30. */
export function swizzleBits(sw: Swizzle): { mask: number; r: number; l: number } | null {
  if (sw.bits === 0) return { mask: 0, r: 0, l: 0 };
  if (topBit(sw) > 30) return null;
  return { mask: ((1 << sw.bits) - 1) << sourceLow(sw), r: sw.shift >= 0 ? sw.shift : 0, l: sw.shift >= 0 ? 0 : -sw.shift };
}

/** Fact 1: whether Sw o base holds vectors of w, given that the base does and U is the OR of
 *  its leads at w. */
export function swizzleKeepsVectors(bits: { mask: number; r: number; l: number }, w: number, union: number): boolean {
  const low = w - 1;
  if (w === 1 || bits.mask === 0) return true;
  if ((bits.mask & low) !== 0) return false;
  return ((((union & bits.mask) >>> bits.r) << bits.l) & low) === 0;
}

/**
 * The wavefronts of Sw o base over the table's phases (facts 2 and 3: only the classes whose
 * varying bits meet the mask are counted again, once per class). Pre-condition: swizzleKeepsVectors holds at t.w.
 * Example: swizzledWavefronts(phaseTable(…), swizzleBits(Sw<3,3,3>), scratch, buf).
 */
export function swizzledWavefronts(t: PhaseTable, bits: { mask: number; r: number; l: number }, scratch: BankScratch, buf: Float64Array): number {
  const { mask, r, l } = bits;
  if (mask === 0) return t.total;
  const { vary, count, first, lanes, lead, e, width, mult } = t;
  let total = 0;
  for (let p = 0; p < t.classes; p++) {
    if ((vary[p]! & mask) === 0) {
      total += count[p]! * mult[p]!;
      continue;
    }
    const s = first[p]!;
    const n = lanes[p]!;
    for (let i = 0; i < n; i++) {
      const y = lead[s + i]!;
      buf[i] = e * (y ^ (((y & mask) >>> r) << l));
    }
    total += scratch.phase(buf, 0, n, width) * mult[p]!;
  }
  return total;
}
