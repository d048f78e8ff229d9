/**
 * Compactness and injectivity of the flat entries [lo, hi) of a layout (docs/semantics.md §4.1), each by its
 * fastest exact method, with no allocation per call (scratch typed arrays are reused): used by the bulk verification
 * (verify/cpu.ts), the candidate sources and the swizzle search.
 * - compact: structural (Prop. 2.3.5.5): a flat layout with shape entries ≥ 2 (shape-1 entries take no part) is compact
 *   iff every stride is non-zero, its cosize equals its size, and sorted by stride its strides read 1, s_1, s_1·s_2, … .
 * - injective: quick answers (a zero stride on a shape ≥ 2 or cosize < size: no; sorted strides with every
 *   d_k > Σ_{j<k} (s_j − 1)·d_j: yes), else a bitmap walk of Φ (odometer, no division).
 */
import { checkDeadline } from './deadline.js';

const MAX_RANK = 64;
const sS = new Float64Array(MAX_RANK);
const sD = new Float64Array(MAX_RANK);

// size and cosize of the entries [lo, hi) measured by measureEntries (module state: no
// allocation on the scan's hot path)
let entrySize = 1;
let entryCosize = 1;

/** size and cosize of the entries [lo, hi) with s > 1, into entrySize / entryCosize; false
 *  when one of them has stride 0 (then Φ repeats a value: neither compact nor injective). */
function measureEntries(shapes: ArrayLike<number>, strides: ArrayLike<number>, lo: number, hi: number): boolean {
  let size = 1;
  let co = 1;
  for (let k = lo; k < hi; k++) {
    const s = shapes[k]!;
    if (s === 1) continue;
    const d = strides[k]!;
    if (d === 0) return false;
    size *= s;
    co += (s - 1) * d;
  }
  entrySize = size;
  entryCosize = co;
  return true;
}

/** Φ bijective onto [0, size) for the entries [lo, hi) (structural, exact). */
export function compactEntries(shapes: ArrayLike<number>, strides: ArrayLike<number>, lo: number, hi: number): boolean {
  if (!measureEntries(shapes, strides, lo, hi)) return false;
  const size = entrySize;
  if (entryCosize !== size) return false;
  if (size === 1) return true;
  return sortedRadix(shapes, strides, lo, hi);
}

/** sort the entries with s > 1 by stride (then shape) into sS/sD; returns their count */
function sortInto(shapes: ArrayLike<number>, strides: ArrayLike<number>, lo: number, hi: number): number {
  let m = 0;
  let S: Float64Array = sS;
  let D: Float64Array = sD;
  if (hi - lo > MAX_RANK) {
    S = new Float64Array(hi - lo);
    D = new Float64Array(hi - lo);
  }
  for (let k = lo; k < hi; k++) {
    const s = shapes[k]!;
    if (s === 1) continue;
    const d = strides[k]!;
    let j = m++;
    while (j > 0 && (D[j - 1]! > d || (D[j - 1] === d && S[j - 1]! > s))) {
      S[j] = S[j - 1]!;
      D[j] = D[j - 1]!;
      j--;
    }
    S[j] = s;
    D[j] = d;
  }
  if (S !== sS) {
    sortedS = S;
    sortedD = D;
  } else {
    sortedS = sS;
    sortedD = sD;
  }
  return m;
}
let sortedS: Float64Array = sS;
let sortedD: Float64Array = sD;

function sortedRadix(shapes: ArrayLike<number>, strides: ArrayLike<number>, lo: number, hi: number): boolean {
  const m = sortInto(shapes, strides, lo, hi);
  let expect = 1;
  for (let j = 0; j < m; j++) {
    if (sortedD[j] !== expect) return false;
    expect *= sortedS[j]!;
  }
  return true;
}

let bits = new Uint32Array(1 << 12);

/** Φ injective on [0, size) for the entries [lo, hi). */
export function injectiveEntries(shapes: ArrayLike<number>, strides: ArrayLike<number>, lo: number, hi: number): boolean {
  if (!measureEntries(shapes, strides, lo, hi)) return false;
  const size = entrySize;
  const co = entryCosize;
  if (co < size) return false;
  if (size === 1) return true;
  // superincreasing strides: the mixed-radix digits are recovered uniquely
  const m = sortInto(shapes, strides, lo, hi);
  let reach = 0;
  let superinc = true;
  for (let j = 0; j < m; j++) {
    if (sortedD[j]! <= reach) {
      superinc = false;
      break;
    }
    reach += (sortedS[j]! - 1) * sortedD[j]!;
  }
  if (superinc) return true;
  // bitmap walk over [0, cosize)
  const words = Math.ceil(co / 32);
  if (words > bits.length) bits = new Uint32Array(Math.max(words, bits.length * 2));
  else bits.fill(0, 0, words);
  const S = Array.from(sortedS.subarray(0, m));
  const D = Array.from(sortedD.subarray(0, m));
  const c = new Array<number>(m).fill(0);
  let o = 0;
  for (let x = 0; x < size; x++) {
    if ((x & 0xffff) === 0xffff) checkDeadline('verify (injective walk)');
    const w = o >>> 5;
    const bit = 1 << (o & 31);
    if (bits[w]! & bit) return false;
    bits[w] = bits[w]! | bit;
    // odometer (the order of the entries does not matter for injectivity)
    for (let j = 0; j < m; j++) {
      o += D[j]!;
      if (++c[j]! < S[j]!) break;
      o -= S[j]! * D[j]!;
      c[j] = 0;
    }
  }
  return true;
}
