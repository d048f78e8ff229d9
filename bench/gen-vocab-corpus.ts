/**
 * Generator of bench/vocab-corpus.jsonl: the speed corpus of issue 10's new operations
 * (docs/semantics.md §8: by-mode compose/logical_divide/logical_product with tilers, zipped/tiled/flat
 * divide and product, blocked/raked products, tile_to_shape, make_layout, the inverses,
 * filters, common vectors, slices and casts). Seeded and deterministic: the committed corpus
 * is what `npx tsx bench/gen-vocab-corpus.ts` writes.
 *
 * Inputs are small and realistic, as CuTe kernels write them: rank ≤ 4, size ≤ 2^16, mostly
 * power-of-two extents, column-major, row-major or ordered compact strides (sometimes padded,
 * broadcast or nested), and by-mode tilers of length 1–3 written as CuTe's Shape tilers
 * (`(32,16)`) or as `<…>` lists with `_`, integers, layouts and nested lists (docs/semantics.md §8.2).
 * Most requests succeed; the ones that fail (a tile that does not divide, a divisibility
 * failure) fail as real use does.
 *
 * Run: npx tsx bench/gen-vocab-corpus.ts [out.jsonl] [requests per op]
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '../test/helpers/brute.js'; // the project's one seeded generator

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = process.argv[2] ?? join(root, 'bench', 'vocab-corpus.jsonl');
const PER_OP = Number(process.argv[3] ?? 1000);
const SEED = 0x10b2026;

const rng = mulberry32(SEED);
const int = (lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
const chance = (p: number): boolean => rng() < p;

type Tup = number | Tup[];
const show = (t: Tup): string => (typeof t === 'number' ? String(t) : `(${t.map(show).join(',')})`);
const sizeOf = (t: Tup): number => (typeof t === 'number' ? t : t.reduce((p: number, u) => p * sizeOf(u), 1));
const leaves = (t: Tup): number[] => (typeof t === 'number' ? [t] : t.flatMap(leaves));

/** A layout; a rank-1 one is sometimes depth 0 (`64:1`, as CuTe prints it). */
interface L {
  shape: Tup;
  stride: Tup;
}
/** The top-level modes of a shape (a depth-0 shape is its own single mode). */
const modesOf = (t: Tup): Tup[] => (typeof t === 'number' ? [t] : t);
const showL = (l: L): string => `${show(l.shape)}:${show(l.stride)}`;

/** An extent as kernels use them: mostly powers of two, some 3, 5, 6, 12. */
const extent = (max: number): number => {
  const e = chance(0.85) ? 2 ** int(1, Math.max(1, Math.floor(Math.log2(max)))) : pick([3, 5, 6, 12]);
  return Math.min(e, max);
};

/** A shape of rank r, size ≤ maxSize, some modes nested (a 2-entry sub-shape). */
function randomShape(r: number, maxSize: number, nestP = 0.15): Tup[] {
  const s: Tup[] = [];
  let size = 1;
  for (let i = 0; i < r; i++) {
    const room = Math.floor(maxSize / size);
    if (room < 2) break; // no extent-1 padding modes: the rank is what fits
    if (chance(nestP) && room >= 4) {
      const a = extent(Math.min(16, Math.floor(room / 2)));
      const b = extent(Math.max(2, Math.floor(room / a)));
      s.push([a, b]);
      size *= a * b;
    } else {
      const e = extent(Math.min(256, room));
      s.push(e);
      size *= e;
    }
  }
  return s;
}

/** Compact strides for the shape's entries in the given entry order (smallest first), with an
 *  optional padding gap (a leading-dimension pad) and broadcast (stride-0) modes. */
function strides(shape: Tup[], style: 'col' | 'row' | 'perm', pad = false, broadcast = false): Tup[] {
  const es = leaves(shape);
  const idx = es.map((_, i) => i);
  if (style === 'row') idx.reverse();
  if (style === 'perm') idx.sort(() => rng() - 0.5);
  const d = new Array<number>(es.length).fill(0);
  let p = 1;
  for (const [k, i] of idx.entries()) {
    d[i] = p;
    p *= es[i]!;
    if (pad && k === 0) p += pick([1, 4, 8]); // e.g. 32 → 40: a padded leading dimension
  }
  if (broadcast && es.length > 1) d[int(0, es.length - 1)] = 0;
  let j = 0;
  const fill = (t: Tup): Tup => (typeof t === 'number' ? d[j++]! : t.map(fill));
  return shape.map(fill);
}

function randomLayout(o: { rank?: number; maxSize?: number; pad?: number; broadcast?: number; nest?: number } = {}): L {
  const r = o.rank ?? int(1, 4);
  const shape = randomShape(r, o.maxSize ?? 2 ** 16, o.nest ?? 0.15);
  const style = pick(['col', 'col', 'row', 'perm'] as const);
  const stride = strides(shape, style, chance(o.pad ?? 0.1), chance(o.broadcast ?? 0.05));
  if (shape.length === 1 && typeof shape[0] === 'number' && chance(0.5)) return { shape: shape[0], stride: stride[0]! };
  return { shape, stride };
}

/** A tile for a mode of size n: usually a power of two dividing n, sometimes a layout t:d
 *  whose span divides n, sometimes `_`; a nested mode gets a nested <…> now and then. */
function tileFor(mode: Tup, underscore: number): string {
  if (typeof mode !== 'number' && chance(0.3)) return `<${mode.map((m) => tileFor(m, underscore)).join(',')}>`;
  const n = sizeOf(mode);
  if (chance(underscore)) return '_';
  const divs: number[] = [];
  for (let t = 1; t <= n; t++) if (n % t === 0) divs.push(t);
  const t = pick(divs.length > 2 ? divs.slice(1, -1) : divs);
  if (chance(0.15)) {
    const ds = [2, 3, 4].filter((d) => n % (t * d) === 0);
    if (ds.length) return `${t}:${pick(ds)}`;
  }
  return String(t);
}

/** A by-mode tiler for a layout: length 1–3 (≤ rank), written as a Shape tuple `(32,16)`
 *  when every member is an integer, else as `<…>`; now and then a 1-D layout or integer. */
function tilerFor(a: L, underscore = 0.1): string {
  if (chance(0.08)) {
    const n = sizeOf(a.shape);
    const t = pick([2, 4, 8, 16].filter((x) => n % x === 0).concat([1]));
    return chance(0.5) ? String(t) : `${t}:1`;
  }
  const ms = modesOf(a.shape);
  const k = int(1, Math.min(3, ms.length));
  const ts = ms.slice(0, k).map((m) => tileFor(m, underscore));
  return ts.every((t) => /^\d+$/.test(t)) && chance(0.75) ? `(${ts.join(',')})` : `<${ts.join(',')}>`;
}

/** A small tiler for products: extents 2–8 per mode, so results stay realistic. */
function productTilerFor(a: L, underscore = 0.1): string {
  const k = int(1, Math.min(3, modesOf(a.shape).length));
  const ts = Array.from({ length: k }, () => (chance(underscore) ? '_' : String(pick([2, 2, 3, 4, 4, 8]))));
  return ts.every((t) => t !== '_') && chance(0.75) ? `(${ts.join(',')})` : `<${ts.join(',')}>`;
}

/** A slice coordinate over a shape: `_`, an integer below the size, or one level deeper. */
function coordFor(s: Tup, top = true): string {
  if (typeof s !== 'number' && (top || chance(0.4))) return `(${s.map((u) => coordFor(u, false)).join(',')})`;
  return chance(0.5) ? '_' : String(int(0, sizeOf(s) - 1));
}

type Req = { id: string; op: string; args: (string | number)[] };
const reqs: Req[] = [];
const gen = (op: string, make: () => (string | number)[]): void => {
  for (let i = 0; i < PER_OP; i++) reqs.push({ id: `${op}-${i}`, op, args: make() });
};

// by-mode compose / divide / product with tilers (docs/semantics.md §8.3)
gen('compose', () => {
  const a = randomLayout();
  return [showL(a), tilerFor(a)];
});
// `_` in a zipped/tiled/flat tiler needs a rank-2 mode (docs/semantics.md §8.3): rarer there
for (const op of ['logical_divide', 'zipped_divide', 'tiled_divide', 'flat_divide']) {
  gen(op, () => {
    const a = randomLayout();
    return [showL(a), tilerFor(a, op === 'logical_divide' ? 0.1 : 0.02)];
  });
}
for (const op of ['logical_product', 'zipped_product', 'tiled_product', 'flat_product']) {
  gen(op, () => {
    const a = randomLayout({ maxSize: 2 ** 10, pad: 0.05 });
    return [showL(a), productTilerFor(a, op === 'logical_product' ? 0.1 : 0.02)];
  });
}
for (const op of ['blocked_product', 'raked_product']) {
  gen(op, () => {
    const a = randomLayout({ rank: int(1, 3), maxSize: 64, pad: 0, broadcast: 0, nest: 0 });
    const b = randomLayout({ rank: int(1, 3), maxSize: 64, pad: 0, broadcast: 0, nest: 0 });
    return [showL(a), showL(b)];
  });
}
gen('tile_to_shape', () => {
  const r = int(1, 3);
  const a = randomLayout({ rank: r, maxSize: 64, pad: 0, broadcast: 0, nest: 0 });
  const s = modesOf(a.shape).map((m) => sizeOf(m) * pick([1, 2, 4, 8]));
  while (s.length < r + int(0, 1)) s.push(pick([2, 4]));
  const args: (string | number)[] = [showL(a), show(s)];
  if (chance(0.3)) args.push('row');
  return args;
});
gen('make_layout', () => {
  const s = randomShape(int(1, 4), 2 ** 16);
  const u = chance(0.4) ? 0 : chance(0.5) ? 1 : 2;
  if (u === 0) return [show(s)];
  if (u === 1) return [show(s), 'row'];
  const n = leaves(s).length;
  const perm = Array.from({ length: n }, (_, i) => i).sort(() => rng() - 0.5);
  let j = 0;
  const fill = (t: Tup): Tup => (typeof t === 'number' ? perm[j++]! : t.map(fill));
  return [show(s), show(s.map(fill))];
});

// docs/semantics.md §8.5
gen('right_inverse', () => [showL(randomLayout({ pad: 0.2, broadcast: 0.1 }))]);
gen('left_inverse', () => [showL(randomLayout({ pad: 0.2, broadcast: 0.1 }))]);
gen('filter', () => [showL(randomLayout({ broadcast: 0.5 }))]);
gen('filter_zeros', () => [showL(randomLayout({ broadcast: 0.5 }))]);
for (const op of ['max_common_vector', 'max_common_layout']) {
  gen(op, () => {
    const r = int(1, 4);
    const shape = randomShape(r, 2 ** 16, 0.1);
    const a = { shape, stride: strides(shape, pick(['col', 'col', 'row', 'perm'] as const)) };
    const b = { shape, stride: strides(shape, pick(['col', 'col', 'row', 'perm'] as const), chance(0.1)) };
    return [showL(a), showL(b)];
  });
}
for (const op of ['slice', 'dice']) {
  gen(op, () => {
    const a = randomLayout();
    return [showL(a), coordFor(a.shape)];
  });
}
gen('upcast', () => {
  const n = pick([2, 4, 8]);
  const a = randomLayout({ pad: 0.1 });
  return [showL(a), n];
});
gen('downcast', () => [showL(randomLayout({ pad: 0.1 })), pick([2, 4, 8])]);

writeFileSync(out, reqs.map((r) => JSON.stringify(r)).join('\n') + '\n');
console.log(`${reqs.length} requests (${PER_OP} per op) → ${out}`);
