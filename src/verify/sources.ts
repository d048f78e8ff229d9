/**
 * The candidate sources of `layoutgpu verify` and `conflicts --search`: what every source gives
 * (chunks of candidates, its plain-data spec) and the options of the two generated ones. The
 * sources themselves, one subject a file: the exhaustive enumeration of flat layouts
 * (source-enumerate.ts), seeded random layouts (source-random.ts), and the candidates of a JSONL
 * file or a list (source-text.ts); a spec is read back into its source by source-spec.ts.
 */
import { makeFlat, type Layout } from '../algebra/layout.js';
import type { FlatBatch } from './packed.js';

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

export interface EnumerateOptions {
  size: number;
  maxRank?: number;
  maxStride?: number;
}

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
