/** Grid geometry and tilings of pictures (src/render/grid.ts, tiles.ts) against brute-force Φ. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LayoutError } from '../../src/algebra/errors.js';
import { parseLayout } from '../../src/algebra/notation.js';
import { cellOf, gridShape, makePicture } from '../../src/render/grid.js';
import { divisionTiling, modeTiling } from '../../src/render/tiles.js';
import { complementB, concatB, mulberry32, orderedFactorizations, phiB, pick, randInt, showL, sizeB, type BL } from '../helpers/brute.js';
import { randomComplementable, randomLayout } from '../helpers/arbitraries.js';

const L = (b: BL) => parseLayout(showL(b));

describe('gridShape and makePicture', () => {
  it('cell (r, c) holds Φ(r + rows·c); rows = size of mode 1 (rank ≥ 2) or 1', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), (seed) => {
        const b = randomLayout(mulberry32(seed), { maxSize: 512 });
        const l = L(b);
        const p = makePicture(l);
        const n = sizeB(b);
        const rank = typeof b.shape === 'number' ? 1 : b.shape.length;
        const rows = rank <= 1 ? 1 : sizeB({ shape: (b.shape as BL['shape'][])[0]!, stride: (b.stride as BL['shape'][])[0]! });
        expect(p.grid.rows).toBe(rows);
        expect(p.grid.rows * p.grid.cols).toBe(n);
        const seen = new Set<number>();
        for (let r = 0; r < p.grid.rows; r++) {
          for (let c = 0; c < p.grid.cols; c++) {
            const x = p.grid.index(r, c);
            expect(x).toBe(r + rows * c);
            expect(cellOf(p.grid.rows, x)).toEqual({ row: r, col: c });
            seen.add(x);
            expect(p.offsets[x]).toBe(phiB(b, x));
          }
        }
        expect(seen.size).toBe(n);
      }),
      { numRuns: 150 },
    );
  });

  it('the semantics example (4,8):(1,4) is 4 × 8, column-major', () => {
    const g = gridShape(parseLayout('(4,8):(1,4)'));
    expect([g.rows, g.cols, g.index(3, 7)]).toEqual([4, 8, 31]);
  });

  it('too large: bad-request naming the size and the limit', () => {
    const e = (() => {
      try {
        makePicture(parseLayout('(256,257):(1,256)'));
      } catch (x) {
        return x;
      }
    })();
    expect(e).toBeInstanceOf(LayoutError);
    expect((e as LayoutError).kind).toBe('bad-request');
    expect((e as LayoutError).message).toMatch(/65792.*65536/);
    expect(makePicture(parseLayout('(256,257):(1,256)'), { max: 1 << 20 }).offsets.length).toBe(65792);
  });
});

describe('divisionTiling (A ⊘ B, Remark 2.3.8.3)', () => {
  it('index j of A is entry e of tile t exactly when Φ_(B, comp(B, |A|))(e + |B|·t) = j', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), (seed) => {
        const rng = mulberry32(seed);
        const { a: bB, n } = randomComplementable(rng, 1024);
        // any A of size n: a random factorisation of n with random strides
        const fs = pick(rng, orderedFactorizations(n).slice(0, 64));
        const aB: BL = { shape: fs.length ? fs : [1], stride: (fs.length ? fs : [1]).map(() => randInt(rng, 0, 40)) };
        const t = divisionTiling(L(aB), L(bB));
        const ts = sizeB(bB);
        expect(t.tileSize).toBe(ts);
        expect(t.tiles * ts).toBe(n);
        const bc = concatB(bB, complementB(bB, n)!);
        const hit = new Set<number>();
        for (let j = 0; j < n; j++) {
          const te = t.tileOf(j)!;
          expect(te).not.toBeNull();
          expect(te.entry).toBeLessThan(ts);
          expect(phiB(bc, te.entry + ts * te.tile)).toBe(j);
          hit.add(te.entry + ts * te.tile);
        }
        expect(hit.size).toBe(n);
        expect(t.tileOf(n)).toBeNull();
        expect(t.tileOf(-1)).toBeNull();
      }),
      { numRuns: 150 },
    );
  });

  it('B not |A|-complementable: not-complementable', () => {
    expect(() => divisionTiling(parseLayout('(4,8):(1,4)'), parseLayout('3:1'))).toThrow(expect.objectContaining({ kind: 'not-complementable' }));
  });
});

describe('modeTiling (results of ⊘ and ⊗)', () => {
  it('mode 1 is the tile: x is entry x mod |mode 1| of tile ⌊x / |mode 1|⌋', () => {
    const r = parseLayout('((2,2),(2,4)):((1,4),(2,8))');
    const t = modeTiling(r);
    expect([t.tiles, t.tileSize]).toEqual([8, 4]);
    for (let x = 0; x < 32; x++) expect(t.tileOf(x)).toEqual({ tile: Math.floor(x / 4), entry: x % 4 });
    expect(t.tileOf(32)).toBeNull();
    expect(() => modeTiling(parseLayout('():()'))).toThrow(expect.objectContaining({ kind: 'domain' }));
  });
});
