/**
 * Triton's layout helpers (src/linear/layout-utils.ts) against their definitions: every layout is
 * evaluated on every input by brute force (test/linear/_ll.ts llValueAt), never through the
 * helpers themselves (docs/linear.md, "Encodings").
 */
import { describe, expect, it } from 'vitest';
import { kindOf } from '../helpers/kind.js';
import {
  broadcastedDotOperandLayout,
  ensureLayoutNotLargerThan,
  ensureLayoutNotSmallerThan,
  identityStandardND,
  inferredSurjective,
  moveLastOutFirst,
  productOf,
  reshapeLayout,
  transposeOuts,
} from '../../src/linear/layout-utils.js';
import { identity1D, product, zeros1D, type LinearLayout } from '../../src/linear/value.js';
import { seededRuns } from '../helpers/seeds.js';
import { inBitsOf, int, llValueAt, randomLL, shuffle, unflattenIn, type Rng } from './_ll.js';

const forSeeds = seededRuns(0x1a70);

/** Every input of L (flattened, in-dims in order) with L's value there, by the definition. */
const values = (l: LinearLayout): { x: number; coords: number[]; v: number[] }[] =>
  Array.from({ length: 2 ** inBitsOf(l) }, (_, x) => {
    const coords = unflattenIn(x, l);
    return { x, coords, v: llValueAt(l, coords) };
  });

/** r random powers of two with at most `bits` bits in all, and a random order of 0 … r−1. */
function sizesAndOrder(rng: Rng, r: number, bits: number): { sizes: number[]; order: number[] } {
  const sizes = Array.from({ length: r }, () => 1);
  for (let b = int(rng, 0, bits); b > 0; b--) sizes[int(rng, 0, r - 1)]! *= 2;
  return { sizes, order: shuffle(rng, [...Array(r).keys()]) };
}

/** The digits of x in the mixed radix of `sizes` taken in `order` (the first of `order` lowest). */
function digits(x: number, sizes: readonly number[], order: readonly number[]): number[] {
  const out = sizes.map(() => 0);
  let v = x;
  for (const d of order) {
    out[d] = v % sizes[d]!;
    v = Math.floor(v / sizes[d]!);
  }
  return out;
}

describe('layout-utils', () => {
  it('identityStandardND: input x lands on its digits over the order, the first dim of the order lowest', () => {
    forSeeds(100, (rng) => {
      const { sizes, order } = sizesAndOrder(rng, int(rng, 1, 4), 10);
      const l = identityStandardND('lane', sizes, order);
      expect(l.inDims.map((d) => d.name)).toEqual(['lane']);
      expect(l.outDims.map((o) => o.name)).toEqual(order.map((d) => `dim${d}`));
      for (const { x, v } of values(l)) {
        const want = digits(x, sizes, order);
        expect(v).toEqual(order.map((d) => want[d]));
      }
    });
  });

  it('identityStandardND and broadcastedDotOperandLayout are the products of identity1D (zeros1D along K) over the order', () => {
    forSeeds(100, (rng) => {
      const { sizes, order } = sizesAndOrder(rng, int(rng, 1, 4), 10);
      const k = rng() < 0.5 ? -1 : int(rng, 0, sizes.length - 1);
      const factors = order.map((d) => (d === k ? zeros1D : identity1D)(sizes[d]!, 'lane', `dim${d}`));
      const want = factors.reduce((acc, f) => product(acc, f), { inDims: [], outDims: [] } as LinearLayout);
      expect(k < 0 ? identityStandardND('lane', sizes, order) : broadcastedDotOperandLayout('lane', sizes, order, k)).toEqual(want);
    });
  });

  it('broadcastedDotOperandLayout: the same digits with the K dim always 0', () => {
    forSeeds(100, (rng) => {
      const { sizes, order } = sizesAndOrder(rng, int(rng, 2, 4), 10);
      const k = int(rng, 0, sizes.length - 1);
      const l = broadcastedDotOperandLayout('warp', sizes, order, k);
      expect(inBitsOf(l)).toBe(Math.log2(sizes.reduce((a, b) => a * b, 1)));
      for (const { x, v } of values(l)) {
        const want = digits(x, sizes, order);
        want[k] = 0;
        expect(v).toEqual(order.map((d) => want[d]));
      }
      expect(l.outDims.find((o) => o.name === `dim${k}`)!.size).toBe(1);
    });
  });

  it('productOf is the product of its factors in turn', () => {
    forSeeds(100, (rng) => {
      const fs = Array.from({ length: int(rng, 0, 3) }, () => randomLL(rng, 3, 4, { inNames: ['a', 'b'], outNames: ['x', 'y'] }));
      const want = fs.reduce((acc, f) => product(acc, f), { inDims: [], outDims: [] } as LinearLayout);
      expect(productOf(fs)).toEqual(want);
    });
  });

  it('transposeOuts and moveLastOutFirst only reorder the out-dims: the same value at every input', () => {
    forSeeds(100, (rng) => {
      const l = randomLL(rng, 8, 8, { outNames: ['dim0', 'dim1', 'dim2'] });
      const names = shuffle(
        rng,
        l.outDims.map((o) => o.name),
      );
      const t = transposeOuts(l, names);
      expect(t.outDims.map((o) => o.name)).toEqual(names);
      const m = moveLastOutFirst(l);
      const r = l.outDims.length;
      expect(m.outDims.map((o) => o.size)).toEqual(r === 0 ? [] : [l.outDims[r - 1]!.size, ...l.outDims.slice(0, -1).map((o) => o.size)]);
      const tv = values(t);
      const mv = values(m);
      values(l).forEach(({ v }, x) => {
        expect(tv[x]!.v).toEqual(names.map((n) => v[l.outDims.findIndex((o) => o.name === n)]));
        expect(mv[x]!.v).toEqual(r === 0 ? [] : [v[r - 1], ...v.slice(0, -1)]);
      });
    });
  });

  it('ensureLayoutNotSmallerThan: every out-dim at least its size, the old inputs unchanged, the new bits an identity', () => {
    forSeeds(100, (rng) => {
      const l = randomLL(rng, 6, 6, { inNames: ['register', 'lane'], outNames: ['dim0', 'dim1'] });
      const shape = new Map(l.outDims.map((o) => [o.name, o.size * 2 ** int(rng, 0, 2)]));
      const g = ensureLayoutNotSmallerThan(l, shape, 'register');
      expect(g.outDims.map((o) => o.size)).toEqual(l.outDims.map((o) => Math.max(o.size, shape.get(o.name)!)));
      expect(g.inDims.map((d) => d.name)).toEqual(l.inDims.map((d) => d.name).concat(l.inDims.some((d) => d.name === 'register') ? [] : ['register']));
      // an input of L (its new register bits 0) has L's value
      for (const { coords, v } of values(l)) {
        const c = g.inDims.map((d) => coords[l.inDims.findIndex((e) => e.name === d.name)] ?? 0);
        expect(llValueAt(g, c)).toEqual(v);
      }
      // the new register bits: the identity on the grown dims, the lowest dim first
      const old = l.inDims.find((d) => d.name === 'register')?.bases.length ?? 0;
      const added = g.inDims.find((d) => d.name === 'register')!.bases.slice(old);
      const want = l.outDims.flatMap((o, j) => {
        const bits = Math.log2(shape.get(o.name)! / o.size);
        return bits > 0 ? Array.from({ length: bits }, (_, i) => l.outDims.map((_, e) => (e === j ? o.size * 2 ** i : 0))) : [];
      });
      expect(added).toEqual(want);
    });
  });

  it('ensureLayoutNotLargerThan: an identity over an order keeps each coordinate modulo the smaller size (the bits above it zeroed or, registers, removed)', () => {
    forSeeds(100, (rng) => {
      const { sizes, order } = sizesAndOrder(rng, int(rng, 1, 3), 8);
      const l = productOf([identityStandardND('register', sizes, order), identity1D(1, 'block', 'dim0')]);
      const shape = new Map(l.outDims.map((o) => [o.name, Math.max(1, o.size / 2 ** int(rng, 0, 3))]));
      const s = ensureLayoutNotLargerThan(l, shape, false, 'test');
      expect(s.inDims.map((d) => d.bases.length)).toEqual(l.inDims.map((d) => d.bases.length));
      expect(s.outDims.map((o) => o.size)).toEqual(l.outDims.map((o) => shape.get(o.name)));
      values(l).forEach(({ coords, v }) => {
        expect(llValueAt(s, coords)).toEqual(v.map((x, j) => x % shape.get(l.outDims[j]!.name)!));
      });
      // register bases removed instead: as many fewer registers as halvings, the values still modulo
      const rm = ensureLayoutNotLargerThan(l, shape, true, 'test');
      const halvings = l.outDims.reduce((a, o) => a + Math.log2(o.size / shape.get(o.name)!), 0);
      expect(rm.inDims[0]!.bases.length).toBe(l.inDims[0]!.bases.length - halvings);
      for (const b of rm.inDims[0]!.bases) expect(b.every((x, j) => x < shape.get(l.outDims[j]!.name)!)).toBe(true);
    });
  });

  it('inferredSurjective: sizes the next power of two above every value, not surjective is domain', () => {
    const l = inferredSurjective(
      [
        {
          name: 'offset',
          bases: [
            [0, 1],
            [1, 0],
            [2, 3],
            [0, 2],
          ],
        },
      ],
      ['dim0', 'dim1'],
      'test',
    );
    expect(l.outDims).toEqual([
      { name: 'dim0', size: 4 },
      { name: 'dim1', size: 4 },
    ]);
    expect(kindOf(() => inferredSurjective([{ name: 'offset', bases: [[0, 2]] }], ['dim0', 'dim1'], 'test'))).toBe('domain');
  });

  it('reshapeLayout keeps the row-major flat index of every value', () => {
    forSeeds(100, (rng) => {
      const l = randomLL(rng, 8, 8, { outNames: ['dim0', 'dim1', 'dim2'] });
      const total = l.outDims.reduce((a, o) => a * o.size, 1);
      const { sizes } = sizesAndOrder(rng, int(rng, 1, 3), 0);
      for (let t = total; t > 1; t /= 2) sizes[int(rng, 0, sizes.length - 1)]! *= 2;
      const r = reshapeLayout(l, sizes);
      expect(r.outDims).toEqual(sizes.map((size, j) => ({ name: `dim${j}`, size })));
      const rowMajor = (v: readonly number[], ss: readonly number[]): number => v.reduce((acc, x, j) => acc * ss[j]! + x, 0);
      for (const { coords, v } of values(l)) {
        expect(rowMajor(llValueAt(r, coords), sizes)).toBe(
          rowMajor(
            v,
            l.outDims.map((o) => o.size),
          ),
        );
      }
    });
  });
});
