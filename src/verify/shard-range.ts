/**
 * The arithmetic every sharded search shares (verify's properties and conflict-free, the planner's `--shard`): a shard
 * k/n, read from `--shard` or LAYOUTGPU_SHARD, the candidates [⌊(k−1)·T/n⌋, ⌊k·T/n⌋) it holds of T, and the hash
 * that names a search in its shard reports. Kept apart from the sources and the reports (shard.ts, merge.ts) so that
 * the ops table, which every `batch` and CLI call loads at start-up, reaches no more of verify/ than this.
 */
import { LayoutError } from '../algebra/errors.js';

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

/** a 64-bit FNV-1a hash of a string, as 16 hex digits (an identity, not a secret) */
export function hashText(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0xcbf29ce4;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x0100019d) ^ (h1 >>> 7);
  }
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}
