/**
 * Error kinds (docs/protocol.md): domain, overflow, parse, not-complementable,
 * not-composable, bad-request, each with a message that names the culprit.
 */
import { describe, expect, it } from 'vitest';
import { err, ok, op } from './_run.js';
import { parseL, searchComposite } from '../helpers/brute.js';

describe('domain', () => {
  it('incongruent shape and stride', () => {
    for (const t of ['(4,8):(1,4,2)', '(4,8):((1,4))', '4:(1)', '(4):4', '((2,2),2):((3,0),(10))', '():(1)', '(()):()']) {
      const e = err('parse', t);
      expect(e.kind, t).toBe('domain');
      expect(e.message, t).toMatch(/congruent/);
    }
  });

  it('zero or negative shape entries, negative strides', () => {
    for (const [t, re] of [
      ['(4,0):(1,4)', /shape/],
      ['0:0', /shape/],
      ['(4,-2):(1,4)', /shape/],
      ['(4,8):(1,-4)', /stride/],
      ['-1:1', /shape/],
      ['(2,(3,4)):(1,(2,-1))', /stride/],
    ] as const) {
      const e = err('parse', t);
      expect(e.kind, t).toBe('domain');
      expect(e.message, t).toMatch(re);
    }
  });

  it('mode and entry index out of range', () => {
    const L = '(3,(3,2)):(3,(1,10))';
    for (const i of [0, 3, -1, 100]) {
      const e = err('mode', L, i);
      expect(e.kind, `mode ${i}`).toBe('domain');
      expect(e.message).toContain(String(i));
    }
    for (const i of [0, 4, -2]) expect(err('entry', L, i).kind, `entry ${i}`).toBe('domain');
    expect(err('mode', '():()', 1).kind).toBe('domain');
    expect(err('entry', '():()', 1).kind).toBe('domain');
    expect(err('mode', '10:4', 2).kind).toBe('domain');
    expect(ok('entry', L, 3)).toBe('2:10');
  });

  it('x ≥ size (and x < 0) for eval', () => {
    const e = err('eval', '(4,8):(1,4)', 32);
    expect(e.kind).toBe('domain');
    expect(e.message).toContain('32');
    expect(err('eval', '(4,8):(1,4)', -1).kind).toBe('domain');
    expect(err('eval', '():()', 1).kind).toBe('domain');
    expect(ok('eval', '():()', 0)).toBe(0);
    expect(ok('eval', '(4,8):(1,4)', 31)).toBe(31);
  });

  it('substitute with a profile of the wrong length; relative coalesce over a non-refined S̄', () => {
    expect(err('substitute', '(4,8):(1,4)', '(*,*,*)').kind).toBe('domain');
    expect(err('substitute', '(4,8):(1,4)', '*').kind).toBe('domain');
    expect(err('coalesce', '(4,8):(1,4)', '(8,4)').kind).toBe('domain');
    expect(err('is_coalesced', '(4,8):(1,4)', '33').kind).toBe('domain');
    // S̄ with a zero entry is outside the domain too
    expect(['domain', 'parse']).toContain(err('coalesce', '(4,8):(1,4)', '(4,0)').kind);
  });

  it('N must be a positive integer', () => {
    expect(err('complement', '(4,8):(1,4)', 0).kind).toBe('domain');
    expect(err('complement', '(4,8):(1,4)', -32).kind).toBe('domain');
    expect(err('is_complementable', '(4,8):(1,4)', 0).kind).toBe('domain');
  });
});

describe('overflow', () => {
  it('integers above 2^53−1 in the notation', () => {
    for (const [t, lexeme] of [
      ['9007199254740992:1', '9007199254740992'],
      ['2:9007199254740992', '9007199254740992'],
      ['(2,99999999999999999999999):(1,1)', '99999999999999999999999'],
      ['1:18446744073709551616', '18446744073709551616'],
    ] as const) {
      const e = err('parse', t);
      expect(e.kind, t).toBe('overflow');
      expect(e.message, t).toContain(lexeme);
    }
  });

  it('integers above 2^53−1 as JSON arguments: an index is out of its domain, a size N overflows', () => {
    expect(err('eval', '(4,8):(1,4)', 2 ** 53).kind).toBe('domain');
    expect(err('mode', '(4,8):(1,4)', 2 ** 60).kind).toBe('domain');
    expect(err('complement', '(4,8):(1,4)', 1e300).kind).toBe('overflow');
    expect(err('is_complementable', '(4,8):(1,4)', 2 ** 53).kind).toBe('overflow');
  });

  it('size or cosize beyond 2^53−1: exact for the structural ops, overflow where a number is needed', () => {
    // structural ops and size/cosize/eval answer exactly (integers beyond 2^53 − 1 as strings)
    expect(op('parse', '(4294967296,4294967296):(1,1)')).toEqual({ ok: true, result: '(4294967296,4294967296):(1,1)' });
    expect(op('size', '((65536,65536),(65536,65536)):((0,0),(0,0))')).toEqual({ ok: true, result: (2n ** 64n).toString() });
    expect(op('cosize', '(3,2):(1,9007199254740991)')).toEqual({ ok: true, result: '9007199254740994' });
    expect(op('eval', '(4294967296,4):(4294967296,1)', 4294967296 * 3 + 1)).toEqual({ ok: true, result: 4294967296 + 3 }); // x = (1, 3)
    expect(op('concat', '4294967296:1', '4294967296:0')).toEqual({ ok: true, result: '(4294967296,4294967296):(1,0)' });
    // operations that compute with sizes refuse
    for (const [name, ...args] of [
      ['coalesce', '(4294967296,4294967296):(1,4294967296)'],
      ['is_compact', '(4294967296,4294967296):(1,4294967296)'],
      ['complement', '(3,2):(1,9007199254740991)'],
      ['compose', '(4294967296,4294967296):(1,1)', '2:1'],
      ['logical_divide', '(4294967296,4294967296):(1,1)', '2:1'],
    ] as const) {
      const e = err(name, ...args);
      expect(e.kind, name).toBe('overflow');
      expect(e.message, name).toMatch(/size/);
    }
  });

  it('a nesting bomb is an error, not a crash', () => {
    for (const t of ['('.repeat(100000), '('.repeat(100000) + '1' + ')'.repeat(100000) + ':' + '('.repeat(100000) + '1' + ')'.repeat(100000)]) {
      const r = op('parse', t);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(['parse', 'overflow', 'domain']).toContain(r.kind);
    }
    const p = op('substitute', '4:1', '('.repeat(100000));
    expect(p.ok).toBe(false);
    const c = op('coalesce', '4:1', '('.repeat(100000) + '4' + ')'.repeat(100000));
    expect(c.ok).toBe(false);
  });

  it('a very long flat layout is fine', () => {
    const n = 100000;
    const t = `(${Array(n).fill(1).join(',')}):(${Array(n).fill(0).join(',')})`;
    expect(ok('length', t)).toBe(n);
    expect(ok('coalesce', t)).toBe('1:0');
  });
});

describe('not-complementable and not-composable name the culprit', () => {
  it('not N-complementable names s·d and N', () => {
    const e = err('complement', '(4,8):(1,4)', 24);
    expect(e.kind).toBe('not-complementable');
    // span: sorted 4:1, 8:4 → s·d = 32, which does not divide 24
    expect(e.message).toContain('32');
    expect(e.message).toContain('24');
    expect(ok('is_complementable', '(4,8):(1,4)', 24)).toBe(false);
    expect(ok('is_complementable', '(4,8):(1,4)', 64)).toBe(true);
  });

  it('not complementable names the entry', () => {
    const e = err('complement', '(2,2):(1,3)');
    expect(e.kind).toBe('not-complementable');
    expect(e.message).toMatch(/2:1/);
    expect(err('complement', '(3,2):(0,1)').kind).toBe('not-complementable');
  });

  it('not-composable names the entry or the x', () => {
    const e = err('compose', '(4,4,4,4):(2,4,8,16)', '((2,4),8):((4,8),8)');
    expect(e.kind).toBe('not-composable');
    // the first x where additivity fails (hand: x = 10, see paper-examples 2.3.7.8)
    expect(e.message).toMatch(/x = 10\b/);
    // a per-entry failure names the entry: 3:3 ↦ Φ_B(3t) = 0, 3, 12 for B = (4,3):(1,10)
    const h = err('compose', '(4,3):(1,10)', '3:3');
    expect(h.message).toMatch(/entry 1|3:3/);
    const f = err('compose', '(2,2):(1,10)', '(2,2):(1,1)');
    expect(f.message).toMatch(/x = 3/);
    const g = err('compose', '4:1', '3:2');
    expect(g.message).toMatch(/cosize/);
  });

  it('division and product report the failures of complement and composition', () => {
    expect(err('logical_divide', '(4,8):(1,4)', '(2,2):(1,3)').kind).toBe('not-complementable');
    expect(err('logical_divide', '(4,8):(1,4)', '5:1').kind).toBe('not-complementable');
    expect(err('logical_product', '(2,2):(1,3)', '2:1').kind).toBe('not-complementable');
  });
});

describe('bad-request through the op table', () => {
  it('unknown op, wrong arity, wrong argument types', () => {
    expect(err('no_such_op', '4:1').kind).toBe('bad-request');
    expect(err('size').kind).toBe('bad-request');
    expect(err('size', '4:1', '4:1').kind).toBe('bad-request');
    expect(err('compose', '4:1').kind).toBe('bad-request');
    expect(err('concat').kind).toBe('bad-request');
    expect(err('size', 4).kind).toBe('bad-request');
    expect(err('size', null).kind).toBe('bad-request');
    expect(err('mode', '(4,8):(1,4)', '1').kind).toBe('bad-request');
    expect(err('mode', '(4,8):(1,4)', 1.5).kind).toBe('bad-request');
    expect(err('eval', '(4,8):(1,4)', true).kind).toBe('bad-request');
    expect(err('complement', '(4,8):(1,4)', '32').kind).toBe('bad-request');
    expect(err('substitute', '(4,8):(1,4)', ['*', '*']).kind).toBe('bad-request');
  });
});

describe('error kinds at the edges', () => {
  it('⊗ with a non-complementable A is not-complementable, whatever its span (stride-0 A: span 0)', () => {
    // docs/semantics.md §6: the failures of ⊗ are those of complement, reported as such. A = 4:0 has a
    // stride-0 entry of shape 4, so it is not complementable (docs/semantics.md §4); its "span" s·d is 0.
    for (const a of ['4:0', '(1,4):(5,0)', '(2,2):(0,0)', '((3,1)):((0,7))']) {
      const e = err('logical_product', a, '2:1');
      expect(e.kind, `${a} ⊗ 2:1: ${e.message}`).toBe('not-complementable');
      expect(err('complement', a).kind).toBe('not-complementable');
    }
  });

  it('⊗ with a non-complementable A whose span exceeds 2^53−1 is still not-complementable', () => {
    // hand: sorted 2:3, 2:2^52; 2·3 = 6 does not divide 2^52, so A is not complementable, which
    // decides the answer before any N is needed (its span 2^53 is not representable)
    const a = '(2,2):(3,4503599627370496)';
    expect(err('complement', a).kind).toBe('not-complementable');
    const e = err('logical_product', a, '2:1');
    expect(e.kind, e.message).toBe('not-complementable');
    // a complementable A whose least N is 2^53 cannot be answered exactly: overflow is right
    expect(err('logical_product', '(2,2):(1,4503599627370496)', '1:0').kind).toBe('overflow');
  });

  it('exact at large values', () => {
    // hand: coal(B) = 2^32:1 is the identity below 2^32 and A is compact
    expect(ok('compose', '(65536,65536):(1,65536)', '(65536,65536):(1,65536)')).toBe('(65536,65536):(1,65536)');
    // hand: Φ_B(3t) = 1·t (digit 0 of 3t is 0, digit 1 is t)
    expect(ok('compose', '(3,1000000007):(1000000007,1)', '1000000007:3')).toBe('1000000007:1');
    expect(ok('cosize', '(2,2):(1,4503599627370495)')).toBe(4503599627370497);
    // hand: sorted 2:1, 2:2^51 → 1:1 (dropped), 2^51/2 = 2^50 : 2, N/2^52 = 1 (dropped)
    expect(ok('complement', '(2,2):(1,2251799813685248)', 4503599627370496)).toBe('1125899906842624:2');
  });
});

describe('not-composable is decided by Φ, not refused (docs/semantics.md §5)', () => {
  // compose.ts refuses some large questions with `overflow` ("needs N evaluations, above the
  // limit"); these three have a small, definite answer, so `overflow` is the wrong kind.
  it('additivity fails at x = 3 although A is large', () => {
    // hand: B = (2,2^27):(1,10), A = (2,2,2^25):(1,1,2); cosize(A) = 2^26 + 1 ≤ 2^28.
    // x = 3 = (1,1,0): Φ_A = 2, Φ_B(2) = 10, but f1(1) + f2(1) = 1 + 1 = 2.
    // the same argument at a small size, confirmed by exhaustive search and by compose
    expect(searchComposite(parseL('(2,128):(1,10)'), parseL('(2,2,32):(1,1,2)')).exists).toBe(false);
    expect(err('compose', '(2,128):(1,10)', '(2,2,32):(1,1,2)').kind).toBe('not-composable');
    const e = err('compose', '(2,134217728):(1,10)', '(2,2,33554432):(1,1,2)');
    expect(e.kind, e.message).toBe('not-composable');
  });

  it('an entry of A that is not a layout function fails at t = 2 although it has 2^25 points', () => {
    // hand: B = (3,2^26):(1,5), entry 2^25:2: Φ_B(2) = 2, Φ_B(4) = 1 + 5 = 6 ≠ 2·2
    expect(searchComposite(parseL('(3,64):(1,5)'), parseL('32:2')).exists).toBe(false);
    expect(err('compose', '(3,64):(1,5)', '32:2').kind).toBe('not-composable');
    const e = err('compose', '(3,67108864):(1,5)', '33554432:2');
    expect(e.kind, e.message).toBe('not-composable');
  });

  it('carries that cancel, with a large independent entry: the composite exists', () => {
    // hand: B = (2,2,2,2^26):(1,3,5,7), A = (2,2,2^25):(1,3,8), cosize(A) = 5 + (2^25−1)·8 < 2^29.
    // Φ_A = a + 3b + 8c; a + 3b ∈ {0,1,3,4} has B-digits 0, (1), (1,1), (0,0,1) → Φ_B 0, 1, 4, 5
    // = a + 4b, and 8c puts c in digit 3 → 7c. So B∘A = (2,2,2^25):(1,4,7).
    const small = searchComposite(parseL('(2,2,2,64):(1,3,5,7)'), parseL('(2,2,32):(1,3,8)'));
    expect(small.exists && small.c).toEqual(parseL('(2,2,32):(1,4,7)'));
    expect(ok('compose', '(2,2,2,64):(1,3,5,7)', '(2,2,32):(1,3,8)')).toBe('(2,2,32):(1,4,7)');
    expect(ok('compose', '(2,2,2,67108864):(1,3,5,7)', '(2,2,33554432):(1,3,8)')).toBe('(2,2,33554432):(1,4,7)');
  });
});
