/**
 * The laws as fuzzing: broken implementations are caught, with counterexamples shrunk to
 * minimal ones; the algebra itself passes; not-composable answers are confirmed exhaustively.
 */
import { describe, expect, it } from 'vitest';
import { coalesce, fromCoalescedFlat } from '../../src/algebra/coalesce.js';
import { compose } from '../../src/algebra/compose.js';
import { complement } from '../../src/algebra/complement.js';
import { LayoutError } from '../../src/algebra/errors.js';
import { flat, type Layout } from '../../src/algebra/layout.js';
import { formatLayout, parseLayout } from '../../src/algebra/notation.js';
import { CpuVerifyEngine } from '../../src/verify/cpu.js';
import { ALGEBRA, lawOutcomeSync, searchComposite, type LawImpl, type LawName } from '../../src/verify/laws.js';
import { runVerify } from '../../src/verify/run.js';
import { shrinkSteps } from '../../src/verify/shrink.js';
import { randomSource } from '../../src/verify/source-random.js';
import { listSource } from '../../src/verify/source-text.js';

const cpu = new CpuVerifyEngine();
const P = parseLayout;

/** test-only broken coalesce: forgets that stride-0 neighbours merge too */
function brokenCoalesce(l: Layout): Layout {
  const f = flat(l);
  const s: number[] = [];
  const d: number[] = [];
  for (let i = 0; i < f.shapes.length; i++) {
    const si = f.shapes[i]!;
    if (si === 1) continue;
    const di = f.strides[i]!;
    const k = s.length - 1;
    if (k >= 0 && d[k] !== 0 && di === s[k]! * d[k]!) s[k] = s[k]! * si;
    else {
      s.push(si);
      d.push(di);
    }
  }
  return fromCoalescedFlat({ shapes: s, strides: d });
}

function assertMinimal(law: LawName, items: Layout[], impl: LawImpl): void {
  expect(lawOutcomeSync(law, items, impl).status).toBe('fail');
  for (let i = 0; i < items.length; i++) {
    for (const step of shrinkSteps(items[i]!)) {
      const next = [...items];
      next[i] = step;
      expect(lawOutcomeSync(law, next, impl).status, `step ${next.map(formatLayout).join(' ')}`).not.toBe('fail');
    }
  }
}

describe('law:coalesce', () => {
  it('catches a broken coalesce with the minimal counterexample (2,2):(0,0)', async () => {
    const impl = { ...ALGEBRA, coalesce: brokenCoalesce };
    const r = await runVerify({
      property: { kind: 'law', law: 'coalesce' },
      source: randomSource({ count: 3000, seed: 3, maxStride: 4 }),
      engine: cpu,
      impl,
      maxExamples: 3,
    });
    expect(r.failed).toBeGreaterThan(0);
    expect(r.examples.length).toBe(3);
    for (const e of r.examples) {
      expect(e.shrunk).toEqual(['(2,2):(0,0)']);
      expect(e.reason).toMatch(/mergeable/);
      assertMinimal('coalesce', [P(e.shrunk![0]!)], impl);
    }
    // the correct coalesce passes the same candidates
    const ok = await runVerify({ property: { kind: 'law', law: 'coalesce' }, source: randomSource({ count: 3000, seed: 3, maxStride: 4 }), engine: cpu });
    expect(ok.failed).toBe(0);
  });

  it('catches a coalesce that changes Φ', async () => {
    // merges whenever d(i+1) is a multiple of s_i·d_i (wrong function)
    const impl = {
      ...ALGEBRA,
      coalesce: (l: Layout): Layout => {
        const f = flat(coalesce(l));
        const s: number[] = [];
        const d: number[] = [];
        f.shapes.forEach((si, i) => {
          const k = s.length - 1;
          if (k >= 0 && s[k]! * d[k]! > 0 && f.strides[i]! % (s[k]! * d[k]!) === 0) s[k] = s[k]! * si;
          else {
            s.push(si);
            d.push(f.strides[i]!);
          }
        });
        return fromCoalescedFlat({ shapes: s, strides: d });
      },
    };
    const r = await runVerify({
      property: { kind: 'law', law: 'coalesce' },
      source: randomSource({ count: 2000, seed: 4 }),
      engine: cpu,
      impl,
      maxExamples: 1,
    });
    expect(r.failed).toBeGreaterThan(0);
    expect(r.examples[0]!.reason).toMatch(/different Φ/);
    expect(r.examples[0]!.shrunk).toEqual(['(2,2):(1,0)']);
    assertMinimal('coalesce', [P('(2,2):(1,0)')], impl);
  });
});

describe('law:compose', () => {
  it('confirms not-composable answers by exhaustive search', () => {
    expect(searchComposite(P('(2,2):(1,10)'), P('(2,2):(1,1)'))).toMatchObject({ exists: false });
    const r = searchComposite(P('(4,3):(1,10)'), P('2:3'));
    expect(r && r.exists && formatLayout(r.composite)).toBe('2:3');
    const e = searchComposite(P('(100):(7)'), P('(3,5):(10,2)'));
    expect(e && e.exists && formatLayout(e.composite)).toBe('(3,5):(70,14)');
    const n = searchComposite(P('(2,2,6):(12,6,1)'), P('(4):(2)'));
    expect(n && n.exists && formatLayout(n.composite)).toBe('((2,2)):((6,1))');
    expect(searchComposite(P('4:1'), P('8:1'))).toMatchObject({ exists: false });
    expect(searchComposite(P('8192:1'), P('8192:1'))).toBeNull();
  });

  it('the algebra passes on random pairs, and exhaustive search agrees with it on every refusal', async () => {
    const src = randomSource({ count: 600, seed: 21, arity: 2, composable: true, maxSize: 128, maxStride: 12 });
    const r = await runVerify({ property: { kind: 'law', law: 'compose' }, source: src, engine: cpu });
    expect(r.failed).toBe(0);
    expect(r.skipped).toBe(0);
    // both outcomes occur in the sample
    let refused = 0;
    for (const c of randomSource({ count: 600, seed: 21, arity: 2, composable: true, maxSize: 128, maxStride: 12 }).chunks(600)) {
      for (const [b, a] of c.items!) {
        try {
          compose(b!, a!);
        } catch (e) {
          if (e instanceof LayoutError && e.kind === 'not-composable') refused++;
        }
      }
    }
    expect(refused).toBeGreaterThan(10);
    expect(refused).toBeLessThan(590);
  });

  it('catches a compose that refuses an existing composite, and one that returns a wrong one', async () => {
    const refuses = {
      ...ALGEBRA,
      compose: (b: Layout, a: Layout): Layout => {
        if (flat(a).strides.some((d) => d % 3 === 0 && d > 0)) throw new LayoutError('not-composable', 'divisibility (CuTe-like)');
        return compose(b, a);
      },
    };
    const r = await runVerify({
      property: { kind: 'law', law: 'compose' },
      source: randomSource({ count: 500, seed: 6, arity: 2, composable: true, maxSize: 64, maxStride: 9 }),
      engine: cpu,
      impl: refuses,
      maxExamples: 1,
    });
    expect(r.failed).toBeGreaterThan(0);
    expect(r.examples[0]!.reason).toMatch(/is the composite/);
    assertMinimal(
      'compose',
      r.examples[0]!.shrunk!.map((t) => P(t)),
      refuses,
    );

    // CuTe's by-mode rule on (2,2):(1,10) ∘ (2,2):(1,1) returns (2,2):(1,1), whose Φ is wrong at x = 3
    const byMode = {
      ...ALGEBRA,
      compose: (b: Layout, a: Layout): Layout => (formatLayout(b) === '(2,2):(1,10)' && formatLayout(a) === '(2,2):(1,1)' ? P('(2,2):(1,1)') : compose(b, a)),
    };
    const w = await runVerify({
      property: { kind: 'law', law: 'compose' },
      source: listSource(
        [
          [P('(2,2):(1,10)'), P('(2,2):(1,1)')],
          [P('(100):(7)'), P('(3,5):(10,2)')],
        ],
        'two pairs',
      ),
      engine: cpu,
      impl: byMode,
    });
    expect(w.failed).toBe(1);
    expect(w.examples[0]!.reason).toMatch(/differs from Φ_B∘Φ_A/);
  });
});

describe('laws of complement, division and product', () => {
  for (const law of ['complement', 'divide', 'product'] as const) {
    it(`the algebra passes law:${law}`, async () => {
      const src = randomSource({ count: 800, seed: 31, arity: law === 'complement' ? 1 : 2, maxSize: 256, maxStride: 16, maxShape: 6 });
      const r = await runVerify({ property: { kind: 'law', law }, source: src, engine: cpu, maxExamples: 5 });
      // (law:product found logicalProduct(2:0, ():()) answering `domain` "N = NaN" instead of
      // `not-complementable`; fixed in the algebra by f181815)
      expect(r.examples).toEqual([]);
      expect(r.failed).toBe(0);
    });
  }

  it('catches a complement that keeps shape-1 entries, and one that ignores N', async () => {
    const keeps = {
      ...ALGEBRA,
      complement: (a: Layout, n?: number): Layout => {
        const c = complement(a, n);
        return typeof c.shape === 'number' && c.shape > 1 ? { shape: [c.shape, 1], stride: [c.stride as number, 0] } : c;
      },
    };
    const r = await runVerify({
      property: { kind: 'law', law: 'complement' },
      source: randomSource({ count: 500, seed: 8 }),
      engine: cpu,
      impl: keeps,
      maxExamples: 1,
    });
    expect(r.failed).toBeGreaterThan(0);
    assertMinimal(
      'complement',
      r.examples[0]!.shrunk!.map((t) => P(t)),
      keeps,
    );
    const ignoresN = { ...ALGEBRA, complement: (a: Layout): Layout => complement(a) };
    const s = await runVerify({
      property: { kind: 'law', law: 'divide' },
      source: randomSource({ count: 500, seed: 9, arity: 2, maxSize: 64, maxStride: 8 }),
      engine: cpu,
      impl: ignoresN,
      maxExamples: 1,
    });
    expect(s.failed).toBeGreaterThan(0);
  });
});
