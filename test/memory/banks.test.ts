/**
 * bank_conflicts (docs/semantics.md §9.2, docs/protocol.md) against an independent brute-force counter, the
 * published cases, the worked examples, and bad input.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeLayout, phi } from '../../src/algebra/layout.js';
import { makeComposed, phiComposed, type LayoutFunction } from '../../src/cute/composed.js';
import { makeSwizzle } from '../../src/cute/swizzle.js';
import { bankConflicts } from '../../src/memory/banks.js';
import { op } from '../algebra/_run.js';
import { readPairs } from '../helpers/fixtures.js';
import { bruteBanks } from './brute-banks.js';

const phiFn = (m: LayoutFunction, x: number): number => ('kind' in m ? phiComposed(m, x) : phi(m, x));

describe('bank_conflicts: the published cases', () => {
  it('a 32×32 fp32 tile read by column: 32-way unswizzled, none with Sw<5,0,5>', () => {
    const plain = op('bank_conflicts', '(32,32):(32,1)', '(32,32):(1,32)', 4, 1);
    expect(plain.ok && (plain.result as { worst: { wavefronts: number } }).worst.wavefronts).toBe(32);
    const sw = op('bank_conflicts', 'Sw<5,0,5> o (32,32):(32,1)', '(32,32):(1,32)', 4, 1);
    expect(sw.ok && (sw.result as { conflicts: number }).conflicts).toBe(0);
  });
  it('the fp16 8×64 K-major tile read ldmatrix-style: 8-way unswizzled, conflict-free with Sw<3,3,3>', () => {
    const tv = '((8,4),(8,2)):((1,64),(8,256))';
    const plain = op('bank_conflicts', '(8,64):(64,1)', tv, 2);
    expect(plain.ok && (plain.result as { worst: { wavefronts: number } }).worst.wavefronts).toBe(8);
    const sw = op('bank_conflicts', 'Sw<3,3,3> o (8,64):(64,1)', tv, 2);
    expect(sw.ok && (sw.result as { wavefronts: number; phases: number })).toMatchObject({ wavefronts: 8, phases: 8 });
  });
  it('answers the worked examples (memory-examples.jsonl) whose ops it owns', () => {
    const lines = readPairs('memory-examples.jsonl');
    let n = 0;
    for (const { request, response } of lines) {
      if (request.op === 'eval_range' || request.op === 'check_compact') continue; // the engine's (issue 11)
      const r = op(request.op, ...request.args);
      if (response.ok) expect(r, request.op).toEqual({ ok: true, result: response.result });
      else expect(r.ok ? 'ok' : r.kind).toBe(response.error!.kind);
      n++;
    }
    expect(n).toBeGreaterThanOrEqual(14);
  });
});

// random memory layouts (plain or swizzled), TV layouts inside them, element sizes
const arbCase = fc
  .record({
    shapes: fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 3 }),
    strides: fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 3, maxLength: 3 }),
    sw: fc.option(fc.record({ b: fc.integer({ min: 0, max: 3 }), m: fc.integer({ min: 0, max: 4 }), s: fc.integer({ min: 3, max: 6 }), neg: fc.boolean() })),
    k: fc.integer({ min: 0, max: 9 }),
    T: fc.integer({ min: 1, max: 70 }),
    V: fc.constantFrom(1, 2, 4, 8, 3),
    tvOrder: fc.boolean(),
    e: fc.constantFrom(1, 2, 4, 8, 16),
    v: fc.option(fc.constantFrom(1, 2, 4)),
  })
  .map((c) => {
    const inner = makeLayout(c.shapes, c.strides.slice(0, c.shapes.length));
    const m: LayoutFunction = c.sw ? makeComposed(makeSwizzle(c.sw.b, c.sw.m, c.sw.neg ? -c.sw.s : c.sw.s), c.k, inner) : inner;
    const n = c.shapes.reduce((a, b) => a * b, 1);
    // a TV layout whose values stay below size(M): T·V ≤ n positions, thread-major or value-major
    const T = Math.max(1, Math.min(c.T, Math.floor(n / c.V)));
    const V = T * c.V <= n ? c.V : 1;
    const tv = c.tvOrder ? makeLayout([T, V], [1, T]) : makeLayout([T, V], [V, 1]);
    return { m, tv, T, V, e: c.e, v: c.v ?? undefined };
  });

describe('bank_conflicts against the brute-force counter', () => {
  it('agrees on every field, for random layouts, swizzles, element sizes and vectors', () => {
    fc.assert(
      fc.property(arbCase, ({ m, tv, T, V, e, v }) => {
        const off = (t: number, j: number): number => phiFn(m, phi(tv, t + T * j));
        const want = bruteBanks(off, T, V, e, v !== undefined && v * e <= 16 && V % v === 0 ? v : undefined);
        if (v !== undefined && (v * e > 16 || V % v !== 0)) {
          expect(() => bankConflicts(m, tv, e, v)).toThrow(/vector width/);
          return;
        }
        if (want === 'bad-vector') {
          expect(() => bankConflicts(m, tv, e, v)).toThrow(/thread \d+/);
          return;
        }
        expect(bankConflicts(m, tv, e, v)).toEqual(want);
      }),
      { numRuns: 400 },
    );
  });
  it('offsets at and beyond 2^31 (past the 32-bit tables of the fast path) answer the same', () => {
    const tv = makeLayout([32, 8], [1, 32]);
    for (const stride of [2 ** 26, 2 ** 27 + 8, 2 ** 29]) {
      // 32 rows far apart, 8 consecutive elements per row: thread t reads row t
      for (const m of [makeLayout([8, 32], [1, stride]), makeComposed(makeSwizzle(3, 3, 3), 16, makeLayout([8, 32], [1, stride]))]) {
        const rowTv = makeLayout([32, 8], [8, 1]);
        for (const t of [tv, rowTv]) {
          const T = 32;
          const want = bruteBanks((th, j) => phiFn(m, phi(t, th + T * j)), T, 8, 2);
          if (want === 'bad-vector') expect(() => bankConflicts(m, t, 2)).toThrow(/thread \d+/);
          else expect(bankConflicts(m, t, 2), `${stride}`).toEqual(want);
        }
      }
    }
  });

  it('a 128×64 fp16 tile, 128 threads, 128-bit vectors, with and without a swizzle', () => {
    // thread t writes row t/8 + 16p, columns 8(t%8) … +7 (tile index row + 128·col)
    const tv = makeLayout(
      [
        [8, 16],
        [8, 8],
      ],
      [
        [1024, 1],
        [128, 16],
      ],
    );
    for (const m of [makeLayout([128, 64], [64, 1]), makeComposed(makeSwizzle(3, 3, 3), 0, makeLayout([128, 64], [64, 1]))]) {
      const want = bruteBanks((t, j) => phiFn(m, phi(tv, t + 128 * j)), 128, 64, 2);
      expect(bankConflicts(m, tv, 2)).toEqual(want);
    }
  });
});

describe('bank_conflicts: bad input is domain, naming the culprit', () => {
  const tv = '((8,4),(8,2)):((1,64),(8,256))';
  const cases: Array<[unknown[], RegExp]> = [
    [['(8,64):(64,1)', tv, 3], /element size/],
    [['(8,64):(64,1)', tv, 0], /element size/],
    [['(8,64):(64,1)', tv, 2, 16], /power of two/],
    [['(8,64):(64,1)', tv, 2, 3], /power of two/],
    [['(8,64):(64,1)', '(32,3):(1,32)', 2, 2], /does not divide/],
    [['(8,64):(1,8)', tv, 2, 8], /thread 0/], // column-major: a thread's values are 8 apart
    [['512:1', '(32,2):(3,1)', 2, 2], /thread 1\b.*not a multiple of 2/], // thread 1 starts at offset 3: misaligned
    [['(8,64):(64,1)', '(32,32):(1,32)', 2], /beyond size\(M\) = 512/],
    [['(8,64):(64,1)', '(32,4,2):(1,32,128)', 2], /rank 2/],
    [['(8,64):(64,1)', 'Sw<3,3,3> o (32,16):(1,32)', 2], /plain layout/],
    [['Sw<3,3,2> o (8,64):(64,1)', tv, 2], /\|S\| must be >= B/],
  ];
  it.each(cases)('%j', (args, msg) => {
    const r = op('bank_conflicts', ...args);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.kind).toBe('domain');
      expect(r.message).toMatch(msg);
    }
  });
});
