/**
 * The examples of the seed section 2.3 (and of docs/semantics.md), through the op table, each with its
 * answer and each re-checked by the independent brute-force oracle of test/helpers/brute.ts.
 * Where the extracted text lost the answer (most of them: formulas did not survive), the
 * expected value was computed by hand from the definitions; the comment says so and shows
 * the computation.
 */
import { describe, expect, it } from 'vitest';
import { err, ok } from './_run.js';
import * as tuple from '../../src/algebra/tuple.js';
import { parseTuple } from '../../src/algebra/notation.js';
import {
  checkComposite,
  coalB,
  complementB,
  concatB,
  cosizeB,
  depthB,
  entriesB,
  findComplementBrute,
  flatB,
  isCoalescedB,
  isCoalescedOverB,
  isCompactB,
  isNondegenerateB,
  isTractableSpec,
  layoutsWithFunction,
  parseL,
  parseT,
  phiB,
  productN,
  profB,
  rankB,
  refinesB,
  sameFunction,
  searchComposite,
  sizeB,
  spanB,
  valuesB,
  type BL,
} from '../helpers/brute.js';

const P = parseL;

/** coal(L) checked by brute force: same function, coalesced, minimal flat rank. */
function checkCoalesce(lText: string, resultText: string): void {
  const l = P(lText);
  const c = P(resultText);
  expect(sameFunction(l, c), `Φ preserved by coal(${lText})`).toBe(true);
  expect(isCoalescedB(c), `${resultText} is coalesced`).toBe(true);
  if (sizeB(l) > 1) {
    // the unique flat layout of minimal rank with Φ_L (Prop. 2.3.3.16): search all of them
    const all = layoutsWithFunction(valuesB(l));
    const minRank = Math.min(...all.map((x) => rankB(x.shape)));
    expect(entriesB(c.shape).length).toBe(minRank);
  } else {
    expect(resultText).toBe('1:0');
  }
}

/** comp(A, N) checked by brute force: (A, comp) compact of size N. */
function checkComplement(aText: string, n: number, resultText: string): void {
  const a = P(aText);
  const c = P(resultText);
  expect(sizeB(a) * sizeB(c)).toBe(n);
  expect(isCompactB(concatB(a, c)), `(A, comp(A, ${n})) compact`).toBe(true);
  expect(isCoalescedB(c), 'comp is coal of the flat complement').toBe(true);
}

function checkCompose(bText: string, aText: string, resultText: string): void {
  const r = checkComposite(P(bText), P(aText), P(resultText));
  expect(r, `${resultText} is ${bText} ∘ ${aText}`).toEqual({ ok: true });
  // and the exhaustive search finds the same (unique) layout
  const s = searchComposite(P(bText), P(aText));
  expect(s.exists).toBe(true);
  if (s.exists) expect(sameFunction(s.c, P(resultText))).toBe(true);
}

function checkNotComposable(bText: string, aText: string): void {
  const s = searchComposite(P(bText), P(aText));
  expect(s.exists, `no layout is ${bText} ∘ ${aText}`).toBe(false);
}

/** A ⊘ B against its definition: A ∘ (B, comp(B, size A)), pointwise. */
function checkDivide(aText: string, bText: string, resultText: string): void {
  const a = P(aText);
  const b = P(bText);
  const comp = complementB(b, sizeB(a));
  expect(comp, `B = ${bText} is size(A)-complementable`).not.toBeNull();
  const bc = concatB(b, comp!);
  expect(isCompactB(bc)).toBe(true);
  expect(checkComposite(a, bc, P(resultText))).toEqual({ ok: true });
}

/** A ⊗ B against its definition: (A, comp(A, N) ∘ B), at the least N and at the next one. */
function checkProduct(aText: string, bText: string, resultText: string): void {
  const a = P(aText);
  const b = P(bText);
  const r = P(resultText);
  const n = productN(a, b);
  expect(n % spanB(a)).toBe(0);
  expect(n).toBeGreaterThanOrEqual(sizeB(a) * cosizeB(b));
  expect(typeof r.shape === 'number' ? -1 : r.shape.length).toBe(2);
  const [rs, rd] = [r.shape as readonly BL['shape'][], r.stride as readonly BL['shape'][]];
  expect({ shape: rs[0], stride: rd[0] }).toEqual(a);
  const second: BL = { shape: rs[1]!, stride: rd[1]! };
  for (const nn of [n, n + spanB(a)]) {
    // Observation 2.3.9.2: the same for every admissible N
    const ac = complementB(a, nn);
    expect(ac).not.toBeNull();
    expect(isCompactB(concatB(a, ac!))).toBe(true);
    expect(checkComposite(ac!, b, second), `comp(A, ${nn}) ∘ B`).toEqual({ ok: true });
  }
}

describe('2.3.1 basic definitions', () => {
  it('2.3.1.3: (3,(3,2)):(3,(1,10))', () => {
    const L = '(3,(3,2)):(3,(1,10))';
    expect(ok('rank', L)).toBe(2);
    expect(ok('length', L)).toBe(3);
    expect(ok('depth', L)).toBe(2);
    expect(ok('size', L)).toBe(18);
    expect(ok('profile', L)).toBe('(*,(*,*))');
    // hand: 1 + 2·3 + 2·1 + 1·10 = 19
    expect(ok('cosize', L)).toBe(19);
    // the picture (lost): Φ at every x, against the colex decomposition
    const l = P(L);
    for (let x = 0; x < 18; x++) expect(ok('eval', L, x)).toBe(phiB(l, x));
    expect(cosizeB(l)).toBe(19);
  });

  it('2.3.1.4: ((2,2),(2,2)):((1,4),(2,8)) is pictured as a bijection on [0,16)', () => {
    const L = '((2,2),(2,2)):((1,4),(2,8))';
    expect(ok('rank', L)).toBe(2);
    expect(ok('length', L)).toBe(4);
    expect(ok('depth', L)).toBe(2);
    expect(ok('size', L)).toBe(16);
    expect(ok('profile', L)).toBe('((*,*),(*,*))');
    expect(ok('is_compact', L)).toBe(true);
    expect(isCompactB(P(L))).toBe(true);
    const l = P(L);
    for (let x = 0; x < 16; x++) expect(ok('eval', L, x)).toBe(phiB(l, x));
  });

  it('2.3.1.5 / 2.3.1.14: 10:4 has rank 1, len 1, depth 0, size 10, prof * and flattens to (10):(4)', () => {
    // 2.3.1.5 lost its layout; 10:4 is the depth-0 layout of 2.3.1.14, and the stated values
    // hold for any depth-0 layout of shape 10.
    expect(ok('rank', '10:4')).toBe(1);
    expect(ok('length', '10:4')).toBe(1);
    expect(ok('depth', '10:4')).toBe(0);
    expect(ok('size', '10:4')).toBe(10);
    expect(ok('profile', '10:4')).toBe('*');
    expect(ok('flatten', '10:4')).toBe('(10):(4)');
    expect(ok('cosize', '10:4')).toBe(37);
  });

  it('2.3.1.6 / 2.3.1.7: the stated invariants, on layouts with the stated profiles (inputs lost)', () => {
    // 2.3.1.6: rank 3, len 6, depth 2, size 11760, prof (*,(*,*,*),(*,*)); 11760 = 16·3·5·7·7
    const a = '(16,(3,5,7),(7,1)):(1,(16,48,240),(1680,0))';
    expect([ok('rank', a), ok('length', a), ok('depth', a), ok('size', a), ok('profile', a)]).toEqual([3, 6, 2, 11760, '(*,(*,*,*),(*,*))']);
    // 2.3.1.7: rank 1, len 5, depth 3, size 32, prof ((*,*,*,(*,*)))
    const b = '((2,2,2,(2,2))):((1,2,4,(8,16)))';
    expect([ok('rank', b), ok('length', b), ok('depth', b), ok('size', b), ok('profile', b)]).toEqual([1, 5, 3, 32, '((*,*,*,(*,*)))']);
    for (const t of [a, b]) {
      const l = P(t);
      expect([rankB(l.shape), entriesB(l.shape).length, depthB(l.shape), sizeB(l), profB(l.shape)]).toEqual([
        ok('rank', t),
        ok('length', t),
        ok('depth', t),
        ok('size', t),
        ok('profile', t),
      ]);
    }
  });

  it('2.3.1.8: an incongruent pair is not a layout', () => {
    expect(err('parse', '(3,(3,2)):(3,1,10)').kind).toBe('domain');
    expect(err('parse', '(3,2):((3),2)').kind).toBe('domain');
  });

  it('2.3.1.9 / 2.3.1.10: modes and entries of (3,(3,2)):(3,(1,10)) (hand: the example lost its layout)', () => {
    const L = '(3,(3,2)):(3,(1,10))';
    expect(ok('mode', L, 1)).toBe('3:3');
    expect(ok('mode', L, 2)).toBe('(3,2):(1,10)');
    expect(ok('entry', L, 1)).toBe('3:3');
    expect(ok('entry', L, 2)).toBe('3:1');
    expect(ok('entry', L, 3)).toBe('2:10');
    // a depth-0 layout is its own (only) mode and entry
    expect(ok('mode', '10:4', 1)).toBe('10:4');
    expect(ok('entry', '10:4', 1)).toBe('10:4');
    // the 1-tuple's mode is depth 0
    expect(ok('mode', '(512):(4)', 1)).toBe('512:4');
    expect(ok('mode', '((2,2)):((6,1))', 1)).toBe('(2,2):(6,1)');
  });

  it('2.3.1.15 / 2.3.2.2: flattening keeps the entries in order', () => {
    expect(ok('flatten', '(3,(3,2)):(3,(1,10))')).toBe('(3,3,2):(3,1,10)');
    expect(ok('flatten', '((2,2),(2,(2,5))):((1,4),(2,(8,16)))')).toBe('(2,2,2,2,5):(1,4,2,8,16)');
    expect(ok('flatten', '():()')).toBe('():()');
    // 2.3.2.4: depth 1 iff L = L♭
    expect(ok('flatten', '(4,8):(1,4)')).toBe('(4,8):(1,4)');
  });

  it('2.3.1.18: Φ of ((2,2),2):((3,0),10) is 0,3,0,3,10,13,10,13', () => {
    // hand: x ↦ 3·(x mod 2) + 0·(⌊x/2⌋ mod 2) + 10·⌊x/4⌋
    const want = [0, 3, 0, 3, 10, 13, 10, 13];
    const L = '((2,2),2):((3,0),10)';
    expect(want.map((_, x) => ok('eval', L, x))).toEqual(want);
    expect(valuesB(P(L))).toEqual(want);
    expect(ok('size', L)).toBe(8);
    expect(ok('cosize', L)).toBe(14);
  });

  it('coordinates (CuTe extra): coord and eval_coord agree with Φ at the colex index', () => {
    const L = '(3,(3,2)):(3,(1,10))';
    const l = P(L);
    // hand: index 17 = 2 + 3·5, and 5 = 2 + 3·1 in (3,2) → (2,(2,1)); Φ = 6 + 2 + 10 = 18
    expect(ok('coord', L, 17)).toBe('(2,(2,1))');
    expect(ok('eval_coord', L, '(2,(2,1))')).toBe(18);
    expect(phiB(l, 17)).toBe(18);
    for (let x = 0; x < 18; x++) {
      const c = ok('coord', L, x) as string;
      expect(ok('eval_coord', L, c)).toBe(phiB(l, x));
      // an integer coordinate at the top indexes the whole shape colexicographically
      expect(ok('eval_coord', L, String(x))).toBe(phiB(l, x));
    }
    // an integer at a level indexes that sub-shape: (1,4) → 3 + Φ_{(3,2):(1,10)}(4) = 3 + 1 + 10
    expect(ok('eval_coord', L, '(1,4)')).toBe(14);
    expect(err('eval_coord', L, '(1,6)').kind).toBe('domain');
    expect(err('eval_coord', L, '(1,(2,1),0)').kind).toBe('domain');
  });

  it('2.3.1.20 / 2.3.1.21 / 2.3.2.13 / 2.3.2.15: substitution', () => {
    // hand: L_P puts the modes of S and D into P
    expect(ok('substitute', '(8,8,8):(1,64,8)', '(*,(*,*))')).toBe('(8,(8,8)):(1,(64,8))');
    expect(ok('substitute', '(128):(2)', '*')).toBe('128:2');
    expect(ok('substitute', '(8,8,8):(1,8,64)', '(*,(*,*))')).toBe('(8,(8,8)):(1,(8,64))');
    expect(ok('substitute', '(16):(1)', '*')).toBe('16:1');
    // modes, not entries, are substituted
    expect(ok('substitute', '((2,3),4):((1,2),6)', '((*,*))')).toBe('(((2,3),4)):(((1,2),6))');
    expect(err('substitute', '(8,8,8):(1,64,8)', '(*,*)').kind).toBe('domain');
    // same function (same flattening)
    expect(sameFunction(P('(8,(8,8)):(1,(64,8))'), P('(8,8,8):(1,64,8)'))).toBe(true);
  });

  it('2.3.1.24 / 2.3.1.25: non-degenerate', () => {
    // hand-made (the example's layouts were lost)
    for (const [t, want] of [
      ['(4,1):(1,0)', true],
      ['(4,1):(1,3)', false],
      ['1:0', true],
      ['1:7', false],
      ['():()', true],
      ['((2,1),3):((1,0),2)', true],
      ['((2,1),3):((1,5),2)', false],
    ] as const) {
      expect(ok('is_nondegenerate', t), t).toBe(want);
      expect(isNondegenerateB(P(t))).toBe(want);
    }
  });
});

describe('2.3.2 concatenation', () => {
  it('2.3.2.6: concatenation nests and is not associative, but the flattenings agree', () => {
    const [l1, l2, l3] = ['3:4', '2:2', '5:1'];
    const left = ok('concat', ok('concat', l1, l2), l3);
    const right = ok('concat', l1, ok('concat', l2, l3));
    const three = ok('concat', l1, l2, l3);
    expect(left).toBe('((3,2),5):((4,2),1)');
    expect(right).toBe('(3,(2,5)):(4,(2,1))');
    expect(three).toBe('(3,2,5):(4,2,1)');
    for (const t of [left, right, three]) expect(ok('flatten', t)).toBe('(3,2,5):(4,2,1)');
    expect(sameFunction(P(left as string), P(three as string))).toBe(true);
    // (3:4) = (3):(4)
    expect(ok('concat', '3:4')).toBe('(3):(4)');
  });

  it('2.3.2.7: (L, L′) (L′ as extracted is incongruent; repaired by nesting its stride like its shape)', () => {
    expect(err('parse', '(2,(2,(4,3))):(5,3,(2,2))').kind).toBe('domain');
    const r = ok('concat', '(3,7,2):(1,3,6)', '(2,(2,(4,3))):(5,(3,(2,2)))');
    expect(r).toBe('((3,7,2),(2,(2,(4,3)))):((1,3,6),(5,(3,(2,2))))');
    // Remark 2.3.2.8: depth(L, L′) = 1 + max(depth L, depth L′) = 1 + 3
    expect(ok('depth', r)).toBe(4);
  });

  it('2.3.2.10: a layout of depth > 0 is the concatenation of its modes', () => {
    const L = '((2,2),2,(3,(1,4))):((1,4),0,(8,(0,24)))';
    const ms = [1, 2, 3].map((i) => ok('mode', L, i));
    expect(ok('concat', ...ms)).toBe(L);
  });
});

describe('2.3.3 coalesce', () => {
  it('2.3.3.1–2.3.3.5: coalesced or not', () => {
    // hand-made where the layouts were lost; 2.3.3.5 is the empty layout
    for (const [t, want] of [
      ['():()', false], // 2.3.3.5
      ['1:0', true],
      ['1:3', false],
      ['6:2', true],
      ['(512):(4)', false],
      ['((2,3)):((1,2))', false], // depth > 1 (2.3.3.2)
      ['(2,3):(1,3)', true],
      ['(2,3):(1,2)', false], // mergeable neighbours: 2·1 = 2
      ['(2,1,3):(1,0,2)', false], // a shape-1 entry
      ['(3,2):(0,0)', false], // stride-0 neighbours merge
      ['(3,2):(2,0)', true],
    ] as const) {
      expect(ok('is_coalesced', t), t).toBe(want);
      expect(isCoalescedB(P(t)), t).toBe(want);
    }
  });

  it('2.3.3.8: coal(():()) = 1:0', () => {
    expect(ok('coalesce', '():()')).toBe('1:0');
    checkCoalesce('():()', '1:0');
  });
  it('2.3.3.9: coal((1,1):(2,4)) = 1:0', () => {
    expect(ok('coalesce', '(1,1):(2,4)')).toBe('1:0');
    checkCoalesce('(1,1):(2,4)', '1:0');
  });
  it('2.3.3.10: coal((512):(4)) = 512:4', () => {
    expect(ok('coalesce', '(512):(4)')).toBe('512:4');
    checkCoalesce('(512):(4)', '512:4');
  });
  it('2.3.3.11: coal((2,2,2):(1,2,4)) = 8:1', () => {
    expect(ok('coalesce', '(2,2,2):(1,2,4)')).toBe('8:1');
    checkCoalesce('(2,2,2):(1,2,4)', '8:1');
  });
  it('2.3.3.12: coal(((2,2,2),(5,5)):((1,2,4),(10,50))) = (8,25):(1,10)', () => {
    // hand: flat (2,2,2,5,5):(1,2,4,10,50) → 8:1, then 5:10 (8 ≠ 10), then 5·10 = 50 merges
    expect(ok('coalesce', '((2,2,2),(5,5)):((1,2,4),(10,50))')).toBe('(8,25):(1,10)');
    checkCoalesce('((2,2,2),(5,5)):((1,2,4),(10,50))', '(8,25):(1,10)');
  });
  it('Prop. 2.3.3.14: coal depends only on Φ (two layouts with one function)', () => {
    const a = '((2,2),(3,1)):((1,2),(4,9))';
    const b = '(4,3):(1,4)';
    expect(sameFunction(P(a), P(b))).toBe(true);
    expect(ok('coalesce', a)).toBe(ok('coalesce', b));
    expect(ok('coalesce', a)).toBe('12:1');
  });
});

describe('2.3.4 relative coalesce', () => {
  const L = '((2,2),((3,3),(5,5))):((1,2),((4,12),(36,180)))';
  it('2.3.4.2: coal(L, (4,(9,25))) = (4,(9,25)):(1,(4,36))', () => {
    expect(ok('coalesce', L, '(4,(9,25))')).toBe('(4,(9,25)):(1,(4,36))');
    const r = P('(4,(9,25)):(1,(4,36))');
    expect(sameFunction(P(L), r)).toBe(true);
    expect(refinesB(r.shape, parseT('(4,(9,25))'))).toBe(true);
    expect(isCoalescedOverB(r, parseT('(4,(9,25))'))).toBe(true);
    expect(ok('is_coalesced', L, '(4,(9,25))')).toBe(false);
    expect(ok('is_coalesced', '(4,(9,25)):(1,(4,36))', '(4,(9,25))')).toBe(true);
  });
  it('2.3.4.2 over (4,225) instead: the second relative mode coalesces to 225:4', () => {
    // hand: relative modes (2,2):(1,2) → 4:1 and (3,3,5,5):(4,12,36,180) → 9:4 → 45:4 → 225:4
    expect(ok('coalesce', L, '(4,225)')).toBe('(4,225):(1,4)');
    expect(isCoalescedOverB(P('(4,225):(1,4)'), parseT('(4,225)'))).toBe(true);
    expect(sameFunction(P('(4,225):(1,4)'), P(L))).toBe(true);
    // and over the whole shape: coal(L) = 900:1
    expect(ok('coalesce', L)).toBe('900:1');
  });
  it('2.3.4.6: coalesced over its own shape iff non-degenerate; coal(L, shape L) = L exactly then', () => {
    for (const [t, nd] of [
      ['(4,1):(1,0)', true],
      ['(4,1):(1,3)', false],
      ['((2,3),(1,5)):((1,2),(0,6))', true],
      ['((2,3),(1,5)):((1,2),(4,6))', false],
    ] as const) {
      const shape = t.slice(0, t.indexOf(':'));
      expect(ok('is_coalesced', t, shape), t).toBe(nd);
      expect(isCoalescedOverB(P(t), parseT(shape))).toBe(nd);
      expect(ok('coalesce', t, shape) === t).toBe(nd);
    }
  });
  it('refinement: every S of size S̄ refines an integer S̄, at any depth (docs/semantics.md §1, corrected)', () => {
    expect(ok('coalesce', '((7,7)):((88,32))', '49')).toBe('(7,7):(88,32)');
    expect(ok('coalesce', '(4):(1)', '4')).toBe('4:1');
    expect(ok('coalesce', '(((7,7))):(((88,32)))', '49')).toBe('(7,7):(88,32)');
    expect(ok('coalesce', '((4,1)):((1,9))', '4')).toBe('4:1');
    expect(ok('coalesce', '(7,(4),2):(1,(7),28)', '(7,4,2)')).toBe('(7,4,2):(1,7,28)');
    expect(ok('is_coalesced', '(4):(1)', '4')).toBe(false);
    expect(ok('is_coalesced', '(7,(4),2):(1,(7),28)', '(7,4,2)')).toBe(false);
    // the converse does not hold: a tuple S̄ needs a tuple S of the same length
    expect(err('coalesce', '4:1', '(4)').kind).toBe('domain');
    expect(err('coalesce', '(2,2):(1,2)', '(2,3)').kind).toBe('domain');
    expect(err('coalesce', '((2,2)):((1,2))', '8').kind).toBe('domain');
    expect(ok('coalesce', '((2,2),(3,(2,2))):((1,2),(4,(12,24)))', '(4,12)')).toBe('(4,12):(1,4)');
    expect(ok('coalesce', '((2,2),(3,(2,2))):((1,2),(4,(12,24)))', '(4,(3,4))')).toBe('(4,(3,4)):(1,(4,12))');
    for (const [s, bar, want] of [
      ['(4)', '4', true],
      ['((2,2))', '4', true],
      ['(((7,7)))', '49', true],
      ['((4,1))', '4', true],
      ['(7,(4),2)', '(7,4,2)', true],
      ['((2,2),(3,(2,2)))', '(4,(3,4))', true],
      ['4', '(4)', false],
      ['(4)', '(2,2)', false],
      ['((2,2))', '8', false],
    ] as const) {
      expect(tuple.refines(parseTuple(s), parseTuple(bar)), `${s} refines ${bar}`).toBe(want);
      expect(refinesB(parseT(s), parseT(bar)), `brute: ${s} refines ${bar}`).toBe(want);
    }
  });
});

describe('2.3.5 compact', () => {
  it('compact iff Φ is a bijection onto [0, size)', () => {
    // hand-made (the examples' layouts were lost); 2.3.5.4's text: 1 ∉ image, cosize 29
    for (const [t, want] of [
      ['(4,8):(1,4)', true],
      ['(4,8):(8,1)', true],
      ['((2,2),(2,2)):((1,4),(2,8))', true],
      ['1:0', true],
      ['():()', true],
      ['(2,2):(2,1)', true],
      ['(2,2):(1,1)', false],
      ['(2,7):(2,4)', false], // size 14, cosize 27: 1 is not hit
      ['(2,2):(1,3)', false],
      ['4:2', false],
      ['(3,1):(1,5)', true], // a degenerate entry: its stride never counts
    ] as const) {
      expect(ok('is_compact', t), t).toBe(want);
      expect(isCompactB(P(t)), t).toBe(want);
    }
  });
});

describe('2.3.6 complement', () => {
  it('2.3.6.10: comp(((4,2),(2,2)):((3,24),(192,96)), 768) = (3,2,2,2):(1,12,48,384)', () => {
    const A = '((4,2),(2,2)):((3,24),(192,96))';
    expect(ok('complement', A, 768)).toBe('(3,2,2,2):(1,12,48,384)');
    checkComplement(A, 768, '(3,2,2,2):(1,12,48,384)');
  });
  it('2.3.6.11: comp(((16,4),64):((1,16),64), 4096) = 1:0', () => {
    // hand: sorted 16:1, 4:16, 64:64 is compact already, span 4096 = N: every entry has shape 1
    const A = '((16,4),64):((1,16),64)';
    expect(ok('complement', A, 4096)).toBe('1:0');
    checkComplement(A, 4096, '1:0');
  });
  it('2.3.6.12: comp(((16,4),64):((1,16),64), 8192) = 2:4096', () => {
    // hand: as above, then N/span = 8192/4096 = 2 : 4096
    const A = '((16,4),64):((1,16),64)';
    expect(ok('complement', A, 8192)).toBe('2:4096');
    checkComplement(A, 8192, '2:4096');
  });
  it('2.3.6.13: comp(((16,4),64):((8,1),128), 16384) = (2,2):(4,8192)', () => {
    // hand: sorted 4:1, 16:8, 64:128 → 1:1 (dropped), 8/4 = 2:4, 128/128 = 1 (dropped),
    // span 64·128 = 8192, 16384/8192 = 2:8192
    const A = '((16,4),64):((8,1),128)';
    expect(ok('complement', A, 16384)).toBe('(2,2):(4,8192)');
    checkComplement(A, 16384, '(2,2):(4,8192)');
  });
  it('docs/semantics.md §4: shape-1 entries take no part; comp(1:0) = 1:0; comp((4,1):(1,0), 8) = 2:4', () => {
    expect(ok('complement', '1:0')).toBe('1:0');
    expect(ok('complement', '(4,1):(1,0)', 8)).toBe('2:4');
    checkComplement('(4,1):(1,0)', 8, '2:4');
    expect(ok('is_complementable', '(4,1):(1,0)')).toBe(true);
    expect(ok('is_complementable', '(4,1):(1,3)', 8)).toBe(true);
    expect(ok('complement', '(4,1):(1,3)', 8)).toBe('2:4');
  });
  it('comp(A) without N, and not-complementable cases', () => {
    // hand: sorted 2:3, 4:12 → 3:1, 12/6 = 2:6
    expect(ok('complement', '(4,2):(12,3)')).toBe('(3,2):(1,6)');
    expect(isCompactB(concatB(P('(4,2):(12,3)'), P('(3,2):(1,6)')))).toBe(true);
    expect(err('complement', '(2,2):(1,3)').kind).toBe('not-complementable');
    expect(findComplementBrute(P('(2,2):(1,3)'))).toBeNull();
    expect(err('complement', '2:0').kind).toBe('not-complementable');
    expect(findComplementBrute(P('2:0'))).toBeNull();
    const e = err('complement', '(4,8):(1,4)', 24);
    expect(e.kind).toBe('not-complementable');
    expect(findComplementBrute(P('(4,8):(1,4)'), 24)).toBeNull();
  });
});

describe('2.3.7 composition', () => {
  it('2.3.7.5: (100):(7) ∘ (3,5):(10,2) = (3,5):(70,14)', () => {
    expect(ok('compose', '(100):(7)', '(3,5):(10,2)')).toBe('(3,5):(70,14)');
    checkCompose('(100):(7)', '(3,5):(10,2)', '(3,5):(70,14)');
  });
  it('2.3.7.6: (2,2,6):(12,6,1) ∘ (4):(2) = ((2,2)):((6,1)), not flat (Remark 2.3.7.7)', () => {
    // hand: Φ_B(2t) for t = 0..3 is 0, 6, 1, 7 = Φ of (2,2):(6,1); its shape refines (4)
    expect(ok('compose', '(2,2,6):(12,6,1)', '(4):(2)')).toBe('((2,2)):((6,1))');
    checkCompose('(2,2,6):(12,6,1)', '(4):(2)', '((2,2)):((6,1))');
  });
  it('2.3.7.8 as extracted has no composite (damaged example)', () => {
    // hand: every entry maps to a layout function (4:8 ↦ Φ_B(8t) = 0, 8, 8, 16 = (2,2):(8,8)),
    // but additivity fails at x = 10 = (0,1,1): Φ_A = 8 + 8 = 16, Φ_B(16) = 8 ≠ 8 + 8
    const e = err('compose', '(4,4,4,4):(2,4,8,16)', '((2,4),8):((4,8),8)');
    expect(e.kind).toBe('not-composable');
    expect(e.message).toMatch(/x = 10\b/);
    checkNotComposable('(4,4,4,4):(2,4,8,16)', '((2,4),8):((4,8),8)');
  });
  it('2.3.7.9: (9,8,3,8):(24,3,1,384) ∘ ((3,(2,2)),24):((3,(9,18)),72)', () => {
    // hand: digits of B are (9,8,3,8); 3t → digit 1 → 72t; 9 → (0,1,0,0) → 3; 18 → 6;
    // 72t → digits (0,0,t mod 3,⌊t/3⌋) → (3,8):(1,384); no digit overflows
    const want = '((3,(2,2)),(3,8)):((72,(3,6)),(1,384))';
    expect(ok('compose', '(9,8,3,8):(24,3,1,384)', '((3,(2,2)),24):((3,(9,18)),72)')).toBe(want);
    checkCompose('(9,8,3,8):(24,3,1,384)', '((3,(2,2)),24):((3,(9,18)),72)', want);
  });
  it('docs/semantics.md §5: (4,3):(1,10) ∘ 2:3 = 2:3 (CuTe refuses it)', () => {
    expect(ok('compose', '(4,3):(1,10)', '2:3')).toBe('2:3');
    checkCompose('(4,3):(1,10)', '2:3', '2:3');
  });
  it('docs/semantics.md §5: (2,2):(1,10) ∘ (2,2):(1,1) does not exist (fails at x = 3)', () => {
    const e = err('compose', '(2,2):(1,10)', '(2,2):(1,1)');
    expect(e.kind).toBe('not-composable');
    expect(e.message).toMatch(/x = 3/);
    checkNotComposable('(2,2):(1,10)', '(2,2):(1,1)');
  });
  it('carries that cancel: (2,2,2):(1,3,5) ∘ (2,2):(1,3) = (2,2):(1,4)', () => {
    // hand: Φ_B(1) = 1, Φ_B(3) = 1 + 3 = 4, Φ_B(4) = 5 = 1 + 4
    expect(ok('compose', '(2,2,2):(1,3,5)', '(2,2):(1,3)')).toBe('(2,2):(1,4)');
    checkCompose('(2,2,2):(1,3,5)', '(2,2):(1,3)', '(2,2):(1,4)');
  });
  it('Remark 2.3.7.2: cosize(A) > size(B) has no composite', () => {
    expect(err('compose', '(4):(1)', '(3):(2)').kind).toBe('not-composable');
    checkNotComposable('(4):(1)', '(3):(2)');
    // cosize(A) = size(B) is fine: hand 4:1 ∘ 2:3 → Φ_B(3) = 3
    expect(ok('compose', '4:1', '2:3')).toBe('2:3');
  });
  it('Cor. 2.3.7.11: B∘A = coal(B)∘A, and degenerate entries of A', () => {
    const B = '((2,2),(3,1)):((1,2),(4,9))';
    for (const A of ['(2,3):(2,4)', '(3,1,2):(4,5,1)', '(2,2):(0,3)', '1:0', '():()']) {
      const c = ok('compose', B, A);
      expect(c).toBe(ok('compose', ok('coalesce', B), A));
      checkCompose(B, A, c as string);
    }
    // hand: entries with shape 1 become 1:0, stride-0 entries s:0
    expect(ok('compose', B, '(3,1,2):(4,5,1)')).toBe('(3,1,2):(4,0,1)');
    expect(ok('compose', B, '():()')).toBe('():()');
  });
});

describe('2.3.8 logical division', () => {
  const cases: Array<[string, string, string, string]> = [
    // [id, A, B, A ⊘ B]
    ['2.3.8.2', '(4,8):(1,4)', '(2,2):(1,4)', '((2,2),(2,4)):((1,4),(2,8))'],
    // hand: comp((2,2):(4,1), 32) = (2,4):(2,8); Φ_A is the identity on [0,32)
    ['2.3.8.4', '(4,8):(1,4)', '(2,2):(4,1)', '((2,2),(2,4)):((4,1),(2,8))'],
    // hand: comp((2,4):(2,4), 32): sorted 2:2, 4:4 → 2:1, 1 (dropped), 32/16 = 2:16 → (2,2):(1,16)
    ['2.3.8.6', '(4,8):(1,4)', '(2,4):(2,4)', '((2,4),(2,2)):((2,4),(1,16))'],
    // hand: comp(6:4, 24) = 4:1; Φ_A(4t) = 40t, Φ_A(t) = t for t < 4
    ['2.3.8.7', '(4,6):(1,40)', '6:4', '(6,4):(40,1)'],
    // hand: size(A) = 1920, comp((4,10):(1,192), 1920) = 48:4; coal(A) = (4,6,2,8,5):(36,1,18,0,144);
    // Φ_A(t) = 36t (t < 4); Φ_A(192t) = 144·⌊t/2⌋ → (2,5):(0,144); Φ_A(4t) → (6,2,4):(1,18,0)
    ['2.3.8.8', '(4,6,2,4,2,5):(36,1,18,0,0,144)', '(4,10):(1,192)', '((4,(2,5)),(6,2,4)):((36,(0,144)),(1,18,0))'],
  ];
  for (const [id, A, B, want] of cases) {
    it(`${id}: ${A} ⊘ ${B} = ${want}`, () => {
      expect(ok('logical_divide', A, B)).toBe(want);
      checkDivide(A, B, want);
    });
  }
  it('a tile that does not divide: (4,8):(1,4) ⊘ 3:1 has no complement in 32', () => {
    expect(err('logical_divide', '(4,8):(1,4)', '3:1').kind).toBe('not-complementable');
    expect(findComplementBrute(P('3:1'), 32)).toBeNull();
  });
});

describe('2.3.9 logical product', () => {
  const cases: Array<[string, string, string, string]> = [
    // hand: N = 4·15 = 60 (a multiple of span 20); comp(A, 60) = (5,3):(1,20); Φ(5t) = 20t
    ['2.3.9.3', '(2,2):(5,10)', '(3,5):(5,1)', '((2,2),(3,5)):((5,10),(20,1))'],
    // hand: 9·239 = 2151 → N = 2160 (span 18); comp(A, 2160) = (2,120):(3,18);
    // Φ(24t) = 216t, Φ(2t) = 18t
    ['2.3.9.4', '(3,3):(6,1)', '(10,12):(24,2)', '((3,3),(10,12)):((6,1),(216,18))'],
    // hand: 20·455 = 9100 → N = 10080 (span 3360); comp(A, N) = (4,42,3):(1,40,3360);
    // Φ(2t) = 0,2,40,42 → (2,2):(2,40); Φ(56t) = 560·(t mod 3) + 3360·⌊t/3⌋ → (3,3):(560,3360)
    ['2.3.9.5', '(2,10):(1680,4)', '(4,9):(2,56)', '((2,10),((2,2),(3,3))):((1680,4),((2,40),(560,3360)))'],
  ];
  for (const [id, A, B, want] of cases) {
    it(`${id}: ${A} ⊗ ${B} = ${want}`, () => {
      expect(ok('logical_product', A, B)).toBe(want);
      checkProduct(A, B, want);
    });
  }
  it('2.3.9.3 is compact (the picture)', () => {
    expect(isCompactB(P('((2,2),(3,5)):((5,10),(20,1))'))).toBe(true);
  });
  it('2.3.9.6 as extracted: A = (4,(2,2)):(9,(1,3)) is not complementable (damaged example)', () => {
    // hand: sorted 2:1, 2:3, 4:9 and 2·1 does not divide 3
    expect(err('logical_product', '(4,(2,2)):(9,(1,3))', '((2,4),8):((1,4),2)').kind).toBe('not-complementable');
    expect(findComplementBrute(P('(4,(2,2)):(9,(1,3))'), undefined, 64)).toBeNull();
  });
});

describe('2.3.10 tractable', () => {
  // the examples' layouts were lost; one hand-made layout per stated class
  const cases: Array<[string, string, boolean]> = [
    ['length 1', '7:5', true],
    ['column-major', '(2,3,4):(1,2,6)', true],
    ['row-major', '(2,3,4):(12,4,1)', true],
    ['compact', '((2,3),2):((3,1),6)', true],
    ['one non-zero stride', '(3,5,2):(0,7,0)', true],
    ['complementable', '(2,2):(1,4)', true],
    ['(L1, L2) of tractable 2:3 and 2:2 (2.3.10.8)', '(2,2):(3,2)', false],
    ['(2,2):(1,3)', '(2,2):(1,3)', false],
    ['stride 0 then anything', '(2,5,3):(0,3,1)', true],
  ];
  for (const [what, t, want] of cases) {
    it(`${what}: ${t} → ${want}`, () => {
      expect(ok('is_tractable', t)).toBe(want);
      expect(isTractableSpec(P(t))).toBe(want);
    });
  }
  it('2.3.10.8: the parts are tractable, the concatenation is not', () => {
    expect(ok('is_tractable', '2:3')).toBe(true);
    expect(ok('is_tractable', '2:2')).toBe(true);
    expect(ok('is_tractable', ok('concat', '2:3', '2:2'))).toBe(false);
  });
});

describe('brute oracle self-checks (so that the checks above can fail)', () => {
  it('rejects wrong answers', () => {
    expect(checkComposite(P('(100):(7)'), P('(3,5):(10,2)'), P('(3,5):(70,15)')).ok).toBe(false);
    expect(checkComposite(P('(100):(7)'), P('(3,5):(10,2)'), P('(15):(70)')).ok).toBe(false);
    // right function, not coalesced over shape(A)
    expect(checkComposite(P('(4,8):(1,4)'), P('(8):(1)'), P('((2,4)):((1,2))')).ok).toBe(false);
    expect(isCompactB(concatB(P('(2,2):(1,4)'), P('(2,2):(2,16)')))).toBe(false);
    expect(isCoalescedB(P('(2,2):(1,2)'))).toBe(false);
    expect(coalB(P('((2,2,2),(5,5)):((1,2,4),(10,50))'))).toEqual(P('(8,25):(1,10)'));
    expect(flatB(P('(3,(3,2)):(3,(1,10))'))).toEqual({ s: [3, 3, 2], d: [3, 1, 10] });
    expect(findComplementBrute(P('(2,2):(1,4)'))).not.toBeNull();
    expect(findComplementBrute(P('(2,2):(1,4)'), 16)).not.toBeNull();
    expect(findComplementBrute(P('(2,2):(1,4)'), 12)).toBeNull();
  });
});
