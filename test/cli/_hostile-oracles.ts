/**
 * Small oracles for test/cli/hostile-new-ops.test.ts, written from the definitions
 * (docs/semantics.md for layouts and swizzles, docs/linear.md for linear layouts): a seeded
 * generator, a CuTe layout evaluator (plain and `Sw<B,M,S> o K o L`) and a linear-layout
 * evaluator. Nothing here calls the library.
 */

/** mulberry32: a small seeded generator. */
export function rng(seed: number): { int: (n: number) => number; pick: <T>(xs: readonly T[]) => T; chance: (p: number) => boolean } {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  return { int, pick: (xs) => xs[int(xs.length)]!, chance: (p) => next() < p };
}

export type Nest = number | Nest[];

/** Parse a nested integer tuple such as `(4,(2,8))` or `8`. */
function parseNest(s: string): Nest {
  let i = 0;
  const go = (): Nest => {
    if (s[i] === '(') {
      i++;
      const xs: Nest[] = [];
      if (s[i] === ')') {
        i++;
        return xs;
      }
      for (;;) {
        xs.push(go());
        if (s[i] === ',') i++;
        else if (s[i] === ')') {
          i++;
          return xs;
        } else throw new Error(`bad tuple ${s} at ${i}`);
      }
    }
    const m = /^-?\d+/.exec(s.slice(i));
    if (!m) throw new Error(`bad tuple ${s} at ${i}`);
    i += m[0].length;
    return Number(m[0]);
  };
  const r = go();
  if (i !== s.length) throw new Error(`trailing text in ${s}`);
  return r;
}

const flat = (n: Nest): number[] => (typeof n === 'number' ? [n] : n.flatMap(flat));

/** A layout function as the test evaluates it: size and Φ. */
export interface Fn {
  size: number;
  phi: (x: number) => number;
  /** the top-level mode sizes */
  modes: number[];
}

/** The swizzle Sw<B,M,S> (docs/semantics.md §9.1): x xor ((x & yyy) >> S), yyy the B bits above M + max(S, 0). */
export function swizzle(b: number, m: number, s: number): (x: number) => number {
  const yyy = ((1 << b) - 1) * 2 ** (m + Math.max(0, s));
  return (x) => {
    const y = Number(BigInt(x) & BigInt(yyy));
    const shifted = s >= 0 ? Math.floor(y / 2 ** s) : y * 2 ** -s;
    return Number(BigInt(x) ^ BigInt(shifted));
  };
}

/** Parse and evaluate a canonical layout `S:D` or `Sw<B,M,S> o [K o] S:D`. */
export function layoutFn(text: string): Fn {
  let sw: (x: number) => number = (x) => x;
  let k = 0;
  let rest = text;
  const m = /^Sw<(\d+),(\d+),(-?\d+)> o (?:(\d+) o )?(.*)$/.exec(text);
  if (m) {
    sw = swizzle(Number(m[1]), Number(m[2]), Number(m[3]));
    k = m[4] === undefined ? 0 : Number(m[4]);
    rest = m[5]!;
  }
  const colon = rest.indexOf(':');
  const shapeN = parseNest(colon < 0 ? rest : rest.slice(0, colon));
  const shape = flat(shapeN);
  const stride = colon < 0 ? shape.map((_, i) => shape.slice(0, i).reduce((a, b) => a * b, 1)) : flat(parseNest(rest.slice(colon + 1)));
  if (shape.length !== stride.length) throw new Error(`incongruent ${text}`);
  const size = shape.reduce((a, b) => a * b, 1);
  const modes = typeof shapeN === 'number' ? [shapeN] : shapeN.map((n) => flat(n).reduce((a, b) => a * b, 1));
  const phi = (x: number): number => {
    let r = 0;
    let rem = x;
    for (let i = 0; i < shape.length; i++) {
      r += (rem % shape[i]!) * stride[i]!;
      rem = Math.floor(rem / shape[i]!);
    }
    return sw(k + r);
  };
  return { size, phi, modes };
}

/** A linear layout in canonical JSON form (docs/linear.md). */
export interface LL {
  bases: [string, number[][]][];
  outDims: [string, number][];
}

/** L(x): XOR of the bases of the set bits, x one integer per in-dim (in order). */
export function llApply(l: LL, x: readonly number[]): number[] {
  const out = l.outDims.map(() => 0);
  l.bases.forEach(([, bs], d) => {
    bs.forEach((b, i) => {
      if ((x[d]! >> i) & 1) b.forEach((v, j) => (out[j] = out[j]! ^ v));
    });
  });
  return out;
}

export const inSizes = (l: LL): number[] => l.bases.map(([, bs]) => 2 ** bs.length);

/** Every input of l, as per-in-dim integers, the first in-dim fastest. */
export function allInputs(sizes: readonly number[]): number[][] {
  const total = sizes.reduce((a, b) => a * b, 1);
  const xs: number[][] = [];
  for (let f = 0; f < total; f++) {
    let r = f;
    xs.push(
      sizes.map((s) => {
        const v = r % s;
        r = Math.floor(r / s);
        return v;
      }),
    );
  }
  return xs;
}

/** Flatten per-dim values to one integer, the first dim lowest. */
export function flatten(values: readonly number[], sizes: readonly number[]): number {
  let r = 0;
  let m = 1;
  values.forEach((v, i) => {
    r += v * m;
    m *= sizes[i]!;
  });
  return r;
}

/** A random LL with the given in-dim names and out-dims; bases uniformly inside the sizes. */
export function randomLL(g: ReturnType<typeof rng>, ins: readonly [string, number][], outs: readonly [string, number][]): LL {
  return {
    bases: ins.map(([n, k]) => [n, Array.from({ length: k }, () => outs.map(([, s]) => g.int(s)))]),
    outDims: outs.map(([n, s]) => [n, s]),
  };
}

/** A random LL whose bases are a permutation of the unit vectors, each added to an earlier one with probability `mix` (invertible), in-dims split by `ins`. */
export function randomInvertible(g: ReturnType<typeof rng>, ins: readonly [string, number][], outs: readonly [string, number][], mix = 0.3): LL {
  const units: number[][] = [];
  outs.forEach(([, s], j) => {
    for (let b = 1; b < s; b *= 2) units.push(outs.map((_, k) => (k === j ? b : 0)));
  });
  for (let i = units.length - 1; i > 0; i--) {
    const j = g.int(i + 1);
    [units[i], units[j]] = [units[j]!, units[i]!];
  }
  // mix: add earlier vectors into later ones (keeps it invertible)
  for (let i = 1; i < units.length; i++) if (g.chance(mix)) units[i] = units[i]!.map((v, k) => v ^ units[g.int(i)]![k]!);
  let at = 0;
  return { bases: ins.map(([n, k]) => [n, units.slice(at, (at += k))]), outDims: outs.map(([n, s]) => [n, s]) };
}

/** The F2 rank of a list of bit vectors (numbers below 2^31). */
export function rank(vs: readonly number[]): number {
  const basis: number[] = [];
  for (let v of vs) {
    for (const b of basis) v = Math.min(v, v ^ b);
    if (v !== 0) {
      basis.push(v);
      basis.sort((a, b) => b - a);
    }
  }
  return basis.length;
}
