/**
 * Pasted text, names and one meaning per text (docs/semantics.md §8.1–8.4, §9.1): what CuTe, the
 * CuTe DSL and pycute print; a shape in a tiler position read by mode in the library as in the
 * ops; CuTe's names (composition, get, crd2idx, idx2crd); "did you mean"; make_layout's order.
 * Oracles: the brute-force definitions of test/helpers/brute.ts.
 */
import { describe, expect, it } from 'vitest';
import * as lib from '../../src/index.js';
import { runOpDirect } from '../../src/ops/table.js';
import type { OpContext } from '../../src/ops/spec.js';
import { closestNames } from '../../src/ops/cute-names.js';
import { divisionTiles } from '../../src/cli/show.js';
import { divisionTiling } from '../../src/render/tiles.js';
import { divideB, phiB, pick, productB, randInt, sameFunction, sizeB, type BL } from '../helpers/brute.js';
import { seededRuns } from '../helpers/seeds.js';

const ctx: OpContext = {
  backendChoice: 'cpu',
  backend: () => Promise.reject(new Error('no backend in these tests')),
};
const op = (name: string, ...args: unknown[]): unknown => runOpDirect(name, args, ctx);
const fails = (f: () => unknown): { kind: string; message: string } => {
  try {
    f();
  } catch (e) {
    return { kind: (e as lib.LayoutError).kind, message: (e as Error).message };
  }
  throw new Error('expected an error');
};
const asBL = (l: lib.Layout): BL => ({ shape: l.shape, stride: l.stride });
const modeBL = (l: lib.Layout, i: number): BL => asBL(lib.mode(l, i));

/** Sw<B,M,S>(y) bit by bit: bit i of the target field XOR bit i + S */
function swizzleB(b: number, m: number, s: number, y: number): number {
  let out = y;
  for (let i = m + Math.max(0, -s); i < m + Math.max(0, -s) + b; i++) out ^= ((Math.floor(y / 2 ** (i + s)) & 1) << i) >>> 0;
  return out;
}

describe('pasted text (docs/semantics.md §8.1, §9.1)', () => {
  it("reads the CuTe DSL's S<B,M,S> and pycute's SW_B_M_S as Sw<B,M,S>, Φ bit by bit", () => {
    seededRuns(0x5ace)(40, (rng) => {
      const b = randInt(rng, 0, 3);
      const m = randInt(rng, 0, 3);
      const s = randInt(rng, Math.max(b, 1), 4);
      const k = pick(rng, [0, 0, 3, 16]);
      const l: BL = { shape: [randInt(rng, 1, 8), randInt(rng, 1, 8)], stride: [randInt(rng, 0, 16), randInt(rng, 0, 3)] };
      const inner = `(${(l.shape as number[]).join(',')}):(${(l.stride as number[]).join(',')})`;
      const forms = [`S<${b},${m},${s}> o ${k} o ${inner}`, `SW_${b}_${m}_${s} o ${k} o ${inner}`, `Sw<${b},${m},${s}> o _${k} o ${inner}`];
      const canon = `Sw<${b},${m},${s}> o ${k > 0 ? `${k} o ` : ''}${inner}`;
      for (const f of forms) {
        const c = lib.parseLayoutFunction(f);
        expect(lib.formatLayoutFunction(c), f).toBe(canon);
        for (let x = 0; x < sizeB(l); x++) expect(lib.phiLayoutFunctionBig(c, x), `${f} at ${x}`).toBe(swizzleB(b, m, s, k + phiB(l, x)));
      }
      expect(op('parse', forms[1])).toBe(canon);
    });
  });

  it('names a print(tensor) line, a scaled-basis stride and a dynamic ? and says what to paste', () => {
    const tensor = fails(() => lib.parseLayoutFunction('ptr[16b](0x7f3a2c000000) o (_8,_64):(_64,_1)', 'L'));
    expect(tensor.kind).toBe('parse');
    expect(tensor.message).toMatch(/print\(tensor\).*paste the layout.*\(_8,_64\):\(_64,_1\)$/);
    expect(fails(() => op('parse', 'gmem_ptr[32b](0x1) o 8:1')).message).toMatch(/print\(tensor\).*: 8:1$/);
    const basis = fails(() => lib.parseLayout('(_8,_64):(_1@0,_1@1)', 'L'));
    expect(basis.kind).toBe('parse');
    expect(basis.message).toMatch(/'_1@0' at offset 10 is a scaled-basis stride.*paste/);
    const dyn = fails(() => op('size', '(8,?):(1,8)'));
    expect(dyn.kind).toBe('parse');
    expect(dyn.message).toMatch(/'\?' at offset 3 is a dynamic integer/);
    // anything else keeps the plain message
    expect(fails(() => lib.parseLayout('(8,x)', 'L')).message).toBe("L: expected an integer or '(' at offset 3, got 'x'");
  });
});

/** random A of rank 2 and a shape (t1, t2) dividing its modes */
function divisible(rng: () => number): { a: lib.Layout; t: [number, number] } {
  const t: [number, number] = [pick(rng, [1, 2, 4]), pick(rng, [1, 2, 3])];
  const s = [t[0] * pick(rng, [1, 2]), t[1] * pick(rng, [1, 2])];
  const a = lib.makeLayout(s, [randInt(rng, 1, 3), randInt(rng, 1, 4) * s[0]!]);
  return { a, t };
}

describe('one meaning per text: a shape in a tiler position is by mode (docs/semantics.md §8.2)', () => {
  it("the library's logicalDivide(A, parseLayout('(t1,t2)')) divides mode by mode, as the op does", () => {
    seededRuns(0xd1f1)(30, (rng) => {
      const { a, t } = divisible(rng);
      const text = `(${t.join(',')})`;
      const r = lib.logicalDivide(a, lib.parseLayout(text));
      expect(lib.formatLayout(r)).toBe(op('logical_divide', lib.formatLayout(a), text));
      expect(lib.formatLayout(r)).toBe(lib.formatLayout(lib.logicalDivide(a, lib.parseTiler(text))));
      for (const i of [1, 2]) {
        const want = divideB(modeBL(a, i), { shape: t[i - 1]!, stride: 1 });
        expect(want && sameFunction(modeBL(r, i), want), `${lib.formatLayout(a)} ⊘ ${text}, mode ${i}`).toBe(true);
      }
      // with strides, the same text is one-dimensional: the paper's A ⊘ B
      const oneD = lib.parseLayout(`${text}:(1,${t[0]})`);
      const want = divideB(asBL(a), asBL(oneD));
      if (want) expect(sameFunction(asBL(lib.logicalDivide(a, oneD)), want)).toBe(true);
      else expect(() => lib.logicalDivide(a, oneD)).toThrow(lib.LayoutError);
      expect(lib.formatLayout(lib.zippedDivide(a, lib.parseLayout(text)))).toBe(op('zipped_divide', lib.formatLayout(a), text));
    });
  });

  it("the library's logicalProduct and compose read a shape by mode too; explicit strides stay one-dimensional", () => {
    seededRuns(0x9a0d)(20, (rng) => {
      const { a, t } = divisible(rng);
      const text = `(${t.join(',')})`;
      const wants = [1, 2].map((i) => productB(modeBL(a, i), { shape: t[i - 1]!, stride: 1 }));
      if (wants.some((w) => w === null)) {
        // a mode with no product (its complement does not exist, docs/semantics.md §4): the library and the op refuse it
        expect(() => lib.logicalProduct(a, lib.parseLayout(text)), `${lib.formatLayout(a)} ⊗ ${text}`).toThrow(lib.LayoutError);
        expect(() => op('logical_product', lib.formatLayout(a), text)).toThrow(lib.LayoutError);
      } else {
        const p = lib.logicalProduct(a, lib.parseLayout(text));
        expect(lib.formatLayout(p)).toBe(op('logical_product', lib.formatLayout(a), text));
        for (const i of [1, 2]) expect(sameFunction(modeBL(p, i), wants[i - 1]!), `${lib.formatLayout(a)} ⊗ ${text}, mode ${i}`).toBe(true);
      }
      expect(lib.formatLayout(lib.compose(a, lib.parseLayout(text)))).toBe(op('compose', lib.formatLayout(a), text));
      expect(lib.formatLayout(lib.composition(a, lib.parseLayout(text)))).toBe(op('composition', lib.formatLayout(a), text));
    });
    // the README's examples are unchanged
    expect(lib.formatLayout(lib.compose(lib.parseLayout('(100):(7)'), lib.parseLayout('(3,5):(10,2)')))).toBe('(3,5):(70,14)');
    expect(lib.formatLayout(lib.logicalDivide(lib.parseLayout('(4,8):(1,4)'), lib.parseLayout('(2,2):(1,4)')))).toBe('((2,2),(2,4)):((1,4),(2,8))');
  });

  it('show --divide colours by the by-mode tiles of a shape, and by the one-dimensional tiles of a layout', () => {
    const l = lib.parseLayout('(8,6):(1,8)');
    const byMode = divisionTiles(l, lib.parseTiler('(4,2)'));
    const oneD = divisionTiles(l, lib.parseTiler('(4,2):(1,8)'));
    for (let x = 0; x < 48; x++) {
      const [i, j] = [x % 8, Math.floor(x / 8)];
      // by mode: tile (⌊i/4⌋, ⌊j/2⌋) numbered column-major over the (2,3) tiles; entry (i mod 4, j mod 2)
      expect(byMode.tileOf(x), `index ${x}`).toEqual({ tile: Math.floor(i / 4) + 2 * Math.floor(j / 2), entry: (i % 4) + 4 * (j % 2) });
      // one-dimensional: as L ⊘ B's tiles always were (Remark 2.3.8.3, render/tiles.ts)
      expect(oneD.tileOf(x)).toEqual(divisionTiling(l, lib.parseLayout('(4,2):(1,8)')).tileOf(x));
    }
    expect(byMode.tiles).toBe(6);
  });
});

describe("CuTe's names", () => {
  it('get counts modes from 0 (get<i,j> nested), as mode counts them from 1', () => {
    const l = lib.parseLayout('(4,(2,3),5):(1,(4,8),24)');
    for (let i = 0; i < 3; i++) expect(op('get', '(4,(2,3),5):(1,(4,8),24)', i)).toBe(lib.formatLayout(lib.mode(l, i + 1)));
    expect(op('get', '(4,(2,3),5):(1,(4,8),24)', 1, 1)).toBe('3:8');
    expect(op('get', 'Sw<3,3,3> o (8,64):(64,1)', 0)).toBe('Sw<3,3,3> o 8:64');
    const e = fails(() => op('get', '(4,8):(1,4)', 2));
    expect(e.kind).toBe('domain');
    expect(e.message).toMatch(/index 2 is outside \[0, 2\)/);
  });

  it('crd2idx is Φ at a coordinate (an integer is an index), idx2crd the colexicographic coordinate', () => {
    seededRuns(0xc2d)(30, (rng) => {
      const s = [randInt(rng, 1, 5), randInt(rng, 1, 4), randInt(rng, 1, 3)];
      const d = [randInt(rng, 0, 9), randInt(rng, 0, 9), randInt(rng, 0, 9)];
      const l: BL = { shape: [s[0]!, [s[1]!, s[2]!]], stride: [d[0]!, [d[1]!, d[2]!]] };
      const text = `(${s[0]},(${s[1]},${s[2]})):(${d[0]},(${d[1]},${d[2]}))`;
      const x = randInt(rng, 0, sizeB(l) - 1);
      const c = [x % s[0]!, Math.floor(x / s[0]!) % s[1]!, Math.floor(x / (s[0]! * s[1]!))];
      expect(op('idx2crd', x, text)).toBe(`(${c[0]},(${c[1]},${c[2]}))`);
      expect(op('crd2idx', `(${c[0]},(${c[1]},${c[2]}))`, text)).toBe(phiB(l, x));
      expect(op('crd2idx', x, text)).toBe(phiB(l, x));
      expect(op('crd2idx', `(${c[0]},${Math.floor(x / s[0]!)})`, `(${s[0]},(${s[1]},${s[2]}))`, `(${d[0]},(${d[1]},${d[2]}))`)).toBe(phiB(l, x));
    });
    expect(fails(() => op('crd2idx', '(1,1)', '(4,8):(1,4)', '(8,1)')).kind).toBe('domain');
  });

  it('the library has them too: get, crd2idx, idx2crd, composition', () => {
    seededRuns(0x11b)(20, (rng) => {
      const s = [randInt(rng, 1, 5), randInt(rng, 1, 4), randInt(rng, 1, 3)];
      const d = [randInt(rng, 0, 9), randInt(rng, 0, 9), randInt(rng, 0, 9)];
      const shape = [s[0]!, [s[1]!, s[2]!]];
      const l: BL = { shape, stride: [d[0]!, [d[1]!, d[2]!]] };
      const L = lib.makeLayout(shape, [d[0]!, [d[1]!, d[2]!]]);
      const x = randInt(rng, 0, sizeB(l) - 1);
      const c = lib.idx2crd(x, shape);
      expect(c).toEqual([x % s[0]!, [Math.floor(x / s[0]!) % s[1]!, Math.floor(x / (s[0]! * s[1]!))]]);
      expect(lib.idx2crd(x, L)).toEqual(c);
      expect(lib.crd2idx(c, L)).toBe(phiB(l, x));
      expect(lib.crd2idx(c, shape, l.stride)).toBe(phiB(l, x));
      expect(lib.crd2idx(c, shape)).toBe(x);
      expect(lib.formatLayoutFunction(lib.get(L, 1, 0))).toBe(`${s[1]}:${d[1]}`);
    });
    expect(() => lib.idx2crd(12, [3, 4])).toThrow(lib.LayoutError);
    expect(lib.formatLayoutFunction(lib.get(lib.parseLayoutFunction('Sw<3,3,3> o (8,64):(64,1)'), 1))).toBe('Sw<3,3,3> o 64:1');
  });

  it('composition is compose, on plain and composed layouts', () => {
    for (const [a, t] of [
      ['(12,(4,8)):(59,(13,1))', '<3:4,8:2>'],
      ['(12,(4,8)):(59,(13,1))', '(3,8)'],
      ['(100):(7)', '(3,5):(10,2)'],
      ['Sw<3,3,3> o (8,64):(64,1)', '(4,8)'],
    ]) {
      expect(op('composition', a, t)).toBe(op('compose', a, t));
    }
  });

  it('an unknown op gets "did you mean", kebab-case and snake_case alike', () => {
    const names = lib.ops.map((o) => o.name);
    expect(closestNames('logical-divide', names)).toEqual(['logical_divide']);
    expect(closestNames('zipped_divde', names)[0]).toBe('zipped_divide');
    expect(closestNames('mkae-layout', names)[0]).toBe('make_layout');
    expect(closestNames('frobnicate', names)).toEqual([]);
    expect(fails(() => op('crd2idk', 1, '4:1')).message).toBe("unknown op 'crd2idk' (did you mean 'crd2idx'?)");
  });
});

describe('make_layout order and by-mode messages', () => {
  it('an order with a negative entry is parse (docs/semantics.md §8.4)', () => {
    const e = fails(() => op('make_layout', '(2,2)', '(-1,-2)'));
    expect(e.kind).toBe('parse');
    expect(e.message).toMatch(/-1 at offset 1 is negative/);
    expect(op('make_layout', '(2,2,2,2)', '(0,2,3,1)')).toBe('(2,2,2,2):(1,4,8,2)');
  });

  it('a tiler is read whole before its items are checked: a syntax error is parse, wherever it is', () => {
    expect(fails(() => op('logical_divide', '(4,8):(1,4)', '(2,2:(1,4)')).kind).toBe('parse');
    expect(fails(() => op('logical_divide', '(4,8):(1,4)', '<2:(1,2),_')).kind).toBe('parse');
    expect(fails(() => op('logical_divide', '(4,8):(1,4)', '<2:(1,2),_>')).kind).toBe('domain');
    expect(fails(() => lib.parseTiler('(0,2)')).kind).toBe('domain');
  });

  it('a by-mode failure names the mode, its size and the tiler', () => {
    const e = fails(() => op('logical_divide', '(8,6):(1,8)', '(_,4)'));
    expect(e.kind).toBe('not-complementable');
    expect(e.message).toMatch(/^logical_divide: mode 2 \(6:8, size 6\) by 4:1 \(size 4\): /);
    const k = fails(() => op('zipped_divide', '(8,6):(1,8)', '(2,2,2)'));
    expect(k.kind).toBe('domain');
    expect(k.message).toMatch(/tiler <2:1,2:1,2:1> has 3 modes but the layout \(8,6\):\(1,8\) has rank 2/);
  });
});

describe('the library: one parser of plain and composed layouts, the memory system, from both entry points', () => {
  it('exports parseLayoutFunction, formatLayoutFunction, bankConflicts and the swizzle search from layoutgpu and layoutgpu/browser', async () => {
    const browser = await import('../../src/browser.js');
    const node = await import('../../src/node.js');
    const composed = await import('../../src/cute/composed.js');
    const banks = await import('../../src/memory/banks.js');
    const search = await import('../../src/memory/search.js');
    for (const entry of [browser, node]) {
      expect(entry.parseLayoutFunction).toBe(composed.parseLayoutFunction);
      expect(entry.formatLayoutFunction).toBe(composed.formatLayoutFunction);
      expect(entry.bankConflicts).toBe(banks.bankConflicts);
      expect([entry.swizzleCandidates, entry.searchCpu, entry.rankResults, entry.targetVectors]).toEqual([
        search.swizzleCandidates,
        search.searchCpu,
        search.rankResults,
        search.targetVectors,
      ]);
    }
    // one word per thread (e = 4, v = 1): wavefronts = the most distinct words in one bank (word w in bank w mod 32)
    for (const stride of [1, 2, 3, 8, 32, 33]) {
      const m = browser.parseLayoutFunction(`Sw<1,0,5> o 1024:${stride}`);
      const words = Array.from({ length: 32 }, (_, t) => swizzleB(1, 0, 5, t * stride));
      const perBank = new Map<number, Set<number>>();
      for (const w of words) perBank.set(w % 32, (perBank.get(w % 32) ?? new Set()).add(w));
      const want = Math.max(...[...perBank.values()].map((s) => s.size));
      expect(browser.bankConflicts(m, browser.parseLayout('(32,1):(1,0)'), 4, 1).wavefronts, `stride ${stride}`).toBe(want);
    }
  });
});
