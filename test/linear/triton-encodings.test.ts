/**
 * ll_from_encoding against Triton 3.8.0 itself: test/fixtures/triton-encodings.jsonl holds requests whose
 * attribute text is Triton's own printing and, as the response, Triton's `toLinearLayout(shape, attr)`
 * (or the error kind where Triton's parser or verifier refuses the attribute or Triton aborts). The
 * pairs were written by bench/triton-encodings.py from the Triton wheel (no GPU needed); ids name the
 * encoding kind, `fix-…` ids the cases of each discrepancy found and fixed. Results compare exactly,
 * errors by kind. test/fixtures/triton-ll-forms.jsonl holds ll_format requests on LLs Triton built from
 * encodings, each answered by Triton's own printing of that LL: LinearLayout::toString (form triton),
 * the Gluon layout's repr (gluon) and the printed #ttg.linear / #ttg.shared_linear attribute (mlir).
 */
import { describe, expect, it } from 'vitest';
import { LayoutError } from '../../src/algebra/errors.js';
import { llFromEncoding } from '../../src/linear/encodings.js';
import { toCanonicalJson } from '../../src/linear/forms.js';
import { runOp } from '../../src/ops/table.js';
import type { OpContext } from '../../src/ops/spec.js';
import { readPairs } from '../helpers/fixtures.js';

const ctx = { backendChoice: 'cpu', backend: () => Promise.reject(new Error('no backend')) } as unknown as OpContext;
const pairs = readPairs('triton-encodings.jsonl');

async function answer(args: readonly unknown[], op = 'll_from_encoding'): Promise<{ ok: boolean; result?: unknown; kind?: string }> {
  try {
    return { ok: true, result: await runOp(op, args, ctx) };
  } catch (e) {
    if (!(e instanceof LayoutError)) throw e;
    return { ok: false, kind: e.kind };
  }
}

describe('ll_from_encoding = Triton 3.8.0 toLinearLayout (pairs from Triton itself)', () => {
  it('covers every encoding kind, the fixes, and both answers and refusals', () => {
    const kinds = new Set(pairs.map((p) => String(p.request.id).replace(/-\d+$/, '')));
    for (const k of [
      'blocked',
      'slice',
      'nvidia_mma_v2',
      'nvidia_mma_v3',
      'dot_op',
      'amd_mfma',
      'swizzled_shared',
      'nvmma_shared',
      'linear',
      'shared_linear',
    ]) {
      expect(kinds).toContain(k);
    }
    expect([...kinds].filter((k) => k.startsWith('fix-')).length).toBeGreaterThanOrEqual(10);
    expect(pairs.filter((p) => p.response.ok).length).toBeGreaterThan(150);
    expect(pairs.filter((p) => !p.response.ok).length).toBeGreaterThan(50);
  });

  for (const p of pairs) {
    it(String(p.request.id), async () => {
      expect(p.request.op).toBe('ll_from_encoding');
      const got = await answer(p.request.args);
      if (p.response.ok) expect(got).toEqual({ ok: true, result: p.response.result });
      else expect(got).toEqual({ ok: false, kind: p.response.error!.kind });
    });
  }
});

describe("ll_format of encoding LLs = Triton 3.8.0's own printing", () => {
  const forms = readPairs('triton-ll-forms.jsonl');

  it('has every form for register and shared LLs', () => {
    const seen = new Set(forms.map((p) => `${p.request.args[1]}:${(p.request.args[0] as { bases: [string][] }).bases[0]![0]}`));
    for (const f of ['triton', 'gluon', 'mlir']) for (const d of ['register', 'offset']) expect(seen).toContain(`${f}:${d}`);
  });

  for (const p of forms) {
    it(String(p.request.id), async () => {
      expect(p.request.op).toBe('ll_format');
      expect(await answer(p.request.args, 'll_format')).toEqual({ ok: true, result: p.response.result });
    });
  }
});

describe('cases Triton answers in C++ but its Python bindings cannot show', () => {
  const mfma = (version: number, instr: string): string =>
    `#ttg.amd_mfma<{version = ${version}, warpsPerCTA = [2, 2], instrShape = ${instr}, isTransposed = true}>`;

  it('amd_mfma version 0 (allowed by the verifier, refused by Gluon) has the LL of any other version', () => {
    // the version is not read by toLinearLayout: the LL of version 3 is in the Triton pairs' domain
    for (const shape of [
      [64, 64],
      [16, 128],
    ]) {
      expect(toCanonicalJson(llFromEncoding(mfma(0, '[32, 32, 8]'), shape))).toEqual(toCanonicalJson(llFromEncoding(mfma(3, '[32, 32, 8]'), shape)));
    }
  });

  it('an instrShape of two entries reads M and N as one of three does', () => {
    expect(toCanonicalJson(llFromEncoding(mfma(3, '[16, 16]'), [64, 64]))).toEqual(toCanonicalJson(llFromEncoding(mfma(3, '[16, 16, 16]'), [64, 64])));
  });

  it('a shared encoding over a one-element shape has no offset bits (Gluon cannot hold an empty offset list)', () => {
    const l = llFromEncoding('#ttg.swizzled_shared<{vec = 2, perPhase = 4, maxPhase = 6, order = [0, 1]}>', [1, 1]);
    expect(toCanonicalJson(l)).toEqual({
      bases: [
        ['offset', []],
        ['block', []],
      ],
      outDims: [
        ['dim0', 1],
        ['dim1', 1],
      ],
    });
  });
});
