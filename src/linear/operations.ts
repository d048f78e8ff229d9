/**
 * Triton's operations on linear layouts, receiver first as Triton calls them (docs/linear.md,
 * "Operations"): apply, compose, invertAndCompose, pseudoinvert, invert, the predicates,
 * divideLeft/divideRight, sublayout and the free-variable masks. Every F2 computation goes through
 * f2.ts; every Triton abort is a `domain` error here (docs/linear.md, "Deviations from Triton").
 */
import { intText } from '../algebra/int-text.js';
import { LayoutError } from '../algebra/errors.js';
import { checkDeadline } from '../algebra/deadline.js';
import { echelon, independentColumns, readBits, solve, solveWords, unit, type Bits, type Columns, type Echelon } from './f2.js';
import { dimAt, dimNamed, log2, MAX_BITS, product, totalInBits, totalOutBits, type InDim, type LinearLayout, type OutDim } from './value.js';

const domain = (msg: string): LayoutError => new LayoutError('domain', msg);

/** The bit offset of each out-dim in the flattened output (the first out-dim's bits lowest). */
function outShifts(outDims: readonly OutDim[]): number[] {
  const shifts: number[] = [];
  let s = 0;
  for (const o of outDims) {
    shifts.push(s);
    s += log2(o.size);
  }
  return shifts;
}

/**
 * The matrix of L (docs/linear.md, "Bits"): one column per in-bit (in-dims in order, bit 0 first),
 * each the flattened image, written into `lo`, `hi` (fresh arrays by default); `index[j]` is L's
 * out-dim read at position j of `shifts` (default: L's own order).
 */
export function matrixOf(
  l: LinearLayout,
  index?: readonly number[],
  shifts: readonly number[] = outShifts(l.outDims),
  n: number = totalInBits(l),
  lo: Uint32Array = new Uint32Array(n),
  hi: Uint32Array = new Uint32Array(n),
): Columns {
  const m = shifts.length;
  let c = 0;
  for (const d of l.inDims) {
    for (const b of d.bases) {
      // each entry OR-ed in at its shift, on two locals (lo, hi)
      let wLo = 0;
      let wHi = 0;
      for (let j = 0; j < m; j++) {
        const v = b[index === undefined ? j : index[j]!]!;
        if (v === 0) continue;
        const t = shifts[j]!;
        if (t >= 32) wHi |= v << (t - 32);
        else {
          wLo |= v << t;
          if (t > 0) wHi |= v >>> (32 - t);
        }
      }
      lo[c] = wLo;
      hi[c] = wHi;
      c++;
    }
  }
  return { lo, hi };
}

/** The echelon basis of L's matrix (pivot in-bits, rank). */
export const echelonOf = (l: LinearLayout): Echelon => echelon(matrixOf(l), totalOutBits(l));

/** The columns of the predicates, reused (a valid LL has at most 64 in-bits; a longer list gets its own). */
const PREDICATE_LO = new Uint32Array(MAX_BITS);
const PREDICATE_HI = new Uint32Array(MAX_BITS);

/** How many of L's in-bits are independent of those before them (f2.ts `independentColumns`), without allocating. */
function independentInBits(l: LinearLayout, n: number, enough: number, toFirstDependent: boolean): number {
  const own = n > MAX_BITS;
  const lo = own ? new Uint32Array(n) : PREDICATE_LO;
  const hi = own ? new Uint32Array(n) : PREDICATE_HI;
  matrixOf(l, undefined, outShifts(l.outDims), n, lo, hi);
  return independentColumns(lo, hi, n, enough, toFirstDependent);
}

/**
 * The rank of each layout already met: a layout is an immutable value, so its rank is computed once (as Triton's
 * LinearLayout computes its rank when it is built) and the predicates below answer from it after that.
 */
const RANKS = new WeakMap<LinearLayout, number>();

/** The rank over F2 of the images of L's in-bits. */
export const rankOf = (l: LinearLayout): number => {
  let r = RANKS.get(l);
  if (r === undefined) {
    const n = totalInBits(l);
    r = independentInBits(l, n, n, false);
    RANKS.set(l, r);
  }
  return r;
};

/** Triton `isSurjective`: rank = number of out-bits (never with fewer in-bits: the rank is at most their number). */
export const isSurjective = (l: LinearLayout): boolean => {
  const n = totalInBits(l);
  const m = totalOutBits(l);
  if (n < m) return false;
  let r = RANKS.get(l);
  if (r === undefined) {
    // the walk stops at rank m, which is then the rank (it is at most m); else it saw every column
    r = independentInBits(l, n, m, false);
    RANKS.set(l, r);
  }
  return r === m;
};
/** Triton `isInjective`: rank = number of in-bits (never with more in-bits than out-bits: the rank is at most theirs). The
 *  walk stops at the first dependent column, which is cheaper than a look-up of the rank on the corpus's layouts. */
export const isInjective = (l: LinearLayout): boolean => {
  const n = totalInBits(l);
  return n <= totalOutBits(l) && independentInBits(l, n, n, true) === n;
};
/** Triton `isInvertible`: surjective and as many in-bits as out-bits. */
export const isInvertible = (l: LinearLayout): boolean => totalInBits(l) === totalOutBits(l) && isSurjective(l);

/**
 * Adds (XOR) into `out` the image of the value v of one in-dim with these bases: the XOR of the
 * bases of v's set bits (docs/linear.md, "Overview"; 0 ≤ v < 2^bases, unchecked). The one
 * evaluation loop: `apply` adds the image of each input, `compose` maps each basis of the inner
 * layout through the outer one with it (as Triton's `compose` applies the outer layout).
 */
function addImage(out: number[], bases: readonly (readonly number[])[], v: number): void {
  const m = out.length;
  for (let i = 0; v !== 0; v >>>= 1, i++) {
    if ((v & 1) === 1) {
      const b = bases[i]!;
      for (let e = 0; e < m; e++) out[e] = out[e]! ^ b[e]!;
    }
  }
}

/**
 * Triton `apply`: the value of L at one input (an object with exactly L's in-dims, each an integer
 * 0 ≤ v < size), as {out-dim: value}. `domain` for a missing, unknown or out-of-range input (Triton
 * masks higher bits; docs/linear.md, "Deviations from Triton").
 */
export function apply(l: LinearLayout, inputs: Readonly<Record<string, number>>): Record<string, number> {
  for (const k of Object.keys(inputs)) {
    if (dimAt(l.inDims, k) === undefined) throw domain(`apply: '${k}' is not an in-dim of the layout`);
  }
  const out = new Array<number>(l.outDims.length).fill(0);
  for (const d of l.inDims) {
    checkDeadline('apply');
    if (!Object.hasOwn(inputs, d.name)) throw domain(`apply: no value for in-dim '${d.name}'`);
    const v = inputs[d.name]!;
    const size = 2 ** d.bases.length;
    if (!Number.isSafeInteger(v) || v < 0 || v >= size) throw domain(`apply: ${d.name} = ${intText(v)} is outside [0, ${size})`);
    addImage(out, d.bases, v);
  }
  // no prototype: a dim may be named __proto__
  const res: Record<string, number> = Object.create(null) as Record<string, number>;
  for (let j = 0; j < out.length; j++) res[l.outDims[j]!.name] = out[j]!;
  return res;
}

/**
 * Triton `L.compose(O)` = O∘L: L's out-dims must be O's in-dims as a set, each of L's sizes ≤ O's
 * (else `domain`). The result has L's in-dims (each basis mapped through O, `addImage`) and O's
 * out-dims.
 */
export function compose(l: LinearLayout, o: LinearLayout): LinearLayout {
  if (l.outDims.length !== o.inDims.length) {
    throw domain(
      `compose: the first layout's out-dims [${l.outDims.map((x) => x.name).join(', ')}] are not the second's in-dims [${o.inDims.map((x) => x.name).join(', ')}]`,
    );
  }
  // src[j]: the bases of the in-dim of O that L's out-dim j is (a bijection: as many, each found, names distinct)
  const src = l.outDims.map((od) => {
    checkDeadline('compose');
    const k = dimAt(o.inDims, od.name) ?? -1;
    if (k < 0) throw domain(`compose: out-dim '${od.name}' of the first layout is not an in-dim of the second`);
    const inner = o.inDims[k]!;
    if (od.size > 2 ** inner.bases.length)
      throw domain(`compose: out-dim '${od.name}' has size ${od.size}, larger than the second layout's in-dim (size ${2 ** inner.bases.length})`);
    return inner.bases;
  });
  const m = o.outDims.length;
  const inDims = l.inDims.map((d) => ({
    name: d.name,
    bases: d.bases.map((b) => {
      // O at the basis: the image of each of its values on O's in-dims
      const v = new Array<number>(m).fill(0);
      for (let j = 0; j < src.length; j++) if (b[j] !== 0) addImage(v, src[j]!, b[j]!);
      return v;
    }),
  }));
  return { inDims, outDims: o.outDims.map((x) => ({ name: x.name, size: x.size })) };
}

/** Splits a mask over flattened in-bits into one value per in-dim (of the given dims, in order). */
function splitInputs(mask: Bits, dims: readonly InDim[]): number[] {
  let s = 0;
  return dims.map((d) => {
    const v = readBits(mask.lo, mask.hi, s, d.bases.length);
    s += d.bases.length;
    return v;
  });
}

const sameBases = (x: readonly (readonly number[])[], y: readonly (readonly number[])[]): boolean =>
  x.length === y.length && x.every((b, i) => b.length === y[i]!.length && b.every((v, j) => v === y[i]![j]));

/**
 * Triton `A.invertAndCompose(B)`: the C with B(C(x)) = A(x) (docs/linear.md, "invertAndCompose").
 * A and B need the same out-dims as a set and B's sizes ≥ A's; A is read with B's out-dim order and
 * sizes. The in-dims of both with identical bases (identity dims) map to themselves; every other
 * in-bit of A maps to the solution over B's pivot in-bits (the smallest). `domain` where Triton
 * aborts: exactly one side left with in-dims, or an image of A outside B's.
 */
export function invertAndCompose(a: LinearLayout, b: LinearLayout): LinearLayout {
  const names = (l: LinearLayout): string => `[${l.outDims.map((x) => x.name).join(', ')}]`;
  if (a.outDims.length !== b.outDims.length) throw domain(`invert_and_compose: the out-dims ${names(a)} and ${names(b)} differ`);
  const index = b.outDims.map((ob) => {
    checkDeadline('invert_and_compose');
    const k = dimAt(a.outDims, ob.name) ?? -1;
    if (k < 0) throw domain(`invert_and_compose: the out-dims ${names(a)} and ${names(b)} differ`);
    if (a.outDims[k]!.size > ob.size) {
      throw domain(
        `invert_and_compose: out-dim '${ob.name}' has size ${a.outDims[k]!.size} in the first layout, larger than ${ob.size} in the second (Triton 3.8.0 aborts)`,
      );
    }
    return k;
  });
  const identity = new Set<string>();
  for (const d of b.inDims) {
    checkDeadline('invert_and_compose');
    const ad = dimNamed(a.inDims, d.name);
    if (ad && ad.bases.length === d.bases.length && ad.bases.every((v, i) => index.every((k, j) => v[k] === d.bases[i]![j]))) identity.add(d.name);
  }
  const aRest = a.inDims.filter((d) => !identity.has(d.name));
  const bRest = b.inDims.filter((d) => !identity.has(d.name));
  if ((aRest.length === 0) !== (bRest.length === 0)) {
    throw domain(
      `invert_and_compose: without the identity dims [${[...identity].join(', ')}] only the ${aRest.length === 0 ? 'second' : 'first'} layout has in-dims left (Triton 3.8.0 aborts)`,
    );
  }
  const shifts = outShifts(b.outDims);
  const e = echelon(matrixOf({ inDims: bRest, outDims: b.outDims }, undefined, shifts), totalOutBits(b));
  const aCols = matrixOf({ inDims: aRest, outDims: a.outDims }, index, shifts);
  const outDims = b.inDims.map((d) => ({ name: d.name, size: 2 ** d.bases.length }));
  const m = outDims.length;
  const restPos = bRest.map((d) => dimAt(b.inDims, d.name)!);
  let c = 0;
  const inDims = a.inDims.map((d) => {
    checkDeadline('invert_and_compose');
    if (identity.has(d.name)) {
      const j = dimAt(b.inDims, d.name)!;
      return {
        name: d.name,
        bases: d.bases.map((_, i) => {
          const v = new Array<number>(m).fill(0);
          v[j] = 2 ** i;
          return v;
        }),
      };
    }
    return {
      name: d.name,
      bases: d.bases.map(() => {
        const y = solveWords(e, aCols.lo[c]!, aCols.hi[c]!);
        c++;
        if (y === null) throw domain('invert_and_compose: the image of the first layout is not contained in the image of the second (Triton 3.8.0 aborts)');
        const v = new Array<number>(m).fill(0);
        let s = 0;
        for (let k = 0; k < bRest.length; k++) {
          const nb = bRest[k]!.bases.length;
          v[restPos[k]!] = readBits(y.lo, y.hi, s, nb);
          s += nb;
        }
        return v;
      }),
    };
  });
  return { inDims, outDims };
}

/** The identity on L's out-dims: in-dim named like each out-dim, of the same size. */
function identityOn(outDims: readonly OutDim[]): LinearLayout {
  return {
    inDims: outDims.map((o) => ({ name: o.name, bases: Array.from({ length: log2(o.size) }, (_, i) => outDims.map((x) => (x.name === o.name ? 2 ** i : 0))) })),
    outDims: outDims.map((o) => ({ name: o.name, size: o.size })),
  };
}

/**
 * Triton `L.pseudoinvert()` = I.invertAndCompose(L), I the identity on L's out-dims: for a
 * surjective L without identity dims, out ↦ the smallest input with L(input) = out. Not
 * surjective: `domain`; and the `domain` cases of invertAndCompose.
 */
export function pseudoinvert(l: LinearLayout): LinearLayout {
  if (!isSurjective(l)) throw domain('pseudoinvert: the layout is not surjective (Triton 3.8.0 aborts)');
  return invertAndCompose(identityOn(l.outDims), l);
}

/**
 * Triton `L.invert()`: the inverse of an invertible L (else `domain`): in-dims = L's out-dims,
 * out-dims = L's in-dims with their sizes. Computed directly, so it also answers the invertible
 * layouts on which Triton's pseudo-inverse route aborts.
 */
export function invert(l: LinearLayout): LinearLayout {
  if (!isInvertible(l)) throw domain(`invert: the layout is not invertible (${isSurjective(l) ? 'not injective' : 'not surjective'})`);
  const e = echelonOf(l);
  const outDims = l.inDims.map((d) => ({ name: d.name, size: 2 ** d.bases.length }));
  let k = 0;
  const inDims = l.outDims.map((o) => ({
    name: o.name,
    bases: Array.from({ length: log2(o.size) }, () => splitInputs(solve(e, unit(k++))!, l.inDims)),
  }));
  return { inDims, outDims };
}

/**
 * Triton `getFreeVariableMasks()`: {in-dim: mask}, bit i of d's mask set when the image of in-bit
 * (d, i) lies in the span of the images of the in-bits before it (non-pivot columns).
 */
export function freeVariableMasks(l: LinearLayout): Record<string, number> {
  const e = echelonOf(l);
  const res: Record<string, number> = Object.create(null) as Record<string, number>;
  let c = 0;
  for (const d of l.inDims) {
    let mask = 0;
    for (let i = 0; i < d.bases.length; i++, c++) {
      const pivot = c < 32 ? (e.pivotMask.lo >>> c) & 1 : (e.pivotMask.hi >>> (c - 32)) & 1;
      if (pivot === 0) mask |= 1 << i;
    }
    res[d.name] = mask;
  }
  return res;
}

/**
 * Triton `L.sublayout(ins, outs)`: the named in-dims and out-dims, in L's order, sizes unchanged.
 * A name that is not a dim of L, or repeated: `domain`.
 */
export function sublayout(l: LinearLayout, ins: readonly string[], outs: readonly string[]): LinearLayout {
  const check = (xs: readonly string[], dims: readonly { name: string }[], what: string): Set<string> => {
    const set = new Set<string>();
    for (const x of xs) {
      checkDeadline('sublayout');
      if (dimAt(dims, x) === undefined) throw domain(`sublayout: '${x}' is not an ${what} of the layout`);
      if (set.has(x)) throw domain(`sublayout: ${what} '${x}' is named twice`);
      set.add(x);
    }
    return set;
  };
  const inSet = check(ins, l.inDims, 'in-dim');
  const outSet = check(outs, l.outDims, 'out-dim');
  const keep = l.outDims.flatMap((o, j) => (outSet.has(o.name) ? [j] : []));
  return {
    inDims: l.inDims.filter((d) => inSet.has(d.name)).map((d) => ({ name: d.name, bases: d.bases.map((b) => keep.map((j) => b[j]!)) })),
    outDims: l.outDims.filter((o) => outSet.has(o.name)).map((o) => ({ name: o.name, size: o.size })),
  };
}

/** Triton's `operator==`: same in-dims (names, order, bases) and out-dims (names, order, sizes). */
export function equalLayouts(x: LinearLayout, y: LinearLayout): boolean {
  return (
    x.inDims.length === y.inDims.length &&
    x.outDims.length === y.outDims.length &&
    x.outDims.every((o, j) => o.name === y.outDims[j]!.name && o.size === y.outDims[j]!.size) &&
    x.inDims.every((d, k) => d.name === y.inDims[k]!.name && sameBases(d.bases, y.inDims[k]!.bases))
  );
}

/** The product, or null where it is beyond the limits (a division candidate that cannot be). */
function productOrNull(x: LinearLayout, y: LinearLayout): LinearLayout | null {
  try {
    return product(x, y);
  } catch (e) {
    if (e instanceof LayoutError && e.kind === 'timeout') throw e;
    return null;
  }
}

/** The quotient sizes of A's out-dims by B's (missing: 1), or null when one does not divide. */
function quotientSizes(a: LinearLayout, b: LinearLayout): number[] | null {
  if (!b.outDims.every((o) => dimAt(a.outDims, o.name) !== undefined)) return null;
  if (!b.inDims.every((d) => dimAt(a.inDims, d.name) !== undefined)) return null;
  const q = a.outDims.map((o) => {
    const bs = dimNamed(b.outDims, o.name)?.size ?? 1;
    return o.size % bs === 0 ? o.size / bs : -1;
  });
  return q.includes(-1) ? null : q;
}

/**
 * Triton `divideLeft(A, B)`: the C with A = B * C (C has A's in-dims and out-dims, in A's order),
 * or null when there is none (docs/linear.md, "divideLeft and divideRight").
 */
export function divideLeft(a: LinearLayout, b: LinearLayout): LinearLayout | null {
  const q = quotientSizes(a, b);
  if (q === null) return null;
  const bIdx = a.outDims.map((o) => dimAt(b.outDims, o.name) ?? -1);
  const inDims: InDim[] = [];
  for (const d of a.inDims) {
    checkDeadline('divide_left');
    const bb = dimNamed(b.inDims, d.name)?.bases ?? [];
    if (d.bases.length < bb.length) return null;
    const bases: number[][] = [];
    for (let i = bb.length; i < d.bases.length; i++) {
      const v = d.bases[i]!.map((x, j) => {
        const s = bIdx[j]! < 0 ? 1 : b.outDims[bIdx[j]!]!.size;
        return x % s === 0 && x / s < q[j]! ? x / s : -1;
      });
      if (v.includes(-1)) return null;
      bases.push(v);
    }
    inDims.push({ name: d.name, bases });
  }
  const c: LinearLayout = { inDims, outDims: a.outDims.map((o, j) => ({ name: o.name, size: q[j]! })) };
  const bc = productOrNull(b, c);
  return bc !== null && equalLayouts(bc, a) ? c : null;
}

/**
 * Triton `divideRight(A, B)`: the C with A = C * B (C has A's in-dims and out-dims, in A's order),
 * or null when there is none (docs/linear.md, "divideLeft and divideRight").
 */
export function divideRight(a: LinearLayout, b: LinearLayout): LinearLayout | null {
  const q = quotientSizes(a, b);
  if (q === null) return null;
  const inDims: InDim[] = [];
  for (const d of a.inDims) {
    checkDeadline('divide_right');
    const nb = dimNamed(b.inDims, d.name)?.bases.length ?? 0;
    if (d.bases.length < nb) return null;
    const bases = d.bases.slice(0, d.bases.length - nb);
    if (bases.some((v) => v.some((x, j) => x >= q[j]!))) return null;
    inDims.push({ name: d.name, bases: bases.map((v) => [...v]) });
  }
  const c: LinearLayout = { inDims, outDims: a.outDims.map((o, j) => ({ name: o.name, size: q[j]! })) };
  const cb = productOrNull(c, b);
  return cb !== null && equalLayouts(cb, a) ? c : null;
}

export { product };
