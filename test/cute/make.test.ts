/**
 * make_layout (docs/semantics.md §8.4): column-major, row-major and ordered compact layouts, against their
 * definitions by brute force (compact; col-major is the identity function; ordered: the
 * entries sorted by order form a column-major layout).
 */
import { describe, expect, it } from 'vitest';
import { makeOrderedLayout } from '../../src/cute/make.js';
import { entriesB, isCompactB, phiB, pick, showT, sizeB, type Tup } from '../helpers/brute.js';
import { err, ok } from '../algebra/_run.js';
import { drawFrom, shapes } from '../helpers/arbitraries.js';
import { cutePrint, forSeeds } from './_vocab.js';

describe('docs/semantics.md §8.4 examples', () => {
  const cases: Array<[string[], string]> = [
    [['(4,(2,3))'], '(4,(2,3)):(1,(4,8))'],
    [['(4,8)', 'row'], '(4,8):(8,1)'],
    [['(4,8)', 'col'], '(4,8):(1,4)'],
    [['(2,2,2,2)', '(0,2,3,1)'], '(2,2,2,2):(1,4,8,2)'],
    [['(2,1,3)'], '(2,1,3):(1,2,2)'],
    [['((2,3),4)', 'row'], '((2,3),4):((12,4),1)'],
    [['(2,3,4,5)', '(2,67,42,50)'], '(2,3,4,5):(1,40,2,8)'],
    [['8'], '8:1'],
    [['()'], '():()'],
  ];
  for (const [args, want] of cases) {
    it(`make_layout(${args.join(', ')}) = ${want}`, () => {
      expect(ok('make_layout', ...args)).toBe(want);
      expect(ok('make_layout', cutePrint(args[0]!), ...args.slice(1))).toBe(want);
    });
  }

  it('equal order entries, an incongruent order, a bad order value', () => {
    const e = err('make_layout', '(2,3,4)', '(1,0,1)');
    expect(e.kind).toBe('domain');
    expect(e.message).toMatch(/equal entries/);
    expect(err('make_layout', '(2,3,4)', '(1,0)').kind).toBe('domain');
    expect(err('make_layout', '(2,3,4)', 'diagonal').kind).toBe('parse');
    expect(err('make_layout', '(2,3,4)', 3).kind).toBe('bad-request');
    expect(err('make_layout', '(2,0)').kind).toBe('domain');
    expect(err('make_layout', '(4,8):(1,4)').kind).toBe('parse');
  });
});

/** a shape of the kit: up to 4 entries of 1 … 5, nested up to depth 2 */
const randomShape = (rng: () => number): Tup => drawFrom(rng, shapes({ minLen: 1, maxLen: 4, maxShape: 5, maxDepth: 2 }));

describe('properties against brute force', () => {
  it('col, row and ordered layouts are compact with the strides their order gives', () => {
    forSeeds(200, (rng) => {
      const s = randomShape(rng);
      const es = entriesB(s);
      const col = makeOrderedLayout(s, 'col');
      const tag = showT(s);
      expect(isCompactB(col), tag).toBe(true);
      for (let x = 0; x < sizeB(col); x++) expect(phiB(col, x), tag).toBe(x);
      const row = makeOrderedLayout(s, 'row');
      expect(isCompactB(row), tag).toBe(true);
      // row-major: the entries reversed are column-major
      const rs = entriesB(row.shape).reverse();
      const rd = entriesB(row.stride).reverse();
      for (let x = 0; x < sizeB(row); x++) expect(phiB({ shape: rs, stride: rd }, x), tag).toBe(x);
      // ordered by a random permutation of distinct (possibly negative, gapped) integers
      let next = -3;
      const ords = es.map(() => (next += pick(rng, [1, 2, 7]))).sort(() => rng() - 0.5);
      let j = 0;
      const o = (function refold(t: Tup): Tup {
        return typeof t === 'number' ? ords[j++]! : t.map(refold);
      })(s);
      const ord = makeOrderedLayout(s, o);
      expect(isCompactB(ord), `${tag} by ${showT(o)}`).toBe(true);
      const idx = es.map((_, i) => i).sort((p, q) => ords[p]! - ords[q]!);
      const ss = idx.map((i) => es[i]!);
      const sd = idx.map((i) => entriesB(ord.stride)[i]!);
      for (let x = 0; x < sizeB(ord); x++) expect(phiB({ shape: ss, stride: sd }, x), `${tag} by ${showT(o)}`).toBe(x);
    });
  });
});
