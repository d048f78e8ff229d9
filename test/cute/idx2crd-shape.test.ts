/**
 * idx2crd needs only the shape (CuTe `idx2crd`, docs/vocabulary.md): over a shape whose compact strides pass 2^53 − 1
 * (the fuzz's (1073741824,1073741824,1073741824)) the coordinate of every index below 2^53 still exists, and it is
 * answered exactly, not refused with `overflow` from a stride nobody asked for. Oracle: the colexicographic
 * coordinate by BigInt division over the flat shape, nested like the shape.
 */
import { describe, expect, it } from 'vitest';
import { LayoutError } from '../../src/algebra/errors.js';
import { runOpDirect } from '../../src/ops/table.js';
import type { OpContext } from '../../src/ops/spec.js';
import { randInt } from '../helpers/brute.js';
import { seededRuns } from '../helpers/seeds.js';

const ctx: OpContext = {
  backendChoice: 'cpu',
  backend: () => Promise.reject(new Error('no backend in these tests')),
};

type Nest = number | Nest[];

const shapeText = (s: Nest): string => (typeof s === 'number' ? String(s) : `(${s.map(shapeText).join(',')})`);

/** The colexicographic coordinate of x in shape s by BigInt division, printed nested like s (null when x ≥ size(s)). */
function coordB(x: bigint, s: Nest): string | null {
  let rest = x;
  const go = (t: Nest): string => {
    if (typeof t !== 'number') return `(${t.map(go).join(',')})`;
    const c = rest % BigInt(t);
    rest /= BigInt(t);
    return String(c);
  };
  const out = go(s);
  return rest === 0n ? out : null;
}

const sizeB = (s: Nest): bigint => (typeof s === 'number' ? BigInt(s) : s.reduce<bigint>((p, t) => p * sizeB(t), 1n));

const forSeeds = seededRuns(0x1d2c5d);

describe('idx2crd over shapes whose strides pass 2^53 − 1', () => {
  it('(1073741824,1073741824,1073741824): index 1 is (1,0,0), 2^53 − 1 is (2^30 − 1, 2^23 − 1, 0)', () => {
    const s = '(1073741824,1073741824,1073741824)';
    expect(runOpDirect('idx2crd', [1, s], ctx)).toBe(coordB(1n, [2 ** 30, 2 ** 30, 2 ** 30]));
    expect(runOpDirect('idx2crd', [1, s], ctx)).toBe('(1,0,0)');
    expect(runOpDirect('idx2crd', [2 ** 53 - 1, s], ctx)).toBe(coordB(2n ** 53n - 1n, [2 ** 30, 2 ** 30, 2 ** 30]));
    // the CLI's text form too
    expect(runOpDirect('idx2crd', ['1', s], ctx, true)).toBe('(1,0,0)');
  });

  it('random nested shapes with entries up to 2^30 and indices up to 2^53 − 1: the BigInt coordinate', () => {
    forSeeds(200, (rng) => {
      const entry = (): number => (rng() < 0.3 ? randInt(rng, 1, 7) : randInt(rng, 1, 2 ** 30));
      const shape: Nest[] = Array.from({ length: randInt(rng, 1, 4) }, () => (rng() < 0.3 ? [entry(), entry()] : entry()));
      const size = sizeB(shape);
      const top = size < 2n ** 53n ? Number(size) : 2 ** 53;
      // an index anywhere below the size (or 2^53), sometimes the last one
      const x = rng() < 0.2 ? top - 1 : Math.floor(rng() * top);
      const text = shapeText(shape);
      expect(runOpDirect('idx2crd', [x, text], ctx), `idx2crd(${x}, ${text})`).toBe(coordB(BigInt(x), shape));
      if (size < 2n ** 53n) {
        let err: unknown;
        try {
          runOpDirect('idx2crd', [Number(size), text], ctx);
        } catch (e) {
          err = e;
        }
        expect(err instanceof LayoutError && err.kind, `idx2crd(size, ${text})`).toBe('domain');
      }
    });
  });

  it('a layout or composed layout as S still gives its shape’s coordinate', () => {
    expect(runOpDirect('idx2crd', [9, '(4,(2,3)):(1,(4,8))'], ctx)).toBe(coordB(9n, [4, [2, 3]]));
    expect(runOpDirect('idx2crd', [9, 'Sw<1,2,3> o (4,(2,3)):(1,(4,8))'], ctx)).toBe(coordB(9n, [4, [2, 3]]));
  });
});
