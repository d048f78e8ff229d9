/**
 * F2 algebra (src/linear/f2.ts) against enumeration: the span of the columns is listed subset by
 * subset (BigInt vectors, up to 64 rows), and rank, pivots, solutions and the reduced row echelon
 * form are checked against it (docs/linear.md, "Bits").
 */
import { describe, expect, it } from 'vitest';
import { columnsOf, echelon, fromBigInt, independentColumns, lowestBit, popcount, rank, rref, solve, testBit, toBigInt, unit } from '../../src/linear/f2.js';
import { seededRuns } from '../helpers/seeds.js';
import { int, type Rng } from './_ll.js';

const forSeeds = seededRuns(0xf2f2);

/** A random vector of `rows` bits: sparse, dense or zero. */
function vector(rng: Rng, rows: number): bigint {
  const r = rng();
  if (rows === 0 || r < 0.1) return 0n;
  let v = 0n;
  const k = r < 0.6 ? int(rng, 1, 2) : int(rng, 1, rows);
  for (let i = 0; i < k; i++) v ^= 1n << BigInt(int(rng, 0, rows - 1));
  return v;
}

/** Every XOR of a subset of `cols`, as a map from value to the smallest subset mask giving it. */
function span(cols: readonly bigint[]): Map<bigint, number> {
  const m = new Map<bigint, number>();
  for (let s = 0; s < 2 ** cols.length; s++) {
    let v = 0n;
    cols.forEach((c, i) => {
      if ((s >> i) & 1) v ^= c;
    });
    if (!m.has(v)) m.set(v, s);
  }
  return m;
}

const cols = (vs: readonly bigint[]) => columnsOf(vs.map(fromBigInt));

describe('f2', () => {
  it('the bit helpers', () => {
    for (let k = 0; k < 64; k++) {
      const u = unit(k);
      expect(toBigInt(u)).toBe(1n << BigInt(k));
      expect(lowestBit(u.lo, u.hi)).toBe(k);
      expect(testBit(u, k)).toBe(true);
      expect(popcount(u)).toBe(1);
    }
    expect(lowestBit(0, 0)).toBe(-1);
    expect(popcount(fromBigInt((1n << 64n) - 1n))).toBe(64);
  });

  it('rank, pivots and solutions agree with the enumerated span', () => {
    forSeeds(300, (rng) => {
      const rows = int(rng, 0, 64);
      const n = int(rng, 0, 11);
      const vs = Array.from({ length: n }, () => vector(rng, rows));
      const e = echelon(cols(vs));
      const sp = span(vs);
      expect(2 ** e.rank).toBe(sp.size);
      expect(rank(cols(vs))).toBe(e.rank);
      // column c is a pivot exactly when it is outside the span of the columns before it
      vs.forEach((v, c) => expect(e.pivots.includes(c)).toBe(!span(vs.slice(0, c)).has(v)));
      // every target: solvable exactly in the span, by pivot columns only, and the smallest subset
      for (let t = 0; t < 20; t++) {
        const target = rng() < 0.6 ? [...sp.keys()][int(rng, 0, sp.size - 1)]! : vector(rng, rows);
        const y = solve(e, fromBigInt(target));
        expect(y !== null).toBe(sp.has(target));
        if (y === null) continue;
        let sum = 0n;
        for (let c = 0; c < n; c++) {
          if (testBit(y, c)) {
            expect(e.pivots).toContain(c);
            sum ^= vs[c]!;
          }
        }
        expect(sum).toBe(target);
        expect(Number(toBigInt(y))).toBe(sp.get(target));
      }
    });
  });

  it('independentColumns counts the columns outside the span of those before them, and stops where it is told', () => {
    forSeeds(300, (rng) => {
      const rows = int(rng, 0, 64);
      const n = int(rng, 0, 11);
      const vs = Array.from({ length: n }, () => vector(rng, rows));
      const c = cols(vs);
      const independent = vs.map((v, k) => !span(vs.slice(0, k)).has(v));
      const rankSeen = (upTo: number): number => independent.slice(0, upTo).filter(Boolean).length;
      expect(independentColumns(c.lo, c.hi, n, n, false)).toBe(rankSeen(n));
      // to the first dependent column: the count of the columns before it
      const firstDependent = independent.indexOf(false);
      expect(independentColumns(c.lo, c.hi, n, n, true)).toBe(firstDependent < 0 ? n : firstDependent);
      // enough: the count is min(rank, enough)
      const enough = int(rng, 0, n);
      expect(independentColumns(c.lo, c.hi, n, enough, false)).toBe(Math.min(rankSeen(n), enough));
    });
  });

  it('rref: leading ones at the pivots, identity on the pivot columns, every column the combination of its row entries', () => {
    forSeeds(200, (rng) => {
      const rows = int(rng, 0, 64);
      const n = int(rng, 0, 12);
      const vs = Array.from({ length: n }, () => vector(rng, rows));
      const r = rref(cols(vs));
      expect(r.rows.length).toBe(r.pivots.length);
      r.rows.forEach((row, i) => {
        expect(lowestBit(row.lo, row.hi)).toBe(r.pivots[i]);
        r.pivots.forEach((p, k) => expect(testBit(row, p)).toBe(i === k));
      });
      vs.forEach((v, c) => {
        let sum = 0n;
        r.rows.forEach((row, i) => {
          if (testBit(row, c)) sum ^= vs[r.pivots[i]!]!;
        });
        expect(sum).toBe(v);
      });
    });
  });
});
