/**
 * Shards (verify/shard.ts) and their merge (verify/merge.ts): parts as equal as possible whose
 * union is exactly the candidate order, for every source (enumerate, random, file, and a source
 * that cannot slice itself); merged reports equal the unsharded run; merge errors name the
 * missing or repeated shard.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LayoutError } from '../../src/algebra/errors.js';
import { formatLayout, parseLayout } from '../../src/algebra/notation.js';
import { CpuVerifyEngine } from '../../src/verify/cpu.js';
import { formatFlatAt } from '../../src/verify/packed.js';
import { mergeReports, searchKey, shardReport, type ShardReport } from '../../src/verify/merge.js';
import { ALGEBRA, type LawImpl } from '../../src/verify/laws.js';
import { runVerify, type Property } from '../../src/verify/run.js';
import { shardSource, sliceSource } from '../../src/verify/shard.js';
import { parseShard, shardRange } from '../../src/verify/shard-range.js';
import { chunkItem, type Source } from '../../src/verify/sources.js';
import { enumerateSource } from '../../src/verify/source-enumerate.js';
import { randomSource } from '../../src/verify/source-random.js';
import { listSource } from '../../src/verify/source-text.js';
import { sourceFromSpec } from '../../src/verify/source-spec.js';

/** every candidate of a source, canonically printed, in order */
function texts(src: Source, chunk = 7): string[] {
  const out: string[] = [];
  for (const c of src.chunks(chunk)) {
    for (let i = 0; i < c.count; i++) out.push(c.items || c.item ? chunkItem(c, i).map(formatLayout).join(' ') : formatFlatAt(c.flat!, i));
  }
  return out;
}

/** the matches of the fused compact scan, in order */
function scanned(src: Source, block = 5): { count: number; matches: string[] } {
  let count = 0;
  const matches: string[] = [];
  for (const b of src.scanCompact!(block)) {
    count += b.count;
    matches.push(...b.matches);
  }
  return { count, matches };
}

/** a source with no slice of its own (sliced by walking its chunks) */
function opaque(src: Source): Source {
  return { total: src.total, arity: src.arity, describe: src.describe, chunks: (n) => src.chunks(n) };
}

const cpu = new CpuVerifyEngine();

describe('shard k/n', () => {
  it('parses k/n and refuses anything else, naming the origin', () => {
    expect(parseShard('2/8')).toEqual({ k: 2, n: 8 });
    expect(parseShard(' 1 / 1 ')).toEqual({ k: 1, n: 1 });
    for (const bad of ['0/4', '5/4', '1/0', '2', 'a/b', '-1/3', '1.5/3', '']) {
      expect(() => parseShard(bad, 'LAYOUTGPU_SHARD')).toThrowError(/LAYOUTGPU_SHARD/);
    }
  });

  it('parts differ by at most one and cover [0, T) exactly once, in order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 1, max: 40 }), (T, n) => {
        let at = 0;
        const sizes: number[] = [];
        for (let k = 1; k <= n; k++) {
          const [lo, hi] = shardRange(T, { k, n });
          expect(lo).toBe(at);
          sizes.push(hi - lo);
          at = hi;
        }
        expect(at).toBe(T);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('is exact beyond 2^53 / n', () => {
    const T = 2 ** 53 - 1;
    expect(shardRange(T, { k: 3, n: 3 })).toEqual([Number((2n * BigInt(T)) / 3n), T]);
  });
});

describe('slices of every source are the candidates of the whole, in order', () => {
  const sources: [string, () => Source][] = [
    ['enumerate', () => enumerateSource({ size: 24, maxRank: 3, maxStride: 5 })],
    ['enumerate (all strides)', () => enumerateSource({ size: 8, maxRank: 4 })],
    ['random', () => randomSource({ count: 300, seed: 5, maxSize: 256 })],
    ['random pairs', () => randomSource({ count: 200, seed: 6, arity: 2, composable: true, maxSize: 64 })],
    [
      'file',
      () =>
        listSource(
          texts(randomSource({ count: 90, seed: 2 })).map((t) => [parseLayout(t)]),
          '90 candidates from f.jsonl',
        ),
    ],
    ['a source that cannot slice itself', () => opaque(randomSource({ count: 150, seed: 9 }))],
  ];
  for (const [name, make] of sources) {
    it(name, () => {
      const all = texts(make());
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 9 }), (n) => {
          const parts: string[] = [];
          for (let k = 1; k <= n; k++) {
            const { source, range } = shardSource(make(), { k, n });
            const t = texts(source, 1 + (k % 5) * 3);
            expect(t.length).toBe(range[1] - range[0]);
            expect(source.total).toBe(t.length);
            // through the plain-data spec (what a worker thread receives) when the source has one
            if (source.spec) expect(texts(sourceFromSpec(JSON.parse(JSON.stringify(source.spec))))).toEqual(t);
            parts.push(...t);
          }
          expect(parts).toEqual(all);
        }),
        { numRuns: 12 },
      );
    });
  }

  it('the fused compact scan of a slice has the slice’s candidates and matches', async () => {
    const whole = enumerateSource({ size: 36, maxRank: 3, maxStride: 9 });
    const ref = scanned(whole);
    const byChunks = await runVerify({ property: { kind: 'compact' }, source: opaque(whole), engine: cpu, maxExamples: 1e9 });
    expect(ref.matches).toEqual(byChunks.examples.map((e) => e.candidate[0]));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: whole.total! }), fc.integer({ min: 0, max: whole.total! }), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const part = scanned(whole.slice!(lo, hi));
        expect(part.count).toBe(hi - lo);
        const inRange = new Set(texts(whole.slice!(lo, hi), 97));
        expect(part.matches).toEqual(ref.matches.filter((m) => inRange.has(m)));
      }),
      { numRuns: 25 },
    );
  });

  it('a random candidate depends only on the seed and its number', () => {
    const a = texts(randomSource({ count: 50, seed: 77 }));
    const b = texts(randomSource({ count: 80, seed: 77 }));
    expect(b.slice(0, 50)).toEqual(a);
    expect(texts(sliceSource(randomSource({ count: 80, seed: 77 }), 50, 80))).toEqual(b.slice(50));
    expect(texts(randomSource({ count: 50, seed: 78 }))).not.toEqual(a);
  });
});

/** shard reports of a property over a source, as the CLI writes them */
async function shardReports(p: Property, whole: () => Source, n: number, examples = 10, impl?: LawImpl): Promise<ShardReport[]> {
  const out: ShardReport[] = [];
  const isLaw = p.kind === 'law';
  for (let k = 1; k <= n; k++) {
    const { source, range } = shardSource(whole(), { k, n });
    const s = await runVerify({ property: p, source, engine: cpu, maxExamples: isLaw ? examples : Math.max(examples, 21), ...(impl ? { impl } : {}) });
    const first = isLaw ? [] : s.examples.slice(0, 21).map((e) => e.candidate[0]!);
    if (!isLaw) s.examples = s.examples.slice(0, examples);
    out.push(
      JSON.parse(
        JSON.stringify(
          shardReport(s, { shard: { k, n }, range, total: whole().total!, key: searchKey(p, whole()), examples, isLaw, matches: first, out: null }),
        ),
      ),
    );
  }
  return out;
}

const strip = <T extends { seconds: number }>(s: T): Omit<T, 'seconds'> => {
  const { seconds: _, ...rest } = s;
  return rest;
};

describe('merge', () => {
  const whole = () => randomSource({ count: 4000, seed: 3, maxSize: 512, maxStride: 16 });
  const prop: Property = { kind: 'compact' };

  it('prints what the unsharded run prints, for any number of shards', async () => {
    const ref = await runVerify({ property: prop, source: whole(), engine: cpu, maxExamples: 10 });
    for (const n of [1, 2, 3, 7]) {
      const reports = await shardReports(prop, whole, n);
      const m = mergeReports(reports.reverse().map((r, i) => ({ name: `r${i}.json`, report: r })));
      expect(strip(m.summary)).toEqual(strip(ref));
      expect(m.summary.seconds).toBeCloseTo(
        reports.reduce((s, r) => s + r.seconds, 0),
        9,
      );
    }
  });

  it('keeps a law’s counterexamples in order', async () => {
    const lawWhole = () => randomSource({ count: 1200, seed: 4, maxSize: 64, maxStride: 8 });
    const law: Property = { kind: 'law', law: 'coalesce' };
    // a coalesce that never merges: counterexamples all over the order
    const impl: LawImpl = { ...ALGEBRA, coalesce: (l) => l };
    const ref = await runVerify({ property: law, source: lawWhole(), engine: cpu, maxExamples: 3, impl });
    expect(ref.failed).toBeGreaterThan(3);
    const m = mergeReports((await shardReports(law, lawWhole, 4, 3, impl)).map((r, i) => ({ name: `${i}`, report: r })));
    expect(strip(m.summary)).toEqual(strip(ref));
    expect(m.isLaw).toBe(true);
  });

  it('names a missing shard, a repeated shard, another search, a wrong range', async () => {
    const r = await shardReports(prop, whole, 4);
    const named = (xs: ShardReport[]) => xs.map((report, i) => ({ name: `s${i + 1}.json`, report }));
    const fails = (xs: { name: string; report: unknown }[], re: RegExp): void => {
      let err: unknown;
      try {
        mergeReports(xs);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(LayoutError);
      expect((err as LayoutError).kind).toBe('bad-request');
      expect((err as LayoutError).message).toMatch(re);
    };
    fails(named([r[0]!, r[1]!, r[3]!]), /missing shard 3\/4 \(candidates \[2000, 3000\)\)/);
    fails(named([r[0]!, r[1]!, r[1]!, r[2]!, r[3]!]), /shard 2\/4 is given twice: s2\.json and s3\.json/);
    const other = (await shardReports(prop, () => randomSource({ count: 4000, seed: 3, maxSize: 256, maxStride: 16 }), 4))[2]!;
    fails(named([r[0]!, r[1]!, other, r[3]!]), /s3\.json belongs to a different search than s1\.json/);
    const three = (await shardReports(prop, whole, 3))[2]!;
    fails(named([r[0]!, three]), /one number of shards/);
    fails(named([r[0]!, r[1]!, r[2]!, { ...r[3]!, shard: { ...r[3]!.shard, first: 2999 } }]), /should cover the candidates \[3000, 4000\)/);
    fails([{ name: 'x.json', report: { candidates: 3 } }], /x\.json is not a shard report/);
    fails([], /at least one/);
  });
});
