/**
 * upcast and downcast (docs/semantics.md §8.5, CuTe's static rules): the examples; on random layouts the
 * entry rules, structure kept; upcast(downcast(L, N), N) = L; with one stride-1 entry,
 * Φ of downcast(L, N) at (c·N + k in that entry) is N·Φ_L(c) + k; bad input.
 */
import { describe, expect, it } from 'vitest';
import { err, ok } from '../algebra/_run.js';
import { downcast, upcast } from '../../src/cute/cast.js';
import { flatB, layoutEq, pick, profB, randInt, showL, phiB, sizeB, type BL } from '../helpers/brute.js';
import { randomLayout } from '../helpers/arbitraries.js';
import { forSeeds, kindOf, lib } from './_seeds.js';

const cdiv = (a: number, b: number): number => Math.ceil(a / b);

describe('upcast and downcast', () => {
  it('docs/semantics.md §8.5 examples', () => {
    expect(ok('upcast', '(4,8):(1,4)', 2)).toBe('(2,8):(1,2)');
    expect(ok('downcast', '(4,8):(1,4)', 2)).toBe('(8,8):(1,8)');
    expect(ok('upcast', '((4,2),8):((1,0),16)', 8)).toBe('((1,2),8):((1,0),2)');
    expect(ok('upcast', '(3,8):(1,4)', 2)).toBe('(2,8):(1,2)');
    expect(ok('upcast', '(4,8):(2,8)', 4)).toBe('(2,8):(1,2)');
    expect(ok('upcast', '6:1', 1)).toBe('6:1');
    expect(ok('downcast', '((4,2),8):((1,0),16)', 4)).toBe('((16,2),8):((1,0),64)');
    expect(ok('downcast', '(2,3):(1,1)', 2)).toBe('(4,6):(1,1)');
  });

  it('bad input: domain naming the entry; N < 1; overflow', () => {
    const e = err('upcast', '(4,8):(3,4)', 2);
    expect(e.kind).toBe('domain');
    expect(e.message).toContain('4:3');
    expect(err('upcast', '(4,8):(1,6)', 4).message).toContain('8:6');
    expect(err('downcast', '(4,8):(2,4)', 2).kind).toBe('domain');
    expect(err('upcast', '(4,8):(1,4)', 0).kind).toBe('domain');
    expect(err('downcast', '(4,8):(1,4)', -2).kind).toBe('domain');
    expect(err('upcast', '(4,8):(1,4)', '2').kind).toBe('bad-request');
    expect(err('downcast', '(4,8):(1,4)', 2 ** 52).kind).toBe('overflow');
  });

  it('the entry rules, structure kept, and the round trip (random layouts)', () => {
    forSeeds(400, (rng) => {
      const l = randomLayout(rng, { maxLen: 4, maxShape: 8, maxStride: 16 });
      const n = pick(rng, [1, 2, 3, 4, 8, 16]);
      const { s, d } = flatB(l);
      const tag = `${showL(l)}, N = ${n}`;
      const okUp = d.every((di) => di === 0 || di % n === 0 || n % di === 0);
      if (!okUp)
        expect(
          kindOf(() => upcast(lib(l), n)),
          tag,
        ).toBe('domain');
      else {
        const u = upcast(lib(l), n) as BL;
        expect(profB(u.shape), tag).toBe(profB(l.shape));
        const fu = flatB(u);
        s.forEach((si, i) => {
          const di = d[i]!;
          expect(fu.s[i], tag).toBe(di === 0 ? si : cdiv(si, cdiv(n, di)));
          expect(fu.d[i], tag).toBe(di === 0 ? 0 : cdiv(di, n));
        });
      }
      const ones = d.filter((x) => x === 1).length;
      if (ones === 0) {
        expect(
          kindOf(() => downcast(lib(l), n)),
          tag,
        ).toBe('domain');
        return;
      }
      const dn = downcast(lib(l), n) as BL;
      const fd = flatB(dn);
      expect(profB(dn.shape), tag).toBe(profB(l.shape));
      s.forEach((si, i) => {
        expect(fd.s[i], tag).toBe(d[i] === 1 ? si * n : si);
        expect(fd.d[i], tag).toBe(d[i] === 1 ? 1 : d[i]! * n);
      });
      expect(layoutEq(upcast(lib(dn), n) as BL, l), `${tag}: upcast(downcast)`).toBe(true);
      if (ones === 1) {
        // the element shrinks N times: element x, part k of it, is at N·Φ_L(x) + k
        const j = d.indexOf(1);
        const pre = s.slice(0, j).reduce((a, b) => a * b, 1);
        for (let t = 0; t < Math.min(sizeB(dn), 256); t++) {
          const c = randInt(rng, 0, sizeB(dn) - 1);
          // split c into (before j, digit j, after j) in dn's radix, then the digit into (x_j, k)
          const lo = c % pre;
          const dig = Math.floor(c / pre) % (s[j]! * n);
          const hi = Math.floor(c / (pre * s[j]! * n));
          const x = lo + pre * Math.floor(dig / n) + pre * s[j]! * hi;
          expect(phiB(dn, c), `${tag} at ${c}`).toBe(n * phiB(l, x) + (dig % n));
        }
      }
    });
  });
});
