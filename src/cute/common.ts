/**
 * Common vectors (SPEC §8.5; CuTe `max_common_vector`, `max_common_layout` of
 * include/cute/layout.hpp), decided by the definition, exactly:
 *   with R = right_inverse(B), N is the largest N ≤ size(R) such that Φ_A(Φ_R(n)) = n for
 *   every n < N (Φ_A is defined below size(A) only: a point Φ_R(n) ≥ size(A) ends the run).
 * Where A∘R exists this is CuTe's answer: the shape of the first mode of coal(A∘R) when its
 * stride is 1, else 1. This module finds N as follows.
 *  (1) R_t: the longest prefix layout of R, (r_1..r_(j−1), c):(q_1..q_j), whose cosize is at
 *      most size(A) (Φ_R is monotone in each digit, so its largest value is at its last index).
 *  (2) If the paper's composite C = A∘R_t exists, Φ_C = Φ_A∘Φ_R on [0, size(R_t)), and the
 *      identity run of a layout function is read off coal(C) = (c_1..):(e_1..): c_1 when
 *      e_1 = 1 (at c_1 the function is e_2 ≠ c_1, coal having merged otherwise), else 1.
 *  (3) Beyond R_t, or where no composite exists, Φ_A(Φ_R(n)) is evaluated for n = N, N+1, …
 *      until it differs from n or leaves A's domain; more than EVAL_LIMIT points without an
 *      answer is refused with `overflow`, never guessed.
 */
import { checkDeadline } from '../algebra/deadline.js';
import { coalesce } from '../algebra/coalesce.js';
import { compose } from '../algebra/compose.js';
import { LayoutError } from '../algebra/errors.js';
import { flat, makeEntry, size, type Layout } from '../algebra/layout.js';
import { rightInverse } from './inverse.js';

export const EVAL_LIMIT = 1 << 24;

/** The identity run of the layout function of c: c_1 when coal(c) starts with stride 1. */
function identityRun(c: Layout): number {
  const f = flat(coalesce(c));
  return f.strides[0] === 1 ? f.shapes[0]! : 1;
}

/** The longest prefix layout of flat R with cosize ≤ bound (size ≥ 1). */
function prefixWithin(rs: readonly number[], rd: readonly number[], bound: number): Layout {
  const s: number[] = [];
  const d: number[] = [];
  let top = 0; // Φ_R at the last index of the prefix so far
  for (let j = 0; j < rs.length; j++) {
    const room = Math.floor((bound - 1 - top) / rd[j]!); // rd[j] ≥ 1: R's strides are prefix products
    if (room <= 0) break;
    const c = Math.min(rs[j]!, room + 1);
    s.push(c);
    d.push(rd[j]!);
    top += (c - 1) * rd[j]!;
    if (c < rs[j]!) break;
  }
  return { shape: s, stride: d };
}

/** Φ_A(Φ_R(n)) = n from n = start on, by evaluation (step (3) above). */
function runByEvaluation(a: Layout, rs: readonly number[], rd: readonly number[], start: number, end: number): number {
  const { shapes: as, strides: ad } = flat(a);
  const sizeA = size(a);
  for (let n = start; n < end; n++) {
    if (n - start >= EVAL_LIMIT) {
      throw new LayoutError('overflow', `max_common_vector: deciding it needs more than ${EVAL_LIMIT} evaluations of Φ_A∘Φ_R`);
    }
    if (((n - start) & 0xfff) === 0xfff) checkDeadline('max_common_vector');
    let x = 0;
    let rest = n;
    for (let j = 0; j < rs.length && rest > 0; j++) {
      x += (rest % rs[j]!) * rd[j]!;
      rest = Math.floor(rest / rs[j]!);
    }
    if (x >= sizeA) return n;
    let y = 0;
    for (let i = 0; i < as.length && x > 0; i++) {
      y += (x % as[i]!) * ad[i]!;
      x = Math.floor(x / as[i]!);
    }
    if (y !== n) return n;
  }
  return end;
}

/** The N of SPEC §8.5 for A and R = right_inverse(B). */
function commonRun(a: Layout, r: Layout): number {
  const { shapes: rs, strides: rd } = flat(r);
  const total = size(r);
  const t = prefixWithin(rs, rd, size(a));
  const tSize = size(t);
  let start = 1; // Φ_A(Φ_R(0)) = Φ_A(0) = 0 always
  try {
    const run = identityRun(compose(a, t));
    if (run < tSize || tSize === total) return Math.min(run, total);
    start = tSize;
  } catch (e) {
    if (!(e instanceof LayoutError) || (e.kind !== 'not-composable' && e.kind !== 'overflow')) throw e;
  }
  return runByEvaluation(a, rs, rd, start, total);
}

/**
 * CuTe's `max_common_vector(A, B)` (SPEC §8.5): with R = right_inverse(B), the largest
 * N ≤ size(R) with Φ_A(Φ_R(n)) = n for every n < N; at least 1. Pre: plain layouts.
 * Errors: `overflow` where deciding would take more than EVAL_LIMIT evaluations.
 * Example: maxCommonVector(parseLayout('(4,8):(1,4)'), parseLayout('(4,8):(1,4)')) is 32.
 */
export function maxCommonVector(a: Layout, b: Layout): number {
  return commonRun(a, rightInverse(b));
}

/**
 * CuTe's `max_common_layout(A, B)` (SPEC §8.5): coal(R ∘ N:1) with R = right_inverse(B) and
 * N = max_common_vector(A, B); 1:0 when N = 1. Its points n map to offsets where A and B both
 * take the value n. Errors: those of max_common_vector, and `not-composable` where R∘N:1 has
 * no composite. Example: maxCommonLayout(parseLayout('(4,8):(1,4)'),
 * parseLayout('(4,(2,4)):(1,(4,8))')) is 32:1.
 */
export function maxCommonLayout(a: Layout, b: Layout): Layout {
  const r = rightInverse(b);
  const n = commonRun(a, r);
  if (n === 1) return makeEntry(1, 0);
  return coalesce(compose(r, makeEntry(n, 1)));
}
