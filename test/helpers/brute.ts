/**
 * An independent brute-force oracle for the layout algebra (docs/semantics.md), used by the tests.
 * Nothing here imports src/: every function is re-derived from the definitions, by
 * pointwise evaluation or exhaustive search where the definition is semantic.
 */

export type Tup = number | readonly Tup[];
export interface BL {
  readonly shape: Tup;
  readonly stride: Tup;
}

// ---------------------------------------------------------------- notation (independent)

/** A small, strict parser of `shape:stride` (no validation beyond syntax and congruence). */
export function parseL(text: string): BL {
  const i = text.indexOf(':');
  if (i < 0) throw new Error(`brute parse: no ':' in ${text}`);
  const shape = parseT(text.slice(0, i));
  const stride = parseT(text.slice(i + 1));
  if (!congruentB(shape, stride)) throw new Error(`brute parse: incongruent ${text}`);
  return { shape, stride };
}

export function parseT(text: string): Tup {
  const s = text.replace(/\s+/g, '');
  let p = 0;
  const go = (): Tup => {
    if (s[p] === '(') {
      p++;
      const xs: Tup[] = [];
      if (s[p] === ')') {
        p++;
        return xs;
      }
      for (;;) {
        xs.push(go());
        if (s[p] === ')') {
          p++;
          return xs;
        }
        if (s[p] !== ',') throw new Error(`brute parse: bad tuple ${text}`);
        p++;
      }
    }
    const m = /^\d+/.exec(s.slice(p));
    if (!m) throw new Error(`brute parse: bad tuple ${text} at ${p}`);
    p += m[0].length;
    return Number(m[0]);
  };
  const t = go();
  if (p !== s.length) throw new Error(`brute parse: trailing input in ${text}`);
  return t;
}

export const showT = (t: Tup): string => (typeof t === 'number' ? String(t) : `(${t.map(showT).join(',')})`);
export const showL = (l: BL): string => `${showT(l.shape)}:${showT(l.stride)}`;

// ---------------------------------------------------------------- tuples

export function entriesB(t: Tup): number[] {
  return typeof t === 'number' ? [t] : t.flatMap(entriesB);
}
export function congruentB(a: Tup, b: Tup): boolean {
  if (typeof a === 'number' || typeof b === 'number') return typeof a === 'number' && typeof b === 'number';
  return a.length === b.length && a.every((x, i) => congruentB(x, b[i]!));
}
export const rankB = (t: Tup): number => (typeof t === 'number' ? 1 : t.length);
export const depthB = (t: Tup): number => (typeof t === 'number' ? 0 : 1 + Math.max(0, ...t.map(depthB)));
export const sizeT = (t: Tup): number => entriesB(t).reduce((a, b) => a * b, 1);
export const profB = (t: Tup): string => (typeof t === 'number' ? '*' : `(${t.map(profB).join(',')})`);

/** S refines S̄ (docs/semantics.md §1): the modes of S relative to S̄, or null. */
export function relModesT(s: Tup, bar: Tup): Tup[] | null {
  if (typeof bar === 'number') {
    // every S of size S̄ refines an integer S̄, at any depth (docs/semantics.md §1)
    return sizeT(s) === bar ? [s] : null;
  }
  if (typeof s === 'number' || s.length !== bar.length) return null;
  const out: Tup[] = [];
  for (let i = 0; i < s.length; i++) {
    const r = relModesT(s[i]!, bar[i]!);
    if (!r) return null;
    out.push(...r);
  }
  return out;
}
export const refinesB = (s: Tup, bar: Tup): boolean => relModesT(s, bar) !== null;

/** The relative modes of a layout over S̄ (as layouts). */
export function relModesL(l: BL, bar: Tup): BL[] | null {
  const out: BL[] = [];
  const go = (s: Tup, d: Tup, b: Tup): boolean => {
    if (typeof b === 'number') {
      if (!refinesB(s, b)) return false;
      out.push({ shape: s, stride: d });
      return true;
    }
    if (typeof s === 'number' || typeof d === 'number' || s.length !== b.length) return false;
    return b.every((bi, i) => go(s[i]!, d[i]!, bi));
  };
  return go(l.shape, l.stride, bar) ? out : null;
}

// ---------------------------------------------------------------- layouts

export function flatB(l: BL): { s: number[]; d: number[] } {
  return { s: entriesB(l.shape), d: entriesB(l.stride) };
}
export const sizeB = (l: BL): number => sizeT(l.shape);
export function cosizeB(l: BL): number {
  const { s, d } = flatB(l);
  return 1 + s.reduce((a, si, i) => a + (si - 1) * d[i]!, 0);
}

/** Φ_L(x) by the colexicographic decomposition (docs/semantics.md §2). */
export function phiB(l: BL, x: number): number {
  const { s, d } = flatB(l);
  let off = 0;
  let r = x;
  for (let i = 0; i < s.length; i++) {
    off += (r % s[i]!) * d[i]!;
    r = Math.floor(r / s[i]!);
  }
  if (r !== 0) throw new Error(`brute phi: x = ${x} out of range for ${showL(l)}`);
  return off;
}

/** All values Φ_L(0..size−1). */
export function valuesB(l: BL): number[] {
  const n = sizeB(l);
  const out = new Array<number>(n);
  for (let x = 0; x < n; x++) out[x] = phiB(l, x);
  return out;
}

/** All values Φ_L(x), x < size(L), in order: the colexicographic walk of the flat coordinates (one odometer step per x). */
export function imageB(l: BL): Int32Array {
  const { s, d } = flatB(l);
  const out = new Int32Array(sizeB(l));
  const c = new Array<number>(s.length).fill(0);
  let off = 0;
  for (let x = 0; x < out.length; x++) {
    out[x] = off;
    for (let i = 0; i < s.length; i++) {
      if (++c[i]! < s[i]!) {
        off += d[i]!;
        break;
      }
      off -= (s[i]! - 1) * d[i]!;
      c[i] = 0;
    }
  }
  return out;
}

export function sameFunction(a: BL, b: BL): boolean {
  const n = sizeB(a);
  if (sizeB(b) !== n) return false;
  for (let x = 0; x < n; x++) if (phiB(a, x) !== phiB(b, x)) return false;
  return true;
}

/** Compact: Φ hits every integer below size exactly once (a Set). */
export function isCompactB(l: BL): boolean {
  const n = sizeB(l);
  const seen = new Set<number>();
  for (let x = 0; x < n; x++) {
    const v = phiB(l, x);
    if (v >= n || seen.has(v)) return false;
    seen.add(v);
  }
  return true;
}

export function isNondegenerateB(l: BL): boolean {
  const { s, d } = flatB(l);
  return s.every((si, i) => si !== 1 || d[i] === 0);
}

/** Def. 2.3.3.1, read literally. */
export function isCoalescedB(l: BL): boolean {
  if (typeof l.shape === 'number') return l.shape > 1 || (l.shape === 1 && l.stride === 0);
  if (depthB(l.shape) !== 1 || l.shape.length < 2) return false;
  const { s, d } = flatB(l);
  for (let i = 0; i < s.length; i++) {
    if (s[i] === 1) return false;
    if (i + 1 < s.length && d[i + 1] === s[i]! * d[i]!) return false;
  }
  return true;
}

export function isCoalescedOverB(l: BL, bar: Tup): boolean {
  const ms = relModesL(l, bar);
  return ms !== null && ms.every(isCoalescedB);
}

export function tupEq(a: Tup, b: Tup): boolean {
  if (typeof a === 'number' || typeof b === 'number') return a === b;
  return a.length === b.length && a.every((x, i) => tupEq(x, b[i]!));
}
export const layoutEq = (a: BL, b: BL): boolean => tupEq(a.shape, b.shape) && tupEq(a.stride, b.stride);

// ---------------------------------------------------------------- layout functions

/** Ordered factorizations of n into factors > 1. */
export function orderedFactorizations(n: number): number[][] {
  if (n === 1) return [[]];
  const out: number[][] = [];
  for (let c = 2; c <= n; c++) {
    if (n % c !== 0) continue;
    for (const rest of orderedFactorizations(n / c)) out.push([c, ...rest]);
  }
  return out;
}

/**
 * Every flat layout without shape-1 entries whose function is v (on [0, v.length)).
 * Exhaustive over the ordered factorizations of the size; for a shape (c1..ck) the stride of
 * entry i is forced to v(c1⋯c(i−1)) (the image of the i-th unit coordinate), so trying those
 * strides is the same as trying every stride up to max v.
 */
export function layoutsWithFunction(v: readonly number[]): BL[] {
  const n = v.length;
  const out: BL[] = [];
  for (const cs of orderedFactorizations(n)) {
    const ds: number[] = [];
    let p = 1;
    for (const c of cs) {
      ds.push(v[p]!);
      p *= c;
    }
    const l: BL = { shape: cs, stride: ds };
    let ok = true;
    for (let t = 0; t < n && ok; t++) if (phiB(l, t) !== v[t]) ok = false;
    if (ok) out.push(l);
  }
  return out;
}

export const isLayoutFunction = (v: readonly number[]): boolean => layoutsWithFunction(v).length > 0;

// ---------------------------------------------------------------- composition

export type CompositionCheck = { ok: true } | { ok: false; why: string };

/** C satisfies the three conditions of Def. 2.3.7.1 for B∘A. */
export function checkComposite(b: BL, a: BL, c: BL): CompositionCheck {
  if (!refinesB(c.shape, a.shape)) return { ok: false, why: `shape ${showT(c.shape)} does not refine ${showT(a.shape)}` };
  if (!isCoalescedOverB(c, a.shape)) return { ok: false, why: `${showL(c)} is not coalesced over ${showT(a.shape)}` };
  const n = sizeB(a);
  if (sizeB(c) !== n) return { ok: false, why: 'size differs' };
  if (cosizeB(a) > sizeB(b)) return { ok: false, why: 'cosize(A) > size(B)' };
  for (let x = 0; x < n; x++) {
    const want = phiB(b, phiB(a, x));
    const got = phiB(c, x);
    if (want !== got) return { ok: false, why: `Phi_C(${x}) = ${got}, Phi_B(Phi_A(${x})) = ${want}` };
  }
  return { ok: true };
}

/**
 * Whether ANY layout C satisfies Def. 2.3.7.1 for B∘A, decided exhaustively: C's relative mode
 * over the entry s:d of A must have function f(t) = Φ_B(t·d) (set every other coordinate to 0
 * in condition 3), so every f must be a layout function (checked against every flat layout of
 * size s), and then Φ_B(Φ_A(x)) must equal Σ f_i(x_i) at every x (additivity). When both hold,
 * C = the f_i's coalesced layouts substituted into A's shape qualifies, so this is exact.
 * Returns the witness C or a reason.
 */
export function searchComposite(b: BL, a: BL): { exists: true; c: BL } | { exists: false; why: string } {
  if (cosizeB(a) > sizeB(b)) return { exists: false, why: 'cosize(A) > size(B)' };
  const { s: sa, d: da } = flatB(a);
  const fs: number[][] = [];
  const modes: BL[] = [];
  for (let i = 0; i < sa.length; i++) {
    const f: number[] = [];
    for (let t = 0; t < sa[i]!; t++) f.push(phiB(b, t * da[i]!));
    const ls = layoutsWithFunction(f);
    if (ls.length === 0) {
      if (sa[i] === 1) throw new Error('unreachable: size-1 function is always a layout function');
      return { exists: false, why: `entry ${i + 1} (${sa[i]}:${da[i]}) maps to a non-layout function` };
    }
    fs.push(f);
    // the coalesced form: the factorization with fewest factors (coal is the unique minimal one)
    const best = ls.reduce((p, q) => (rankB(q.shape) < rankB(p.shape) ? q : p));
    const k = rankB(best.shape);
    modes.push(k === 0 ? { shape: 1, stride: 0 } : k === 1 ? { shape: (best.shape as number[])[0]!, stride: (best.stride as number[])[0]! } : best);
  }
  const n = sizeB(a);
  for (let x = 0; x < n; x++) {
    let r = x;
    let sum = 0;
    for (let i = 0; i < sa.length; i++) {
      sum += fs[i]![r % sa[i]!]!;
      r = Math.floor(r / sa[i]!);
    }
    if (sum !== phiB(b, phiB(a, x))) return { exists: false, why: `additivity fails at x = ${x}` };
  }
  let k = 0;
  const sub = (s: Tup, pick: (m: BL) => Tup): Tup => (typeof s === 'number' ? pick(modes[k++]!) : s.map((u) => sub(u, pick)));
  const shape = sub(a.shape, (m) => m.shape);
  k = 0;
  const stride = sub(a.shape, (m) => m.stride);
  return { exists: true, c: { shape, stride } };
}

// ---------------------------------------------------------------- complement

/** Sorted entries (by stride, then shape), shape-1 entries dropped unless keepUnit. */
export function sortedB(l: BL, keepUnit = false): Array<[number, number]> {
  const { s, d } = flatB(l);
  const es: Array<[number, number]> = [];
  for (let i = 0; i < s.length; i++) if (keepUnit || s[i] !== 1) es.push([s[i]!, d[i]!]);
  es.sort((p, q) => p[1] - q[1] || p[0] - q[0]);
  return es;
}

/** docs/semantics.md §4's complementability, read literally. */
export function isComplementableSpec(a: BL, n?: number): boolean {
  const es = sortedB(a);
  for (let i = 0; i < es.length; i++) {
    if (es[i]![1] === 0) return false;
    if (i + 1 < es.length && es[i + 1]![1] % (es[i]![0] * es[i]![1]) !== 0) return false;
  }
  if (n === undefined) return true;
  const span = es.length ? es[es.length - 1]![0] * es[es.length - 1]![1] : 1;
  return n % span === 0;
}

/** docs/semantics.md §7's tractability, read literally (shape-1 entries kept). */
export function isTractableSpec(l: BL): boolean {
  const es = sortedB(l, true);
  for (let i = 0; i + 1 < es.length; i++) {
    const [s, d] = es[i]!;
    if (d === 0) continue;
    if (es[i + 1]![1] % (s * d) !== 0) return false;
  }
  return true;
}

/** span of sorted A: s_m·d_m, 1 when no entry of shape > 1. */
export function spanB(a: BL): number {
  const es = sortedB(a);
  return es.length ? es[es.length - 1]![0] * es[es.length - 1]![1] : 1;
}

/**
 * Exhaustive search for a flat B with (A, B) compact: if n is given, size(A)·size(B) = n;
 * otherwise any such B with size(A)·size(B) ≤ bound. Depth-first over B's entries in
 * non-decreasing (stride, shape) order (the image of Φ_B does not depend on the order), pruning
 * as soon as two sums Φ_A(x) + Φ_B(y) collide or leave [0, bound).
 */
export function findComplementBrute(a: BL, n?: number, bound = 64): BL | null {
  const lim = n ?? bound;
  const img = valuesB(a);
  const occ = new Uint8Array(lim);
  for (const v of img) {
    if (v >= lim || occ[v]) return null;
    occ[v] = 1;
  }
  const size0 = img.length;
  const cs: number[] = [];
  const ds: number[] = [];
  let tImg: number[] = [0];
  const done = (o: Uint8Array, count: number): boolean => {
    if (n !== undefined && count !== n) return false;
    for (let i = 0; i < count; i++) if (!o[i]) return false;
    return true;
  };
  const dfs = (occNow: Uint8Array, count: number, lastD: number, lastC: number): boolean => {
    if (done(occNow, count)) return true;
    for (let e = Math.max(lastD, 1); e < lim; e++) {
      for (let c = e === lastD ? lastC : 2; c * count <= lim; c++) {
        // new image: tImg ⊕ {0, e, ..., (c−1)e}; the sums with A's image must stay disjoint
        const next = occNow.slice();
        let ok = true;
        const newT: number[] = [];
        for (let k = 1; k < c && ok; k++) {
          for (const t of tImg) {
            const u = t + k * e;
            newT.push(u);
            for (const v of img) {
              const w = v + u;
              if (w >= lim || next[w]) {
                ok = false;
                break;
              }
              next[w] = 1;
            }
            if (!ok) break;
          }
        }
        if (!ok) break; // a larger c only adds more sums
        const saved = tImg;
        tImg = [...tImg, ...newT];
        cs.push(c);
        ds.push(e);
        if (dfs(next, count * c, e, c)) return true;
        cs.pop();
        ds.pop();
        tImg = saved;
      }
    }
    return false;
  };
  return dfs(occ, size0, 1, 2) ? { shape: [...cs], stride: [...ds] } : null;
}

// ---------------------------------------------------------------- divide / product by definition

/** docs/semantics.md §4's comp(A, N) as a flat list (independent re-derivation), or null. */
export function complementSpec(a: BL, n?: number): BL | null {
  if (!isComplementableSpec(a, n)) return null;
  const es = sortedB(a);
  const cs: number[] = [];
  const cd: number[] = [];
  let reach = 1;
  for (const [s, d] of es) {
    cs.push(d / reach);
    cd.push(reach);
    reach = s * d;
  }
  if (n !== undefined) {
    cs.push(n / reach);
    cd.push(reach);
  }
  return { shape: cs, stride: cd };
}

/** A concatenation (L1, …, Lk). */
export const concatB = (...ls: BL[]): BL => ({ shape: ls.map((l) => l.shape), stride: ls.map((l) => l.stride) });

/** The least N of docs/semantics.md §6 for A ⊗ B. */
export function productN(a: BL, b: BL): number {
  const need = sizeB(a) * cosizeB(b);
  const sp = spanB(a);
  return Math.ceil(need / sp) * sp;
}

// ---------------------------------------------------------------- coalesce (docs/semantics.md §3, re-derived)

/** coal♭ on entry lists: drop shape 1, merge i, i+1 while d(i+1) = s_i·d_i. */
export function coalFlatB(s: readonly number[], d: readonly number[]): { s: number[]; d: number[] } {
  const os: number[] = [];
  const od: number[] = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === 1) continue;
    const k = os.length - 1;
    if (k >= 0 && d[i] === os[k]! * od[k]!) os[k] = os[k]! * s[i]!;
    else {
      os.push(s[i]!);
      od.push(d[i]!);
    }
  }
  return { s: os, d: od };
}

/** Construction 2.3.3.7: flat when m > 1, s:d when m = 1, 1:0 when m = 0. */
export function coalB(l: BL): BL {
  const f = flatB(l);
  const c = coalFlatB(f.s, f.d);
  if (c.s.length === 0) return { shape: 1, stride: 0 };
  if (c.s.length === 1) return { shape: c.s[0]!, stride: c.d[0]! };
  return { shape: c.s, stride: c.d };
}

/** The comp(A) / comp(A, N) of docs/semantics.md §4 (the flat list, then coal), or null if none. */
export function complementB(a: BL, n?: number): BL | null {
  const f = complementSpec(a, n);
  return f === null ? null : coalB(f);
}

/** A ⊘ B by its definition, with the composite found by exhaustive search; null if none. */
export function divideB(a: BL, b: BL): BL | null {
  const c = complementB(b, sizeB(a));
  if (c === null) return null;
  const r = searchComposite(a, concatB(b, c));
  return r.exists ? r.c : null;
}

/** A ⊗ B by its definition at the least N, composite by exhaustive search; null if none. */
export function productB(a: BL, b: BL, n = productN(a, b)): BL | null {
  const c = complementB(a, n);
  if (c === null) return null;
  const r = searchComposite(c, b);
  return r.exists ? concatB(a, r.c) : null;
}

// ---------------------------------------------------------------- random layouts (seeded)

/** The project's one seeded generator (src/verify/mulberry32.ts), for seeded runs and the benchmarks' corpora. */
export { mulberry32 } from '../../src/verify/mulberry32.js';
export const randInt = (rng: () => number, lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));
export const pick = <T>(rng: () => number, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
