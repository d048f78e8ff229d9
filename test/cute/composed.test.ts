/**
 * Swizzles and composed layouts (docs/semantics.md §9.1): the swizzle bit by bit against its definition,
 * Φ and cosize against brute force, parse and print, the ops on the inner layout, and the
 * `domain` answers where a plain layout is needed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeLayout, phi, size } from '../../src/algebra/layout.js';
import { cosizeLayoutFunction, makeComposed, phiComposed } from '../../src/cute/composed.js';
import { applySwizzle, applySwizzleBig, makeSwizzle } from '../../src/cute/swizzle.js';
import { ok, op } from '../algebra/_run.js';

/** Sw<B,M,S> bit by bit: bit i of the result is y_i XOR y_(i+S) for i in the target field. */
function swizzleBits(b: number, m: number, s: number, y: bigint): bigint {
  const bits = (y.toString(2).split('').reverse().map(Number) as number[]).concat(new Array(200).fill(0));
  const srcLow = m + Math.max(0, s);
  const out = [...bits];
  for (let i = 0; i < b; i++) {
    const src = srcLow + i;
    const dst = src - s;
    out[dst] = bits[dst]! ^ bits[src]!;
  }
  return out.reduce((acc, bit, i) => acc + (bit ? 1n << BigInt(i) : 0n), 0n);
}

describe('Sw<B,M,S>', () => {
  const arbSw = fc
    .integer({ min: 0, max: 6 })
    .chain((b) => fc.record({ b: fc.constant(b), m: fc.integer({ min: 0, max: 8 }), s: fc.integer({ min: b, max: 12 }), neg: fc.boolean() }));
  it('agrees with its definition bit by bit (numbers and BigInt), and is an involution', () => {
    fc.assert(
      fc.property(arbSw, fc.bigInt({ min: 0n, max: (1n << 60n) - 1n }), ({ b, m, s, neg }, y) => {
        const S = neg ? -s : s;
        const sw = makeSwizzle(b, m, S);
        const want = swizzleBits(b, m, S, y);
        expect(applySwizzleBig(sw, y)).toBe(want);
        if (y < 2n ** 40n) expect(applySwizzle(sw, Number(y))).toBe(Number(want));
        expect(applySwizzleBig(sw, want)).toBe(y);
      }),
      { numRuns: 500 },
    );
  });
  it('Sw<3,3,3> XORs bits 6–8 into bits 3–5', () => {
    expect(applySwizzle(makeSwizzle(3, 3, 3), 0b101_000_000)).toBe(0b101_101_000);
  });
  it('|S| < B and negative B or M are domain', () => {
    expect(() => makeSwizzle(3, 3, 2)).toThrow(/\|S\| must be >= B/);
    expect(() => makeSwizzle(3, 3, -2)).toThrow(/\|S\| must be >= B/);
    expect(op('parse', 'Sw<-1,3,3> o 8:1')).toMatchObject({ ok: false, kind: 'domain' });
    expect(op('parse', 'Sw<1,-3,3> o 8:1')).toMatchObject({ ok: false, kind: 'domain' });
  });
});

describe('composed layouts: parse and print', () => {
  it.each([
    ['Sw<3,3,3> o _0 o (_8,_64):(_64,_1)', 'Sw<3,3,3> o (8,64):(64,1)'],
    ['Sw<3,3,3> o 8 o (8,64):(64,1)', 'Sw<3,3,3> o 8 o (8,64):(64,1)'],
    ['  Sw < 2 , 0 , -3 >  o  0  o  16:1 ', 'Sw<2,0,-3> o 16:1'],
    ['Sw<0,4,0> o (4,4):(4,1)', 'Sw<0,4,0> o (4,4):(4,1)'],
    ['Sw<1,1,1> o 7:1', 'Sw<1,1,1> o 7:1'],
  ])('%s', (text, want) => expect(ok('parse', text)).toBe(want));
  it.each([
    'Sw<3,3,3> o smem_ptr[16b](unset) o (8,64):(64,1)',
    'Sw<3,3,3> (8,64):(64,1)',
    'Sw<3,3> o (8,64):(64,1)',
    'Sw<3,3,3> o 8 o',
    'Sw<3,3,3> o Sw<3,3,3> o (8,64):(64,1)',
    'Sw<3,3,3> o (8,64):(64,1) o 8',
  ])('%s is a parse error', (text) => expect(op('parse', text)).toMatchObject({ ok: false, kind: 'parse' }));
});

const arbComposed = fc
  .record({
    shapes: fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 3 }),
    strides: fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 3, maxLength: 3 }),
    b: fc.integer({ min: 0, max: 4 }),
    m: fc.integer({ min: 0, max: 5 }),
    s: fc.integer({ min: 4, max: 7 }),
    neg: fc.boolean(),
    k: fc.integer({ min: 0, max: 1000 }),
  })
  .map((c) => makeComposed(makeSwizzle(c.b, c.m, c.neg ? -c.s : c.s), c.k, makeLayout(c.shapes, c.strides.slice(0, c.shapes.length))));

describe('composed layouts: Φ and cosize', () => {
  it('Φ(x) = Sw(K + Φ_L(x)) through eval and eval_coord, cosize = 1 + max Φ', () => {
    fc.assert(
      fc.property(arbComposed, (c) => {
        const text = ok(
          'parse',
          `Sw<${c.swizzle.bits},${c.swizzle.base},${c.swizzle.shift}> o ${c.offset} o ${JSON.stringify(c.inner.shape).replace(/\[/g, '(').replace(/\]/g, ')')}:${JSON.stringify(c.inner.stride).replace(/\[/g, '(').replace(/\]/g, ')')}`,
        ) as string;
        let max = -1;
        for (let x = 0; x < size(c.inner); x++) {
          const want = Number(applySwizzleBig(c.swizzle, BigInt(c.offset + phi(c.inner, x))));
          expect(phiComposed(c, x)).toBe(want);
          if (x < 5) expect(ok('eval', text, x)).toBe(want);
          max = Math.max(max, want);
        }
        expect(cosizeLayoutFunction(c)).toBe(BigInt(max + 1));
        expect(ok('cosize', text)).toBe(max + 1);
      }),
      { numRuns: 300 },
    );
  });
  it('cosize with entries whose strides reach past the swizzle bits (split, not enumerated)', () => {
    // 1024 rows of 64 with Sw<3,3,3>: enumeration covers (8,64) only; max by brute force
    const c = makeComposed(makeSwizzle(3, 3, 3), 5, makeLayout([1024, 64], [64, 1]));
    let max = 0;
    for (let x = 0; x < 1024 * 64; x++) max = Math.max(max, phiComposed(c, x));
    expect(cosizeLayoutFunction(c)).toBe(BigInt(max + 1));
    expect(ok('cosize', 'Sw<3,4,-5> o (4096,4096):(1,4096)')).toBe(4096 * 4096);
  });
});

describe('composed layouts: the ops act on the inner layout (docs/semantics.md §9.1)', () => {
  const C = 'Sw<3,3,3> o 8 o (8,64):(64,1)';
  it.each([
    ['compose', [C, '(8,8):(1,8)'], 'Sw<3,3,3> o 8 o (8,8):(64,1)'],
    ['logical_divide', ['Sw<3,3,3> o (8,64):(64,1)', '(8,8):(1,8)'], 'Sw<3,3,3> o ((8,8),8):((64,1),8)'],
    ['logical_product', [C, '2:1'], 'Sw<3,3,3> o 8 o ((8,64),2):((64,1),512)'],
    ['coalesce', ['Sw<3,3,3> o ((2,4),64):((64,128),1)'], 'Sw<3,3,3> o (8,64):(64,1)'],
    ['coalesce', ['Sw<3,3,3> o ((2,4),(8,8)):((64,128),(1,8))', '(8,64)'], 'Sw<3,3,3> o (8,64):(64,1)'],
    ['flatten', ['Sw<1,2,3> o ((2,4),64):((64,128),1)'], 'Sw<1,2,3> o (2,4,64):(64,128,1)'],
    ['mode', [C, 2], 'Sw<3,3,3> o 8 o 64:1'],
    ['entry', [C, 1], 'Sw<3,3,3> o 8 o 8:64'],
    ['size', [C], 512],
    ['rank', [C], 2],
    ['depth', [C], 1],
    ['profile', [C], '(*,*)'],
    ['coord', [C, 9], '(1,1)'],
    ['eval_coord', ['Sw<3,3,3> o (8,64):(64,1)', '(1,1)'], 73],
  ])('%s %j', (name, args, want) => expect(ok(name, ...args)).toEqual(want));
  it('the op on the composed layout has the function Sw(K + Φ of the op on L)', () => {
    const inner = ok('logical_divide', '(8,64):(64,1)', '(4,2):(2,16)') as string;
    const got = ok('logical_divide', C, '(4,2):(2,16)') as string;
    expect(got).toBe(`Sw<3,3,3> o 8 o ${inner}`);
  });
  it.each([
    ['complement', [C]],
    ['is_compact', [C]],
    ['is_coalesced', [C]],
    ['is_tractable', [C]],
    ['concat', [C, '2:1']],
    ['substitute', [C, '(*,*)']],
    ['compose', ['(8,64):(64,1)', 'Sw<3,3,3> o (8,8):(1,8)']],
    ['compose', [C, 'Sw<3,3,3> o (8,8):(1,8)']],
    ['logical_divide', ['(8,64):(64,1)', C]],
  ])('%s %j needs a plain layout: domain', (name, args) => {
    const r = op(name, ...args);
    expect(r).toMatchObject({ ok: false, kind: 'domain' });
    if (!r.ok) expect(r.message).toMatch(/plain layout/);
  });
});

describe('composed layouts: slice, dice and the CuTe vocabulary', () => {
  it.each([
    ['slice', ['Sw<3,3,3> o (8,64):(64,1)', '(2,_)'], 'Sw<3,3,3> o 128 o (64):(1)'],
    ['slice', ['Sw<3,3,3> o 4 o (8,64):(64,1)', '(_,3)'], 'Sw<3,3,3> o 7 o (8):(64)'],
    ['dice', ['Sw<3,3,3> o 4 o (8,64):(64,1)', '(2,_)'], 'Sw<3,3,3> o 4 o (8):(64)'],
  ])('%s %j', (name, args, want) => expect(ok(name, ...args)).toBe(want));
  it.each(['right_inverse', 'left_inverse', 'filter', 'filter_zeros'])('%s needs a plain layout', (name) =>
    expect(op(name, 'Sw<3,3,3> o (8,64):(64,1)')).toMatchObject({ ok: false, kind: 'domain' }),
  );
  it.each(['upcast', 'downcast'])('%s needs a plain layout', (name) =>
    expect(op(name, 'Sw<3,3,3> o (8,64):(64,1)', 2)).toMatchObject({ ok: false, kind: 'domain' }),
  );
});
