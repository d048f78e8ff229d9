/**
 * Candidate sources of `layoutgpu verify`: a JSONL file, an exhaustive enumeration of flat
 * layouts, and seeded random layouts. Each yields chunks of candidates.
 *
 * ## Enumeration order (`--enumerate --size N --max-rank R --max-stride D`)
 *
 * Every flat layout (s1..sr):(d1..dr) with 1 ≤ r ≤ R, every si ≥ 2, s1·…·sr = N and every
 * 0 ≤ di ≤ D, in this order:
 *   1. by rank r, ascending;
 *   2. within a rank, by shape tuple (s1..sr) in lexicographic order;
 *   3. within a shape, by stride tuple (d1..dr) in lexicographic order (d1 slowest, dr fastest).
 * Candidate number k (0-based) is its position in that order; the count is
 * Σ_r F_r(N)·(D + 1)^r with F_r(N) the number of ordered factorisations of N into r factors ≥ 2.
 * (N = 1 has no such layout: the enumeration is empty.)
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
import { cosize, makeFlat, makeLayout, size, type Layout } from '../algebra/layout.js';
import type { Tuple } from '../algebra/tuple.js';
import { formatLayoutFunction, isComposed, parseLayoutFunction, type LayoutFunction } from '../cute/composed.js';
import { batchOfFunctions, FlatBatchBuilder, type FlatBatch } from './packed.js';
import { compactEntries } from './cpu.js';
import { mulberry32, mulberry32Step } from './mulberry32.js';

/** A chunk of candidates: `flat` (one flat layout each) and/or `items` (one or two layouts each).
 *  The arrays of `flat` are valid until the next chunk is drawn (enumerations and random
 *  sources reuse them: allocating them per chunk stalled the other threads of the process). */
export interface Chunk {
  /** global number of the first candidate */
  first: number;
  count: number;
  flat?: FlatBatch;
  items?: Layout[][];
  /** candidate i of the chunk drawn again, for a chunk that carries only `flat` (a random
   *  source draws the nested layouts of the few candidates that are printed, not of all) */
  item?(i: number): Layout[];
  /** the candidates as printed, for a chunk of composed layouts Sw o K o L (docs/semantics.md
   *  §9.1): it carries only `flat`, with their outer functions, which compact and injective read */
  texts?: string[];
}

/** candidate i of a chunk, as layouts (its nested form where the source has one) */
export function chunkItem(chunk: Chunk, i: number): Layout[] {
  return chunk.items?.[i] ?? chunk.item?.(i) ?? [flatLayout(chunk.flat!, i)];
}

/** a block of candidates decided by a fused scan: how many, and the matching ones */
export interface ScanBlock {
  first: number;
  count: number;
  matches: string[];
}

export interface Source {
  /** the number of candidates when known in advance */
  total?: number;
  /** the CPU's fused path for `compact` (enumeration only): every candidate visited, without
   *  materialising it, with its cosize kept incrementally; the few with cosize = size get the
   *  full structural check */
  scanCompact?(blockSize: number): Iterable<ScanBlock>;
  /** how many layouts each candidate has (1, or 2 for pairs) */
  arity: number;
  chunks(chunkSize: number): Iterable<Chunk>;
  describe: string;
  /** the candidates [lo, hi) of this source, in the same order (sharding, threads); sources
   *  without it are sliced by shard.ts's generic walk */
  slice?(lo: number, hi: number): Source;
  /** a plain-data description from which sourceFromSpec rebuilds the source in a worker */
  spec?: SourceSpec;
}

/** A source as plain data (it crosses to worker threads): the options of an enumeration or of
 *  a random source, or the candidates of a list in notation. */
export type SourceSpec =
  | { kind: 'enumerate'; options: EnumerateOptions; range: [number, number] }
  | { kind: 'random'; options: RandomOptions; range: [number, number] }
  | { kind: 'list'; items: string[][]; arity: number; describe: string };

/** The source a SourceSpec describes (the inverse of `Source.spec`). */
export function sourceFromSpec(spec: SourceSpec): Source {
  switch (spec.kind) {
    case 'enumerate':
      return enumerateSource(spec.options).slice!(spec.range[0], spec.range[1]);
    case 'random':
      return randomSource(spec.options).slice!(spec.range[0], spec.range[1]);
    case 'list':
      return listSource(
        spec.items.map((c, i) => c.map((t) => parseLayoutFunction(t, `candidate ${i + 1}`))),
        spec.describe,
        spec.arity,
      );
  }
}

// ---------------------------------------------------------------------------------------------
// enumeration

export interface EnumerateOptions {
  size: number;
  maxRank?: number;
  maxStride?: number;
}

/** the divisors d ≥ 2 of n, ascending (trial division up to √n: at most ~10^8 steps) */
function divisorsFrom2(n: number): number[] {
  const small: number[] = [];
  const large: number[] = [];
  for (let d = 2; d * d <= n; d++) {
    if (n % d !== 0) continue;
    small.push(d);
    if (d * d !== n) large.push(n / d);
  }
  const out = small.concat(large.reverse());
  if (n >= 2) out.push(n);
  return out;
}

/** the ordered factorisations of n into exactly r factors ≥ 2, lexicographic (over the
 *  divisors of n only, so a large n costs √n, not n) */
export function factorisations(n: number, r: number): number[][] {
  const out: number[][] = [];
  const cur: number[] = [];
  const divs = divisorsFrom2(n);
  const go = (rest: number, k: number): void => {
    if (k === 1) {
      if (rest >= 2) out.push([...cur, rest]);
      return;
    }
    for (const s of divs) {
      if (s * 2 > rest) break;
      if (rest % s !== 0) continue;
      cur.push(s);
      go(rest / s, k - 1);
      cur.pop();
    }
  };
  if (r >= 1) go(n, r);
  return out;
}

/** F_r(n) for r = 1..R: how many ordered factorisations of n into r factors ≥ 2, counted
 *  (not listed) over the divisors of n, exactly as bigint */
function factorisationCounts(n: number, R: number): bigint[] {
  const divs = divisorsFrom2(n);
  const memo = new Map<string, bigint>();
  const count = (rest: number, k: number): bigint => {
    if (k === 1) return rest >= 2 ? 1n : 0n;
    const key = `${rest},${k}`;
    const m = memo.get(key);
    if (m !== undefined) return m;
    let c = 0n;
    for (const s of divs) {
      if (s * 2 > rest) break;
      if (rest % s === 0) c += count(rest / s, k - 1);
    }
    memo.set(key, c);
    return c;
  };
  const out: bigint[] = [];
  for (let r = 1; r <= R; r++) out.push(count(n, r));
  return out;
}

/** An enumeration of more candidates than this is refused at once (`overflow`): at tens of
 *  millions of candidates a second it would run for hours. */
export const ENUMERATE_CANDIDATE_LIMIT = 2 ** 40;

function checkEnumerate(o: EnumerateOptions): Required<EnumerateOptions> {
  const n = o.size;
  if (!Number.isSafeInteger(n) || n < 1) throw new LayoutError('bad-request', `--size must be a positive integer, got ${n}`);
  const r = o.maxRank ?? 4;
  if (!Number.isSafeInteger(r) || r < 1 || r > 32) throw new LayoutError('bad-request', `--max-rank must be an integer in 1..32, got ${r}`);
  const d = o.maxStride ?? n - 1;
  if (!Number.isSafeInteger(d) || d < 0) throw new LayoutError('bad-request', `--max-stride must be a non-negative integer, got ${d}`);
  return { size: n, maxRank: r, maxStride: d };
}

/** the number of candidates of an enumeration */
export function enumerateCount(o: EnumerateOptions): number {
  const total = enumerateCountBig(o);
  return total <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(total) : Infinity;
}

/** the exact number of candidates of an enumeration: Σ_r F_r(N)·(D + 1)^r */
export function enumerateCountBig(o: EnumerateOptions): bigint {
  const { size: n, maxRank, maxStride } = checkEnumerate(o);
  const f = factorisationCounts(n, maxRank);
  let total = 0n;
  f.forEach((c, i) => (total += c * BigInt(maxStride + 1) ** BigInt(i + 1)));
  return total;
}

/** The enumeration as a source; refused at once (`overflow`) beyond ENUMERATE_CANDIDATE_LIMIT
 *  candidates, with the count in the message. */
export function enumerateSource(o: EnumerateOptions): Source {
  const opts = checkEnumerate(o);
  const exact = enumerateCountBig(opts);
  if (exact > BigInt(ENUMERATE_CANDIDATE_LIMIT)) {
    throw new LayoutError(
      'overflow',
      `the enumeration has ${exact} candidates, beyond the limit of 2^40 = ${ENUMERATE_CANDIDATE_LIMIT} (narrow it with --max-rank or --max-stride)`,
    );
  }
  const total = Number(exact);
  const describe = `every flat layout of size ${opts.size}, rank ≤ ${opts.maxRank}, strides ≤ ${opts.maxStride}`;
  const part = (lo: number, hi: number): Source => ({
    total: hi - lo,
    arity: 1,
    describe,
    spec: { kind: 'enumerate', options: opts, range: [lo, hi] },
    chunks: (chunkSize) => enumerateChunks(opts, chunkSize, lo, hi),
    scanCompact: (blockSize) => enumerateScanCompact(opts, blockSize, lo, hi),
    slice: (a, b) => part(lo + a, lo + Math.min(b, hi - lo)),
  });
  return part(0, total);
}

/** A run of the enumeration: the candidates of one shape with a fixed stride prefix
 *  d_1..d_(r−1), the last stride running over [v0, v1]. */
interface EnumRun {
  sh: number[];
  d: Float64Array;
  v0: number;
  v1: number;
}

/**
 * The runs of the enumeration that hold the candidates [lo, hi), in order (the first and the
 * last may be partial). Candidate k of a shape block of rank r has the stride digits of k − base
 * in base D + 1 (d_1 most significant), so the walk starts at lo without visiting what precedes.
 * The Float64Array `d` is reused from run to run.
 */
function* enumerateRuns(o: Required<EnumerateOptions>, lo: number, hi: number): Generator<EnumRun> {
  const B = o.maxStride + 1;
  let base = 0;
  for (let r = 1; r <= o.maxRank && base < hi; r++) {
    const block = B ** r;
    for (const sh of factorisations(o.size, r)) {
      if (base >= hi) return;
      if (base + block <= lo) {
        base += block;
        continue;
      }
      // first candidate of this shape inside [lo, hi): its digits
      const first = Math.max(lo, base) - base;
      const d = new Float64Array(r);
      let q = Math.floor(first / B);
      let v0 = first - q * B;
      for (let k = r - 2; k >= 0; k--) {
        d[k] = q % B;
        q = Math.floor(q / B);
      }
      let at = base + first - v0; // number of the run's v = 0 candidate
      for (;;) {
        const v1 = Math.min(o.maxStride, hi - 1 - at);
        yield { sh, d, v0, v1 };
        at += B;
        v0 = 0;
        if (at >= hi) return;
        let k = r - 2;
        while (k >= 0 && d[k] === o.maxStride) d[k--] = 0;
        if (k < 0) break;
        d[k]!++;
      }
      base += block;
    }
  }
}

/** the fused compact scan of the enumeration's candidates [lo, hi) (same order, same verdicts
 *  as the chunks): per run, cosize = 1 + Σ_(k<r) (s_k − 1)·d_k + (s_r − 1)·v grows by s_r − 1
 *  with v, and only the runs' candidates with cosize = N get the structural check */
function* enumerateScanCompact(o: Required<EnumerateOptions>, blockSize: number, lo = 0, hi = enumerateCount(o)): Generator<ScanBlock> {
  const N = o.size;
  let first = lo;
  let count = 0;
  let matches: string[] = [];
  for (const { sh, d, v0, v1 } of enumerateRuns(o, lo, hi)) {
    const r = sh.length;
    const last = r - 1;
    const sl = sh[last]! - 1;
    let partial = 0;
    let zero = false;
    for (let k = 0; k < last; k++) {
      if (d[k] === 0) zero = true;
      partial += (sh[k]! - 1) * d[k]!;
    }
    if (!zero) {
      // v = 0 is a zero stride (never compact)
      const vs = Math.max(1, v0);
      let co = 1 + partial + sl * vs;
      for (let v = vs; v <= v1; v++, co += sl) {
        if (co !== N) continue;
        d[last] = v;
        if (compactEntries(sh, d, 0, r)) matches.push(`(${sh.join(',')}):(${Array.from(d.subarray(0, r)).join(',')})`);
      }
      d[last] = 0;
    }
    count += v1 - v0 + 1;
    if (count >= blockSize) {
      yield { first, count, matches };
      first += count;
      count = 0;
      matches = [];
    }
  }
  if (count > 0) yield { first, count, matches };
}

/**
 * The chunks of the enumeration's candidates [lo, hi). The arrays of a chunk are reused for the
 * next one: a consumer finishes with a chunk before it asks for the next (as every consumer
 * here does).
 */
function* enumerateChunks(o: Required<EnumerateOptions>, chunkSize: number, lo = 0, hi = enumerateCount(o)): Generator<Chunk> {
  const R = o.maxRank;
  const start = new Uint32Array(chunkSize + 1);
  const shapes = new Float64Array(chunkSize * R);
  const strides = new Float64Array(chunkSize * R);
  let first = lo;
  let count = 0;
  let n = 0;
  const chunk = (): Chunk => ({
    first,
    count,
    flat: { count, start: start.subarray(0, count + 1), shapes: shapes.subarray(0, n), strides: strides.subarray(0, n) },
  });
  for (const { sh, d, v0, v1 } of enumerateRuns(o, lo, hi)) {
    const last = sh.length - 1;
    // the fastest digit d_r runs v0..v1 with the prefix d_1..d_(r−1) fixed
    for (let v = v0; v <= v1; v++) {
      for (let k = 0; k < last; k++) {
        shapes[n + k] = sh[k]!;
        strides[n + k] = d[k]!;
      }
      shapes[n + last] = sh[last]!;
      strides[n + last] = v;
      n += last + 1;
      start[++count] = n;
      if (count === chunkSize) {
        yield chunk();
        first += count;
        count = 0;
        n = 0;
      }
    }
  }
  if (count > 0) yield chunk();
}

// ---------------------------------------------------------------------------------------------
// random

export interface RandomOptions {
  count: number;
  seed: number;
  maxDepth?: number;
  maxRank?: number;
  maxShape?: number;
  maxStride?: number;
  maxSize?: number;
  /** 1: single layouts; 2: pairs */
  arity?: number;
  /** for law:compose: make size(B) ≥ cosize(A) for pairs (B, A) */
  composable?: boolean;
}

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

// ---------------------------------------------------------------------------------------------
// file

/**
 * One candidate per line: a JSON string ("(4,8):(1,4)"), a JSON array of one or two strings
 * (["B", "A"] for a pair), or the bare notation. Blank lines are skipped. A line that does not
 * parse is a `parse` (or `bad-request`) error naming the line.
 */
export function parseCandidateLine(line: string, lineNo: number): LayoutFunction[] | null {
  const t = line.trim();
  if (t === '') return null;
  let v: unknown = t;
  if (t.startsWith('"') || t.startsWith('[')) {
    try {
      v = JSON.parse(t);
    } catch {
      throw new LayoutError('bad-request', `line ${lineNo}: not valid JSON`);
    }
  }
  const parts = Array.isArray(v) ? v : [v];
  if (parts.length < 1 || parts.length > 2) throw new LayoutError('bad-request', `line ${lineNo}: expected one layout or a pair`);
  return parts.map((p, k) => {
    if (typeof p !== 'string') throw new LayoutError('bad-request', `line ${lineNo}: layouts must be strings`);
    return parseLayoutFunction(p, `line ${lineNo}${parts.length > 1 ? ` item ${k + 1}` : ''}`);
  });
}

export function textSource(text: string, name: string): Source {
  const lines = text.split(/\r?\n/);
  const cands: LayoutFunction[][] = [];
  lines.forEach((l, i) => {
    const c = parseCandidateLine(l, i + 1);
    if (c) cands.push(c);
  });
  const arity = cands.length ? cands[0]!.length : 1;
  cands.forEach((c, i) => {
    if (c.length !== arity) throw new LayoutError('bad-request', `${name}: candidate ${i + 1} has ${c.length} layout(s), the first has ${arity}`);
  });
  return listSource(cands, `${cands.length} candidates from ${name}`, arity);
}

export function listSource(cands: LayoutFunction[][], describe: string, arity = cands[0]?.length ?? 1): Source {
  const part = (lo: number, hi: number): Source => ({
    total: hi - lo,
    arity,
    describe,
    get spec(): SourceSpec {
      return { kind: 'list', items: cands.slice(lo, hi).map((c) => c.map(formatLayoutFunction)), arity, describe };
    },
    *chunks(chunkSize) {
      for (let first = lo; first < hi; first += chunkSize) {
        const items = cands.slice(first, Math.min(first + chunkSize, hi));
        if (items.some((c) => c.some(isComposed))) yield composedChunk(first, items);
        else yield { first, count: items.length, items: items as Layout[][] };
      }
    },
    slice: (a, b) => part(lo + a, lo + Math.min(b, hi - lo)),
  });
  return part(0, cands.length);
}

/** A chunk of candidates some of which are composed: their flattened inner layouts with their
 *  outer functions (batchOfFunctions) and their texts. Only single candidates: a pair with a
 *  composed layout is `domain` (the laws of two layouts need plain layouts). */
function composedChunk(first: number, items: readonly LayoutFunction[][]): Chunk {
  const pair = items.findIndex((c) => c.length !== 1);
  if (pair >= 0)
    throw new LayoutError(
      'domain',
      `candidate ${first + pair + 1}: pairs need plain layouts; ${items[pair]!.map(formatLayoutFunction).join(' ')} has a composed one`,
    );
  const fns = items.map((c) => c[0]!);
  return { first, count: fns.length, flat: batchOfFunctions(fns), texts: fns.map(formatLayoutFunction) };
}

/** the flat layout of candidate i of a flat batch, as a Layout */
export function flatLayout(b: FlatBatch, i: number): Layout {
  const s: number[] = [];
  const d: number[] = [];
  for (let k = b.start[i]!; k < b.start[i + 1]!; k++) {
    s.push(b.shapes[k]!);
    d.push(b.strides[k]!);
  }
  return makeFlat(s, d);
}
