/**
 * The worked pairs of test/fixtures/desc-examples.jsonl (docs/descriptors.md; docs/protocol.md "Descriptors") through the op table
 * (runOpDirect, as the page runs them): every result key exactly, every error by kind. test/cli/examples.test.ts runs
 * the same pairs through `batch`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAllOps, runOpDirect } from '../../src/ops/table.js';

beforeAll(loadAllOps); // the descriptors' room loads on first use (src/ops/lazy.ts)
import type { OpContext } from '../../src/ops/spec.js';
import { readPairs } from '../helpers/fixtures.js';
import { kindOf } from '../helpers/kind.js';

const ctx: OpContext = { backendChoice: 'cpu', backend: () => Promise.reject(new Error('no backend')) };
const pairs = readPairs('desc-examples.jsonl');

describe('desc-examples.jsonl through the op table', () => {
  it('holds the 34 pairs, both ops, answers and failures', () => {
    expect(pairs.length).toBe(34);
    expect(new Set(pairs.map((p) => p.request.op))).toEqual(new Set(['tma_desc', 'gmma_desc']));
    expect(pairs.filter((p) => !p.response.ok).length).toBeGreaterThanOrEqual(8);
  });
  for (const p of pairs) {
    it(String(p.request.id), () => {
      const run = (): unknown => runOpDirect(p.request.op, p.request.args, ctx);
      if (p.response.ok) expect(run()).toEqual(p.response.result);
      else expect(kindOf(run)).toBe(p.response.error!.kind);
    });
  }
  it('a result has exactly the keys the protocol lists, in its order', () => {
    const tma = runOpDirect('tma_desc', pairs[0]!.request.args, ctx) as Record<string, unknown>;
    expect(Object.keys(tma)).toEqual([
      'dataType',
      'rank',
      'globalDim',
      'globalStrides',
      'boxDim',
      'elementStrides',
      'interleave',
      'swizzle',
      'l2Promotion',
      'oobFill',
      'smemAlignment',
      'boxes',
    ]);
    const g = pairs.find((x) => x.request.op === 'gmma_desc')!;
    expect(Object.keys(runOpDirect('gmma_desc', g.request.args, ctx) as object)).toEqual(['layoutType', 'lbo', 'sbo', 'baseOffset', 'smemAlignment', 'desc']);
  });
});
