/**
 * digest_range of a swizzled layout by the swizzle's period (src/engine/swizzle-digest.ts; issue
 * 18, item 10): count, exact sum, min and max against enumeration on random composed layouts and
 * random ranges; and past 2^36 indices (the reproducer: Sw<3,3,3> o 2^40:1 over [0, 2^40)) against
 * the definition, where Sw permutes every aligned block of 512 offsets.
 */
import { describe, expect, it } from 'vitest';
import { LayoutError } from '../../src/algebra/errors.js';
import { size } from '../../src/algebra/layout.js';
import { parseLayout } from '../../src/algebra/notation.js';
import { makeComposed, phiComposed, type ComposedLayout } from '../../src/cute/composed.js';
import { makeSwizzle } from '../../src/cute/swizzle.js';
import { CpuBackend } from '../../src/engine/cpu.js';
import { makeContext } from '../../src/cli/context.js';
import { runOp } from '../../src/ops/table.js';
import { prepare } from '../../src/engine/prep.js';
import { swizzledDigest } from '../../src/engine/swizzle-digest.js';
import { randInt } from '../helpers/brute.js';
import { randomLayout } from '../helpers/arbitraries.js';
import { seededRuns } from '../helpers/seeds.js';
import { lib } from '../cute/_seeds.js';

const forSeeds = seededRuns(0x5eed1810);

function brute(c: ComposedLayout, lo: number, hi: number): { sum: bigint; min: number; max: number } {
  let sum = 0n;
  let min = Infinity;
  let max = -Infinity;
  for (let x = lo; x < hi; x++) {
    const v = phiComposed(c, x);
    sum += BigInt(v);
    min = Math.min(min, v);
    max = Math.max(max, v);
  }
  return { sum, min, max };
}

describe('the digest of a swizzled layout by the swizzle’s period', () => {
  it('equals enumeration on random composed layouts and ranges', () => {
    let moved = 0;
    forSeeds(400, (rng) => {
      const inner = lib(randomLayout(rng, { maxLen: 4, maxShape: 8, maxStride: 64 }));
      const bits = randInt(rng, 1, 3);
      let c: ComposedLayout;
      try {
        c = makeComposed(
          makeSwizzle(bits, randInt(rng, 0, 4), (rng() < 0.4 ? -1 : 1) * randInt(rng, bits, bits + 3)),
          rng() < 0.5 ? 0 : randInt(rng, 0, 40),
          inner,
        );
      } catch (e) {
        if (e instanceof LayoutError) return;
        throw e;
      }
      const n = size(inner);
      const lo = randInt(rng, 0, n - 1);
      const hi = randInt(rng, lo + 1, n);
      const got = swizzledDigest(prepare(c), lo, hi);
      expect(got, `${JSON.stringify(c)} [${lo}, ${hi})`).toEqual(brute(c, lo, hi));
      if (got!.sum !== brute({ ...c, swizzle: makeSwizzle(0, 0, 0) }, lo, hi).sum) moved++;
    });
    expect(moved).toBeGreaterThan(50);
  });

  it('past 2^36 indices: Sw<3,3,3> o 2^40:1 over [0, 2^40), and a range inside it (repro 12)', async () => {
    const c = makeComposed(makeSwizzle(3, 3, 3), 0, parseLayout('1099511627776:1'));
    const N = 2 ** 40;
    const cpu = new CpuBackend();
    // Sw permutes every aligned block of 512: over whole blocks the digest is that of x itself
    expect(await cpu.digestRange(c, 0, N)).toEqual({ count: N, sum: (BigInt(N) * BigInt(N - 1)) / 2n, min: 0, max: N - 1 });
    // a range that starts and ends inside blocks: whole blocks in closed form, the two ends by enumeration
    const lo = 2 ** 20 + 77;
    const hi = N - 300;
    const inner = (a: number, b: number): bigint => (BigInt(b - a) * BigInt(a + b - 1)) / 2n;
    const a1 = Math.ceil(lo / 512) * 512;
    const b1 = Math.floor(hi / 512) * 512;
    const ends = brute(c, lo, a1);
    const tail = brute(c, b1, hi);
    const d = await cpu.digestRange(c, lo, hi);
    expect(d.count).toBe(hi - lo);
    expect(d.sum).toBe(ends.sum + inner(a1, b1) + tail.sum);
    expect(d.min).toBe(Math.min(ends.min, a1));
    expect(d.max).toBe(Math.max(tail.max, b1 - 1));
  });

  it('an empty range computes no value of Φ: answered for a layout whose offsets pass 2^53, which any other range refuses (repro 12)', async () => {
    const ctx = makeContext('cpu');
    const far = 'Sw<4,33,-30> o ((8,3)):((3486784401,2147483647))';
    expect(await runOp('eval_range', [far, 24, 24], ctx)).toEqual([]);
    expect(await runOp('digest_range', [far, 5, 5], ctx)).toEqual({ count: 0, sum: '0', min: null, max: null });
    await expect(runOp('eval_range', [far, 0, 2], ctx)).rejects.toMatchObject({ kind: 'overflow' });
    await expect(runOp('digest_range', [far, 0, 24], ctx)).rejects.toMatchObject({ kind: 'overflow' });
    // a range past the size is still domain, an ordinary layout still answers
    await expect(runOp('eval_range', [far, 0, 25], ctx)).rejects.toMatchObject({ kind: 'domain' });
    expect(await runOp('eval_range', ['Sw<3,3,3> o (8,64):(64,1)', 0, 4], ctx)).toEqual([0, 72, 144, 216]);
    await ctx.dispose();
  });
});
