/**
 * CuTe's by-mode composition and division (docs/semantics.md §8.3): the examples of docs/semantics.md, a pasted CuTe
 * print of each, and properties against brute force: each mode of a by-mode result is its
 * definition pointwise (exhaustive composites), and every element of a zipped/tiled/flat
 * divide maps to the offset of the logical_divide element with the same (tile, rest).
 */
import { describe, expect, it } from 'vitest';
import { parseLayout } from '../../src/algebra/notation.js';
import { composeByMode, flatDivide, logicalDivideByMode, tiledDivide, zippedDivide } from '../../src/cute/divide.js';
import { divideB, sameFunction, searchComposite, type BL } from '../helpers/brute.js';
import { err, ok } from '../algebra/_run.js';
import { cutePrint, modeB, rankOf } from './_vocab.js';
import { checkByMode, type ByMode } from './_bymode.js';
import { checkForms } from './_forms.js';

describe('docs/semantics.md §8.3 examples (and the same with CuTe-printed input)', () => {
  const cases: Array<[string, string, string, string]> = [
    ['compose', '(12,(4,8)):(59,(13,1))', '<3:4,8:2>', '(3,(2,4)):(236,(26,1))'],
    ['compose', '(12,(4,8)):(59,(13,1))', '(3,8)', '(3,(4,2)):(59,(13,1))'],
    ['compose', '(12,(4,8)):(59,(13,1))', '<_,8>', '(12,(4,2)):(59,(13,1))'],
    ['logical_divide', '(128,64):(64,1)', '(32,16)', '((32,4),(16,4)):((64,2048),(1,16))'],
    ['logical_divide', '(128,64):(64,1)', '<32,_>', '((32,4),64):((64,2048),1)'],
    ['zipped_divide', '(12,32):(1,12)', '(4,8)', '((4,8),(3,4)):((1,12),(4,96))'],
    ['zipped_divide', '(128,64):(64,1)', '(32,16)', '((32,16),(4,4)):((64,1),(2048,16))'],
    ['tiled_divide', '(128,64):(64,1)', '(32,16)', '((32,16),4,4):((64,1),2048,16)'],
    ['tiled_divide', '(8,6):(1,8)', '4:2', '(4,2,6):(2,1,8)'],
    ['flat_divide', '(128,64):(64,1)', '(32,16)', '(32,16,4,4):(64,1,2048,16)'],
    ['logical_divide', '(4,8):(1,4)', '(2,2):(1,4)', '((2,2),(2,4)):((1,4),(2,8))'],
  ];
  for (const [name, a, t, want] of cases) {
    it(`${name}(${a}, ${t}) = ${want}`, () => {
      expect(ok(name, a, t)).toBe(want);
      expect(ok(name, cutePrint(a), cutePrint(t))).toBe(want);
      // the answer, pasted back as CuTe prints it, is the same layout
      expect(ok('parse', cutePrint(want))).toBe(want);
    });
  }

  it('compose with a layout tiler is the one-dimensional composite (§5)', () => {
    const c = searchComposite(parseLayout('(12,(4,8)):(59,(13,1))'), parseLayout('(3,8):(1,3)'));
    expect(c.exists).toBe(true);
    if (c.exists) expect(sameFunction(parseLayout(ok('compose', '(12,(4,8)):(59,(13,1))', '(3,8):(1,3)') as string), c.c)).toBe(true);
  });

  it("flat_divide by a one-mode tiler whose tile is a (2,2) layout: per top-level mode as CuTe's", () => {
    // CuTe prints (((2,2)),1,6):(((1,2)),0,4); the top-level modes have the same functions
    const got = parseLayout(ok('flat_divide', '(4,6):(1,4)', '<(2,2):(1,2)>') as string);
    const cute = parseLayout('(((2,2)),1,6):(((1,2)),0,4)');
    expect(rankOf(got)).toBe(3);
    for (let i = 1; i <= 3; i++) expect(sameFunction(modeB(got, i), modeB(cute, i)), `mode ${i}`).toBe(true);
  });

  it('a whole tiler `_` leaves the layout; zipped needs rank 2 there', () => {
    expect(ok('logical_divide', '(4,8):(1,4)', '_')).toBe('(4,8):(1,4)');
    expect(ok('compose', '(4,8):(1,4)', '_')).toBe('(4,8):(1,4)');
    expect(ok('zipped_divide', '(4,8):(1,4)', '_')).toBe('(4,8):(1,4)');
    expect(ok('tiled_divide', '(4,(2,4)):(1,(4,8))', '_')).toBe('(4,2,4):(1,4,8)');
    const e = err('zipped_divide', '(4,8,2):(1,4,32)', '_');
    expect(e.kind).toBe('domain');
    expect(e.message).toMatch(/rank 3/);
    expect(err('zipped_divide', '(4,8):(1,4)', '<_>').kind).toBe('domain');
  });

  it('a nested tiler splits recursively (zip2_by)', () => {
    // <<2,2>,4> on ((4,4),8): mode 1 by mode too
    const a = '((4,4),8):((1,4),16)';
    expect(ok('logical_divide', a, '<<2,2>,4>')).toBe('(((2,2),(2,2)),(4,2)):(((1,2),(4,8)),(16,64))');
    expect(ok('zipped_divide', a, '<<2,2>,4>')).toBe('(((2,2),4),((2,2),2)):(((1,4),16),((2,8),64))');
    expect(ok('zipped_divide', a, '((2,2),4)')).toBe(ok('zipped_divide', a, '<<2,2>,4>'));
  });
});

describe('bad input', () => {
  it('a tiler with more modes than the layout: domain naming both counts', () => {
    for (const name of ['compose', 'logical_divide', 'logical_product', 'zipped_divide', 'tiled_divide', 'flat_divide']) {
      const e = err(name, '(128,64):(64,1)', '(32,16,2)');
      expect(e.kind, name).toBe('domain');
      expect(e.message, name).toMatch(/3 modes.*rank 2/);
      expect(e.message, name).toContain(name);
    }
    const n = err('logical_divide', '((4,4),8):((1,4),16)', '<<2,2,2>,4>');
    expect(n.kind).toBe('domain');
    expect(n.message).toMatch(/3 modes.*rank 2.*mode 1/);
  });

  it('a tile whose span does not divide its mode: not-complementable (CuTe would round up)', () => {
    expect(err('logical_divide', '(12,8):(1,12)', '(8,4)').kind).toBe('not-complementable');
    expect(err('zipped_divide', '12:1', '8:1').kind).toBe('not-complementable');
  });

  it("where CuTe's composition is wrong: not-composable, never CuTe's layout", () => {
    // (2,2):(1,10) ∘ (2,2):(1,1) has no composite (docs/semantics.md §5); by mode as mode 1 of a rank-2 layout
    expect(err('compose', '((2,2),3):((1,10),100)', '<(2,2):(1,1)>').kind).toBe('not-composable');
  });

  it('text that is neither a tiler nor a layout: parse; a tiler where a layout is needed: domain', () => {
    expect(err('zipped_divide', '(4,8):(1,4)', '<4,').kind).toBe('parse');
    expect(err('zipped_divide', '(4,8):(1,4)', '(4,8):(1,4').kind).toBe('parse');
    expect(err('zipped_divide', '(4,8):(1,4)', '(_4,_):(_1,_4)').kind).toBe('parse');
    expect(err('zipped_divide', '<4,8>', '2').kind).toBe('domain');
    expect(err('zipped_divide', '_', '2').message).toMatch(/a tiler, not a layout/);
    expect(err('zipped_divide', '(4,8):(1,4)', 4).kind).toBe('bad-request');
  });
});

/** The composite of two one-dimensional layouts by exhaustive search, null when there is none. */
const compositeB = (x: BL, y: BL): BL | null => {
  const c = searchComposite(x, y);
  return c.exists ? c.c : null;
};

describe('properties against brute force', () => {
  it('logical_divide by a tiler: each mode is its definition pointwise, or the failure is real', () => {
    const op: ByMode = { name: 'logical_divide', lib: logicalDivideByMode, brute: divideB, keep: true, failures: ['not-complementable', 'not-composable'] };
    expect(checkByMode(op, 150)).toBeGreaterThan(60);
  });

  it('compose by a tiler: modes 1..k are the composites pointwise, the rest dropped', () => {
    checkByMode({ name: 'compose', lib: composeByMode, brute: compositeB, keep: false, failures: ['not-composable'] }, 120);
  });

  it('zipped/tiled/flat_divide: every element maps where logical_divide maps the same (tile, rest)', () => {
    const forms = { name: 'logical_divide', logical: logicalDivideByMode, zipped: zippedDivide, tiled: tiledDivide, flat: flatDivide };
    expect(checkForms(forms, 150)).toBeGreaterThan(60);
  });
});
