/**
 * Triton's AMD variant (src/planner/triton.ts tritonTarget; triton-lang/triton#9662) on the two AMD SwizzleTest pairs of
 * test/fixtures/plan-swizzletest.jsonl: the `triton` entry on gfx942 / gfx950 is the layout Triton builds there, checked
 * against what Triton's test expects of it (r = w = 0 in its bankConflictsLdSt with numBanks and the dstTile lanes:
 * no segment basis in the span of a side's phase lanes, re-derived here by brute-force spans), with the bank row of
 * the machine's banks × 32 bits; and the variant is the NVIDIA construction where the machine is NVIDIA's.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseLL } from '../../src/linear/forms.js';
import type { LinearLayout } from '../../src/linear/value.js';
import { loadPlanner, planArgs } from '../../src/ops/planner.js';
import { NVIDIA_TARGET, offsetsOfBases, type RegisterBases, tritonBases, tritonTarget } from '../../src/planner/triton.js';

const CASES = readFileSync(new URL('../fixtures/plan-swizzletest.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as { id: string; args: [Record<string, unknown>] });
const AMD = CASES.filter((c) => String(c.args[0].arch).startsWith('gfx'));

beforeAll(async () => {
  await loadPlanner();
});

const E: Record<string, number> = { float_e4m3_t: 1, half_t: 2, bfloat16_t: 2, float: 4 };
const tileIndex = (b: readonly number[], shape: number[]): number => b.reduce((v, c, d) => v + c * shape.slice(0, d).reduce((a, x) => a * x, 1), 0);
const basesOf = (l: LinearLayout, name: string): readonly (readonly number[])[] => l.inDims.find((d) => d.name === name)?.bases ?? [];
const regOf = (l: LinearLayout, shape: number[]): RegisterBases => ({
  reg: basesOf(l, 'register')
    .map((b) => tileIndex(b, shape))
    .filter((x) => x !== 0),
  lane: basesOf(l, 'lane').map((b) => tileIndex(b, shape)),
  warp: basesOf(l, 'warp')
    .map((b) => tileIndex(b, shape))
    .filter((x) => x !== 0),
});

/** The span of vectors, as a set. */
function span(vs: readonly number[]): Set<number> {
  let s = new Set([0]);
  for (const v of vs) s = new Set([...s, ...[...s].map((x) => x ^ v)]);
  return s;
}
/** dim(span(a) ∩ span(b)) by brute force. */
const meet = (a: readonly number[], b: readonly number[]): number => {
  const sb = span(b);
  return Math.log2([...span(a)].filter((x) => sb.has(x)).length);
};

describe("Triton's AMD variant on SwizzleTest's AMD pairs", () => {
  it('the fixture holds both: Test64x128F16BlockedLinear32Bank on gfx942, Test64x128F16BlockedMfma64Bank on gfx950', () => {
    expect(AMD.map((c) => [c.id, c.args[0].arch])).toEqual([
      ['Test64x128F16BlockedLinear32Bank', 'gfx942'],
      ['Test64x128F16BlockedMfma64Bank', 'gfx950'],
    ]);
  });

  for (const c of AMD) {
    const req = c.args[0];
    it(`${c.id}: r = w = 0 with Triton's ${String(req.arch)} tiles, a bank row of banks × 32 bits, and it is the triton entry`, () => {
      const shape = String(req.tile).slice(1, -1).split(',').map(Number);
      const bits = 8 * E[String(req.dtype)]!;
      const dim = Math.log2(shape.reduce((a, b) => a * b, 1));
      const [w, r] = [regOf(parseLL((req.write as { ll: string }).ll), shape), regOf(parseLL((req.read as { ll: string }).ll), shape)];
      const banks = req.arch === 'gfx950' ? 64 : 32;
      const t = tritonBases(w, r, bits, dim, tritonTarget({ vendor: 'amd', banks }))!;
      expect(t).not.toBeNull();
      // a basis of the tile: every index once
      expect(new Set(offsetsOfBases(t.bases)).size).toBe(2 ** dim);
      const vecBits = 2 ** t.vector.length * bits;
      expect(vecBits).toBe(128); // both pairs vectorise by 16 bytes
      // the bank row: the machine's banks × 32 bits (NVIDIA's construction would take 32 × 32)
      expect(t.vector.length + t.bank.length).toBe(Math.log2((banks * 32) / bits));
      // the write's phase: its low lanes, 64·bits/(banks·32) phases' worth of high lanes dropped (#9662)
      const log2Vec = Math.log2(vecBits / 32);
      const tileSrc = w.lane.slice(0, w.lane.length - Math.max(0, log2Vec + w.lane.length - Math.log2(banks)));
      // the read's phase: the lanes SwizzleTest passes as its dstTile for ds_read_b128 ({0, 1, 4} / {0, 1, 3, 4})
      const tileDst = (banks === 64 ? [0, 1, 3, 4] : [0, 1, 4]).map((i) => r.lane[i]!);
      // Triton's bankConflicts: 2^dim(segment ∩ tile) − 1 each; its test expects 0 and 0
      expect([meet(t.segment, tileDst), meet(t.segment, tileSrc)]).toEqual([0, 0]);
      // the plan's triton entry is this layout (its offsets), priced on the machine's waves
      const plan = planArgs(req);
      const printed = parseLL(plan.triton!.layout);
      const own = basesOf(printed, 'offset').map((b) => tileIndex(b, shape));
      expect(own).toEqual([...t.bases]);
      expect(plan.triton!.write.instruction.startsWith('ds_write_b')).toBe(true);
    });
  }

  it('differs from the NVIDIA construction where the machine does: gfx950’s 64 banks widen the bank row', () => {
    const c = AMD.find((x) => x.args[0].arch === 'gfx950')!;
    const req = c.args[0];
    const shape = [64, 128];
    const [w, r] = [regOf(parseLL((req.write as { ll: string }).ll), shape), regOf(parseLL((req.read as { ll: string }).ll), shape)];
    const amd = tritonBases(w, r, 16, 13, tritonTarget({ vendor: 'amd', banks: 64 }))!;
    const nv = tritonBases(w, r, 16, 13, NVIDIA_TARGET)!;
    expect(amd.bank.length).toBe(nv.bank.length + 1);
    expect(tritonTarget({ vendor: 'nvidia', banks: 32 })).toBe(NVIDIA_TARGET);
  });
});
