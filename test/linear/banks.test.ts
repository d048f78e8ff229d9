/**
 * Bank conflicts of a Triton conversion (src/linear/banks.ts): the accesses against the
 * definition (TV from R evaluated on every (thread, value), M(c) the smallest offset with
 * S(o) = c found by scanning every offset), and the report against `bank_conflicts` on CuTe
 * layouts with the same functions, where R and S have CuTe forms.
 */
import { describe, expect, it } from 'vitest';
import { LayoutError } from '../../src/algebra/errors.js';
import { parseLayoutFunction } from '../../src/cute/composed.js';
import { conversionAccesses, llBankConflicts } from '../../src/linear/banks.js';
import { fromLL } from '../../src/linear/bridge.js';
import { llFromEncoding } from '../../src/linear/encodings.js';
import { parseLL } from '../../src/linear/forms.js';
import type { LinearLayout } from '../../src/linear/value.js';
import { bankConflicts } from '../../src/memory/banks.js';
import { seededRuns } from '../helpers/seeds.js';
import { int, randomLL, randomSurjective, shuffle, llValueAt, type Rng } from './_ll.js';

const forSeeds = seededRuns(0xba4c5e11);

const MMA_V2 = '#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>';

/** The offset bases of a row-major 16 × 8 tile: dim1 from offset bits 0–2, dim0 from bits 3–6. */
const ROW_MAJOR_16X8: number[][] = [
  [0, 1],
  [0, 2],
  [0, 4],
  [1, 0],
  [2, 0],
  [4, 0],
  [8, 0],
];

/** A shared LL: `offset` bases (and `block` bases) onto dim0 × dim1. */
function sharedLL(offset: number[][], [dim0, dim1]: [number, number] = [16, 8], block: number[][] = []): LinearLayout {
  return parseLL({
    bases: [
      ['offset', offset],
      ['block', block],
    ],
    outDims: [
      ['dim0', dim0],
      ['dim1', dim1],
    ],
  });
}

/** What f returns, or the kind of the LayoutError it throws. */
function outcome<T>(f: () => T): T | string {
  try {
    return f();
  } catch (e) {
    return (e as LayoutError).kind;
  }
}

/** The tile index (dim0 fastest, by name) of an LL's value. */
function tileIndex(l: LinearLayout, vals: readonly number[]): number {
  let v = 0;
  let m = 1;
  for (let d = 0; d < l.outDims.length; d++) {
    const j = l.outDims.findIndex((o) => o.name === `dim${d}`);
    v += vals[j]! * m;
    m *= l.outDims[j]!.size;
  }
  return v;
}

/** A register LL and a surjective shared LL over the same tile (out-dims dim0 …, in any order). */
function pair(rng: Rng): [LinearLayout, LinearLayout] {
  const names = shuffle(
    rng,
    Array.from({ length: int(rng, 1, 2) }, (_, j) => `dim${j}`),
  );
  const r = randomLL(rng, 9, 8, { outBits: int(rng, 2, 8), inNames: ['register', 'lane', 'warp'], outNames: names });
  const s = randomSurjective(
    rng,
    [...r.outDims].sort((a, b) => a.name.localeCompare(b.name)),
    int(rng, 0, 2),
    ['offset'],
  );
  return [
    { inDims: [...r.inDims, { name: 'block', bases: [] }], outDims: r.outDims },
    { inDims: [...s.inDims, { name: 'block', bases: [] }], outDims: s.outDims },
  ];
}

describe('ll_bank_conflicts', () => {
  it('accesses: TV from R and M the smallest offset of S, on every (thread, value)', () => {
    forSeeds(150, (rng) => {
      const [r, s] = pair(rng);
      const acc = conversionAccesses(r, s);
      const n = (name: string): number => 2 ** r.inDims.find((d) => d.name === name)!.bases.length;
      expect(acc.threads).toBe(n('lane') * n('warp'));
      expect(acc.values).toBe(n('register'));
      // M by scanning every offset, highest first, so the smallest wins
      const smallest = new Map<number, number>();
      for (let o = 2 ** s.inDims[0]!.bases.length - 1; o >= 0; o--) smallest.set(tileIndex(s, llValueAt(s, [o, 0])), o);
      for (let x = 0; x < acc.threads * acc.values; x++) {
        const t = x % acc.threads;
        const j = Math.floor(x / acc.threads);
        const c = tileIndex(r, llValueAt(r, [j, t % n('lane'), Math.floor(t / n('lane')), 0]));
        expect(acc.index[x]).toBe(c);
        expect(acc.offsets[x]).toBe(smallest.get(c));
      }
    });
  });

  it('equals bank_conflicts on the CuTe forms, where both exist', () => {
    let compared = 0;
    forSeeds(200, (rng) => {
      const [r, s] = pair(rng);
      let tv: ReturnType<typeof fromLL>;
      let m: ReturnType<typeof fromLL>;
      try {
        tv = fromLL(r, 'tv');
        m = fromLL(s, 'shared');
      } catch (e) {
        if (e instanceof LayoutError && e.kind === 'not-representable') return;
        throw e;
      }
      if ('swizzle' in tv) return; // bank_conflicts takes a plain TV layout
      compared++;
      for (const e of [1, 2, 4]) {
        expect(outcome(() => llBankConflicts(r, s, e))).toEqual(outcome(() => bankConflicts(m, tv, e)));
      }
    });
    expect(compared).toBeGreaterThan(20);
  });

  it('answers when R has no CuTe form', () => {
    // lane 4 → (3, 0): no strides and no single swizzle give this TV map
    const r = parseLL({
      bases: [
        ['register', []],
        [
          'lane',
          [
            [1, 0],
            [2, 0],
            [3, 1],
            [0, 2],
            [0, 4],
          ],
        ],
        ['warp', []],
        ['block', []],
      ],
      outDims: [
        ['dim0', 4],
        ['dim1', 8],
      ],
    });
    expect(() => fromLL(r)).toThrow(LayoutError);
    const s = llFromEncoding('#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>', [4, 8]);
    const rep = llBankConflicts(r, s, 4);
    expect(rep.instructions).toBe(1);
    expect(rep.phases).toBe(1);
    expect(rep.wavefronts).toBeGreaterThanOrEqual(1);
  });

  it('the worked conversion: the MMAv2 accumulator into a row-major 16 × 8 tile', () => {
    const r = llFromEncoding(MMA_V2, [16, 8]);
    const s = sharedLL(ROW_MAJOR_16X8);
    const m = parseLayoutFunction('(16,8):(8,1)');
    const tv = parseLayoutFunction('((4,8),(2,2)):((32,1),(16,8))');
    expect(llBankConflicts(r, s, 2)).toEqual(bankConflicts(m, tv, 2));
    expect(llBankConflicts(r, s, 4, 1)).toEqual(bankConflicts(m, tv, 4, 1));
  });

  // the MMAv2 accumulator of the worked conversion against a shared LL, element size e and vector v
  it.each<[string, LinearLayout, number, number?]>([
    ['an element size of 3 bytes', sharedLL(ROW_MAJOR_16X8), 3],
    ['a vector width of 4, whose values are not contiguous in the tile', sharedLL(ROW_MAJOR_16X8), 2, 4],
    ['a shared LL over a smaller tile (8 × 8)', sharedLL(ROW_MAJOR_16X8.slice(0, 6), [8, 8]), 2],
    ['a shared LL that is not surjective', sharedLL([...ROW_MAJOR_16X8.slice(0, 6), [4, 0]]), 2],
    ['a shared LL with block bases', sharedLL(ROW_MAJOR_16X8, [16, 8], [[0, 0]]), 2],
  ])('refuses what the model does not take: %s', (_, s, e, v) => {
    const r = llFromEncoding(MMA_V2, [16, 8]);
    expect(outcome(() => llBankConflicts(r, s, e, v))).toBe('domain');
  });
});
