/**
 * Helpers of the linear-layout tests: random layouts from a seeded generator, and the value of a
 * layout computed from the definition alone (docs/linear.md, "The value"): L(x) is, per out-dim,
 * the XOR of the bases of the set bits of every input coordinate. The tests use it as the oracle.
 */
import type { InDim, LinearLayout, OutDim } from '../../src/linear/value.js';

export type Rng = () => number;
export const int = (rng: Rng, lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));
export const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
export const shuffle = <T>(rng: Rng, xs: readonly T[]): T[] => {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = int(rng, 0, i);
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
};

const NAME_SETS = [['register', 'lane', 'warp', 'block'], ['offset', 'block'], ['a', 'b', 'c'], ['x']] as const;

/** Splits `total` into `parts` non-negative counts. */
export function split(rng: Rng, total: number, parts: number): number[] {
  const counts = new Array<number>(parts).fill(0);
  for (let i = 0; i < total; i++) counts[int(rng, 0, parts - 1)]!++;
  return counts;
}

/** Out-dims with `bits` out-bits in all, named from `names` (default dim0 …, 0–3 of them). */
export function randomOutDims(rng: Rng, bits: number, names?: readonly string[]): OutDim[] {
  const ns = names ?? Array.from({ length: bits === 0 ? int(rng, 0, 2) : int(rng, 1, 3) }, (_, j) => `dim${j}`);
  if (ns.length === 0) return [];
  return split(rng, bits, ns.length).map((k, j) => ({ name: ns[j]!, size: 2 ** k }));
}

const totalBits = (outs: readonly OutDim[]): number => outs.reduce((s, o) => s + Math.log2(o.size), 0);

/** A flattened value → one value per out-dim (first out-dim lowest). */
export function unflattenOut(v: number, outs: readonly OutDim[]): number[] {
  let x = v;
  return outs.map((o) => {
    const r = x % o.size;
    x = Math.floor(x / o.size);
    return r;
  });
}
/** One value per out-dim → the flattened value. */
export function flattenOut(vs: readonly number[], outs: readonly OutDim[]): number {
  let x = 0;
  let m = 1;
  outs.forEach((o, j) => {
    x += vs[j]! * m;
    m *= o.size;
  });
  return x;
}

/** A random image over `bits` out-bits: mostly unit vectors, some zeros (broadcast), some random. */
function image(rng: Rng, bits: number): number {
  if (bits === 0) return 0;
  const r = rng();
  if (r < 0.5) return 2 ** int(rng, 0, bits - 1);
  if (r < 0.65) return 0;
  return int(rng, 0, 2 ** bits - 1);
}

/** An LL with the given flattened images (columns), split into in-dims. */
export function layoutOfColumns(cols: readonly number[], names: readonly string[], counts: readonly number[], outs: readonly OutDim[]): LinearLayout {
  let c = 0;
  const inDims: InDim[] = names.map((name, k) => ({ name, bases: Array.from({ length: counts[k]! }, () => unflattenOut(cols[c++]!, outs)) }));
  return { inDims, outDims: outs.map((o) => ({ ...o })) };
}

/** A random LL with at most `maxIn` in-bits and `outBits` out-bits (default 0–maxOut). */
export function randomLL(
  rng: Rng,
  maxIn = 10,
  maxOut = 10,
  opts: { outBits?: number; outNames?: readonly string[]; inNames?: readonly string[] } = {},
): LinearLayout {
  const outs = randomOutDims(rng, opts.outBits ?? int(rng, 0, maxOut), opts.outNames);
  const bits = totalBits(outs);
  const names = opts.inNames ?? (rng() < 0.2 ? shuffle(rng, pick(rng, NAME_SETS)) : pick(rng, NAME_SETS));
  const inBits = int(rng, 0, maxIn);
  return layoutOfColumns(
    Array.from({ length: inBits }, () => image(rng, bits)),
    names,
    split(rng, inBits, names.length),
    outs,
  );
}

/** n independent columns over n bits: a shuffled identity mixed by column XORs. */
export function invertibleColumns(rng: Rng, n: number): number[] {
  const cols = shuffle(
    rng,
    Array.from({ length: n }, (_, i) => 2 ** i),
  );
  for (let s = int(rng, 0, 2 * n); s > 0 && n > 1; s--) {
    const i = int(rng, 0, n - 1);
    const j = int(rng, 0, n - 1);
    if (i !== j) cols[i] = cols[i]! ^ cols[j]!;
  }
  return cols;
}

/** A random invertible LL with n bits. */
export function randomInvertible(rng: Rng, n: number, inNames?: readonly string[]): LinearLayout {
  const outs = randomOutDims(rng, n);
  const names = inNames ?? pick(rng, NAME_SETS);
  return layoutOfColumns(invertibleColumns(rng, n), names, split(rng, n, names.length), outs);
}

/** A random surjective LL onto `outs`: independent columns plus broadcast or repeated ones, shuffled. */
export function randomSurjective(rng: Rng, outs: readonly OutDim[], extra: number, inNames?: readonly string[]): LinearLayout {
  const n = totalBits(outs);
  const names = inNames ?? pick(rng, NAME_SETS);
  const cols = [...invertibleColumns(rng, n), ...Array.from({ length: extra }, () => image(rng, n))];
  const sh = shuffle(rng, cols);
  return layoutOfColumns(sh, names, split(rng, sh.length, names.length), outs);
}

// ---------------------------------------------------------------------------------------------
// The definition, by brute force

export const inBitsOf = (l: LinearLayout): number => l.inDims.reduce((s, d) => s + d.bases.length, 0);
export const outBitsOf = (l: LinearLayout): number => totalBits(l.outDims);

/** A flattened input (in-dims in order, each dim's bit 0 first) → one coordinate per in-dim. */
export function unflattenIn(x: number, l: LinearLayout): number[] {
  let v = x;
  return l.inDims.map((d) => {
    const size = 2 ** d.bases.length;
    const r = v % size;
    v = Math.floor(v / size);
    return r;
  });
}
/** L(x), per out-dim, from the definition: the XOR of the bases of the set bits of each coordinate. */
export function llValueAt(l: LinearLayout, coords: readonly number[]): number[] {
  const out = l.outDims.map(() => 0);
  l.inDims.forEach((d, k) => {
    d.bases.forEach((b, i) => {
      if (Math.floor(coords[k]! / 2 ** i) % 2 === 1) b.forEach((v, j) => (out[j] = out[j]! ^ v));
    });
  });
  return out;
}

/** L on a flattened input, flattened. */
export const flatValue = (l: LinearLayout, x: number): number => flattenOut(llValueAt(l, unflattenIn(x, l)), l.outDims);

/** Every value of L, by flattened input. */
export const table = (l: LinearLayout): number[] => Array.from({ length: 2 ** inBitsOf(l) }, (_, x) => flatValue(l, x));

/** L as a record {out-dim: value} at a record input. */
export function valueAt(l: LinearLayout, input: Readonly<Record<string, number>>): Record<string, number> {
  const v = llValueAt(
    l,
    l.inDims.map((d) => input[d.name] ?? 0),
  );
  return Object.fromEntries(l.outDims.map((o, j) => [o.name, v[j]!]));
}
