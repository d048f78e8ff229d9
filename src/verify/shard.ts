/**
 * Shards of a search: `--shard k/n` checks the k-th of n parts of a source's candidate order.
 * Part k (1-based) holds the candidates [⌊(k−1)·T/n⌋, ⌊k·T/n⌋) of the T candidates: parts
 * differ in size by at most one, and together they hold every candidate exactly once, in order.
 * A source slices itself when it can (`Source.slice`: enumerate, random, file); any other source
 * is sliced by walking its chunks and keeping the candidates in range (same order, same
 * candidates, only slower), so every source shards.
 */
import { LayoutError } from '../algebra/errors.js';
import { FlatBatchBuilder } from './packed.js';
import type { Chunk, Source } from './sources.js';

/** shard k of n (1 ≤ k ≤ n) */
export interface Shard {
  k: number;
  n: number;
}

/**
 * Parses `k/n` (1 ≤ k ≤ n, decimal integers). `what` names the origin in errors
 * (`--shard`, `LAYOUTGPU_SHARD`). Errors: `bad-request`. Example: parseShard('2/8') → {k: 2, n: 8}.
 */
export function parseShard(text: string, what = '--shard'): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) throw new LayoutError('bad-request', `${what} takes k/n with 1 ≤ k ≤ n, got '${text}'`);
  const k = Number(m[1]);
  const n = Number(m[2]);
  if (!Number.isSafeInteger(n) || n < 1)
    throw new LayoutError('bad-request', `${what}: the number of shards n must be an integer from 1 to 2^53 − 1, got '${text}'`);
  if (!Number.isSafeInteger(k) || k < 1 || k > n) throw new LayoutError('bad-request', `${what}: the shard k must be in 1..${n}, got '${text}'`);
  return { k, n };
}

/**
 * The shard a search runs: `--shard k/n` when the option is given (any text, the empty one
 * included, must be k/n), else LAYOUTGPU_SHARD when set and not empty, else none (the whole
 * search). Every search (verify's properties and conflict-free) reads it so. Errors: parseShard's,
 * naming the option or the variable. Example: shardOption(undefined, '2/4') → {k: 2, n: 4}.
 */
export function shardOption(option: string | undefined, env: string | undefined = process.env.LAYOUTGPU_SHARD): Shard | null {
  if (option !== undefined) return parseShard(option, '--shard');
  if (env === undefined || env === '') return null;
  return parseShard(env, 'LAYOUTGPU_SHARD');
}

/**
 * The candidates [lo, hi) of shard k of n over T candidates: [⌊(k−1)·T/n⌋, ⌊k·T/n⌋), computed
 * exactly (BigInt where (k−1)·T passes 2^53). Example: shardRange(10, {k: 2, n: 3}) → [3, 6].
 */
export function shardRange(total: number, s: Shard): [number, number] {
  const at = (j: number): number => {
    const p = j * total;
    return Number.isSafeInteger(p) ? Math.floor(p / s.n) : Number((BigInt(j) * BigInt(total)) / BigInt(s.n));
  };
  return [at(s.k - 1), at(s.k)];
}

/**
 * The candidates [lo, hi) of a source, in order: `src.slice` when the source has it, else a
 * walk of its chunks that keeps those in range. Pre: 0 ≤ lo ≤ hi ≤ src.total.
 * Example: sliceSource(randomSource({count: 10, seed: 1}), 3, 6).total → 3.
 */
export function sliceSource(src: Source, lo: number, hi: number): Source {
  if (src.slice) return src.slice(lo, hi);
  return {
    total: hi - lo,
    arity: src.arity,
    describe: src.describe,
    *chunks(chunkSize) {
      let at = 0;
      for (const c of src.chunks(chunkSize)) {
        const a = Math.max(lo, at);
        const b = Math.min(hi, at + c.count);
        if (a < b) yield trimChunk(c, a - at, b - at);
        at += c.count;
        if (at >= hi) return;
      }
    },
    slice: (a, b) => sliceSource(src, lo + a, lo + Math.min(b, hi - lo)),
  };
}

/** the candidates [a, b) of a chunk (a copy when it is partial) */
function trimChunk(c: Chunk, a: number, b: number): Chunk {
  if (a === 0 && b === c.count) return c;
  const out: Chunk = { first: c.first + a, count: b - a };
  if (c.items) out.items = c.items.slice(a, b);
  const item = c.item;
  if (item) out.item = (i) => item(i + a);
  if (c.flat) {
    const f = c.flat;
    const fb = new FlatBatchBuilder(b - a);
    for (let i = a; i < b; i++) fb.push(f.shapes.subarray(f.start[i]!, f.start[i + 1]!), f.strides.subarray(f.start[i]!, f.start[i + 1]!));
    out.flat = fb.finish();
  }
  return out;
}

/** the source of shard s of a source (its total must be known) */
export function shardSource(src: Source, s: Shard): { source: Source; range: [number, number] } {
  if (src.total === undefined) throw new LayoutError('bad-request', 'this source does not know its number of candidates in advance: it cannot be sharded');
  const range = shardRange(src.total, s);
  return { source: sliceSource(src, range[0], range[1]), range };
}
