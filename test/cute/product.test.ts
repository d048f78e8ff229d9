/**
 * CuTe's products (docs/semantics.md §8.3): logical_product by a tiler, zipped/tiled/flat_product,
 * blocked_product, raked_product, tile_to_shape. The examples of docs/semantics.md (and their CuTe prints),
 * and properties against brute force: each mode of a by-mode product is its definition
 * pointwise; zipped/tiled/flat elements map where the logical_product element with the same
 * (block, rest) maps; blocked and raked products have the block/tile coordinate relation.
 */
import { describe, expect, it } from 'vitest';
import type { Layout } from '../../src/algebra/layout.js';
import { formatLayout, parseLayout } from '../../src/algebra/notation.js';
import { makeOrderedLayout } from '../../src/cute/make.js';
import { blockedProduct, flatProduct, logicalProductByMode, rakedProduct, tiledProduct, tileToShape, zippedProduct } from '../../src/cute/product.js';
import { pick, productB, randInt, sameFunction, showL, sizeB, type BL, type Tup } from '../helpers/brute.js';
import { err, ok } from '../algebra/_run.js';
import { cutePrint, evalAt, forSeeds, modeB, modesB, randomTileable, rankOf, tupleB } from './_vocab.js';
import { checkByMode, type ByMode } from './_bymode.js';
import { checkForms } from './_forms.js';
import { kindOf } from './_seeds.js';

describe('docs/semantics.md §8.3 examples (and the same with CuTe-printed input)', () => {
  const cases: Array<[string, string, string, string]> = [
    ['zipped_product', '(2,2):(1,2)', '(3,4)', '((2,2),(3,(2,2))):((1,2),(2,(1,4)))'],
    ['logical_product', '(2,2):(1,2)', '(3,4)', '((2,3),(2,(2,2))):((1,2),(2,(1,4)))'],
    ['tiled_product', '(2,2):(1,2)', '(3,4)', '((2,2),3,(2,2)):((1,2),2,(1,4))'],
    ['flat_product', '(2,2):(1,2)', '(3,4)', '(2,2,3,(2,2)):(1,2,2,(1,4))'],
    ['blocked_product', '(3,4):(4,1)', '(2,5):(1,2)', '((3,2),(4,5)):((4,12),(1,24))'],
    ['raked_product', '(3,4):(4,1)', '(2,5):(1,2)', '((2,3),(5,4)):((12,4),(24,1))'],
    ['blocked_product', '4:1', '3:1', '((4,3)):((1,4))'],
    ['tile_to_shape', '(2,2):(1,2)', '(8,6)', '((2,4),(2,3)):((1,4),(2,16))'],
  ];
  for (const [name, a, t, want] of cases) {
    it(`${name}(${a}, ${t}) = ${want}`, () => {
      expect(ok(name, a, t)).toBe(want);
      expect(ok(name, cutePrint(a), cutePrint(t))).toBe(want);
      expect(ok('parse', cutePrint(want))).toBe(want);
    });
  }

  it("logical_product by a layout is the paper's A ⊗ B (§6)", () => {
    expect(ok('logical_product', '(2,2):(1,2)', '(3,4):(1,3)')).toBe('((2,2),(3,4)):((1,2),(4,12))');
  });

  it('tile_to_shape with an order, with an integer shape, and with more modes than the block', () => {
    expect(ok('tile_to_shape', '(2,2):(1,2)', '(8,6)', '(1,0)')).toBe('((2,4),(2,3)):((1,12),(2,4))');
    expect(ok('tile_to_shape', '(2,2):(1,2)', '(8,6)', 'row')).toBe('((2,4),(2,3)):((1,12),(2,4))');
    expect(ok('tile_to_shape', '4:1', '12')).toBe('((4,3)):((1,4))');
    expect(ok('tile_to_shape', '4:1', '(8,3)')).toBe('((4,2),(1,3)):((1,4),(0,8))');
  });
});

describe('bad input', () => {
  it('tile_to_shape: a block that does not divide the shape, or of higher rank: domain', () => {
    const e = err('tile_to_shape', '(2,4):(1,2)', '(8,6)');
    expect(e.kind).toBe('domain');
    expect(e.message).toMatch(/mode 2.*size 4.*6/);
    expect(err('tile_to_shape', '(2,2,2):(1,2,4)', '(8,6)').kind).toBe('domain');
    expect(err('tile_to_shape', '(2,2):(1,2)', '(8,6)', '(0,0)').kind).toBe('domain');
    expect(err('tile_to_shape', '(2,2):(1,2)', '(8,6)', '(0,1,2)').kind).toBe('domain');
    expect(err('tile_to_shape', '(2,2):(1,2)', '(8,6)', 7).kind).toBe('bad-request');
  });

  it('blocked/raked products take layouts, not tilers', () => {
    expect(err('blocked_product', '(3,4):(4,1)', '<2,5>').kind).toBe('domain');
    expect(err('raked_product', '_', '(2,5):(1,2)').kind).toBe('domain');
  });

  it('product tilers with more modes than the layout name both counts', () => {
    for (const name of ['zipped_product', 'tiled_product', 'flat_product']) {
      const e = err(name, '(2,2):(1,2)', '(3,4,5)');
      expect(e.kind).toBe('domain');
      expect(e.message).toContain(name);
      expect(e.message).toMatch(/3 modes.*rank 2/);
    }
  });
});

/** An A for the ranked products: rank 1–3, small. */
function smallLayout(rng: () => number, maxSize: number): BL {
  return randomTileable(rng, maxSize);
}

/** A random B for blocked/raked: rank 1–3 compact-ish, small. */
function smallTiler(rng: () => number): BL {
  const r = randInt(rng, 1, 3);
  const ms: BL[] = [];
  let stride = 1;
  for (let i = 0; i < r; i++) {
    const s = pick(rng, [1, 2, 3]);
    ms.push({ shape: s, stride: s === 1 ? 0 : stride * pick(rng, [1, 1, 2]) });
    stride *= s * 2;
  }
  return r === 1 && rng() < 0.5 ? ms[0]! : tupleB(ms);
}

/** L padded with 1:0 modes to rank r. */
function padB(l: BL, r: number): BL {
  const ms = modesB(l);
  if (ms.length >= r) return l;
  while (ms.length < r) ms.push({ shape: 1, stride: 0 });
  return tupleB(ms);
}

describe('properties against brute force', () => {
  it('logical_product by a tiler: each mode is its definition pointwise', () => {
    const op: ByMode = { name: 'logical_product', lib: logicalProductByMode, brute: productB, keep: true, failures: ['not-complementable', 'not-composable'] };
    expect(checkByMode(op, 100, 64)).toBeGreaterThan(30);
  });

  it('zipped/tiled/flat_product: every element maps where logical_product maps the same (block, rest)', () => {
    const forms = { name: 'logical_product', logical: logicalProductByMode, zipped: zippedProduct, tiled: tiledProduct, flat: flatProduct };
    expect(checkForms(forms, 100, 64)).toBeGreaterThan(30);
  });

  it('blocked and raked products: Φ((a_i, c_i)_i) = Φ_A′(a) + Φ_C(c) with (A′, C) = A′ ⊗ B′ (block first / tile first)', () => {
    let checked = 0;
    forSeeds(100, (rng) => {
      const a = smallLayout(rng, 32);
      const b = smallTiler(rng);
      const tag = `(${showL(a)}, ${showL(b)})`;
      const r = Math.max(rankOf(a), rankOf(b));
      const a2 = padB(a, r);
      const b2 = padB(b, r);
      const p = productB(a2, b2);
      let bl: Layout | undefined;
      const kind = kindOf(() => (bl = blockedProduct(a as Layout, b as Layout)));
      if (p === null) {
        expect(['not-complementable', 'not-composable'], tag).toContain(kind);
        return;
      }
      expect(kind, `${tag}: ${kind}`).toBe('ok');
      const ra = rakedProduct(a as Layout, b as Layout);
      const c = modeB(p, 2);
      const am = modesB(a2);
      const cm = typeof b2.shape === 'number' ? [c] : modesB(c);
      expect(rankOf(bl!), tag).toBe(r);
      expect(rankOf(ra), tag).toBe(r);
      // every (a, c) coordinate pair, mode by mode
      const coords: Array<{ a: number[]; c: number[] }> = [{ a: [], c: [] }];
      let all = coords;
      for (let i = 0; i < r; i++) {
        const next: typeof coords = [];
        for (const x of all) for (let u = 0; u < sizeB(am[i]!); u++) for (let v = 0; v < sizeB(cm[i]!); v++) next.push({ a: [...x.a, u], c: [...x.c, v] });
        all = next;
      }
      for (const { a: ac, c: cc } of all) {
        const want = am.reduce((s, m, i) => s + evalAt(m, ac[i]!), 0) + cm.reduce((s, m, i) => s + evalAt(m, cc[i]!), 0);
        const blockedAt: Tup = ac.map((u, i) => [u, cc[i]!]);
        const rakedAt: Tup = ac.map((u, i) => [cc[i]!, u]);
        expect(evalAt(bl!, blockedAt), `blocked ${formatLayout(bl!)} ${tag} at ${JSON.stringify(blockedAt)}`).toBe(want);
        expect(evalAt(ra, rakedAt), `raked ${formatLayout(ra)} ${tag} at ${JSON.stringify(rakedAt)}`).toBe(want);
      }
      checked++;
    });
    expect(checked).toBeGreaterThan(30);
  });

  it('tile_to_shape is blocked_product by the compact layout of the repetition counts; its modes have the sizes of S', () => {
    forSeeds(80, (rng) => {
      const a = randomTileable(rng, 16);
      const r = rankOf(a) + randInt(rng, 0, 1);
      const am = modesB(padB(a, r));
      const counts = am.map(() => randInt(rng, 1, 3));
      const s: Tup = am.map((m, i) => sizeB(m) * counts[i]!);
      const order = pick(rng, ['col', 'row'] as const);
      const tag = `tile_to_shape(${showL(a)}, (${(s as number[]).join(',')}), ${order})`;
      let got: Layout | undefined;
      const kind = kindOf(() => (got = tileToShape(a as Layout, s, order)));
      if (kind !== 'ok') {
        expect(['not-complementable', 'not-composable'], tag).toContain(kind);
        return;
      }
      const want = blockedProduct(padB(a, r) as Layout, makeOrderedLayout(counts, order));
      expect(formatLayout(got!), tag).toBe(formatLayout(want));
      for (let i = 1; i <= r; i++) expect(sizeB(modeB(got!, i)), tag).toBe((s as number[])[i - 1]);
      expect(sameFunction(got!, parseLayout(formatLayout(want)))).toBe(true);
    });
  });
});
