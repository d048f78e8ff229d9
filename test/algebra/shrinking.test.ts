/**
 * The algebra's core properties over fast-check's arbitraries of test/helpers/arbitraries.ts, checked against the
 * brute-force oracle (test/helpers/brute.ts): a failure shrinks to a small counterexample (fewer entries, smaller
 * shapes and strides, shallower nesting) and fast-check reports it, where the seeded suites name a seed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coalesce } from '../../src/algebra/coalesce.js';
import { compose } from '../../src/algebra/compose.js';
import type { Layout } from '../../src/algebra/layout.js';
import { logicalDivideByMode } from '../../src/cute/divide.js';
import { parseTiler } from '../../src/cute/tiler.js';
import { layouts, tilers } from '../helpers/arbitraries.js';
import { checkComposite, coalB, cosizeB, layoutEq, sameFunction, searchComposite, showL, sizeB, valuesB, type BL } from '../helpers/brute.js';
import { kindOf } from '../helpers/kind.js';
import { runs } from '../helpers/seeds.js';

const lib = (l: BL): Layout => l as Layout;

describe('properties that shrink to small counterexamples', () => {
  it('coalesce: the brute coalescing, with the same function', () => {
    fc.assert(
      fc.property(layouts({ minLen: 1, maxSize: 1 << 16 }), (l) => {
        const c = coalesce(lib(l)) as BL;
        expect(layoutEq(c, coalB(l)), `coal(${showL(l)}) = ${showL(c)}`).toBe(true);
        expect(sameFunction(c, l)).toBe(true);
      }),
      { numRuns: runs(400), seed: 0xc0a1 },
    );
  });

  it('compose: a composite meets Def. 2.3.7.1, and not-composable only where exhaustive search finds none', () => {
    let answered = 0;
    fc.assert(
      fc.property(layouts({ maxLen: 3, maxShape: 6, maxStride: 12, maxSize: 64 }), layouts({ maxLen: 3, maxShape: 4, maxStride: 8, maxSize: 32 }), (b, a) => {
        fc.pre(cosizeB(a) <= sizeB(b));
        const tag = `${showL(b)} ∘ ${showL(a)}`;
        let c: Layout | undefined;
        const kind = kindOf(() => (c = compose(lib(b), lib(a))));
        if (kind === 'ok') {
          answered++;
          expect(checkComposite(b, a, c as BL), `${tag} = ${showL(c as BL)}`).toEqual({ ok: true });
        } else {
          expect(kind, tag).toBe('not-composable');
          expect(searchComposite(b, a).exists, tag).toBe(false);
        }
      }),
      { numRuns: runs(300), seed: 0xc0b2 },
    );
    expect(answered).toBeGreaterThan(50);
  });

  it('logical_divide by a tiler: A′s values, rearranged (a bijection of its domain), or a failure of its kind', () => {
    const pair = layouts({ maxLen: 4, maxShape: 6, maxStride: 16, maxSize: 512 }).chain((a) => tilers(a).map((t) => ({ a, t })));
    let answered = 0;
    fc.assert(
      fc.property(pair, ({ a, t }) => {
        const tag = `logical_divide(${showL(a)}, ${t})`;
        let r: Layout | undefined;
        const kind = kindOf(() => (r = logicalDivideByMode(lib(a), parseTiler(t))));
        if (kind !== 'ok') {
          expect(['domain', 'not-complementable', 'not-composable'], `${tag}: ${kind}`).toContain(kind);
          return;
        }
        answered++;
        const got = valuesB(r as BL).sort((x, y) => x - y);
        const want = valuesB(a).sort((x, y) => x - y);
        expect(got, tag).toEqual(want);
      }),
      { numRuns: runs(300), seed: 0xc0c3 },
    );
    expect(answered).toBeGreaterThan(30);
  });
});
