/**
 * Composed layouts Sw<B,M,S> o K o L (docs/semantics.md §9.1) in the evaluator: Φ(x) = Sw(K + Φ_L(x)).
 * The CPU backend against a brute force (phiComposed of src/cute/composed.ts), the GPU
 * backend against the CPU backend: eval, digest, compact, compose (B, A and C composed) and
 * tiles; the 64-bit paths; the generated WGSL applies the XOR after the layout function.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LayoutError } from '../../src/algebra/errors.js';
import { makeLayout, size, type Layout } from '../../src/algebra/layout.js';
import { parseLayout } from '../../src/algebra/notation.js';
import { makeComposed, phiComposed, type ComposedLayout, type LayoutFunction } from '../../src/cute/composed.js';
import type { Swizzle } from '../../src/cute/swizzle.js';
import { wgslFor } from '../../src/engine/codegen.js';
import { CpuBackend } from '../../src/engine/cpu.js';
import type { NodeDevice } from '../../src/engine/node/device-node.js';
import { GpuBackend } from '../../src/engine/gpu.js';
import { runOp } from '../../src/ops/table.js';
import { testDevice } from './gpu-device.js';
import { int, randomLayout, rng } from './gen.js';

const cpu = new CpuBackend();
let dev: NodeDevice;
let gpu: GpuBackend;
let small: GpuBackend;

beforeAll(async () => {
  dev = await testDevice();
  gpu = new GpuBackend(dev.device, { adapter: 'test', software: true });
  small = new GpuBackend(dev.device, { adapter: 'test', software: true, walk: 'hardware', gridGroups: 2, maxChunk: 999 });
});
afterAll(() => dev?.release());

const j = (x: unknown) => JSON.stringify(x, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
const sw = (bits: number, base: number, shift: number): Swizzle => ({ bits, base, shift });
const composed = (s: Swizzle, offset: number, inner: Layout): ComposedLayout => ({ kind: 'composed', swizzle: s, offset, inner });

/** a random valid swizzle (|S| ≥ B) */
function randomSwizzle(r: () => number): Swizzle {
  const bits = int(r, 0, 3);
  const shift = (r() < 0.3 ? -1 : 1) * int(r, bits, bits + 3);
  return sw(bits, int(r, 0, 4), shift);
}

function bruteEval(l: ComposedLayout, lo: number, hi: number): number[] {
  return Array.from({ length: hi - lo }, (_, i) => phiComposed(l, lo + i));
}

function bruteCompact(l: ComposedLayout): { image: number; outOfRange: number } {
  const n = size(l.inner);
  const seen = new Set<number>();
  let oor = 0;
  for (let x = 0; x < n; x++) {
    const v = phiComposed(l, x);
    if (v >= n) oor++;
    else seen.add(v);
  }
  return { image: seen.size, outOfRange: oor };
}

describe('composed layouts on the CPU backend (vs brute force)', () => {
  it('eval, digest and compact of 150 random Sw o K o L', async () => {
    const r = rng(77);
    for (let t = 0; t < 150; t++) {
      const l = composed(randomSwizzle(r), r() < 0.5 ? 0 : int(r, 0, 100), randomLayout(r, 2048));
      const n = size(l.inner);
      const lo = int(r, 0, n);
      const hi = int(r, lo, n);
      const want = bruteEval(l, lo, hi);
      expect(Array.from(await cpu.evalRange(l, lo, hi)), j(l)).toEqual(want);
      const d = await cpu.digestRange(l, lo, hi);
      expect(d.sum, j(l)).toBe(want.reduce((a, b) => a + BigInt(b), 0n));
      expect(d.min).toBe(want.length ? Math.min(...want) : null);
      const c = await cpu.checkCompact(l);
      const b = bruteCompact(l);
      expect([c.image, c.outOfRange], j(l)).toEqual([b.image, b.outOfRange]);
      if (c.witness?.length === 2) expect(phiComposed(l, c.witness[0])).toBe(phiComposed(l, c.witness[1]!));
    }
  });

  it('a swizzle of a compact layout stays compact: Sw<3,3,3> o (8,64):(64,1)', async () => {
    const l = composed(sw(3, 3, 3), 0, parseLayout('(8,64):(64,1)'));
    expect((await cpu.checkCompact(l)).compact).toBe(true);
    // bits 6–8 XORed into bits 3–5: Φ(1) = Sw(64) = 64 ^ 8
    expect(Array.from(await cpu.evalRange(l, 0, 10))).toEqual([0, 72, 144, 216, 288, 360, 432, 504, 1, 73]);
  });
});

describe('composed layouts on the GPU backend (== CPU)', () => {
  it('eval, digest and compact of 30 random Sw o K o L', async () => {
    const r = rng(78);
    for (let t = 0; t < 30; t++) {
      const l = composed(randomSwizzle(r), r() < 0.5 ? 0 : int(r, 0, 100), randomLayout(r, 4096, t % 5 === 4));
      const n = size(l.inner);
      const lo = int(r, 0, n);
      const hi = int(r, lo, n);
      const b = t % 2 ? small : gpu;
      expect(Array.from(await b.evalRange(l, lo, hi)), j(l)).toEqual(Array.from(await cpu.evalRange(l, lo, hi)));
      expect(j(await b.digestRange(l, lo, hi)), j(l)).toBe(j(await cpu.digestRange(l, lo, hi)));
      expect(j(await b.checkCompact(l)), j(l)).toBe(j(await cpu.checkCompact(l)));
    }
  }, 300_000);

  it('offsets past 2^32: a swizzle into bit 33, and K past 2^32', async () => {
    const cases: LayoutFunction[] = [
      composed(sw(2, 0, -33), 0, parseLayout('(64,64):(1,64)')),
      composed(sw(3, 30, 3), 2 ** 32 + 5, parseLayout('(16,1024):(1,16)')),
      composed(sw(3, 4, 3), 7, parseLayout('(64,65536):(65536,1)')),
    ];
    for (const l of cases) {
      const n = size((l as ComposedLayout).inner);
      const lo = Math.max(0, n - 3000);
      const want = bruteEval(l as ComposedLayout, lo, n);
      expect(Array.from(await cpu.evalRange(l, lo, n)), j(l)).toEqual(want);
      expect(Array.from(await small.evalRange(l, lo, n)), j(l)).toEqual(want);
      expect(j(await small.digestRange(l, lo, n)), j(l)).toBe(j(await cpu.digestRange(l, lo, n)));
    }
    const wide = cases[0]!;
    expect(j(await gpu.checkCompact(wide))).toBe(j(await cpu.checkCompact(wide)));
  });

  it('check_compose with composed B, A and C', async () => {
    const s = sw(2, 1, 2);
    const inner = parseLayout('(4,8):(8,1)');
    const B = composed(s, 0, makeLayout(64, 1)); // Sw itself on [0, 64)
    const A = parseLayout('(4,8):(8,1)');
    const C = composed(s, 0, inner); // Sw ∘ A
    for (const b of [gpu, small]) {
      expect(j(await b.checkCompose(B, A, C))).toBe(j(await cpu.checkCompose(B, A, C)));
      expect((await b.checkCompose(B, A, C)).equal).toBe(true);
      // A composed: Sw o A then the identity of 64
      expect(j(await b.checkCompose(makeLayout(64, 1), C, C))).toBe(j(await cpu.checkCompose(makeLayout(64, 1), C, C)));
      // a wrong candidate
      const wrong = composed(sw(2, 1, 3), 0, inner);
      expect(j(await b.checkCompose(B, A, wrong))).toBe(j(await cpu.checkCompose(B, A, wrong)));
    }
    // a composed A whose offsets reach beyond size(B): domain, on both backends
    const far = composed(sw(2, 0, -6), 0, parseLayout('(4,8):(8,1)')); // offsets up to 255
    for (const b of [cpu, gpu]) {
      const e = await b.checkCompose(makeLayout(64, 1), far, far).then(
        () => null,
        (x: unknown) => x,
      );
      expect((e as LayoutError).kind).toBe('domain');
    }
  });

  it('tile maps of a composed A keep the swizzle', async () => {
    const A = composed(sw(3, 0, 3), 0, parseLayout('(8,8):(8,1)'));
    const B = parseLayout('(2,4):(1,8)');
    expect(j(await gpu.tileMap(A, B))).toBe(j(await cpu.tileMap(A, B)));
    expect((await cpu.tileMap(A, B)).covers).toBe(true);
  });

  it('the generated WGSL applies the XOR after the layout function', () => {
    const src = wgslFor(composed(sw(3, 3, 3), 0, parseLayout('(8,64):(64,1)')), 'eval');
    expect(src).toContain('Sw<3,3,3> o 0 o (8,64):(64,1)');
    expect(src).toMatch(/return y \^ \(\(y & 448u\) >> 3u\);/);
    // each index's value is l_value (the outer function) of the walked offset, then stored
    expect(src).toContain('visit(l_value(w.o), i);');
    expect(src).toContain('out[i] = v;');
  });
});

describe('any swizzle the CPU accepts, the GPU accepts with the same answer (issue 18 item 4)', () => {
  /** a valid swizzle whose fields may lie anywhere: bits up to 40, M and |S| up to 1000 */
  function wildSwizzle(r: () => number): Swizzle {
    const bits = int(r, 0, 40);
    const far = r() < 0.5;
    const shift = (r() < 0.4 ? -1 : 1) * (far ? int(r, Math.max(bits, 20), 1000) : int(r, bits, bits + 4));
    return sw(bits, far && r() < 0.5 ? int(r, 20, 1000) : int(r, 0, 12), shift);
  }

  it('the reproducers: shifts of 32 and more, masks past 2^64 (eval, digest, compact, compose, tiles)', async () => {
    const A = parseLayout('(64,64):(64,1)');
    const cases: LayoutFunction[] = [
      composed(sw(1, 0, 32), 0, A),
      composed(sw(1, 0, 52), 0, A),
      composed(sw(33, 0, 33), 0, A),
      composed(sw(3, 1000, 3), 0, makeLayout(2 ** 53 - 1, 1)),
      composed(sw(3, 33, 30), 4294967295, makeLayout(32, 8589934599)),
      composed(sw(3, 40, 30), 2147483651, makeLayout(32, 4294967296)),
      composed(sw(1, 40, 1), 0, A),
    ];
    for (const l of cases) {
      const n = Math.min(size((l as ComposedLayout).inner), 4096);
      const want = bruteEval(l as ComposedLayout, 0, n);
      for (const b of [gpu, small]) {
        expect(Array.from(await b.evalRange(l, 0, n)), j(l)).toEqual(want);
        expect(j(await b.digestRange(l, 0, n)), j(l)).toBe(j(await cpu.digestRange(l, 0, n)));
      }
      // the generated code never shifts a u32 by 32 or more, nor carries a constant past u32
      for (const k of ['eval', 'digest', 'compact'] as const) expect(wgslFor(l, k), j(l)).not.toMatch(/[<>]{2} (3[2-9]|[4-9]\d|\d{3,})u/);
    }
    const tile = composed(sw(1, 0, 32), 0, A);
    expect(j(await gpu.checkCompact(tile))).toBe(j(await cpu.checkCompact(tile)));
    expect((await gpu.checkCompact(tile)).compact).toBe(true);
    expect(j(await gpu.tileMap(tile, parseLayout('(4,4):(1,4)')))).toBe(j(await cpu.tileMap(tile, parseLayout('(4,4):(1,4)'))));
    const C = composed(sw(3, 40, 30), 2147483651, makeLayout(32, 4294967296));
    expect(j(await gpu.checkCompose(makeLayout(2 ** 40, 1), makeLayout(32, 1), C))).toBe(
      j(await cpu.checkCompose(makeLayout(2 ** 40, 1), makeLayout(32, 1), C)),
    );
  });

  it('eval, digest and compact of 40 random layouts under swizzles with far fields (GPU == CPU == the definition)', async () => {
    const r = rng(1818);
    for (let t = 0; t < 40; t++) {
      const s = wildSwizzle(r);
      const inner = randomLayout(r, 4096, t % 4 === 3);
      let l: ComposedLayout;
      try {
        l = makeComposed(s, r() < 0.5 ? 0 : int(r, 0, 2 ** 20), inner);
      } catch {
        continue; // offsets past 2^53 (a left shift into high bits): refused on both backends alike
      }
      const n = size(inner);
      const lo = int(r, 0, n);
      const hi = Math.min(n, lo + 3000);
      const want = bruteEval(l, lo, hi);
      expect(Array.from(await cpu.evalRange(l, lo, hi)), j(l)).toEqual(want);
      const b = t % 2 ? small : gpu;
      expect(Array.from(await b.evalRange(l, lo, hi)), j(l)).toEqual(want);
      expect(j(await b.digestRange(l, lo, hi)), j(l)).toBe(j(await cpu.digestRange(l, lo, hi)));
      if (n <= 4096) expect(j(await b.checkCompact(l)), j(l)).toBe(j(await cpu.checkCompact(l)));
    }
  }, 300_000);
});

describe('the bulk-check ops take composed layouts (batch, CLI)', () => {
  it('eval_range, digest_range, check_compact, check_compose and tile_map on both backends', async () => {
    for (const b of [cpu, gpu]) {
      const ctx = { backendChoice: b.info.backend, backend: async () => b };
      const L = 'Sw<3,3,3> o (8,64):(64,1)';
      expect(await runOp('eval_range', [L, 0, 10], ctx)).toEqual([0, 72, 144, 216, 288, 360, 432, 504, 1, 73]);
      expect(await runOp('check_compact', [L], ctx)).toEqual({ compact: true, image: 512, outOfRange: 0, collisions: 0, witness: null });
      // Sw<1,0,1> moves bit 1 into bit 0: 3, 4, 5, 6 ↦ 2, 4, 5, 7
      expect(await runOp('digest_range', ['Sw<1,0,1> o 3 o 4:1', 0, 4], ctx)).toEqual({ count: 4, sum: '18', min: 2, max: 7 });
      // without C: Sw o (L∘A), certified
      const r = (await runOp('check_compose', ['Sw<2,1,2> o 64:1', '(4,8):(8,1)'], ctx)) as { equal: boolean; composite: string };
      expect(r.equal).toBe(true);
      expect(r.composite).toContain('Sw<2,1,2>');
      // a composed A without C: domain
      await expect(runOp('check_compose', ['64:1', 'Sw<2,1,2> o (4,8):(8,1)'], ctx)).rejects.toMatchObject({ kind: 'domain' });
      const t = (await runOp('tile_map', ['Sw<3,0,3> o (8,8):(8,1)', '(2,4):(1,8)'], ctx)) as { tileSize: number };
      expect(t.tileSize).toBe(8);
    }
  });
});
