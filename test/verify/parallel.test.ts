/**
 * verify on worker threads (verify/parallel.ts): the same summary, matches (in order) and
 * counterexamples as runVerify on one thread, for searches and laws over every source.
 * Workers run the TypeScript sources here (through tsx).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { parseLayout } from '../../src/algebra/notation.js';
import { WorkerPool } from '../../src/engine/node/pool.js';
import { CpuVerifyEngine } from '../../src/verify/cpu.js';
import { propertyJson, runVerifyThreaded } from '../../src/verify/parallel.js';
import { makeProperty, propertyFromJson, runVerify, type Property, type VerifySummary } from '../../src/verify/run.js';
import { chunkItem, type Source } from '../../src/verify/sources.js';
import { enumerateSource } from '../../src/verify/source-enumerate.js';
import { randomSource } from '../../src/verify/source-random.js';
import { listSource } from '../../src/verify/source-text.js';

const cpu = new CpuVerifyEngine();
// one pool per thread count: worker threads start once (through tsx, which takes a while)
const pools = new Map<number, WorkerPool>();
const poolOf = (n: number): WorkerPool => pools.get(n) ?? (pools.set(n, new WorkerPool(n)), pools.get(n)!);
afterAll(() => pools.forEach((p) => p.close()));

const strip = (s: VerifySummary): Omit<VerifySummary, 'seconds'> => {
  const { seconds: _, ...rest } = s;
  return rest;
};

/** workers from the first part on (the default waits until a run proves long) */
const EAGER = null;

async function both(p: Property, src: () => Source, threads: number, maxExamples = 10): Promise<void> {
  const m1: string[] = [];
  const one = await runVerify({ property: p, source: src(), engine: cpu, maxExamples, onMatch: (t) => m1.push(t) });
  const pool = poolOf(threads);
  const mN: string[] = [];
  const progress: number[] = [];
  const many = await runVerifyThreaded({
    property: p,
    source: src(),
    engine: cpu,
    maxExamples,
    onMatch: (t) => mN.push(t),
    threads,
    pool,
    minParallel: 0,
    minPart: 300,
    lazyWorkers: EAGER,
    onProgress: (d) => progress.push(d),
  });
  expect(strip(many)).toEqual(strip(one));
  expect(mN).toEqual(m1);
  expect(progress.at(-1)).toBe(one.candidates);
  // without onMatch: only the examples come back from the workers
  const few = await runVerifyThreaded({
    property: p,
    source: src(),
    engine: cpu,
    maxExamples,
    threads,
    pool,
    minParallel: 0,
    minPart: 300,
    lazyWorkers: EAGER,
  });
  expect(strip(few)).toEqual(strip(one));
}

describe('runVerifyThreaded', () => {
  it('compact over random layouts, 2 and 3 threads', async () => {
    for (const t of [2, 3]) await both({ kind: 'compact' }, () => randomSource({ count: 8000, seed: 11, maxSize: 4096 }), t, 25);
  });

  it('compact over an enumeration (the fused scan) and injective', async () => {
    await both({ kind: 'compact' }, () => enumerateSource({ size: 48, maxRank: 3, maxStride: 12 }), 2);
    await both({ kind: 'injective' }, () => enumerateSource({ size: 24, maxRank: 3, maxStride: 9 }), 3);
  });

  it('complement-of and compose-equals over a file', async () => {
    const items = [...randomSource({ count: 5000, seed: 4, maxSize: 64, maxStride: 32 }).chunks(5000)].flatMap((c) =>
      Array.from({ length: c.count }, (_, i) => chunkItem(c, i)),
    );
    const src = () => listSource(items, '5000 candidates from c.jsonl');
    await both(makeProperty('complement-of', ['(4,2):(1,16)']), src, 2);
    await both(
      makeProperty('compose-equals', ['(2,2):(1,2)', '(64):(1)']),
      () =>
        listSource(
          items.filter((c) => c[0]!.shape !== 1),
          'filtered',
        ),
      2,
    );
  });

  it('a law with its counterexamples shrunk, in order', async () => {
    await both({ kind: 'law', law: 'coalesce' }, () => randomSource({ count: 3000, seed: 5, maxSize: 256 }), 2);
    await both(makeProperty('law:divide', ['(2,2):(1,2)']), () => randomSource({ count: 2000, seed: 6, maxSize: 64 }), 2);
  });

  it('workers join only a run that proves long; the answer is the same either way', async () => {
    const src = (): Source => randomSource({ count: 30_000, seed: 12, maxSize: 4096 });
    const one = await runVerify({ property: { kind: 'compact' }, source: src(), engine: cpu });
    const lazy = new WorkerPool(2);
    pools.set(-1, lazy);
    const short = await runVerifyThreaded({
      property: { kind: 'compact' },
      source: src(),
      engine: cpu,
      threads: 2,
      pool: lazy,
      minParallel: 0,
      minPart: 1000,
      lazyWorkers: { afterMs: 60_000, minLeftMs: 0 },
    });
    expect(strip(short)).toEqual(strip(one));
    expect(lazy.threadsStarted).toBe(0);
    const long = await runVerifyThreaded({
      property: { kind: 'compact' },
      source: src(),
      engine: cpu,
      threads: 2,
      pool: lazy,
      minParallel: 0,
      minPart: 1000,
      lazyWorkers: null,
    });
    expect(strip(long)).toEqual(strip(one));
    expect(lazy.threadsStarted).toBe(1);
  });

  it('properties cross to a worker as JSON and back', () => {
    for (const p of [
      makeProperty('compact', []),
      makeProperty('complement-of', ['(4,2):(1,16)']),
      makeProperty('compose-equals', ['(2,2):(1,2)', '(64):(1)']),
      makeProperty('law:compose', ['(8):(2)']),
      makeProperty('law:product', []),
    ]) {
      expect(propertyFromJson(propertyJson(p))).toEqual(p);
    }
    expect(parseLayout('(4,2):(1,16)')).toEqual(parseLayout('(4,2):(1,16)'));
  });
});
