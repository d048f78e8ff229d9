/**
 * slice and dice (docs/semantics.md §8.5): the examples; on random layouts and random coordinates, the
 * kept modes are exactly those at the `_` (slice) or integer (dice) positions, and, by
 * brute force over every index of L, the indices that agree with C are mapped by L to
 * offset(C) + Φ_slice (slice) or, with `_` fixed at 0, to Φ_dice (dice), in order.
 */
import { describe, expect, it } from 'vitest';
import { err, ok } from '../algebra/_run.js';
import { dice, parseSliceCoord, sliceLayout, sliceOffset, type SliceCoord } from '../../src/cute/slice.js';
import { phiB, randInt, rankB, showL, sizeT, type BL, type Tup } from '../helpers/brute.js';
import { randomLayout } from '../helpers/arbitraries.js';
import { forSeeds, lib } from './_seeds.js';

/** A random coordinate over shape s: `_`, an integer below the size, or one level deeper. */
function randomCoord(rng: () => number, s: Tup): SliceCoord {
  const r = rng();
  if (typeof s !== 'number' && r < 0.45) return s.map((u) => randomCoord(rng, u));
  if (r < 0.7) return '_';
  return randInt(rng, 0, sizeT(s) - 1);
}

const showC = (c: SliceCoord): string => (typeof c === 'object' ? `(${c.map(showC).join(',')})` : String(c));

/** The leaves of C with the sub-shape each covers (brute side). */
function leaves(c: SliceCoord, s: Tup, out: Array<{ c: '_' | number; s: Tup }>): void {
  if (typeof c === 'object') c.forEach((ci, i) => leaves(ci, (s as readonly Tup[])[i]!, out));
  else out.push({ c, s });
}

/** Index i of L as, per leaf of C, the colexicographic index within that leaf's sub-shape
 *  (the leaves partition L's entries left to right). */
function leafIndices(i: number, ls: ReadonlyArray<{ s: Tup }>): number[] {
  let rest = i;
  return ls.map(({ s }) => {
    const n = sizeT(s);
    const v = rest % n;
    rest = Math.floor(rest / n);
    return v;
  });
}

describe('slice and dice', () => {
  it('docs/semantics.md §8.5 examples', () => {
    expect(ok('slice', '(4,(2,3)):(1,(4,8))', '(_,(1,_))')).toBe('(4,3):(1,8)');
    expect(ok('dice', '(4,(2,3)):(1,(4,8))', '(_,5)')).toBe('((2,3)):((4,8))');
    expect(ok('slice', '(4,(2,3)):(1,(4,8))', '_')).toBe('(4,(2,3)):(1,(4,8))');
    expect(ok('dice', '(4,(2,3)):(1,(4,8))', '_')).toBe('():()');
    expect(ok('dice', '(4,(2,3)):(1,(4,8))', '7')).toBe('((4,(2,3))):((1,(4,8)))');
    expect(ok('slice', '(4,(2,3)):(1,(4,8))', '(2,5)')).toBe('():()');
    expect(ok('slice', '(4,(2,3)):(1,(4,8))', '(_,_)')).toBe('(4,(2,3)):(1,(4,8))');
    expect(ok('slice', '(4,(2,3)):(1,(4,8))', '(3,_)')).toBe('((2,3)):((4,8))');
    expect(ok('dice', '(4,(2,3)):(1,(4,8))', '(_,(1,_))')).toBe('(2):(4)');
    // CuTe's printed forms are read too: _N is N, a 1-tuple may end with a comma
    expect(ok('slice', '(4,(2,3)):(1,(4,8))', '( _ , ( _1 , _ ) )')).toBe('(4,3):(1,8)');
    expect(ok('slice', '((4,2)):((1,4))', '((_,1),)')).toBe('(4):(1)');
  });

  it('the offset of a slice is eval_coord of C with _ read as 0', () => {
    const l = lib({ shape: [4, [2, 3]], stride: [1, [4, 8]] });
    expect(sliceOffset(l, '(_,(1,_))')).toBe(4);
    expect(sliceOffset(l, '(3,5)')).toBe(ok('eval_coord', '(4,(2,3)):(1,(4,8))', '(3,5)'));
    expect(sliceOffset(l, '_')).toBe(0);
    // on a composed layout (docs/semantics.md §9.1): Sw o (K + o) o slice(L, C); dice keeps K
    expect(ok('slice', 'Sw<3,3,3> o 5 o (8,64):(64,1)', '(2,_)')).toBe('Sw<3,3,3> o 133 o (64):(1)');
    expect(ok('slice', 'Sw<3,3,3> o (8,64):(64,1)', '(2,_)')).toBe('Sw<3,3,3> o 128 o (64):(1)');
    expect(ok('dice', 'Sw<3,3,3> o (8,64):(64,1)', '(2,_)')).toBe('Sw<3,3,3> o (8):(64)');
  });

  it('keep exactly the right modes, pointwise (random layouts and coordinates)', () => {
    forSeeds(500, (rng) => {
      const l = randomLayout(rng, { maxLen: 5, maxShape: 4, maxStride: 12, maxSize: 1024 });
      const c = randomCoord(rng, l.shape);
      const text = showC(c);
      const s = sliceLayout(lib(l), text) as BL;
      const d = dice(lib(l), c) as BL;
      const o = sliceOffset(lib(l), text);
      const tag = `${showL(l)} at ${text}: slice ${showL(s)}, dice ${showL(d)}, offset ${o}`;
      expect(parseSliceCoord(text)).toEqual(c);
      if (c === '_') {
        expect(s, tag).toEqual(l);
        return;
      }
      const ls: Array<{ c: '_' | number; s: Tup }> = [];
      leaves(c, l.shape, ls);
      // the modes: one per `_` (slice) or integer (dice) leaf, with that leaf's sub-shape
      const freeShapes = ls.filter((x) => x.c === '_').map((x) => x.s);
      const fixedShapes = ls.filter((x) => x.c !== '_').map((x) => x.s);
      if (typeof c === 'number') {
        expect(d, tag).toEqual({ shape: [l.shape], stride: [l.stride] });
        return;
      }
      expect(s.shape, tag).toEqual(freeShapes);
      expect(d.shape, tag).toEqual(fixedShapes);
      expect(rankB(s.shape), tag).toBe(freeShapes.length);
      // pointwise, by enumeration of every index of L
      const n = sizeT(l.shape);
      let js = 0;
      let jd = 0;
      for (let i = 0; i < n; i++) {
        const idx = leafIndices(i, ls);
        if (ls.every((x, k) => x.c === '_' || x.c === idx[k])) {
          expect(phiB(l, i), `${tag}: slice point ${js}`).toBe(o + phiB(s, js));
          js++;
        }
        if (ls.every((x, k) => x.c !== '_' || idx[k] === 0)) {
          expect(phiB(l, i), `${tag}: dice point ${jd}`).toBe(phiB(d, jd));
          jd++;
        }
      }
      expect(js, tag).toBe(sizeT(s.shape));
      expect(jd, tag).toBe(sizeT(d.shape));
      // the offset is eval_coord with _ as 0
      const zeroed = (x: SliceCoord): SliceCoord => (typeof x === 'object' ? x.map(zeroed) : x === '_' ? 0 : x);
      expect(o, tag).toBe(ok('eval_coord', showL(l), showC(zeroed(c))));
    });
  });

  it('a layout whose cosize passes 2^53 slices and dices: the same modes as a small layout of the same shape (issue 18 item 10)', () => {
    // the repro's layouts, then random shapes with one stride large enough that the cosize passes 2^53
    const cases: [string, string, string][] = [
      ['slice', '(4,(2,3)):(3002399751580331,(4,8))', '(_,_)'],
      ['dice', '(4,8):(9007199254740991,1)', '(0,_)'],
    ];
    forSeeds(80, (rng) => {
      const l = randomLayout(rng, { maxLen: 4, maxShape: 5, maxStride: 9 });
      cases.push([rng() < 0.5 ? 'slice' : 'dice', showL(l), showC(randomCoord(rng, l.shape))]);
    });
    for (const [op, text, c] of cases) {
      const big = text.replace(/:\((\(*)(\d+)/, (_m, open: string) => `:(${open}9007199254740991`).replace(/^(\d+):(\d+)$/, '$1:9007199254740991');
      // the small twin: the same layout with the big stride replaced by a marker below 2^53 / size
      const small = big.replace('9007199254740991', '7777');
      const want = ok(op, small, c) as string;
      expect(ok(op, big, c), `${op}(${big}, ${c})`).toBe(want.replace(/\b7777\b/g, '9007199254740991'));
    }
  });

  it('bad coordinates: domain where C does not fit, parse with the offset (a sign included), bad-request if not a string', () => {
    const L = '(4,(2,3)):(1,(4,8))';
    for (const c of ['(_,(2,_))', '(4,_)', '(_,6)', '(_,(1,_,1))', '(_)', '(_,_,_)', '((1,2),_)', '(_,(1,(0,0)))', '(_,99999999999999999999)']) {
      const e = err('slice', L, c);
      expect(e.kind, `slice ${c}: ${e.message}`).toBe('domain');
      expect(err('dice', L, c).kind, `dice ${c}`).toBe('domain');
    }
    expect(err('slice', L, '(_,(2,_))').message).toMatch(/2.*offset 4/);
    for (const [c, at] of [
      ['(_,(1,_)', 8],
      ['(_,,1)', 3],
      ['(_,1,)', 5],
      ['(a,1)', 1],
      ['', 0],
      ['(_,1) x', 6],
      ['(,)', 1],
      // the grammar has no sign (issue 25 item 2: parse, as local_tile's coordinate)
      ['-1', 0],
      ['(_,-1)', 3],
    ] as const) {
      const e = err('slice', L, c);
      expect(e.kind, `slice '${c}': ${e.message}`).toBe('parse');
      expect(e.message, c).toContain(`offset ${at}`);
    }
    expect(err('slice', L, 3).kind).toBe('bad-request');
    expect(err('dice', L).kind).toBe('bad-request');
  });
});
