/**
 * The forms of a linear layout (src/linear/forms.ts, src/linear/attr.ts; docs/linear.md, "Forms"):
 * every form round-trips on random layouts, the printed forms are the ones Triton and Gluon print,
 * and bad input gets the kind the forms' rules give (parse for syntax, domain for a broken rule,
 * bad-request for a JSON argument of the wrong types).
 */
import { describe, expect, it } from 'vitest';
import { parseAttr } from '../../src/linear/attr.js';
import { formatLL, parseLL, toCanonicalJson, tritonString } from '../../src/linear/forms.js';
import { isSurjective } from '../../src/linear/operations.js';
import type { LinearLayout } from '../../src/linear/value.js';
import { seededRuns } from '../helpers/seeds.js';
import { int, invertibleColumns, layoutOfColumns, randomLL, randomOutDims, split } from './_ll.js';
import { kindOf } from '../helpers/kind.js';

const forSeeds = seededRuns(0xf0f0);

/** A random surjective layout with the in-dims of a Gluon/MLIR form and out-dims dim0 …. */
function printable(rng: () => number, shared: boolean): LinearLayout {
  const names = shared ? ['offset', 'block'] : ['register', 'lane', 'warp', 'block'];
  const outs = randomOutDims(rng, int(rng, shared ? 1 : 0, 10));
  if (shared && outs.length === 0) outs.push({ name: 'dim0', size: 2 });
  const n = outs.reduce((s, o) => s + Math.log2(o.size), 0);
  const cols = [...invertibleColumns(rng, n), ...Array.from({ length: int(rng, 0, 3) }, () => int(rng, 0, 2 ** n - 1))];
  const counts = split(rng, cols.length, names.length);
  if (shared && counts[0] === 0) {
    counts[0] = 1;
    if (counts[1]! > 0) counts[1]!--;
    else cols.push(0);
  }
  return layoutOfColumns(cols, names, counts, outs);
}

describe('round trips', () => {
  it('canonical JSON, JSON text and Triton print give back the layout', () => {
    forSeeds(300, (rng) => {
      const l = randomLL(rng, 12, 12);
      const json = toCanonicalJson(l);
      expect(parseLL(json)).toEqual(l);
      expect(parseLL(JSON.stringify(json))).toEqual(l);
      expect(parseLL(tritonString(l))).toEqual(l);
      expect(parseLL(formatLL(l, 'triton'))).toEqual(l);
      // whitespace around tokens and a missing leading newline
      expect(parseLL(tritonString(l).slice(1).replace(/ -> /g, '->').replace(/, /g, ' ,  '))).toEqual(l);
      if (isSurjective(l)) expect(parseLL({ bases: (json as { bases: unknown }).bases, outDims: l.outDims.map((o) => o.name) })).toEqual(l);
    });
  });

  it('Gluon reprs and MLIR attributes give back the layout (any alignment for shared ones; MLIR keeps no rank without bases)', () => {
    forSeeds(300, (rng) => {
      const shared = rng() < 0.5;
      const l = printable(rng, shared);
      expect(parseLL(formatLL(l, 'gluon'))).toEqual(l);
      // the attribute infers its rank from the bases: without any, it has no out-dims (as in Triton)
      const hasBasis = l.inDims.some((d) => d.bases.length > 0);
      expect(parseLL(formatLL(l, 'mlir'))).toEqual(hasBasis ? l : { inDims: l.inDims, outDims: [] });
      if (shared) {
        const al = 2 ** int(rng, 0, 12);
        expect(formatLL(l, 'gluon', al)).toMatch(new RegExp(`, alignment=${al}\\)$`));
        expect(parseLL(formatLL(l, 'gluon', al))).toEqual(l);
        expect(parseLL(`#shared = ${formatLL(l, 'mlir', al)}`)).toEqual(l);
      }
    });
  });
});

describe('printing as Triton and Gluon print', () => {
  const mma = parseLL({
    bases: [
      [
        'register',
        [
          [0, 1],
          [8, 0],
        ],
      ],
      [
        'lane',
        [
          [0, 2],
          [0, 4],
          [1, 0],
          [2, 0],
          [4, 0],
        ],
      ],
      ['warp', []],
      ['block', []],
    ],
    outDims: [
      ['dim0', 16],
      ['dim1', 8],
    ],
  });
  it('triton, gluon and mlir forms of a register layout', () => {
    expect(formatLL(mma, 'triton')).toBe(
      '\n - register=1 -> (0, 1)\n   register=2 -> (8, 0)\n - lane=1 -> (0, 2)\n   lane=2 -> (0, 4)\n   lane=4 -> (1, 0)\n   lane=8 -> (2, 0)\n   lane=16 -> (4, 0)\n' +
        ' - warp is a size 1 dimension\n - block is a size 1 dimension\nwhere out dims are: [dim0 (size 16), dim1 (size 8)]',
    );
    expect(formatLL(mma, 'gluon')).toBe(
      'DistributedLinearLayout(reg_bases=[[0, 1], [8, 0]], lane_bases=[[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp_bases=[], block_bases=[], shape=[16, 8])',
    );
    expect(formatLL(mma, 'mlir')).toBe('#ttg.linear<{register = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [], block = []}>');
  });
  it('shared forms print block only when it has bases (mlir), alignment 16 by default', () => {
    const s = parseLL('SharedLinearLayout(offset_bases=[[0, 1], [0, 2], [1, 0]])');
    expect(formatLL(s, 'mlir')).toBe('#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0]]}, alignment = 16>');
    expect(formatLL(s, 'gluon', 1024)).toBe('SharedLinearLayout(offset_bases=[[0, 1], [0, 2], [1, 0]], block_bases=[], alignment=1024)');
    const b = parseLL('#ttg.shared_linear<{offset = [[0, 1], [0, 2]], block = [[1, 0]]}, alignment = 16>');
    expect(formatLL(b, 'mlir')).toBe('#ttg.shared_linear<{offset = [[0, 1], [0, 2]], block = [[1, 0]]}, alignment = 16>');
  });
  it('the empty layouts', () => {
    expect(formatLL({ inDims: [], outDims: [] }, 'triton')).toBe('\n(empty layout)');
    expect(formatLL({ inDims: [], outDims: [{ name: 'o', size: 4 }] }, 'triton')).toBe('\n(empty layout with out-dims [o (size 4)])');
    expect(parseLL('\n(empty layout)')).toEqual({ inDims: [], outDims: [] });
    expect(parseLL('(empty layout with out-dims [o (size 4), p (size 1)])')).toEqual({
      inDims: [],
      outDims: [
        { name: 'o', size: 4 },
        { name: 'p', size: 1 },
      ],
    });
  });
});

describe('reading: sizes inferred, and the kinds of bad input', () => {
  it('names only: each size the smallest power of two above every value', () => {
    expect(parseLL({ bases: [['in', [[1], [4], [2]]]], outDims: ['out'] }).outDims).toEqual([{ name: 'out', size: 8 }]);
    expect(parseLL({ bases: [['in', [[0], [0]]]], outDims: ['out'] }).outDims).toEqual([{ name: 'out', size: 1 }]);
    expect(parseLL('#ttg.linear<{register = [], lane = [], warp = [], block = []}>')).toEqual({
      inDims: ['register', 'lane', 'warp', 'block'].map((name) => ({ name, bases: [] })),
      outDims: [],
    });
  });

  const cases: [string, unknown, string][] = [
    ['a number', 5, 'bad-request'],
    ['an array', [], 'bad-request'],
    ['another key', { bases: [], outDims: [], x: 1 }, 'bad-request'],
    ['a fraction', { bases: [['x', [[1.5]]]], outDims: [['o', 2]] }, 'bad-request'],
    ['a string value', { bases: [['x', [['1']]]], outDims: [['o', 2]] }, 'bad-request'],
    ['a size not a power of two', { bases: [], outDims: [['o', 3]] }, 'domain'],
    ['a value beyond its size', { bases: [['x', [[2]]]], outDims: [['o', 2]] }, 'domain'],
    ['a negative value', { bases: [['x', [[-1]]]], outDims: [['o', 2]] }, 'domain'],
    ['a basis of the wrong length', { bases: [['x', [[1, 0]]]], outDims: [['o', 2]] }, 'domain'],
    [
      'an in-dim twice',
      {
        bases: [
          ['x', []],
          ['x', []],
        ],
        outDims: [],
      },
      'domain',
    ],
    [
      'an out-dim twice',
      {
        bases: [],
        outDims: [
          ['o', 1],
          ['o', 1],
        ],
      },
      'domain',
    ],
    ['non-surjective with inferred sizes', { bases: [['x', [[1], [1]], ['y', []]]], outDims: ['o'] }, 'bad-request'],
    ['non-surjective with inferred sizes', { bases: [['x', [[2]]]], outDims: ['o'] }, 'domain'],
    ['beyond 2^30', { bases: [], outDims: [['o', 2 ** 31]] }, 'domain'],
    ['beyond 64 out-bits', { bases: [], outDims: Array.from({ length: 3 }, (_, j) => [`o${j}`, 2 ** 30]) }, 'domain'],
    ['JSON text that is not JSON', '{"bases": [', 'parse'],
    ['JSON text that is not the object', '{"bases": [], "outDims": [], "x": 1}', 'parse'],
    ['JSON text with a broken rule', '{"bases": [], "outDims": [["o", 3]]}', 'domain'],
    ['not a form', 'hello', 'parse'],
    [
      'a Triton print with a gap in the powers',
      '\n - register=1 -> (0, 1)\n   register=4 -> (8, 0)\nwhere out dims are: [dim0 (size 16), dim1 (size 8)]',
      'parse',
    ],
    ['a Triton print without out dims', ' - register=1 -> (1)', 'parse'],
    ['a Triton print with a basis too long', ' - x=1 -> (1, 0)\nwhere out dims are: [o (size 2)]', 'domain'],
    ['a Gluon repr cut short', 'DistributedLinearLayout(reg_bases=[[0, 1]], lane_bases=[[1, 0]]', 'parse'],
    ['a Gluon repr missing shape', 'DistributedLinearLayout(reg_bases=[], lane_bases=[], warp_bases=[], block_bases=[])', 'parse'],
    ['a Gluon repr with a keyword twice', 'SharedLinearLayout(offset_bases=[[1]], offset_bases=[[1]])', 'parse'],
    ['a Gluon repr with an unknown keyword', 'SharedLinearLayout(offset_bases=[[1]], swizzle=3)', 'parse'],
    ['a non-surjective Gluon repr', 'DistributedLinearLayout(reg_bases=[[0, 1]], lane_bases=[[1, 0]], warp_bases=[], block_bases=[], shape=[4, 2])', 'domain'],
    ['a Gluon shape not a power of two', 'DistributedLinearLayout(reg_bases=[[1]], lane_bases=[], warp_bases=[], block_bases=[], shape=[3])', 'domain'],
    ['empty offset bases', 'SharedLinearLayout(offset_bases=[])', 'domain'],
    ['an alignment not a power of two', 'SharedLinearLayout(offset_bases=[[1]], alignment=24)', 'domain'],
    ['an encoding', '#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>', 'parse'],
    ['#ttg.linear missing a key', '#ttg.linear<{register = [], lane = [], warp = []}>', 'parse'],
    ['#ttg.linear with an unknown key', '#ttg.linear<{register = [], lane = [], warp = [], block = [], x = []}>', 'parse'],
    ['#ttg.shared_linear without alignment', '#ttg.shared_linear<{offset = [[1]]}>', 'parse'],
    ['a non-surjective #ttg.linear', '#ttg.linear<{register = [[2]], lane = [], warp = [], block = []}>', 'domain'],
    ['#ttg.linear with bases of two lengths', '#ttg.linear<{register = [[1]], lane = [[1, 0]], warp = [], block = []}>', 'domain'],
  ];
  for (const [what, x, kind] of cases) {
    it(`${what}: ${kind}`, () => expect(kindOf(() => parseLL(x))).toBe(kind));
  }

  it('messages point at the offence', () => {
    expect(() => parseLL('DistributedLinearLayout(reg_bases=[[0, 1]], lane_bases=[[1, 0]]')).toThrow(/offset 63/);
    expect(() => parseLL('\n - register=1 -> (0, 1)\n   register=4 -> (8, 0)\nwhere out dims are: [dim0 (size 16), dim1 (size 8)]')).toThrow(
      /expected register=2, got register=4/,
    );
    expect(() => parseLL('#ttg.linear<{register = [[1]], lane = [], warp = [] block = []}>')).toThrow(/offset 52/);
  });

  it('Gluon and MLIR printing: the in-dims, out-dim names, surjectivity and alignment they need', () => {
    const plain = parseLL({ bases: [['x', [[1]]]], outDims: [['o', 2]] });
    expect(kindOf(() => formatLL(plain, 'gluon'))).toBe('domain');
    const notDim = parseLL({ bases: ['register', 'lane', 'warp', 'block'].map((n) => [n, []]), outDims: [['o', 1]] });
    expect(kindOf(() => formatLL(notDim, 'mlir'))).toBe('domain');
    const notSurj = parseLL({
      bases: [
        ['offset', [[1]]],
        ['block', []],
      ],
      outDims: [['dim0', 4]],
    });
    expect(kindOf(() => formatLL(notSurj, 'gluon'))).toBe('domain');
    const noOffset = parseLL({
      bases: [
        ['offset', []],
        ['block', []],
      ],
      outDims: [['dim0', 1]],
    });
    expect(kindOf(() => formatLL(noOffset, 'mlir'))).toBe('domain');
    const shared = parseLL({
      bases: [
        ['offset', [[1]]],
        ['block', []],
      ],
      outDims: [['dim0', 2]],
    });
    expect(kindOf(() => formatLL(shared, 'mlir', 3))).toBe('domain');
    expect(kindOf(() => formatLL(shared, 'triton', 16))).toBe('domain');
    expect(kindOf(() => formatLL(shared, 'python'))).toBe('domain');
    const reg = parseLL('#ttg.linear<{register = [[1]], lane = [], warp = [], block = []}>');
    expect(kindOf(() => formatLL(reg, 'gluon', 16))).toBe('domain');
  });
});

describe('the attribute reader', () => {
  it('reads nested attributes, booleans, lists and the parameters after the dictionary', () => {
    const a = parseAttr(
      '#mma = #ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>',
    );
    expect(a.name).toBe('dot_op');
    expect(a.dialect).toBe('ttg');
    expect(a.params.get('opIdx')).toBe(0);
    const parent = a.params.get('parent') as ReturnType<typeof parseAttr>;
    expect(parent.name).toBe('nvidia_mma');
    expect(parent.params.get('warpsPerCTA')).toEqual([2, 2]);
    const s = parseAttr('#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[0, 1]]}>');
    expect(s.params.get('transposed')).toBe(false);
    expect(s.params.get('CGALayout')).toEqual([[0, 1]]);
    const l = parseAttr('#ttg.shared_linear<{offset = [[0, 1]]}, alignment = 16>');
    expect(l.extra.get('alignment')).toBe(16);
  });
  it('broken syntax and repeated keys are parse errors naming the offset', () => {
    expect(kindOf(() => parseAttr('#ttg.blocked<{order = [1, 0]}'))).toBe('parse');
    expect(kindOf(() => parseAttr('#ttg.blocked<{order = [1, 0], order = [0, 1]}>'))).toBe('parse');
    expect(kindOf(() => parseAttr('#blocked<{order = [1, 0]}>'))).toBe('parse');
    expect(kindOf(() => parseAttr('#ttg.blocked<{order = [1, 0]}> trailing'))).toBe('parse');
    expect(() => parseAttr('#ttg.blocked<{order = [1 0]}>')).toThrow(/offset 25/);
  });
});
