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
import { shardRange, type Shard } from './shard-range.js';
import type { Chunk, Source } from './sources.js';

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
