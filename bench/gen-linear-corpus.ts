/**
 * Generator of bench/corpus/linear.jsonl: the speed corpus of the linear-layout operations
 * (docs/linear.md, "Operations"), also the corpus bench/triton-compare.py runs through Triton.
 * Seeded and deterministic: the committed corpus is what `npx tsx bench/gen-linear-corpus.ts` writes.
 *
 * Layouts have up to 20 in-bits and 20 out-bits, Triton's dim names (register, lane, warp, block;
 * offset; dim0 …) or others, and bases as real layouts have them (unit vectors, swizzles, broadcast
 * zeros) or random; some are not surjective. Pairs are built so that most requests succeed:
 * compose [L, O] with O's in-dims L's out-dims, invert on invertible layouts, invert_and_compose on
 * a surjective second layout (sometimes sharing identity dims), product on overlapping names.
 *
 * Run: npx tsx bench/gen-linear-corpus.ts [out.jsonl] [requests per op]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '../test/helpers/brute.js'; // the project's one seeded generator

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = process.argv[2] ?? join(root, 'bench', 'corpus', 'linear.jsonl');
const PER_OP = Number(process.argv[3] ?? 500);
const SEED = 0x11a2026;

const rng = mulberry32(SEED);
const int = (lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
const chance = (p: number): boolean => rng() < p;
const shuffle = <T>(xs: readonly T[]): T[] => {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = int(0, i);
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
};

/** The canonical JSON object of an LL. */
interface LL {
  bases: [string, number[][]][];
  outDims: [string, number][];
}

const IN_NAMES = [
  ['register', 'lane', 'warp', 'block'],
  ['offset', 'block'],
  ['in0', 'in1', 'in2'],
] as const;

/** Splits `total` bits into `parts` non-negative counts. */
function split(total: number, parts: number): number[] {
  const counts = new Array<number>(parts).fill(0);
  for (let i = 0; i < total; i++) counts[int(0, parts - 1)]!++;
  return counts;
}

/** Out-dims dim0 … with `bits` out-bits in all. */
function outDimsOf(bits: number, names?: readonly string[]): [string, number][] {
  const ns = names ?? Array.from({ length: int(1, 3) }, (_, j) => `dim${j}`);
  return split(bits, ns.length).map((k, j) => [ns[j]!, 2 ** k]);
}

/** A flattened out-value → one value per out-dim. */
function unflatten(v: number, outs: readonly [string, number][]): number[] {
  let x = v;
  return outs.map(([, size]) => {
    const r = x % size;
    x = Math.floor(x / size);
    return r;
  });
}

/** Columns (flattened images) split into in-dims. */
function layoutOf(cols: readonly number[], inNames: readonly string[], counts: readonly number[], outs: [string, number][]): LL {
  let c = 0;
  return { bases: inNames.map((n, k) => [n, Array.from({ length: counts[k]! }, () => unflatten(cols[c++]!, outs))]), outDims: outs };
}

const outBitsOf = (outs: readonly [string, number][]): number => outs.reduce((s, [, n]) => s + Math.log2(n), 0);

/** A column as layouts have them: a unit vector, a zero (broadcast), a swizzle-like pair, or random. */
function column(outBits: number): number {
  if (outBits === 0) return 0;
  const r = rng();
  if (r < 0.6) return 2 ** int(0, outBits - 1);
  if (r < 0.72) return 0;
  if (r < 0.86) return (2 ** int(0, outBits - 1)) ^ (2 ** int(0, outBits - 1));
  return int(0, 2 ** outBits - 1);
}

/** An invertible set of n columns over n bits: a shuffled identity mixed by column XORs. */
function invertibleColumns(n: number): number[] {
  const cols = shuffle(Array.from({ length: n }, (_, i) => 2 ** i));
  for (let s = int(0, n); s > 0 && n > 1; s--) {
    const i = int(0, n - 1);
    const j = int(0, n - 1);
    if (i !== j) cols[i] = cols[i]! ^ cols[j]!;
  }
  return cols;
}

function inNamesOf(): readonly string[] {
  const ns = pick(IN_NAMES);
  return chance(0.2) ? shuffle(ns) : ns;
}

/** A random LL with up to `maxIn` in-bits and `outBits` out-bits. */
function randomLL(maxIn: number, outBits = int(0, 20), outNames?: readonly string[]): LL {
  const outs = outDimsOf(outBits, outNames);
  const names = inNamesOf();
  const inBits = int(0, maxIn);
  return layoutOf(
    Array.from({ length: inBits }, () => column(outBits)),
    names,
    split(inBits, names.length),
    outs,
  );
}

/** A surjective LL: an invertible core plus broadcast or repeated columns, shuffled. */
function surjectiveLL(outs: [string, number][], maxIn = 20, names = inNamesOf()): LL {
  const n = outBitsOf(outs);
  const extra = int(0, Math.max(0, maxIn - n));
  const cols = [...invertibleColumns(n), ...Array.from({ length: extra }, () => (chance(0.5) ? 0 : column(n)))];
  return layoutOf(shuffle(cols), names, split(cols.length, names.length), outs);
}

type Req = { id: string; op: string; args: unknown[] };
const reqs: Req[] = [];
const add = (op: string, k: number, args: unknown[]): void => {
  reqs.push({ id: `${op}-${k}`, op, args });
};

for (let k = 0; k < PER_OP; k++) {
  // compose: O's in-dims are L's out-dims (any order), each at least as large
  const l = randomLL(20, int(0, 20));
  const oIns = shuffle(l.outDims).map(([n, s]): [string, number] => [n, s * (chance(0.2) ? 2 : 1)]);
  const oOut = int(0, 20);
  const outs = outDimsOf(oOut);
  const oInBits = oIns.reduce((s, [, n]) => s + Math.log2(n), 0);
  const o = layoutOf(
    Array.from({ length: oInBits }, () => column(oOut)),
    oIns.map(([n]) => n),
    oIns.map(([, n]) => Math.log2(n)),
    outs,
  );
  add('ll_compose', k, [l, o]);
}
for (let k = 0; k < PER_OP; k++) {
  // product: overlapping names, each side up to 10 in-bits and 10 out-bits
  const a = randomLL(10, int(0, 10));
  const b = randomLL(10, int(0, 10), chance(0.5) ? a.outDims.map(([n]) => n) : undefined);
  add('ll_product', k, [a, b]);
}
for (let k = 0; k < PER_OP; k++) {
  const n = int(0, 20);
  const outs = outDimsOf(n);
  const names = inNamesOf();
  add('ll_invert', k, [layoutOf(invertibleColumns(n), names, split(n, names.length), outs)]);
}
for (let k = 0; k < PER_OP; k++) {
  // invert_and_compose: B surjective; A into the same out-dims (sizes ≤ B's), sometimes with B's bases on a shared in-dim
  const outs = outDimsOf(int(0, 14));
  const b = surjectiveLL(outs);
  const aOuts = shuffle(outs).map(([nm, s]): [string, number] => [nm, chance(0.15) && s > 1 ? s / 2 : s]);
  const a = randomLL(
    20,
    outBitsOf(aOuts),
    aOuts.map(([nm]) => nm),
  );
  const fitted: LL = { bases: a.bases.map(([nm, bs]) => [nm, bs.map((v) => v.map((x, j) => x % aOuts[j]![1]))]), outDims: aOuts };
  if (chance(0.3) && b.bases.length > 0) {
    // share B's last in-dim (an identity dim) when its values fit A's sizes
    const [nm, bs] = b.bases[b.bases.length - 1]!;
    const order = aOuts.map(([o]) => outs.findIndex(([x]) => x === o));
    const moved = bs.map((v) => order.map((j) => v[j]!));
    if (moved.every((v) => v.every((x, j) => x < aOuts[j]![1]))) fitted.bases = fitted.bases.map(([x, v]) => [x, x === nm ? moved : v]);
  }
  add('ll_invert_and_compose', k, [fitted, b]);
}
for (let k = 0; k < PER_OP / 5; k++) {
  const outs = outDimsOf(int(0, 16));
  add('ll_pseudoinvert', k, [surjectiveLL(outs)]);
  const l = randomLL(20);
  add('ll_is_surjective', k, [l]);
  add('ll_is_injective', k, [l]);
  add('ll_apply', k, [l, Object.fromEntries(l.bases.map(([n, bs]) => [n, int(0, 2 ** bs.length - 1)]))]);
}

mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, reqs.map((r) => JSON.stringify(r)).join('\n') + '\n');
console.log(`wrote ${reqs.length} requests to ${out}`);
