/**
 * Deadlines of the atoms' long work (docs/protocol.md: error kind `timeout`): the bank conflicts of a
 * tiled copy over a large shared-memory tensor (the hostile-input fuzz's case: ldmatrix .x4 for A of a
 * 2×2×1 SM80 tiled MMA over (2048,4096):(4096,1), 8M values) and those of a Triton conversion of 2^24
 * (thread, value) pairs stop with `timeout` soon after a 50 ms deadline instead of answering later.
 * Without a deadline the same requests answer (so the deadline, not an error, is what stops them).
 */
import { describe, expect, it } from 'vitest';
import { llBankConflicts } from '../../src/linear/banks.js';
import type { LinearLayout } from '../../src/linear/value.js';
import { runOp, type OpContext } from '../../src/ops/table.js';
import { expectTimeout } from '../helpers/deadline.js';

const ctx: OpContext = {
  backendChoice: 'cpu',
  backend: async () => {
    throw new Error('the atoms need no backend');
  },
};

/** A deadline far below the work's own time (the full requests below answer in about half a second alone, so a missing
 *  check answers a result, not `timeout`), and the longest a request may run: the deadline and the stretch between two
 *  checks on a loaded machine (the test runs beside others on two cores). */
const DEADLINE = 5;
const BOUND = 1000;

const ldsmA = {
  atom: 'SM75_U32x4_LDSM_N',
  bits: 16,
  mma: { atom: 'SM80_16x8x16_F32F16F16F32_TN', layout: '(2,2,1)', permutation: '(32,32,16)' },
  operand: 'A',
};

/** The identity of 2^bits (thread, value) pairs onto a (2^12, 2^(bits−12)) tile: register bits first, then lane, then warp. */
function identityR(reg: number, lane: number, warp: number): LinearLayout {
  const bits = reg + lane + warp;
  const unit = (i: number): number[] => (i < 12 ? [2 ** i, 0] : [0, 2 ** (i - 12)]);
  const run = (from: number, n: number): number[][] => Array.from({ length: n }, (_, i) => unit(from + i));
  return {
    inDims: [
      { name: 'register', bases: run(0, reg) },
      { name: 'lane', bases: run(reg, lane) },
      { name: 'warp', bases: run(reg + lane, warp) },
      { name: 'block', bases: [] },
    ],
    outDims: [
      { name: 'dim0', size: 2 ** 12 },
      { name: 'dim1', size: 2 ** (bits - 12) },
    ],
  };
}

/** The identity shared LL: offset bit i to tile bit i. */
function identityS(bits: number): LinearLayout {
  const unit = (i: number): number[] => (i < 12 ? [2 ** i, 0] : [0, 2 ** (i - 12)]);
  return {
    inDims: [
      { name: 'offset', bases: Array.from({ length: bits }, (_, i) => unit(i)) },
      { name: 'block', bases: [] },
    ],
    outDims: [
      { name: 'dim0', size: 2 ** 12 },
      { name: 'dim1', size: 2 ** (bits - 12) },
    ],
  };
}

describe('the atoms honour the request deadline', () => {
  it('copy_bank_conflicts of ldmatrix .x4 for A over (2048,4096):(4096,1): timeout within a second of a 5 ms deadline', async () => {
    const copy = () => runOp('copy_bank_conflicts', [ldsmA, '(2048,4096):(4096,1)'], ctx);
    await expectTimeout(DEADLINE, BOUND, copy);
    // again, with the copy's tables cached from the first call: the counting passes check too
    await expectTimeout(DEADLINE, BOUND, copy);
  });

  it('the same request answers without a deadline (8 ways on every phase of the row-major tile)', async () => {
    const r = (await runOp('copy_bank_conflicts', [ldsmA, '(2048,4096):(4096,1)'], ctx)) as { phases: number; wavefronts: number };
    // 128 threads × 65536 values of 16 bits in 16-byte vectors: 65536 instructions of 4 phases, each of 8 rows 8 KiB apart in one bank group
    expect(r.phases).toBe(65536 * 4);
    expect(r.wavefronts).toBe(65536 * 4 * 8);
  });

  it('ll_bank_conflicts of 2^24 (thread, value) pairs: timeout within a second of a 5 ms deadline', async () => {
    const rl = identityR(14, 5, 5);
    const sl = identityS(24);
    await expectTimeout(DEADLINE, BOUND, () => llBankConflicts(rl, sl, 4, 1));
  });
});
