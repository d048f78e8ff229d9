/**
 * Common vectors (docs/semantics.md §8.5; CuTe `max_common_vector`, `max_common_layout` of
 * include/cute/layout.hpp), decided by the definition, exactly:
 *   with R = right_inverse(B), N is the largest N ≤ size(R) such that Φ_A(Φ_R(n)) = n for
 *   every n < N (Φ_A is defined below size(A) only: a point Φ_R(n) ≥ size(A) ends the run).
 * Where A∘R exists this is CuTe's answer: the shape of the first mode of coal(A∘R) when its
 * stride is 1, else 1.
 *
 * The definition is `commonRunByDefinition`: Φ_A(Φ_R(n)) evaluated for n = 1, 2, … until it differs from n or leaves
 * A's domain; more than EVAL_LIMIT points without an answer is refused with `overflow`, never guessed. Two named
 * accelerators answer first, each tested against the definition (test/cute/common-accelerators.test.ts); each
 * returns N where it decides, else −P with P ≥ 1 a prefix on which Φ_A∘Φ_R is known to be the identity, from
 * which the definition goes on:
 *  - `alignedRun`: R's digits walking coal(A)'s modes in order (the common case of two compact layouts);
 *  - `compositeRun`: with R_t the longest prefix layout of R, (r_1..r_(j−1), c):(q_1..q_j), whose cosize is at most
 *    size(A) (Φ_R is monotone in each digit, so its largest value is at its last index), and the paper's composite
 *    C = A∘R_t where it exists, Φ_C = Φ_A∘Φ_R on [0, size(R_t)), and the identity run of a layout function is read
 *    off coal(C) = (c_1..):(e_1..): c_1 when e_1 = 1 (at c_1 the function is e_2 ≠ c_1, coal having merged
 *    otherwise), else 1.
 */
import { checkDeadline } from '../algebra/deadline.js';
import { coalesce, coalesceFlat, fromCoalescedFlat } from '../algebra/coalesce.js';
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
    if (rs[j] === 1) continue; // a mode of size 1 (R = 1:0) adds no point
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

/**
 * The definition (docs/semantics.md §8.5): the largest N ≤ size(R) with Φ_A(Φ_R(n)) = n for every n < N, by
 * evaluation from n = start on (the identity is known below start; n = 0 always holds: Φ_A(Φ_R(0)) = 0).
 * Errors: `overflow` past `limit` evaluations. Example: commonRunByDefinition(4:1, 8:1) is 4 (Φ_A ends at 4).
 */
export function commonRunByDefinition(a: Layout, r: Layout, start = 1, limit = EVAL_LIMIT): number {
  const { shapes: rs, strides: rd } = flat(r);
  const end = size(r);
  const { shapes: as, strides: ad } = flat(a);
  const sizeA = size(a);
  for (let n = start; n < end; n++) {
    if (n - start >= limit) {
      throw new LayoutError('overflow', `max_common_vector: deciding it needs more than ${limit} evaluations of Φ_A∘Φ_R`);
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

/** Accelerator: R's digits walking coal(A)'s modes in order. N (≥ 1), or −P where it does not decide, P being the
 *  prefix it has verified (Φ_A∘Φ_R is the identity on [0, P)). Pre: r = right_inverse(B) (coalesced, strides the
 *  prefix products of its shapes). Example: alignedRun((4,8):(1,4), 32:1) is 32. */
export function alignedRun(a: Layout, r: Layout): number {
  const { shapes: rs, strides: rd } = flat(r);
  return alignedRunFlat(a, rs, rd);
}

/** alignedRun on R♭ = (rs):(rd) (commonRun flattens R once for both accelerators). */
function alignedRunFlat(a: Layout, rs: readonly number[], rd: readonly number[]): number {
  const ca = flat(a);
  // coal(A) (fresh arrays), split in place as R's digits consume it; Φ_A off the fast path is read from A♭ (ca)
  const c = coalesceFlat(ca.shapes, ca.strides);
  const as = c.shapes as number[];
  const ad = c.strides as number[];
  let p = 1;
  let x = 1;
  let t = 0;
  let aligned = true; // Φ_R < X on [0, P), X = a_1⋯a_(t−1)
  for (let j = 0; j < rs.length; j++) {
    const r = rs[j]!;
    if (r === 1) continue; // R = 1:0
    const q = rd[j]!;
    if (!aligned || q !== x) {
      // off the fast path: f(P) = Φ_A(q) decides when it is not P (or undefined); Φ_A of A
      // itself (coal(A)), not of the split copy, which stands for A only on multiples of X
      if (q >= size(a)) return p;
      return phiFlat(ca.shapes, ca.strides, q) !== p ? p : -p;
    }
    if (t === as.length) return p; // Φ_R(P) = X = size(A): outside A's domain
    if (ad[t] !== p) return p;
    const at = as[t]!;
    if (r > at) return p * at;
    p *= r;
    x *= r;
    if (r === at) t++;
    else if (at % r === 0) {
      as[t] = at / r;
      ad[t] = ad[t]! * r;
    } else aligned = false;
  }
  return p;
}

/** Φ of the flat layout (s):(d) at x < its size. */
function phiFlat(s: readonly number[], d: readonly number[], x: number): number {
  let y = 0;
  for (let i = 0; i < s.length && x > 0; i++) {
    const si = s[i]!;
    const r = x % si;
    y += r * d[i]!;
    x = (x - r) / si;
  }
  return y;
}

/** Accelerator: the identity run of coal(A ∘ R_t), R_t the longest prefix layout of R within A's domain (see the
 *  header): N where it decides (the run ends inside R_t, or R_t is R), −size(R_t) where Φ_A∘Φ_R is the identity on
 *  all of R_t, −1 where no composite exists. Pre: r = right_inverse(B). Example: compositeRun((4,4):(1,5), 6:1) is −1. */
export function compositeRun(a: Layout, r: Layout): number {
  const { shapes: rs, strides: rd } = flat(r);
  return compositeRunFlat(a, rs, rd, size(r));
}

/** compositeRun on R♭ = (rs):(rd) of size `total`. */
function compositeRunFlat(a: Layout, rs: readonly number[], rd: readonly number[], total: number): number {
  const t = prefixWithin(rs, rd, size(a));
  const tSize = size(t);
  try {
    const run = identityRun(compose(a, t));
    return run < tSize || tSize === total ? Math.min(run, total) : -tSize;
  } catch (e) {
    if (!(e instanceof LayoutError) || (e.kind !== 'not-composable' && e.kind !== 'overflow')) throw e;
    return -1;
  }
}

/** The N of docs/semantics.md §8.5 for A and R = right_inverse(B): the accelerators first, then the definition from
 *  the longest prefix they verified. */
function commonRun(a: Layout, r: Layout, limit: number): number {
  const { shapes: rs, strides: rd } = flat(r);
  const aligned = alignedRunFlat(a, rs, rd);
  if (aligned > 0) return aligned;
  const composite = compositeRunFlat(a, rs, rd, size(r));
  if (composite > 0) return composite;
  return commonRunByDefinition(a, r, Math.max(-aligned, -composite), limit);
}

/**
 * CuTe's `max_common_vector(A, B)` (docs/semantics.md §8.5): with R = right_inverse(B), the largest
 * N ≤ size(R) with Φ_A(Φ_R(n)) = n for every n < N; at least 1. Pre: plain layouts.
 * Errors: `overflow` where deciding would take more than `limit` (EVAL_LIMIT) evaluations.
 * Example: maxCommonVector(parseLayout('(4,8):(1,4)'), parseLayout('(4,8):(1,4)')) is 32.
 */
export function maxCommonVector(a: Layout, b: Layout, limit = EVAL_LIMIT): number {
  return commonRun(a, rightInverse(b), limit);
}

/**
 * CuTe's `max_common_layout(A, B)` (docs/semantics.md §8.5): coal(R ∘ N:1) with R = right_inverse(B) and
 * N = max_common_vector(A, B); 1:0 when N = 1. Its points n map to offsets where A and B both
 * take the value n. Errors: those of max_common_vector, and `not-composable` where R∘N:1 has
 * no composite. Example: maxCommonLayout(parseLayout('(4,8):(1,4)'),
 * parseLayout('(4,(2,4)):(1,(4,8))')) is 32:1.
 */
export function maxCommonLayout(a: Layout, b: Layout): Layout {
  const r = rightInverse(b);
  const n = commonRun(a, r, EVAL_LIMIT);
  if (n === 1) return makeEntry(1, 0);
  // N = r_1⋯r_(j−1)·c with c ≤ r_j: R∘N:1 is that prefix of R, coalesced
  const { shapes: rs, strides: rd } = flat(r);
  let p = 1;
  for (let j = 0; j < rs.length; j++) {
    if (n % p !== 0) break;
    const c = n / p;
    if (c <= rs[j]!) return fromCoalescedFlat(coalesceFlat([...rs.slice(0, j), c], rd.slice(0, j + 1)));
    p *= rs[j]!;
  }
  return coalesce(compose(r, makeEntry(n, 1)));
}
