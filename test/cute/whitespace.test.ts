/**
 * One whitespace rule for every notation (docs/protocol.md, "Notation"): Unicode White_Space. The oracle is the
 * property's list itself (Unicode PropList.txt, White_Space: 25 code points); notation.ts's isWhiteSpace must
 * agree with it on every UTF-16 code unit, and each of the four parsers — layouts, tilers, slice coordinates and
 * composed layouts, which share notation.ts's Parser — must read any White_Space character between tokens as a
 * plain space and refuse, as a `parse` error, the characters that only look like space.
 */
import { describe, expect, it } from 'vitest';
import { formatLayout, isWhiteSpace, parseLayout, parseProfile, formatProfile } from '../../src/algebra/notation.js';
import { formatLayoutFunction, parseLayoutFunction } from '../../src/cute/composed.js';
import { parseSliceCoord } from '../../src/cute/slice.js';
import { formatTiler, parseTiler } from '../../src/cute/tiler.js';
import { kindOf } from '../helpers/kind.js';

/** Unicode White_Space (PropList.txt): U+0009..U+000D, U+0020, U+0085, U+00A0, U+1680, U+2000..U+200A, U+2028,
 *  U+2029, U+202F, U+205F, U+3000 */
const WHITE_SPACE = [
  ...[0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680],
  ...Array.from({ length: 11 }, (_, i) => 0x2000 + i),
  ...[0x2028, 0x2029, 0x202f, 0x205f, 0x3000],
];
/** not White_Space, though some look or once counted as space: the byte-order mark (JavaScript's \s has it), zero
 *  width space, Mongolian vowel separator (White_Space before Unicode 6.3), NUL, soft hyphen, word joiner */
const NOT_WHITE_SPACE = [0xfeff, 0x200b, 0x180e, 0x00, 0xad, 0x2060];

/** each parser, a text as tokens, and its answer printed canonically */
const PARSERS: readonly { name: string; tokens: readonly string[]; read: (text: string) => string }[] = [
  { name: 'layout', tokens: '( 4 , ( 2 , 3 ) ) : ( 1 , ( 4 , 8 ) )'.split(' '), read: (t) => formatLayout(parseLayout(t)) },
  { name: 'profile', tokens: '( * , ( * , * ) )'.split(' '), read: (t) => formatProfile(parseProfile(t)) },
  { name: 'tiler', tokens: '< 3 : 4 , _ , ( 2 , 2 ) , ( 4 , ) >'.split(' '), read: (t) => formatTiler(parseTiler(t)) },
  { name: 'slice coordinate', tokens: '( _ , ( 1 , _ ) , ( 2 , ) )'.split(' '), read: (t) => JSON.stringify(parseSliceCoord(t)) },
  {
    name: 'composed layout',
    tokens: 'Sw < 3 , 3 , 3 > o 8 o ( 8 , 8 ) : ( 8 , 1 )'.split(' '),
    read: (t) => formatLayoutFunction(parseLayoutFunction(t)),
  },
  { name: 'composed layout (pycute)', tokens: 'SW_3_4_3 o ( 8 , 8 ) : ( 8 , 1 )'.split(' '), read: (t) => formatLayoutFunction(parseLayoutFunction(t)) },
];

const hex = (c: number): string => `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
describe('one whitespace rule: Unicode White_Space', () => {
  it('isWhiteSpace is exactly White_Space on every UTF-16 code unit', () => {
    const want = new Set(WHITE_SPACE);
    const wrong: string[] = [];
    for (let c = 0; c <= 0xffff; c++) if (isWhiteSpace(c) !== want.has(c)) wrong.push(hex(c));
    expect(wrong).toEqual([]);
    expect(isWhiteSpace(Number.NaN)).toBe(false); // past the end of a text
  });

  for (const { name, tokens, read } of PARSERS) {
    it(`${name}: every White_Space character reads as a space, before, between and after the tokens`, () => {
      const plain = read(tokens.join(' '));
      for (const c of WHITE_SPACE) {
        const w = String.fromCharCode(c);
        expect(read(w + tokens.join(w) + w), hex(c)).toBe(plain);
      }
    });

    it(`${name}: no white space at all reads the same (white space between tokens is optional, \`o\` included)`, () => {
      expect(read(tokens.join(''))).toBe(read(tokens.join(' ')));
    });

    it(`${name}: a character that only looks like space is a parse error`, () => {
      for (const c of NOT_WHITE_SPACE) {
        const w = String.fromCharCode(c);
        expect(
          kindOf(() => read(tokens.join(` ${w} `))),
          hex(c),
        ).toBe('parse');
      }
    });
  }
});

describe("a composed layout's `o` needs no white space around it (issue 25 item 3)", () => {
  const read = (t: string): string => formatLayoutFunction(parseLayoutFunction(t));
  it('reads like its spaced form', () => {
    for (const t of ['Sw<3,3,3> o 32 o (8,64):(64,1)', 'Sw<2,4,-4> o 46 o 16:1', 'Sw<3,3,3> o _0 o (_8,_64):(_64,_1)', 'SW_3_4_3 o (8,8):(8,1)']) {
      expect(read(t.replaceAll(' ', '')), t).toBe(read(t));
    }
    expect(read('Sw<3,3,3>o32o(8,64):(64,1)')).toBe('Sw<3,3,3> o 32 o (8,64):(64,1)');
    expect(read('Sw<2,4,-4>o46o16:1')).toBe('Sw<2,4,-4> o 46 o 16:1');
  });
  it('what is not `o` is still a parse error, naming its offset', () => {
    for (const t of ['Sw<3,3,3>x32', 'Sw<3,3,3>oo32:1', 'Sw<3,3,3>o32o', 'Sw<3,3,3>o32p(8,64):(64,1)', 'Sw<3,3,3>O(8,64):(64,1)']) {
      expect(
        kindOf(() => read(t)),
        t,
      ).toBe('parse');
    }
    expect(() => read('Sw<3,3,3>x32')).toThrow(/expected 'o' at offset 9/);
  });
});
