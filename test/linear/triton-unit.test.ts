/**
 * The literals of Triton's own unit tests (triton-lang/triton unittest/Tools/LinearLayoutTest.cpp),
 * rewritten for our API: each expected value is the one Triton's test asserts, so these check that
 * the operations give Triton's answers bit for bit (docs/linear.md, "Operations").
 */
import { describe, expect, it } from 'vitest';
import { parseLL, tritonString } from '../../src/linear/forms.js';
import { apply, compose, divideLeft, freeVariableMasks, invertAndCompose, isSurjective, pseudoinvert, sublayout } from '../../src/linear/operations.js';
import { emptyLayout, identity1D, product, supremum, zeros1D, type LinearLayout } from '../../src/linear/value.js';

/**
 * An LL's in-dims in order, each with its bases: a list of vectors, or written out as 'a,b c,d'
 * ([[a, b], [c, d]], one vector per space; '' is none).
 */
type Ins = Record<string, number[][] | string>;
const bases = (b: number[][] | string): number[][] => (typeof b !== 'string' ? b : b === '' ? [] : b.split(' ').map((v) => v.split(',').map(Number)));
const inDims = (ins: Ins): [string, number[][]][] => Object.entries(ins).map(([name, b]) => [name, bases(b)]);
/** Triton's `LinearLayout(bases, outDimNames)`: sizes inferred, surjective. */
const LL = (ins: Ins, outs: string[]): LinearLayout => parseLL({ bases: inDims(ins), outDims: outs });
/** Triton's `LinearLayout(bases, outDims, requireSurjective = false)`. */
const LLs = (ins: Ins, outs: [string, number][]): LinearLayout => parseLL({ bases: inDims(ins), outDims: outs });

describe("Triton's LinearLayoutTest literals", () => {
  it('identity1D, zeros1D and the products', () => {
    expect(identity1D(32, 'testIns', 'testOuts')).toEqual(LL({ testIns: '1 2 4 8 16' }, ['testOuts']));
    expect(identity1D(1, 'testIns', 'testOuts')).toEqual(LL({ testIns: '' }, ['testOuts']));
    expect(zeros1D(32, 'ins', 'outs')).toEqual(LL({ ins: '0 0 0 0 0' }, ['outs']));
    expect(product(identity1D(16, 'in', 'out'), identity1D(32, 'in', 'out'))).toEqual(LL({ in: '1 2 4 8 16 32 64 128 256' }, ['out']));
    expect(product(identity1D(32, 'in1', 'out1'), identity1D(16, 'in2', 'out2'))).toEqual(
      LL({ in1: '1,0 2,0 4,0 8,0 16,0', in2: '0,1 0,2 0,4 0,8' }, ['out1', 'out2']),
    );
    expect(product(emptyLayout, identity1D(32, 'in', 'out'))).toEqual(identity1D(32, 'in', 'out'));
    expect(product(identity1D(8, 'in', 'out'), zeros1D(16, 'in', 'out'))).toEqual(LL({ in: '1 2 4 0 0 0 0' }, ['out']));
    expect(product(zeros1D(16, 'in', 'out1'), LL({ in: '' }, ['out2']))).toEqual(LL({ in: '0,0 0,0 0,0 0,0' }, ['out1', 'out2']));
    expect(product(identity1D(4, 'in', 'out1'), identity1D(8, 'in', 'out2'))).toEqual(LL({ in: '1,0 2,0 0,1 0,2 0,4' }, ['out1', 'out2']));
  });

  it('the empty toString and apply', () => {
    expect(tritonString(emptyLayout)).toBe('\n(empty layout)');
    const l = LLs({ in1: '4,2 2,1 1,0', in2: '1,2 2,1' }, [
      ['out1', 8],
      ['out2', 4],
    ]);
    expect(apply(l, { in1: 0, in2: 0 })).toEqual({ out1: 0, out2: 0 });
    expect(apply(l, { in2: 0, in1: 1 })).toEqual({ out1: 4, out2: 2 });
    expect(apply(l, { in2: 1, in1: 0 })).toEqual({ out1: 1, out2: 2 });
  });

  it('compose', () => {
    const l1 = LL({ in1: '1,1 0,1', in2: '1,0 1,2' }, ['out1', 'out2']);
    const l2 = LL({ out1: '2,2 1,0', out2: '1,1 2,1' }, ['out3', 'out4']);
    const c = compose(l1, l2);
    expect(c).toEqual(
      LLs({ in1: '3,3 1,1', in2: '2,2 0,3' }, [
        ['out3', 4],
        ['out4', 4],
      ]),
    );
    expect(isSurjective(c)).toBe(false);
    const m1 = LL({ in0: '1,0,0,0 2,0,0,0', in1: '4,0,0,0 8,0,0,0 16,0,0,0 32,0,0,0', in2: '0,0,1,0 0,0,0,1 0,0,0,2', in3: '' }, [
      'out3',
      'out0',
      'out1',
      'out2',
    ]);
    const m2 = LL({ out3: '1,0,0,0 2,0,0,0 0,0,0,0 0,0,0,0 0,0,0,0 0,0,0,0', out0: '0,1,0,0', out1: '0,0,1,0', out2: '0,0,0,1 0,0,0,2' }, [
      'out3',
      'out2',
      'out1',
      'out0',
    ]);
    expect(compose(m1, m2)).toEqual(
      LLs({ in0: '1,0,0,0 2,0,0,0', in1: '0,0,0,0 0,0,0,0 0,0,0,0 0,0,0,0', in2: '0,0,1,0 0,0,0,1 0,0,0,2', in3: '' }, [
        ['out3', 4],
        ['out2', 2],
        ['out1', 2],
        ['out0', 4],
      ]),
    );
  });

  it('invertAndCompose', () => {
    const l1 = LL({ in1: '2 1 4' }, ['out']);
    expect(invertAndCompose(l1, LL({ in2: '4 1 2' }, ['out']))).toEqual(LL({ in1: '4 2 1' }, ['in2']));
    const nonInjective = invertAndCompose(l1, LL({ in2: '0 2 1 4' }, ['out']));
    expect(nonInjective).toEqual(LLs({ in1: '2 4 8' }, [['in2', 16]]));
    expect(isSurjective(nonInjective)).toBe(false);
    expect(invertAndCompose(LL({ in1: '2 1 4', in2: '0' }, ['out']), LL({ in: '4 1 2' }, ['out']))).toEqual(LL({ in1: '4 2 1', in2: '0' }, ['in']));
    const id = LL({ in: '1 2 4' }, ['out']);
    expect(invertAndCompose(id, LL({ in: '0 4 1 2' }, ['out']))).toEqual(LLs({ in: '4 8 2' }, [['in', 16]]));
    expect(invertAndCompose(LL({ in1: '1 2 4' }, ['out']), LL({ in2: '4 1 2 0' }, ['out']))).toEqual(LLs({ in1: '2 4 1' }, [['in2', 16]]));
    expect(invertAndCompose(id, LL({ in: '0 4 1 2 0' }, ['out']))).toEqual(LLs({ in: '4 8 2' }, [['in', 32]]));
    expect(invertAndCompose(LL({ in1: '1 2 4', in2: '0' }, ['out']), LL({ in3: '1 2 4', in4: '0' }, ['out']))).toEqual(
      LLs({ in1: '1,0 2,0 4,0', in2: '0,0' }, [
        ['in3', 8],
        ['in4', 2],
      ]),
    );
    expect(invertAndCompose(LL({ in1: '1 2', in2: '0' }, ['out']), LL({ in3: '2 1', in4: '0' }, ['out']))).toEqual(
      LLs({ in1: '2,0 1,0', in2: '0,0' }, [
        ['in3', 4],
        ['in4', 2],
      ]),
    );
  });

  it('invertAndCompose across out-dim orders: c.compose(l2) is l1 read in l2 order', () => {
    const l1 = LL({ in1: '1,0 0,1 2,0 3,2', in2: '2,2' }, ['out1', 'out2']);
    const l2 = LL({ in3: '0,1 1,0 0,0 0,2 2,1' }, ['out2', 'out1']);
    const swap = (l: LinearLayout): LinearLayout => ({
      inDims: l.inDims.map((d) => ({ name: d.name, bases: d.bases.map(([a, b]) => [b!, a!]) })),
      outDims: [...l.outDims].reverse(),
    });
    expect(compose(invertAndCompose(l1, l2), l2)).toEqual(swap(l1));
    expect(compose(invertAndCompose(l2, l1), l1)).toEqual(swap(l2));
  });

  it('invertAndCompose with identity in-dims (the register conversion of the test)', () => {
    const outs = Array.from({ length: 9 }, (_, j) => `dim${j}`);
    const u = (k: number): number[] => outs.map((_, j) => (j === k ? 1 : 0));
    const src = LL({ register: [u(8), u(7)], lane: [u(6), u(5), u(4), u(3), u(2)], warp: [u(1), u(0)], block: [] }, outs);
    const dst = LL({ register: [u(8), u(7)], lane: [u(0), u(1), u(2), u(3), u(4)], warp: [u(5), u(6)], block: [] }, outs);
    const cvt = invertAndCompose(dst, src);
    const k = { register: 3, lane: 0, warp: 2, block: 0 };
    expect(apply(src, apply(cvt, k))).toEqual(apply(dst, k));
  });

  it('sublayout', () => {
    const l1 = LL({ in1: '1,0 0,1 2,0', in2: '0,1' }, ['out1', 'out2']);
    const in1in2out1 = LL({ in1: '1 0 2', in2: '0' }, ['out1']);
    expect(sublayout(l1, ['in1', 'in2'], ['out1'])).toEqual(in1in2out1);
    expect(sublayout(l1, ['in2', 'in1'], ['out1'])).toEqual(in1in2out1);
    expect(sublayout(l1, ['in2', 'in1'], ['out2', 'out1'])).toEqual(l1);
    expect(sublayout(l1, ['in1'], ['out1'])).toEqual(LL({ in1: '1 0 2' }, ['out1']));
    expect(sublayout(l1, [], [])).toEqual(emptyLayout);
    expect(sublayout(l1, ['in1'], [])).toEqual(LL({ in1: [[], [], []] }, []));
    expect(sublayout(l1, [], ['out1'])).toEqual(LLs({}, [['out1', 4]]));
  });

  it('getFreeVariableMasks', () => {
    expect(freeVariableMasks(identity1D(4, 'in', 'out'))).toEqual({ in: 0 });
    expect(freeVariableMasks(zeros1D(16, 'in', 'out'))).toEqual({ in: 0b1111 });
    const mixed = [identity1D(2, 'in', 'out'), zeros1D(4, 'in', 'out'), identity1D(4, 'in', 'out'), zeros1D(2, 'in', 'out')].reduce(product);
    expect(freeVariableMasks(mixed)).toEqual({ in: 0b100110 });
    const l = LL({ in1: '1,1 2,2 0,0', in2: '1,0 0,1 2,0' }, ['out1', 'out2']);
    expect(freeVariableMasks(l)).toEqual({ in1: 0b100, in2: 0b10 });
  });

  it('pseudoinvert of the packed fp4 layout is the padded offset of every coordinate', () => {
    const M = 16;
    const kPacked = 128 / M / 2;
    const kPadded = 128 / M;
    const offsetBases = Array.from({ length: Math.log2(M * kPadded) }, (_, i) => {
      const offset = 2 ** i;
      const packed = Math.floor(offset / 16) * 8 + (offset % 8);
      return [Math.floor(packed / kPacked), packed % kPacked];
    });
    const inv = pseudoinvert(LL({ offset: offsetBases }, ['row', 'col']));
    for (let i = 0; i < M; i++) {
      for (let j = 0; j < kPacked; j++) {
        const linear = i * kPacked + j;
        expect(apply(inv, { row: i, col: j })).toEqual({ offset: Math.floor(linear / 8) * 16 + (linear % 8) });
      }
    }
  });

  it('supremum', () => {
    expect(supremum(['a', 'b', 'c'], ['a', 'b', 'c'])).toEqual(['a', 'b', 'c']);
    expect(supremum(['a', 'b'], ['a', 'c'])).toEqual(['a', 'b', 'c']);
    expect(supremum(['a', 'b'], ['b', 'c'])).toEqual(['a', 'b', 'c']);
    expect(supremum(['a', 'b', 'c'], ['a', 'd'])).toEqual(['a', 'b', 'c', 'd']);
    expect(supremum([], [])).toEqual([]);
    expect(supremum(['a', 'b'], [])).toEqual(['a', 'b']);
  });

  it('divideLeft', () => {
    const b = identity1D(8, 'in', 'out');
    const c = zeros1D(16, 'in', 'out');
    expect(divideLeft(product(b, c), b)).toEqual(c);
    expect(divideLeft(product(c, b), c)).toEqual(b);
    expect(divideLeft(identity1D(32, 'in', 'out'), LL({ in: '1 2 4 8', extra: '0' }, ['out']))).toBeNull();
    expect(divideLeft(identity1D(8, 'in', 'out'), identity1D(4, 'in', 'out'))).toEqual(identity1D(2, 'in', 'out'));
    expect(divideLeft(identity1D(8, 'in', 'out'), identity1D(8, 'in', 'out'))).toEqual(identity1D(1, 'in', 'out'));
    const l1 = LL({ in1: '1,1 2,2 0,8 0,4', in2: '0,2 0,1' }, ['out1', 'out2']);
    const l2 = LL({ in1: '1,1 2,2', in2: '0,2 0,1' }, ['out1', 'out2']);
    const l3 = LL({ in1: '0,2 0,1', in2: '' }, ['out1', 'out2']);
    expect(product(l2, l3)).toEqual(l1);
    expect(divideLeft(l1, l2)).toEqual(l3);
    const e1 = LL({ in2: '0,1 1,0', in1: '2,0 0,2' }, ['out1', 'out2']);
    const e3 = LL({ in2: '', in1: '1,0 0,1' }, ['out1', 'out2']);
    expect(divideLeft(e1, LL({ in2: '0,1 1,0' }, ['out1', 'out2']))).toEqual(e3);
    const l7 = LL({ in1: '', in2: '0,1', in3: '' }, ['out1', 'out2']);
    const l9 = LL({ in1: '', in2: '', in3: '' }, ['out1', 'out2']);
    expect(divideLeft(l7, LL({ in2: '0,1' }, ['out1', 'out2']))).toEqual(l9);
    const o1 = LL({ in2: '1,0 1,0', in1: '2,0 0,1' }, ['out1', 'out2']);
    const o3 = LL({ in2: '', in1: '1,0 0,1' }, ['out1', 'out2']);
    expect(divideLeft(o1, LL({ in2: '1,0 1,0' }, ['out1', 'out2']))).toEqual(o3);
    const l4 = LL({ in1: '0,1 0,2' }, ['out1', 'out2']);
    expect(divideLeft(l4, LL({}, ['out1']))).toEqual(l4);
  });
});
