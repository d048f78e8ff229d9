/**
 * Integers beyond 2^53 − 1 are quoted as the request wrote them, never rounded (src/algebra/int-text.ts,
 * docs/protocol.md): the texts a request's JSON or notation wrote, kept while it runs; and the ops that read
 * such integers (int arguments, tiled copies, LLs in every form) quote them from those texts, or say
 * "an integer beyond 2^53 − 1" where no text is known. The rounded double's digits must never appear.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { LayoutError } from '../../src/algebra/errors.js';
import { loadAllOps } from '../../src/ops/table.js';
import { BEYOND_SAFE, integerTexts, intText, knownIntText, withIntTexts } from '../../src/algebra/int-text.js';
import { parseLL } from '../../src/linear/forms.js';
import { runOpDirect } from '../../src/ops/table.js';
import type { OpContext } from '../../src/ops/spec.js';

const ctx: OpContext = {
  backendChoice: 'cpu',
  backend: () => Promise.reject(new Error('no backend in these tests')),
};

/** The error f throws (a LayoutError expected). */
function failure(f: () => unknown): LayoutError {
  try {
    f();
  } catch (e) {
    if (e instanceof LayoutError) return e;
    throw e;
  }
  throw new Error('expected a LayoutError');
}

const HUGE = '9007199254740993'; // 2^53 + 1, read as 2^53
const BIG = '99999999999999999999999'; // read as 1e+23
const MMA = { atom: 'SM80_16x8x16_F32F16F16F32_TN', layout: '(2,2,1)', permutation: '(32,32,16)' };

// the atoms' and linear layouts' ops load their rooms on first use (ops/lazy.ts); these tests run them synchronously
beforeAll(loadAllOps);
describe('integerTexts, intText', () => {
  it('keeps the text of each integer beyond 2^53 − 1 outside strings, null when two texts round alike', () => {
    const m = integerTexts(`{"a": [${HUGE}, 1, -${HUGE}], "s": "${BIG}", "e": 1e300, "f": 2.5}`);
    expect(m.get(Number(HUGE))).toBe(HUGE);
    expect(m.get(-Number(HUGE))).toBe(`-${HUGE}`);
    expect(m.get(1e300)).toBe('1e300');
    expect(m.has(Number(BIG))).toBe(false); // inside a string: its own parser registers it
    expect(m.size).toBe(3);
    expect(integerTexts(`[${HUGE}, 9007199254740992]`).get(2 ** 53)).toBeNull();
    expect(integerTexts('(4,8):(1,4)').size).toBe(0);
  });

  it('quotes safe integers as themselves, known ones as written, the rest in words', () => {
    expect(intText(42)).toBe('42');
    expect(intText(Number(HUGE))).toBe(BEYOND_SAFE);
    expect(knownIntText(Number(HUGE))).toBeNull();
    const inner = withIntTexts(integerTexts(`[${HUGE}]`), () => withIntTexts(integerTexts(`[${BIG}]`), () => [intText(2 ** 53), intText(1e23)]));
    expect(inner).toEqual([HUGE, BIG]);
    // out of scope again
    expect(intText(2 ** 53)).toBe(BEYOND_SAFE);
  });
});

describe('messages quote the integer as written', () => {
  it('an int argument (partition_a t = 2^53 + 1), from JSON under the request’s texts and from command-line text', () => {
    const args = [MMA, Number(HUGE), '(64,64):(64,1)'];
    const e = failure(() => withIntTexts(integerTexts(JSON.stringify(MMA) + `, ${HUGE}`), () => runOpDirect('partition_a', args, ctx)));
    expect(e.kind).toBe('domain');
    expect(e.message).toContain(`t = ${HUGE}`);
    expect(e.message).not.toContain('9007199254740992');
    // no text known (a library call with a JS number): named, not rounded
    const bare = failure(() => runOpDirect('partition_a', args, ctx));
    expect(bare.kind).toBe('domain');
    expect(bare.message).toContain(BEYOND_SAFE);
    expect(bare.message).not.toContain('9007199254740992');
    const cli = failure(() => runOpDirect('partition_a', [JSON.stringify(MMA), HUGE, '(64,64):(64,1)'], ctx, true));
    expect(cli.message).toContain(HUGE);
  });

  it('LLs: a Triton print value, an out-dim size, Gluon and #ttg.linear bases, the JSON object (texts of the request)', () => {
    const cases: [() => unknown, string][] = [
      [() => parseLL(`\n - register=1 -> (${BIG})\nwhere out dims are: [dim0 (size 16)]`), BIG],
      [() => parseLL(`\n - register=1 -> (1)\nwhere out dims are: [dim0 (size ${BIG})]`), BIG],
      [() => parseLL(`DistributedLinearLayout(reg_bases=[[${BIG}]], lane_bases=[], warp_bases=[], block_bases=[], shape=[16])`), BIG],
      [() => parseLL(`#ttg.linear<{register = [[${BIG}]], lane = [], warp = [], block = []}>`), BIG],
      [() => parseLL(`{"bases": [["register", [[${HUGE}]]]], "outDims": [["dim0", 16]]}`), HUGE],
      [() => withIntTexts(integerTexts(`[${HUGE}]`), () => parseLL({ bases: [['register', [[Number(HUGE)]]]], outDims: ['dim0'] })), HUGE],
      [
        () =>
          withIntTexts(integerTexts(`[${HUGE}]`), () =>
            runOpDirect('ll_apply', [{ bases: [['register', [[1]]]], outDims: [['dim0', 2]] }, { register: Number(HUGE) }], ctx),
          ),
        HUGE,
      ],
      [() => withIntTexts(integerTexts(`[${HUGE}]`), () => runOpDirect('to_ll', ['(2,2):(1,2)', 'tv', [Number(HUGE)]], ctx)), HUGE],
    ];
    for (const [f, text] of cases) {
      const e = failure(f);
      expect(e.kind, e.message).toBe('domain');
      expect(e.message).toContain(text);
      expect(e.message).not.toMatch(/1e\+23|9007199254740992/);
    }
  });

  it('a tiled copy’s bits and a local_tile coordinate', () => {
    const texts = integerTexts(`[${HUGE}]`);
    const copy = { atom: 'SM75_U32x4_LDSM_N', bits: Number(HUGE), mma: MMA, operand: 'A' };
    for (const f of [
      () => runOpDirect('make_tiled_copy', [copy], ctx),
      () => runOpDirect('local_tile', ['(128,64):(64,1)', '(32,64)', Number(HUGE)], ctx),
      () => runOpDirect('crd2idx', [Number(HUGE), '(4)'], ctx),
    ]) {
      const e = withIntTexts(texts, () => failure(f));
      expect(e.kind, e.message).toBe('domain');
      expect(e.message).toContain(HUGE);
      const bare = failure(f);
      expect(bare.message).toContain(BEYOND_SAFE);
      expect(bare.message).not.toContain('9007199254740992');
    }
  });
});
