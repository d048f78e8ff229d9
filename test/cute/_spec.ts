/** docs/semantics.md §8.5's constructions re-derived from its text, on the brute side (no src/ imports). */
import { coalB, flatB, phiB, sizeB, type BL } from '../helpers/brute.js';

/** coal(L)'s entries with their prefix products, sorted stably by stride (independent). */
function sortedCoal(l: BL): Array<{ s: number; d: number; p: number }> {
  const { s, d } = flatB(coalB(l));
  let p = 1;
  const es = s.map((si, i) => {
    const e = { s: si, d: d[i]!, p };
    p *= si;
    return e;
  });
  return es
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.d - b.e.d || a.i - b.i)
    .map((x) => x.e);
}

/** docs/semantics.md §8.5's right_inverse, re-derived from the text. */
export function rightInverseSpec(l: BL): BL {
  const s: number[] = [];
  const d: number[] = [];
  let curr = 1;
  for (const e of sortedCoal(l)) {
    if (e.d !== curr) continue;
    s.push(e.s);
    d.push(e.p);
    curr = e.s * e.d;
  }
  return coalB({ shape: s, stride: d });
}

/** docs/semantics.md §8.5's left_inverse, re-derived from the text; null where divisibility fails. */
export function leftInverseSpec(l: BL): BL | null {
  const es = sortedCoal(l);
  const nz = es.filter((e) => e.d !== 0);
  if (nz.length === 0) return coalB({ shape: es.length ? es[es.length - 1]!.s : 1, stride: 0 });
  const s: number[] = [];
  const d: number[] = [0];
  let prev = 1;
  for (const e of nz) {
    if (e.d % prev !== 0) return null;
    s.push(e.d / prev);
    d.push(e.p);
    prev = e.d;
  }
  s.push(nz[nz.length - 1]!.s);
  return coalB({ shape: s, stride: d });
}

/** docs/semantics.md §8.5's max_common_vector by brute force of its definition: with R = right_inverse(B),
 *  the largest N ≤ size(R) with Φ_A(Φ_R(n)) = n for all n < N (Φ_A only below size(A)). */
export function maxCommonVectorSpec(a: BL, b: BL): number {
  const r = rightInverseSpec(b);
  const sr = sizeB(r);
  const sa = sizeB(a);
  let n = 0;
  while (n < sr) {
    const x = phiB(r, n);
    if (x >= sa || phiB(a, x) !== n) break;
    n++;
  }
  return n;
}
