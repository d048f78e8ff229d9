/**
 * The exhaustive enumeration of flat layouts, a candidate source of `layoutgpu verify`
 * (sources.ts).
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
 */
import { LayoutError } from '../algebra/errors.js';
import { compactEntries } from './cpu.js';
import type { Chunk, EnumerateOptions, ScanBlock, Source } from './sources.js';

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
