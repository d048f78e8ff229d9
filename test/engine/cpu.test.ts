import type { LayoutError } from '../../src/algebra/errors.js';
import { describe, expect, it } from 'vitest';
import { parseLayout } from '../../src/algebra/notation.js';
import { phi, size, cosize } from '../../src/algebra/layout.js';
import { CpuBackend, setCpuWindowForTests } from '../../src/engine/cpu.js';
import { closedMinMax, closedSum, prepare } from '../../src/engine/prep.js';
import { randomLayout, rng, int } from './gen.js';

const cpu = new CpuBackend();

function brute(l: ReturnType<typeof parseLayout>, lo: number, hi: number) {
  let sum = 0n;
  let min = Infinity;
  let max = -Infinity;
  const v: number[] = [];
  for (let x = lo; x < hi; x++) {
    const o = phi(l, x);
    v.push(o);
    sum += BigInt(o);
    if (o < min) min = o;
    if (o > max) max = o;
  }
  return { v, sum, min, max };
}

function bruteCompact(l: ReturnType<typeof parseLayout>) {
  const n = size(l);
  const seen = new Map<number, number>();
  let oor = 0;
  let oorW = -1;
  for (let x = 0; x < n; x++) {
    const o = phi(l, x);
    if (o >= n) {
      oor++;
      if (oorW < 0) oorW = x;
    } else seen.set(o, (seen.get(o) ?? 0) + 1);
  }
  return { image: seen.size, oor, coll: n - oor - seen.size, oorW };
}

describe('CPU backend (generated JavaScript)', () => {
  it('eval and digest equal Φ pointwise on random layouts and ranges', async () => {
    const r = rng(7);
    for (let t = 0; t < 300; t++) {
      const l = randomLayout(r, 3000, t % 3 === 0);
      const n = size(l);
      const lo = int(r, 0, n);
      const hi = int(r, lo, n);
      const b = brute(l, lo, hi);
      expect(Array.from(await cpu.evalRange(l, lo, hi))).toEqual(b.v);
      const d = await cpu.digestRange(l, lo, hi);
      expect(d.count).toBe(hi - lo);
      expect(d.sum).toBe(b.sum);
      expect(d.min).toBe(hi > lo ? b.min : null);
      expect(d.max).toBe(hi > lo ? b.max : null);
      if (hi > lo) {
        const p = prepare(l);
        expect(closedSum(p, lo, hi)).toBe(b.sum);
        expect(closedMinMax(p, lo, hi)).toEqual({ min: b.min, max: b.max });
      }
    }
  });

  it('check_compact counts and witnesses agree with brute force (and windowed)', async () => {
    const r = rng(11);
    for (let t = 0; t < 300; t++) {
      const l = randomLayout(r, 3000);
      const b = bruteCompact(l);
      if (t % 2) setCpuWindowForTests(64);
      const c = await cpu.checkCompact(l);
      setCpuWindowForTests(null);
      expect(c.image).toBe(b.image);
      expect(c.outOfRange).toBe(b.oor);
      expect(c.collisions).toBe(b.coll);
      expect(c.compact).toBe(b.oor === 0 && b.coll === 0);
      if (b.oor > 0) expect(c.witness).toEqual([b.oorW]);
      else if (b.coll > 0) {
        const [x, y] = c.witness as [number, number];
        expect(x).toBeLessThan(y);
        expect(phi(l, x)).toBe(phi(l, y));
      } else expect(c.witness).toBeNull();
    }
  });

  it('the benchmark layouts are compact, and big ranges use the closed form', async () => {
    for (const t of ['(1024,1024):(1,1024)', '((8,16),(32,8)):((1,256),(8,4096))', '(11,13,15,17,19,21):(315,58905,1,3465,765765,15)']) {
      expect((await cpu.checkCompact(parseLayout(t))).compact).toBe(true);
    }
    const big = parseLayout('(1048576,1048576,1024):(1,1048576,1099511627776)');
    const d = await cpu.digestRange(big, 3, 2 ** 50 - 7);
    const p = prepare(big);
    expect(d.sum).toBe(closedSum(p, 3, 2 ** 50 - 7));
    expect(d.min).toBe(3);
    expect(d.max).toBe(cosize(big) - 8);
  });

  it('offsets and indices beyond 2^32 are exact', async () => {
    const l = parseLayout('(100000,100000):(100000,1)');
    const lo = 2 ** 33 + 12345;
    const b = brute(l, lo, lo + 3000);
    expect(Array.from(await cpu.evalRange(l, lo, lo + 3000))).toEqual(b.v);
    expect((await cpu.digestRange(l, lo, lo + 3000)).sum).toBe(b.sum);
  });

  it('sums stay exact when they pass 2^53 (flushes into the bigint)', async () => {
    for (const t of ['(8,1048576):(536870912,1)', '(4096,1048576):(1099511627776,1)', '(3,5,1048576):(1,3,4294967296)']) {
      const l = parseLayout(t);
      const hi = Math.min(size(l), 1 << 23);
      const d = await cpu.digestRange(l, 7, hi);
      expect(d.sum, t).toBe(closedSum(prepare(l), 7, hi));
      expect(d.sum > 2n ** 53n, t).toBe(true);
    }
  });

  it('timeouts are reported as kind timeout with what completed', async () => {
    const l = parseLayout('(4096,4096):(4096,1)');
    const e = await cpu.checkCompact(l, { timeoutMs: 0 }).then(
      () => null,
      (x: unknown) => x,
    );
    expect((e as LayoutError).kind).toBe('timeout');
    expect((e as LayoutError).message).toMatch(/deadline.*completed \d+ of \d+/);
  });
});
