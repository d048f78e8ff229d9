/**
 * The test kit shrinks: a planted algebra bug, found by a property over the kit's one arbitrary (`layouts`) and by a
 * seeded loop over the same arbitrary (`seededRuns` + `randomLayout`), is reported as a small counterexample.
 * If shrinking breaks (a generator that draws outside fast-check, an rng that is not shrinkable), these fail.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coalesce } from '../../src/algebra/coalesce.js';
import type { Layout } from '../../src/algebra/layout.js';
import { layouts, randomLayout } from './arbitraries.js';
import { depthB, entriesB, sameFunction, showL, sizeB, type BL } from './brute.js';
import { seededRuns } from './seeds.js';

/** coalesce with a planted bug: wrong (one stride off) on layouts of size > 8 with a stride ≥ 5 */
function plantedCoalesce(l: BL): BL {
  const c = coalesce(l as Layout) as BL;
  const strides = entriesB(l.stride);
  if (sizeB(l) <= 8 || !strides.some((d) => d >= 5)) return c;
  const s = entriesB(c.shape);
  const d = entriesB(c.stride);
  return { shape: s, stride: d.map((x, i) => (i === 0 ? x + 1 : x)) };
}

const holds = (l: BL): boolean => sameFunction(plantedCoalesce(l), l);

/** the smallest counterexamples: size just over 8, one stride ≥ 5, at most two flat entries, no nesting to speak of */
function expectSmall(l: BL): void {
  const tag = showL(l);
  expect(holds(l), tag).toBe(false);
  expect(entriesB(l.shape).length, tag).toBeLessThanOrEqual(2);
  expect(sizeB(l), tag).toBeLessThanOrEqual(12);
  expect(depthB(l.shape), tag).toBeLessThanOrEqual(1);
  expect(Math.max(...entriesB(l.stride)), tag).toBeLessThanOrEqual(5);
}

describe('the kit shrinks a planted bug to a small counterexample', () => {
  it('a fast-check property over layouts()', () => {
    const r = fc.check(fc.property(layouts({ maxLen: 5, maxShape: 6, maxStride: 24, maxSize: 4096 }), holds), { seed: 0x5471, numRuns: 500 });
    expect(r.failed).toBe(true);
    expectSmall(r.counterexample![0]);
  });

  it('a seeded loop over randomLayout, with the shrunk layout in the report', () => {
    let last: BL | null = null;
    let message = '';
    try {
      seededRuns(0x5472)(500, (rng) => {
        const l = randomLayout(rng, { maxLen: 5, maxShape: 6, maxStride: 24 });
        // draws of the rng itself, between the layouts: they shrink toward 0 and must not stop the layout's shrinking
        const extra = Math.floor(rng() * 100);
        if (!holds(l) && extra >= 0) {
          last = l;
          throw new Error(`planted: ${showL(l)}`);
        }
      });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(last, 'the planted bug must be found').not.toBeNull();
    expectSmall(last!);
    // fast-check's report prints the shrunk draw
    expect(message).toContain(JSON.stringify(last!.shape));
  });

  it('the kit without a planted bug: coalesce keeps the function on every layout it draws', () => {
    fc.assert(
      fc.property(layouts({ maxLen: 5, maxSize: 4096 }), (l) => sameFunction(coalesce(l as Layout) as BL, l)),
      { seed: 0x5473, numRuns: 300 },
    );
  });
});
