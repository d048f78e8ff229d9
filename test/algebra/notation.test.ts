/**
 * Notation (docs/protocol.md, "Notation"): canonical printing, whitespace, parse errors that
 * name the offset and what was expected.
 */
import { describe, expect, it } from 'vitest';
import { err, ok } from './_run.js';
import { isCompactB, parseL, phiB, showL, sizeB } from '../helpers/brute.js';
import { seededRuns } from '../helpers/seeds.js';
import { randomLayout } from '../helpers/arbitraries.js';
import { parseLayout } from '../../src/algebra/notation.js';
import { cutePrint, pycutePrint } from '../cute/_vocab.js';

describe('canonical printing', () => {
  it('prints decimal integers, no spaces, tuples in parentheses', () => {
    for (const [input, want] of <Array<[string, string]>>[
      ['( 3 , (3,2) ) : ( 3 , (1, 10) )', '(3,(3,2)):(3,(1,10))'],
      ['(512):(4)', '(512):(4)'],
      ['512:4', '512:4'],
      ['():()', '():()'],
      ['10 : 4', '10:4'],
      ['((4)):((2))', '((4)):((2))'],
      ['(007,08):(0,010)', '(7,8):(0,10)'],
      ['(((),()),1):(((),()),0)', '(((),()),1):(((),()),0)'],
    ]) {
      expect(ok('parse', input), input).toBe(want);
      // the independent parser/printer agrees
      expect(showL(parseL(input))).toBe(want);
    }
  });

  it('a 1-tuple keeps its parentheses: (512):(4) and 512:4 are different layouts', () => {
    expect(ok('rank', '(512):(4)')).toBe(1);
    expect(ok('depth', '(512):(4)')).toBe(1);
    expect(ok('depth', '512:4')).toBe(0);
    expect(ok('is_coalesced', '(512):(4)')).toBe(false);
    expect(ok('is_coalesced', '512:4')).toBe(true);
  });

  it('accepts any whitespace between tokens (tabs, newlines, Unicode spaces)', () => {
    const want = '(4,8):(1,4)';
    for (const t of ['\t(4,8):(1,4)\n', ' ( 4 , 8 ) : ( 1 , 4 ) ', '(4,\r\n8):(1,4)', '\u00a0(4,8)\u2003:(1,4)\u3000', '(4,8)\v:\f(1,4)']) {
      expect(ok('parse', t), JSON.stringify(t)).toBe(want);
    }
    expect(ok('coalesce', '((2,2),((3,3),(5,5))):((1,2),((4,12),(36,180)))', ' ( 4 , ( 9 , 25 ) ) ')).toBe('(4,(9,25)):(1,(4,36))');
    expect(ok('substitute', '(8,8,8):(1,64,8)', ' ( * , ( * , * ) ) ')).toBe('(8,(8,8)):(1,(64,8))');
  });

  it('profiles print with * and depth-0 profile is *', () => {
    expect(ok('profile', '7:1')).toBe('*');
    expect(ok('profile', '():()')).toBe('()');
    expect(ok('profile', '(3,(4,5),()):(1,(3,12),())')).toBe('(*,(*,*),())');
  });

  it('integers at 2^53−1 are exact', () => {
    expect(ok('parse', '9007199254740991:0')).toBe('9007199254740991:0');
    expect(ok('size', '9007199254740991:0')).toBe(9007199254740991);
    expect(ok('parse', '1:9007199254740991')).toBe('1:9007199254740991');
    expect(ok('eval', '(3,4):(1,3000000000000000)', 11)).toBe(2 + 3 * 3000000000000000);
  });
});

describe('parse errors name the offset and what was expected', () => {
  const cases: Array<[string, number, RegExp]> = [
    ['(4,8):(1,4', 10, /expected ',' or '\)'.*end of input/],
    ['', 0, /expected an integer or '\('/],
    ['   ', 3, /expected an integer or '\('/],
    ['4:', 2, /expected an integer or '\('/],
    ['(4,8) (1,4)', 6, /expected ':'/],
    ['(4,,8):(1,4)', 3, /expected an integer or '\('/],
    ['4.5:1', 1, /expected ':'.*'\.'/],
    ['+4:1', 0, /expected an integer or '\('/],
    ['(4,8):(1,4))', 11, /expected end of input/],
    ['(4,8):(1,4) x', 12, /expected end of input.*'x'/],
    ['1 0:4', 2, /expected ':'/],
    ['(4;8):(1,4)', 2, /expected ',' or '\)'/],
    ['4::1', 2, /expected an integer or '\('/],
    ['(4,8):(1,a)', 9, /expected an integer or '\('.*'a'/],
    ['4:1:2', 3, /expected end of input/],
  ];
  for (const [input, offset, what] of cases) {
    it(`${JSON.stringify(input)} → parse at offset ${offset}`, () => {
      const e = err('parse', input);
      expect(e.kind).toBe('parse');
      expect(e.message).toContain(`offset ${offset}`);
      expect(e.message).toMatch(what);
      // the offset points at the offending character (or the end)
      const rest = input.slice(offset);
      expect(offset <= input.length).toBe(true);
      if (offset < input.length) expect(rest.trimStart()).toBe(rest);
    });
  }

  it('profile and tuple arguments too', () => {
    const p = err('substitute', '(8,8,8):(1,64,8)', '(*,(*,*)');
    expect(p.kind).toBe('parse');
    expect(p.message).toContain('offset 8');
    const p2 = err('substitute', '(8,8,8):(1,64,8)', '(*,(*,4))');
    expect(p2.kind).toBe('parse');
    expect(p2.message).toContain('offset 6');
    const t = err('coalesce', '(4,8):(1,4)', '(4,8');
    expect(t.kind).toBe('parse');
    expect(t.message).toContain('offset 4');
    const t2 = err('coalesce', '(4,8):(1,4)', '(4,8):(1,4)');
    expect(t2.kind).toBe('parse');
    expect(t2.message).toContain('offset 5');
  });
});

describe('what CuTe and pycute print (docs/semantics.md §8.1)', () => {
  it('_N integers, a trailing comma in a 1-tuple, a bare shape or integer', () => {
    for (const [input, want] of <Array<[string, string]>>[
      ['(_4,_8):(_1,_4)', '(4,8):(1,4)'],
      ['_8:_0', '8:0'],
      ['(4,):(1,)', '(4):(1)'],
      ['((4,),(2, )):((1,),(4,))', '((4),(2)):((1),(4))'],
      ['(4,(2,3))', '(4,(2,3)):(1,(4,8))'],
      ['8', '8:1'],
      ['_8', '8:1'],
      ['(2,1,3)', '(2,1,3):(1,2,2)'],
      ['((2,2),(3,(2,2)))', '((2,2),(3,(2,2))):((1,2),(4,(12,24)))'],
      ['(_4,):(_1,)', '(4):(1)'],
      [' ( 4 , 8 ) ', '(4,8):(1,4)'],
      ['()', '():()'],
    ]) {
      expect(ok('parse', input), input).toBe(want);
    }
  });

  it('only a 1-tuple takes a trailing comma; a bare `_` is no integer', () => {
    for (const [input, offset] of <Array<[string, number]>>[
      ['(4,2,):(1,4,)', 5],
      ['(,)', 1],
      ['(4,,):(1,)', 3],
      ['(4,8)x', 5],
      ['(4,8) 5', 6],
      ['(_4,_):(_1,_4)', 4],
      ['_ 4:1', 0],
      ['(4,8):', 6],
    ]) {
      const e = err('parse', input);
      expect(e.kind, input).toBe('parse');
      expect(e.message, input).toContain(`offset ${offset}`);
    }
  });

  it('a bare shape is the compact column-major layout; CuTe and pycute prints round-trip', () => {
    seededRuns(0x81)(300, (rng) => {
      const l = randomLayout(rng, { maxLen: 5, maxShape: 6, maxStride: 40 });
      const text = showL(l);
      expect(ok('parse', cutePrint(text)), cutePrint(text)).toBe(text);
      expect(ok('parse', pycutePrint(text)), pycutePrint(text)).toBe(text);
      const shape = text.slice(0, text.indexOf(':'));
      const bare = parseLayout(shape);
      expect(showL(bare).startsWith(shape + ':'), shape).toBe(true);
      expect(isCompactB(bare), shape).toBe(true);
      for (let x = 0; x < sizeB(bare); x++) expect(phiB(bare, x), shape).toBe(x);
    });
  });
});
