/**
 * Seeded random layouts, a candidate source of `layoutgpu verify` (sources.ts), with the draw
 * state that packs single layouts without allocating.
 *
 * ## Random layouts (`--random K --seed S`)
 *
 * A seeded 32-bit generator per candidate (mulberry32 started from a hash of the seed and the
 * candidate's number k, so candidate k does not depend on the ones before it: shards and
 * threads draw their part directly); for each candidate: a depth uniform in
 * [0, maxDepth] (depth 0: one entry s:d; depth k: a tuple of 1..maxRank members of depth < k, one
 * of them of depth k − 1), shape entries uniform in [1, maxShape] but cut so that the size stays
 * ≤ maxSize, strides uniform in [0, maxStride], except that one stride in four is a power of
 * two ≤ maxStride (so that compact and injective candidates are not vanishingly rare).
 * Pairs (for the laws of two layouts) draw both layouts the same way; for law:compose the outer
 * layout B gets an extra mode when its size is below cosize(A), so that Φ_B∘Φ_A is defined.
 */
import { LayoutError } from '../algebra/errors.js';
import { cosize, makeLayout, size, type Layout } from '../algebra/layout.js';
import type { Tuple } from '../algebra/tuple.js';
import { FlatBatchBuilder } from './packed.js';
import { mulberry32, mulberry32Step } from './mulberry32.js';
import type { Chunk, RandomOptions, Source } from './sources.js';

/** The project's generator (mulberry32.ts) seeded from `seed` (hashed with the golden ratio's bits). */
export function rng(seed: number): () => number {
  return mulberry32((Math.floor(seed) ^ 0x9e3779b9) >>> 0);
}

function checkRandom(o: RandomOptions): Required<RandomOptions> {
  const int = (v: number, name: string, lo: number): number => {
    if (!Number.isSafeInteger(v) || v < lo) throw new LayoutError('bad-request', `${name} must be an integer ≥ ${lo}, got ${v}`);
    return v;
  };
  return {
    count: int(o.count, '--random', 0),
    seed: int(Math.abs(o.seed), '--seed', 0) * Math.sign(o.seed || 1),
    maxDepth: int(o.maxDepth ?? 2, '--max-depth', 0),
    maxRank: int(o.maxRank ?? 4, '--max-rank', 1),
    maxShape: int(o.maxShape ?? 8, '--max-shape', 1),
    maxStride: int(o.maxStride ?? 64, '--max-stride', 0),
    maxSize: int(o.maxSize ?? 4096, '--max-size', 1),
    arity: o.arity ?? 1,
    composable: o.composable ?? false,
  };
}

/** one random layout drawn with the bounds of `o`; its entries are also appended to `sink`
 *  (its flattening, in order) when given */
export function randomLayout(next: () => number, o: Required<RandomOptions>, sink?: FlatBatchBuilder): Layout {
  let sz = 1;
  const int = (lo: number, hi: number): number => lo + Math.floor(next() * (hi - lo + 1));
  const stride = (): number => {
    if (o.maxStride >= 1 && next() < 0.25) return 2 ** int(0, Math.floor(Math.log2(o.maxStride)));
    return int(0, o.maxStride);
  };
  const leaf = (): [Tuple, Tuple] => {
    let s = int(1, o.maxShape);
    s = Math.max(1, Math.min(s, Math.floor(o.maxSize / sz)));
    sz *= s;
    const d = stride();
    sink?.pushEntry(s, d);
    return [s, d];
  };
  const node = (depth: number): [Tuple, Tuple] => {
    if (depth === 0) return leaf();
    const r = int(1, o.maxRank);
    const deep = int(0, r - 1);
    const S: Tuple[] = [];
    const D: Tuple[] = [];
    for (let i = 0; i < r; i++) {
      const [s, d] = node(i === deep ? depth - 1 : int(0, depth - 1));
      S.push(s);
      D.push(d);
    }
    return [S, D];
  };
  const [s, d] = node(int(0, o.maxDepth));
  sink?.endCandidate();
  return makeLayout(s, d);
}

export function randomSource(opts: RandomOptions): Source {
  const o = checkRandom(opts);
  const describe = `${o.count} random ${o.arity === 2 ? 'pairs' : 'layouts'} (seed ${o.seed})`;
  const part = (lo: number, hi: number): Source => ({
    total: hi - lo,
    arity: o.arity,
    describe,
    spec: { kind: 'random', options: o, range: [lo, hi] },
    chunks: (chunkSize) => randomChunks(o, chunkSize, lo, hi),
    slice: (a, b) => part(lo + a, lo + Math.min(b, hi - lo)),
  });
  return part(0, o.count);
}

/**
 * The generator of candidate k of a random source with seed S: mulberry32 started from a hash
 * of (S, k), so that any candidate can be drawn without the ones before it (shards and
 * threads start anywhere in the order). `at(k)` restarts `next` at candidate k's stream.
 */
export function candidateStreams(seed: number): { next: () => number; at(k: number): void } {
  const state = new Uint32Array(1);
  return {
    next: () => mulberry32Step(state),
    at(k: number): void {
      state[0] = streamStart(seed, k);
    },
  };
}

function mix(h: number, v: number): number {
  h = Math.imul(h ^ v, 0x85ebca6b);
  return Math.imul(h ^ (h >>> 13), 0xc2b2ae35) ^ (h >>> 16);
}

/** the mulberry32 state at the start of candidate k's stream (seed S) */
function streamStart(seed: number, k: number): number {
  let h = mix(mix(0x9e3779b9, seed >>> 0), Math.floor(seed / 4294967296) >>> 0);
  h = mix(mix(h, k >>> 0), Math.floor(k / 4294967296) >>> 0);
  return (h ^ (h >>> 15)) >>> 0;
}

/** random chunks hold at most this many candidates (pairs are drawn as Layout objects, which
 *  then die young: a chunk of 2^16 outlived the young generation and cost more in garbage
 *  collection than in drawing) */
const RANDOM_CHUNK = 4096;
/** chunks of single layouts (their arrays are reused from chunk to chunk) */
const FLAT_CHUNK = 4096;

// The drawing of one single layout straight into a FlatBatchBuilder: the same draws, in the same
// order, as randomLayout of candidateStreams (candidate k's nested form is randomLayout of
// stream k), but with the generator inlined and its state in a typed array, so that no tuple,
// closure, Layout or boxed number is allocated: drawing then neither collects garbage (two
// thirds of a `verify compact --random` run before) nor stalls another thread that does.
const drawState = new Uint32Array(1);
let drawSize = 1;
/** the options drawLogStride was computed for (the same object for a whole source) */
let drawOpts: Required<RandomOptions> | null = null;
let drawLogStride = 0;

/** the generator's next value in [0, 1) (candidateStreams' `next`, on drawState) */
const drawUnit = (): number => mulberry32Step(drawState);

function drawInt(lo: number, hi: number): number {
  return lo + Math.floor(drawUnit() * (hi - lo + 1));
}

function drawNode(o: Required<RandomOptions>, sink: FlatBatchBuilder, depth: number): void {
  if (depth === 0) {
    let s = drawInt(1, o.maxShape);
    s = Math.max(1, Math.min(s, Math.floor(o.maxSize / drawSize)));
    drawSize *= s;
    const d = o.maxStride >= 1 && drawUnit() < 0.25 ? 2 ** drawInt(0, drawLogStride) : drawInt(0, o.maxStride);
    sink.pushEntry(s, d);
    return;
  }
  const r = drawInt(1, o.maxRank);
  const deep = drawInt(0, r - 1);
  for (let i = 0; i < r; i++) drawNode(o, sink, i === deep ? depth - 1 : drawInt(0, depth - 1));
}

/** candidate k of a random source of single layouts (seed and bounds `o`), drawn into `sink`
 *  only: its flattening, as randomLayout draws it from candidateStreams(o.seed).at(k) */
export function drawFlatCandidate(o: Required<RandomOptions>, k: number, sink: FlatBatchBuilder): void {
  if (o !== drawOpts) {
    drawOpts = o;
    drawLogStride = o.maxStride >= 1 ? Math.floor(Math.log2(o.maxStride)) : 0;
  }
  drawState[0] = streamStart(o.seed, k);
  drawSize = 1;
  drawNode(o, sink, drawInt(0, o.maxDepth));
  sink.endCandidate();
}

function* randomChunks(o: Required<RandomOptions>, chunkSize: number, lo = 0, hi = o.count): Generator<Chunk> {
  if (o.arity === 1) {
    // single layouts: packed as they are drawn; the nested form only of those asked for
    const again = candidateStreams(o.seed);
    chunkSize = Math.min(chunkSize, FLAT_CHUNK);
    const flat = new FlatBatchBuilder(chunkSize, chunkSize * 6);
    for (let first = lo; first < hi; first += chunkSize) {
      const count = Math.min(chunkSize, hi - first);
      flat.reset();
      for (let i = 0; i < count; i++) drawFlatCandidate(o, first + i, flat);
      const item = (i: number): Layout[] => {
        if (!(i >= 0 && i < count)) throw new RangeError(`candidate ${i} is not in this chunk of ${count}`);
        again.at(first + i);
        return [randomLayout(again.next, o)];
      };
      yield { first, count, flat: flat.finish(), item };
    }
    return;
  }
  // pairs: drawn as Layout objects
  const g = candidateStreams(o.seed);
  const next = g.next;
  chunkSize = Math.min(chunkSize, RANDOM_CHUNK);
  for (let first = lo; first < hi; first += chunkSize) {
    const count = Math.min(chunkSize, hi - first);
    const items: Layout[][] = new Array(count);
    for (let i = 0; i < count; i++) {
      g.at(first + i);
      const x = randomLayout(next, o);
      let y = randomLayout(next, o);
      if (o.composable) {
        // pair (B, A) = (y, x): make size(B) ≥ cosize(A)
        const need = cosize(x);
        const have = size(y);
        if (have < need) {
          const extra = Math.ceil(need / have);
          const d = Math.floor(next() * (o.maxStride + 1));
          y = makeLayout([y.shape, extra], [y.stride, d]);
        }
        items[i] = [y, x];
      } else items[i] = [x, y];
    }
    yield { first, count, items };
  }
}
