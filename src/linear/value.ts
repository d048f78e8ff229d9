/**
 * The linear layout value (docs/linear.md; Triton `LinearLayout`): ordered in-dims, each with its
 * bases (basis i = L(dim = 2^i), one entry per out-dim), and ordered out-dims with power-of-two
 * sizes. L(x) is the XOR of the bases of the set bits of every input coordinate.
 */
import { LayoutError } from '../algebra/errors.js';
import { BEYOND_SAFE, intText, knownIntText } from '../algebra/int-text.js';
import { isWhiteSpace } from '../algebra/notation.js';
import { checkDeadline } from '../algebra/deadline.js';

export interface InDim {
  readonly name: string;
  /** bases[i] = L(name = 2^i): one value per out-dim, in out-dim order */
  readonly bases: readonly (readonly number[])[];
}
export interface OutDim {
  readonly name: string;
  /** a power of two ≥ 1 */
  readonly size: number;
}
export interface LinearLayout {
  readonly inDims: readonly InDim[];
  readonly outDims: readonly OutDim[];
}

/** Limits (Triton: int32 values, 64-bit matrix rows): dims of at most 2^30, at most 64 bits a side. */
export const MAX_DIM_LOG2 = 30;
export const MAX_BITS = 64;

export const log2 = (n: number): number => 31 - Math.clz32(n);

const domain = (msg: string): LayoutError => new LayoutError('domain', msg);

/** A dim name: a non-empty string without white space at either end (isWhiteSpace). Triton's printed form puts a
 *  name between ' - ' and '=' (or '[' and ' (size'), where white space around tokens is read as a separator, so such
 *  a name would read back as another one; Triton's own names (register, lane, warp, block, offset, dim0 …, the keys
 *  of `#ttg.linear<{…}>`) never have it. `domain` naming it, never changed silently. */
function checkName(name: unknown, what: 'in-dim' | 'out-dim'): void {
  if (typeof name !== 'string' || name === '') throw domain(`an ${what} name must be a non-empty string`);
  const a = name.charCodeAt(0);
  const z = name.charCodeAt(name.length - 1);
  // a printable ASCII character other than the space is no white space: the common name decided at once
  if (a > 0x20 && a < 0x7f && z > 0x20 && z < 0x7f) return;
  if (isWhiteSpace(a) || isWhiteSpace(z)) {
    const shown = JSON.stringify(name).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    throw domain(`${what} name ${shown} begins or ends with white space (Triton's printed form would read it back without it)`);
  }
}

/**
 * Checks every rule of the value (unique names, power-of-two sizes, bases of the right length with
 * values in range, the limits) and returns the layout; `domain` naming the first broken rule.
 * `kind` is 'domain' for arguments and 'overflow' for results beyond the limits.
 */
export function makeLinearLayout(inDims: readonly InDim[], outDims: readonly OutDim[], beyond: 'domain' | 'overflow' = 'domain'): LinearLayout {
  const seenIn = new Set<string>();
  const seenOut = new Set<string>();
  let outBits = 0;
  for (const o of outDims) {
    checkName(o.name, 'out-dim');
    if (seenOut.has(o.name)) throw domain(`out-dim '${o.name}' appears twice`);
    seenOut.add(o.name);
    if (Number.isInteger(o.size) && o.size > 2 ** MAX_DIM_LOG2) {
      // beyond the limit (an integer beyond 2^53 − 1 quoted as written, never rounded)
      const t = knownIntText(o.size);
      throw new LayoutError(beyond, `out-dim '${o.name}' has ${t === null ? `a size that is ${BEYOND_SAFE}` : `size ${t}`}, beyond 2^${MAX_DIM_LOG2}`);
    }
    if (!Number.isSafeInteger(o.size) || o.size < 1 || (o.size > 2 ** MAX_DIM_LOG2 ? false : (o.size & (o.size - 1)) !== 0)) {
      throw domain(`out-dim '${o.name}' has size ${o.size}, not a power of two`);
    }
    if (o.size > 2 ** MAX_DIM_LOG2) throw new LayoutError(beyond, `out-dim '${o.name}' has size ${o.size}, beyond 2^${MAX_DIM_LOG2}`);
    outBits += log2(o.size);
  }
  if (outBits > MAX_BITS) throw new LayoutError(beyond, `${outBits} out-bits, beyond ${MAX_BITS}`);
  let inBits = 0;
  for (const d of inDims) {
    checkName(d.name, 'in-dim');
    if (seenIn.has(d.name)) throw domain(`in-dim '${d.name}' appears twice`);
    seenIn.add(d.name);
    if (d.bases.length > MAX_DIM_LOG2) throw new LayoutError(beyond, `in-dim '${d.name}' has ${d.bases.length} bases, beyond 2^${MAX_DIM_LOG2} elements`);
    inBits += d.bases.length;
    d.bases.forEach((b, i) => {
      if (b.length !== outDims.length) throw domain(`basis ${d.name}=${2 ** i} has ${b.length} values for ${outDims.length} out-dims`);
      b.forEach((v, j) => {
        const o = outDims[j]!;
        if (!Number.isSafeInteger(v) || v < 0 || v >= o.size)
          throw domain(`basis ${d.name}=${2 ** i} has ${intText(v)} on out-dim '${o.name}' (size ${o.size})`);
      });
    });
  }
  if (inBits > MAX_BITS) throw new LayoutError(beyond, `${inBits} in-bits, beyond ${MAX_BITS}`);
  return {
    inDims: inDims.map((d) => ({ name: d.name, bases: d.bases.map((b) => [...b]) })),
    outDims: outDims.map((o) => ({ name: o.name, size: o.size })),
  };
}

const indexes = new WeakMap<readonly { readonly name: string }[], ReadonlyMap<string, number>>();

/** Lists this long or shorter are searched in place (the common LL has two to five dims: a scan beats a Map). */
const SCAN_DIMS = 16;

/** The position of the dim named `name` in a list (the names of a list are distinct), or undefined: a scan of a short
 *  list, a Map (cached per list) for a long one, so that dims are looked up by name in constant time whatever their
 *  number (60,000 dims answer within a deadline). */
export function dimAt(dims: readonly { readonly name: string }[], name: string): number | undefined {
  if (dims.length <= SCAN_DIMS) {
    for (let i = 0; i < dims.length; i++) if (dims[i]!.name === name) return i;
    return undefined;
  }
  let m = indexes.get(dims);
  if (m === undefined || m.size !== dims.length) {
    const built = new Map<string, number>();
    for (let i = 0; i < dims.length; i++) built.set(dims[i]!.name, i);
    indexes.set(dims, built);
    m = built;
  }
  return m.get(name);
}

/** The dim of a list named `name`, or undefined (dimAt). */
export function dimNamed<D extends { readonly name: string }>(dims: readonly D[], name: string): D | undefined {
  const i = dimAt(dims, name);
  return i === undefined ? undefined : dims[i];
}

/** The number of in-bits of L (the columns of its matrix). */
export function totalInBits(l: LinearLayout): number {
  let n = 0;
  for (const d of l.inDims) n += d.bases.length;
  return n;
}
/** The number of out-bits of L (the rows of its matrix). */
export function totalOutBits(l: LinearLayout): number {
  let n = 0;
  for (const o of l.outDims) n += log2(o.size);
  return n;
}

/** Triton `identity1D(size, inDim, outDim)`: in-dim bit i ↦ 2^i on the out-dim. */
export function identity1D(size: number, inDim: string, outDim: string): LinearLayout {
  const bases: number[][] = [];
  for (let i = 0, k = log2(size); i < k; i++) bases.push([2 ** i]);
  return { inDims: [{ name: inDim, bases }], outDims: [{ name: outDim, size }] };
}

/** Triton `zeros1D(size, inDim, outDim, outDimSize = 1)`: every basis 0 (a broadcast). */
export function zeros1D(size: number, inDim: string, outDim: string, outDimSize = 1): LinearLayout {
  const bases: number[][] = [];
  for (let i = 0, k = log2(size); i < k; i++) bases.push([0]);
  return { inDims: [{ name: inDim, bases }], outDims: [{ name: outDim, size: outDimSize }] };
}

/** The empty layout (no in-dims, no out-dims): the unit of `product`. */
export const emptyLayout: LinearLayout = { inDims: [], outDims: [] };

/**
 * Triton LayoutUtils `supremum(x, y)`: a merge of two name orders that keeps both orders where it
 * can (docs/linear.md, "product"). It never fails: sup([a,b],[b,a]) = [a,b].
 */
export function supremum(x: readonly string[], y: readonly string[]): string[] {
  if (y.length === 0) return [...x];
  if (x.length === 0) return [...y];
  const res: string[] = [];
  // the names taken: a scan of the result while it is short, a Set for long lists
  const seen = x.length + y.length > SCAN_DIMS ? new Set<string>() : undefined;
  // a Map of the places of a long list (60,000 dims), made once; a short one is scanned (placeIn)
  const xIndex = x.length > SCAN_DIMS ? new Map(x.map((v, k) => [v, k])) : undefined;
  const yIndex = y.length > SCAN_DIMS ? new Map(y.map((v, k) => [v, k])) : undefined;
  let i = 0;
  let j = 0;
  for (let step = 0; ; step++) {
    if ((step & 1023) === 1023) checkDeadline('supremum');
    while (i < x.length && (seen === undefined ? res.includes(x[i]!) : seen.has(x[i]!))) i++;
    while (j < y.length && (seen === undefined ? res.includes(y[j]!) : seen.has(y[j]!))) j++;
    if (i >= x.length && j >= y.length) break;
    let next: string;
    if (i < x.length && j < y.length && x[i] === y[j]) {
      next = x[i++]!;
      j++;
    } else {
      // the next place of x[i] in y at or after j, and of y[j] in x at or after i (none: Infinity)
      const px = i < x.length ? placeIn(y, yIndex, x[i]!, j) : -1;
      const py = j < y.length ? placeIn(x, xIndex, y[j]!, i) : -1;
      const cx = px < 0 ? Infinity : px;
      const cy = py < 0 ? Infinity : py;
      if (i < x.length && cx === Infinity) next = x[i++]!;
      else if (j < y.length && cy === Infinity) next = y[j++]!;
      else if (cx <= cy) next = x[i++]!;
      else next = y[j++]!;
    }
    res.push(next);
    seen?.add(next);
  }
  return res;
}

/** The place of `n` in `list` at or after `from`, or −1 (the names of a list are distinct: its one place, if not
 *  before): by `index` when the list has one, else a scan. */
function placeIn(list: readonly string[], index: ReadonlyMap<string, number> | undefined, n: string, from: number): number {
  if (index === undefined) return list.indexOf(n, from);
  const k = index.get(n);
  return k === undefined || k < from ? -1 : k;
}

/**
 * Triton `operator*` (a direct sum; docs/linear.md, "product"): in-dims and out-dims merged by
 * `supremum`; sizes multiply; in-dim d's bases are I's, then O's with every entry on an out-dim e
 * scaled by I's size of e. Without the limits: for layouts under construction (the encodings',
 * whose CTA tile may pass 2^30 before it is fitted to the shape); `product` checks them.
 */
export function productUnchecked(a: LinearLayout, b: LinearLayout): LinearLayout {
  if (b.inDims.length === 1 && b.outDims.length === 1) return productByOneDim(a, b);
  const ins = supremum(
    a.inDims.map((d) => d.name),
    b.inDims.map((d) => d.name),
  );
  const outs = supremum(
    a.outDims.map((o) => o.name),
    b.outDims.map((o) => o.name),
  );
  // for each result out-dim: its index in a and in b (−1: absent), and a's size (the scale of b's entries)
  const ia = outs.map((n) => dimAt(a.outDims, n) ?? -1);
  const ib = outs.map((n) => dimAt(b.outDims, n) ?? -1);
  const scale = ia.map((j) => (j < 0 ? 1 : a.outDims[j]!.size));
  const outDims = outs.map((name, k) => ({ name, size: scale[k]! * (ib[k]! < 0 ? 1 : b.outDims[ib[k]!]!.size) }));
  const aSame = ia.length === a.outDims.length && ia.every((j, k) => j === k);
  const inDims = ins.map((name, k) => {
    if ((k & 1023) === 1023) checkDeadline('product');
    const da = dimNamed(a.inDims, name);
    const db = dimNamed(b.inDims, name);
    const bases: (readonly number[])[] = [];
    // a's bases shared, not copied, when the result's out-dims are a's (layouts are immutable)
    if (da) for (const v of da.bases) bases.push(aSame ? v : lift(v, ia, null));
    if (db) for (const v of db.bases) bases.push(lift(v, ib, scale));
    return { name, bases };
  });
  return { inDims, outDims };
}

/**
 * `productUnchecked` where O has one in-dim and one out-dim (identity1D, zeros1D: how the encodings
 * are built), without the merges: supremum(names, [n]) is the names, with n last when new. I's bases
 * are shared when no out-dim is new (layouts are immutable).
 */
function productByOneDim(a: LinearLayout, b: LinearLayout): LinearLayout {
  const bin = b.inDims[0]!;
  const bout = b.outDims[0]!;
  let j = dimAt(a.outDims, bout.name) ?? -1;
  const newOut = j < 0;
  const m = a.outDims.length + (newOut ? 1 : 0);
  if (newOut) j = a.outDims.length;
  const scale = newOut ? 1 : a.outDims[j]!.size;
  const outDims = a.outDims.map((o) => ({ name: o.name, size: o.size }));
  if (newOut) outDims.push({ name: bout.name, size: bout.size });
  else outDims[j] = { name: bout.name, size: scale * bout.size };
  const inDims: { name: string; bases: (readonly number[])[] }[] = a.inDims.map((d) => ({
    name: d.name,
    bases: newOut ? d.bases.map((v) => [...v, 0]) : [...d.bases],
  }));
  let k = dimAt(a.inDims, bin.name) ?? -1;
  if (k < 0) {
    k = inDims.length;
    inDims.push({ name: bin.name, bases: [] });
  }
  const into = inDims[k]!.bases;
  for (const v of bin.bases) {
    const w = new Array<number>(m).fill(0);
    w[j] = v[0]! * scale;
    into.push(w);
  }
  return { inDims, outDims };
}

/** A basis on the out-dims of a product: entry k is the factor's entry idx[k] (−1: 0), times scale[k] if given. */
function lift(basis: readonly number[], idx: readonly number[], scale: readonly number[] | null): number[] {
  const m = idx.length;
  const v = new Array<number>(m);
  for (let k = 0; k < m; k++) {
    const j = idx[k]!;
    v[k] = j < 0 ? 0 : scale === null ? basis[j]! : basis[j]! * scale[k]!;
  }
  return v;
}

/** Triton `operator*` (`productUnchecked`) within the limits of the value: `overflow` naming the first dim beyond them. */
export function product(a: LinearLayout, b: LinearLayout): LinearLayout {
  const l = productUnchecked(a, b);
  let outBits = 0;
  for (const { name, size } of l.outDims) {
    if (size > 2 ** MAX_DIM_LOG2)
      throw new LayoutError('overflow', `product: out-dim '${name}' would have size 2^${Math.log2(size)}, beyond 2^${MAX_DIM_LOG2}`);
    outBits += log2(size);
  }
  if (outBits > MAX_BITS) throw new LayoutError('overflow', `product: ${outBits} out-bits, beyond ${MAX_BITS}`);
  let inBits = 0;
  for (const { name, bases } of l.inDims) {
    if (bases.length > MAX_DIM_LOG2)
      throw new LayoutError('overflow', `product: in-dim '${name}' would have 2^${bases.length} elements, beyond 2^${MAX_DIM_LOG2}`);
    inBits += bases.length;
  }
  if (inBits > MAX_BITS) throw new LayoutError('overflow', `product: ${inBits} in-bits, beyond ${MAX_BITS}`);
  return l;
}

/** llvm `NextPowerOf2`: the smallest power of two strictly greater than v (1 for 0). */
const nextPowerOf2 = (v: number): number => 2 ** (32 - Math.clz32(v));

/**
 * Triton `LinearLayout(bases, outDimNames)`: the out-dims named `names`, each of the smallest power
 * of two greater than every value of that out-dim (1 when all are 0). The values must be integers
 * 0 ≤ v < 2^30 (callers check what they read); whether the layout is surjective, as Triton then
 * requires, is the caller's to check (each names its own context).
 */
export function withInferredSizes(inDims: readonly InDim[], names: readonly string[]): LinearLayout {
  const sizes = names.map(() => 1);
  for (const d of inDims) for (const b of d.bases) for (let j = 0; j < b.length; j++) sizes[j] = Math.max(sizes[j]!, nextPowerOf2(b[j]!));
  return { inDims, outDims: names.map((name, j) => ({ name, size: sizes[j]! })) };
}
