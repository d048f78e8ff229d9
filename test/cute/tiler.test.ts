/**
 * Tilers (docs/semantics.md §8.2): the forms accepted, canonical printing and its round trip, CuTe's print
 * of a tile, and the errors: a tiler where a layout is needed is `domain`, text that is
 * neither is `parse` (naming the offset).
 */
import { describe, expect, it } from 'vitest';
import { LayoutError } from '../../src/algebra/errors.js';
import { formatTiler, parseLayoutArg, parseTiler } from '../../src/cute/tiler.js';
import { err } from '../algebra/_run.js';
import { cutePrint, forSeeds, randomTileable, randomTiler, tilerText } from './_vocab.js';

const fails = (f: () => unknown): LayoutError => {
  try {
    f();
  } catch (e) {
    if (e instanceof LayoutError) return e;
    throw e;
  }
  throw new Error('did not fail');
};

describe('parse and print', () => {
  const cases: Array<[string, string]> = [
    ['<3:4,8:1>', '<3:4,8:1>'],
    ['_', '_'],
    ['8', '8:1'],
    ['(32,16)', '<32:1,16:1>'],
    ['((4,4),8)', '<<4:1,4:1>,8:1>'],
    ['(32,16):(1,32)', '(32,16):(1,32)'],
    ['<_,8>', '<_,8:1>'],
    ['<(2,2):(1,2)>', '<(2,2):(1,2)>'],
    ['< 3 : 4 , < 2 , _ > >', '<3:4,<2:1,_>>'],
    ['<>', '<>'],
    ['(_32,_16)', '<32:1,16:1>'],
    ['(_3:_4,_8:_1)', '<3:4,8:1>'],
    ['(32,_)', '<32:1,_>'],
    ['(4,)', '<4:1>'],
    ['4:2', '4:2'],
  ];
  for (const [text, want] of cases) {
    it(`${JSON.stringify(text)} → ${want}`, () => {
      const t = parseTiler(text);
      expect(formatTiler(t)).toBe(want);
      expect(formatTiler(parseTiler(want))).toBe(want);
      expect(formatTiler(parseTiler(cutePrint(want)))).toBe(want);
    });
  }

  it('random tilers round-trip through their canonical print', () => {
    forSeeds(200, (rng) => {
      const t = randomTiler(rng, randomTileable(rng));
      const text = tilerText(t, rng);
      const p = formatTiler(parseTiler(text));
      expect(formatTiler(parseTiler(p)), text).toBe(p);
      expect(formatTiler(parseTiler(cutePrint(p))), text).toBe(p);
      expect(p, text).toBe(tilerText(t));
    });
  });
});

describe('errors', () => {
  it('text that is neither: parse, naming the offset', () => {
    for (const [text, offset] of [
      ['<4,', 3],
      ['<4;8>', 2],
      ['(4,8):(1,4', 10],
      ['(_4,_):(_1,_4)', 6],
      ['<4>>', 3],
      ['', 0],
      ['(4,2,)', 5],
      ['__', 1],
    ] as const) {
      const e = fails(() => parseTiler(text, 'T'));
      expect(e.kind, text).toBe('parse');
      expect(e.message, text).toContain(`offset ${offset}`);
    }
  });

  it('a bad layout inside a tiler: domain', () => {
    expect(fails(() => parseTiler('<0,4>')).kind).toBe('domain');
    expect(fails(() => parseTiler('<(2,2):(1)>')).kind).toBe('domain');
  });

  it('a tiler where a layout is needed: domain; neither: parse', () => {
    for (const t of ['<4>', '_', '(32,_)', '(3:4,8:1)', '<>']) {
      const e = fails(() => parseLayoutArg(t, 'L'));
      expect(e.kind, t).toBe('domain');
      expect(e.message, t).toMatch(/a tiler, not a layout/);
    }
    expect(err('size', '<4>').kind).toBe('domain');
    expect(err('size', '(_4,_):(_1,_4)').kind).toBe('parse');
    expect(err('size', '<4').kind).toBe('parse');
  });

  it('a nesting bomb of brackets is an error, not a crash', () => {
    for (const t of ['<'.repeat(100000), '('.repeat(100000), '(<'.repeat(50000)]) {
      expect(fails(() => parseTiler(t)).kind).toBe('parse');
    }
  });
});
