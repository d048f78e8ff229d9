/**
 * The project's one seeded generator: mulberry32 (32 bits of state, values in [0, 1)). The random candidate source
 * (source-random.ts) draws from it, and so do the tests' seeded runs and the benchmarks' corpus generators (through
 * test/helpers/brute.ts), so a seed means the same stream everywhere.
 */

/** One step of mulberry32 on the state held in `state[0]`: advances it and answers the value in [0, 1). A state in a
 *  typed array keeps the hot loops that draw candidates free of closures and boxed numbers. */
export function mulberry32Step(state: Uint32Array): number {
  const a = (state[0]! + 0x6d2b79f5) >>> 0;
  state[0] = a;
  let t = Math.imul(a ^ (a >>> 15), a | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/**
 * mulberry32 started at state `seed` (taken as an unsigned 32-bit integer): a function answering the next value in
 * [0, 1) on each call. Example: mulberry32(1)() is 0.6270739405881613.
 */
export function mulberry32(seed: number): () => number {
  const state = Uint32Array.of(seed >>> 0);
  return () => mulberry32Step(state);
}
