/**
 * Shards of a plan and their merge (src/planner/shard.ts, docs/planner.md "Shards"): the merge of all n shard reports
 * is the unsharded plan, byte for byte as JSON, on tiles of powers of two and not, NVIDIA and AMD, descriptor
 * sides, n from 1 to more shards than candidates; the shards' ranges partition the enumeration, each family's
 * order kept; a missing, repeated, foreign or edited shard is refused with one bad-request naming it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { isLayoutError } from '../../src/algebra/errors.js';
import { isShardAnswer, loadPlanner, mergePlanArgs, planAnswer, planArgs } from '../../src/ops/planner.js';
import type { PlanShardReport } from '../../src/planner/shard.js';

beforeAll(async () => {
  await loadPlanner();
});

const LL = (reg: string, lane: string, shape: string): { ll: string } => ({
  ll: `DistributedLinearLayout(reg_bases=${reg}, lane_bases=${lane}, warp_bases=[], block_bases=[], shape=${shape})`,
});

/** Plans with a Triton entry, a non-power-of-two tile, AMD's waves, descriptor sides, one family. */
const CASES: Record<string, Record<string, unknown>> = {
  'Test16x16Bf16BlockedMma (sm80, Triton entry)': {
    tile: '(16,16)',
    dtype: 'bfloat16_t',
    arch: 'sm80',
    write: LL('[[0, 1], [0, 2], [0, 4]]', '[[0, 8], [1, 0], [2, 0], [4, 0], [8, 0]]', '[16, 16]'),
    read: LL('[[0, 1], [8, 0], [0, 8]]', '[[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]', '[16, 16]'),
  },
  '12×20 fp16 TV pair (not a power of two)': { tile: '(12,20)', dtype: 'half_t', write: '(60,4):(4,1)', read: '(60,4):(1,60)' },
  '32×32 fp32 on gfx942': { tile: '(32,32)', dtype: 'float', arch: 'gfx942', write: '(64,16):(16,1)', read: '(64,16):(1,64)' },
  '32×32 fp16 tma → wgmma K': { tile: '(32,32)', dtype: 'half_t', write: 'tma', read: { wgmma: 'K' }, top: 3 },
  '16×32 uint8 swizzle only, top 40': { tile: '(16,32)', dtype: 'uint8_t', write: '(32,16):(16,1)', read: '(32,16):(1,32)', families: ['swizzle'], top: 40 },
};

/** The numbers of shards each case is cut into: more shards than candidates (empty shards) on the small ones. */
const NS = (name: string, total: number): number[] => (name.startsWith('16×32') || name.startsWith('12×20') ? [1, 2, 7, total + 3] : [2, 5]);

/** The n shard reports of a request. */
function shardsOf(req: Record<string, unknown>, n: number): PlanShardReport[] {
  return Array.from({ length: n }, (_, i) => {
    const r = planAnswer({ ...req, shard: `${i + 1}/${n}` });
    if (!isShardAnswer(r)) throw new Error('a shard request answered a whole plan');
    return r;
  });
}

/** The error a call throws (a LayoutError expected). */
function errorOf(f: () => unknown): { kind: string; message: string } {
  try {
    f();
  } catch (e) {
    if (isLayoutError(e)) return { kind: e.kind, message: e.message };
    throw e;
  }
  throw new Error('no error');
}

describe('the merge of a plan’s shards is the plan', () => {
  for (const [name, req] of Object.entries(CASES)) {
    it(name, () => {
      const whole = JSON.stringify(planArgs(req));
      const total = shardsOf(req, 1)[0]!.shard.of;
      for (const n of NS(name, total)) {
        const shards = shardsOf(req, n);
        // the ranges partition [0, total) in order of k; each shard's front is in its range, ranked
        expect(shards.map((s) => [s.shard.first, s.shard.end])).toEqual(
          Array.from({ length: n }, (_, i) => [Math.floor((i * total) / n), Math.floor(((i + 1) * total) / n)]),
        );
        for (const s of shards) for (const x of s.front) expect(x.seq >= s.shard.first && x.seq < s.shard.end).toBe(true);
        // in a random order (the merge sorts them by k), through JSON as the CLI's files carry them
        const texts = shards.map((s) => JSON.stringify(s)).reverse();
        expect(JSON.stringify(mergePlanArgs(texts.map((t) => JSON.parse(t))))).toBe(whole);
      }
    });
  }

  it('searched sums to the whole plan’s per family, and a shard holding no family answers zeros', () => {
    const req = CASES['Test16x16Bf16BlockedMma (sm80, Triton entry)']!;
    const whole = planArgs(req);
    const shards = shardsOf(req, 5);
    for (const f of Object.keys(whole.searched)) expect(shards.reduce((a, s) => a + s.searched[f]!, 0)).toBe(whole.searched[f]);
    expect(shards[0]!.searched.padded).toBe(0);
    expect(shards[4]!.searched.swizzle).toBe(0);
  });
});

describe('the merge refuses what is not the shards of one plan, naming it', () => {
  const req = CASES['12×20 fp16 TV pair (not a power of two)']!;
  const three = (): PlanShardReport[] => shardsOf(req, 3).map((s) => JSON.parse(JSON.stringify(s)) as PlanShardReport);

  it('a missing shard', () => {
    const [a, , c] = three();
    expect(errorOf(() => mergePlanArgs([a, c]))).toEqual({ kind: 'bad-request', message: 'missing shard 2/3' });
  });

  it('a shard given twice', () => {
    const [a, b, c] = three();
    const e = errorOf(() => mergePlanArgs([a, b, b, c], ['a.json', 'b.json', 'b2.json', 'c.json']));
    expect(e).toEqual({ kind: 'bad-request', message: 'shard 2/3 is given twice: b.json and b2.json' });
  });

  it('a shard of another request, or of another number of shards', () => {
    const [a, b] = three();
    const other = shardsOf({ ...req, read: '(60,4):(4,1)' }, 3)[2]!;
    expect(errorOf(() => mergePlanArgs([a, b, other], ['a', 'b', 'c'])).message).toMatch(/^c belongs to a different plan than a/);
    const topped = shardsOf({ ...req, top: 2 }, 3)[2]!;
    expect(errorOf(() => mergePlanArgs([a, b, topped], ['a', 'b', 'c'])).message).toMatch(/^c belongs to a different plan/);
    const four = shardsOf(req, 4)[3]!;
    expect(errorOf(() => mergePlanArgs([a, b, four], ['a', 'b', 'd'])).message).toMatch(/^d is shard 4\/4, a is shard 1\/3: one plan, one number of shards/);
  });

  it('an edited range, an entry outside its range, a report of something else', () => {
    const [a, b, c] = three() as [PlanShardReport, PlanShardReport, PlanShardReport];
    const moved = { ...b, shard: { ...b.shard, first: b.shard.first + 1 } };
    expect(errorOf(() => mergePlanArgs([a, moved, c], ['a', 'b', 'c'])).message).toMatch(
      /^b: shard 2\/3 covers the candidates \[\d+, \d+\); .* should start at \d+/,
    );
    const stray = { ...b, front: [{ ...b.front[0]!, seq: a.shard.first }] };
    expect(errorOf(() => mergePlanArgs([a, stray, c], ['a', 'b', 'c'])).message).toMatch(/^b \(shard 2\/3\): a front entry is not one of the shard's/);
    const garbled = { ...b, front: [{ ...b.front[0]!, layout: '(4,8:(1' }] };
    expect(errorOf(() => mergePlanArgs([a, garbled, c]))).toEqual({ kind: 'bad-request', message: 'shard 2/3: the front entry "(4,8:(1" is not a layout' });
    expect(errorOf(() => mergePlanArgs([{ candidates: 3 }], ['x.json']))).toEqual({
      kind: 'bad-request',
      message: "x.json is not a plan's shard report (the output of layoutgpu plan … --shard k/n --json)",
    });
    expect(errorOf(() => mergePlanArgs([]))).toEqual({ kind: 'bad-request', message: 'merge needs at least one shard report' });
  });

  it("a bad 'shard' in the request is bad-request", () => {
    expect(errorOf(() => planAnswer({ ...req, shard: '4/3' })).kind).toBe('bad-request');
    expect(errorOf(() => planAnswer({ ...req, shard: 2 })).kind).toBe('bad-request');
    expect(errorOf(() => planArgs({ ...req, shard: '1/2' })).kind).toBe('bad-request');
  });
});

describe('the progress callback follows the enumeration', () => {
  it('done grows to the number of members (of the shard’s range for a shard), the last call (total, total)', () => {
    const req = CASES['16×32 uint8 swizzle only, top 40']!;
    const calls: [number, number][] = [];
    const whole = planArgs({ ...req, families: ['swizzle', 'padded'] }, { progress: (d, t) => void calls.push([d, t]) });
    const total = shardsOf({ ...req, families: ['swizzle', 'padded'] }, 1)[0]!.shard.of;
    expect(calls.length).toBeGreaterThan(2);
    expect(calls.at(-1)).toEqual([total, total]);
    for (let i = 1; i < calls.length; i++) expect(calls[i]![0] >= calls[i - 1]![0] && calls[i]![0] <= total && calls[i]![1] === total).toBe(true);
    // the callback changes nothing in the answer
    expect(JSON.stringify(whole)).toBe(JSON.stringify(planArgs({ ...req, families: ['swizzle', 'padded'] })));
    const part: [number, number][] = [];
    const s = planAnswer({ ...req, shard: '2/3' }, { progress: (d, t) => void part.push([d, t]) });
    if (!isShardAnswer(s)) throw new Error('a shard answered a whole plan');
    expect(part.at(-1)).toEqual([s.shard.end - s.shard.first, s.shard.end - s.shard.first]);
  });
});
