/**
 * Deadlines of the memory system's long work (issue 18, item 5): bank_conflicts of a 2^24-value
 * TV, the conflict-free search (also as `verify ["conflict-free", …]` in batch, whose deadline is
 * carried across awaits) and cosize of a composed layout stop with `timeout` soon after their
 * deadline, not seconds later. The inputs are the reproducers (test/fixtures/repro/).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { parseLayout } from '../../src/algebra/notation.js';
import { makeContext } from '../../src/cli/context.js';
import { cosizeLayoutFunction, parseLayoutFunction } from '../../src/cute/composed.js';
import { bankConflicts } from '../../src/memory/banks.js';
import { searchCpu } from '../../src/memory/search.js';
import { runOpDirect } from '../../src/ops/table.js';
import { expectTimeout } from '../helpers/deadline.js';

const FIX = join(__dirname, '..', 'fixtures', 'repro');
const lines = (f: string): { id: string; op: string; args: unknown[] }[] =>
  readFileSync(join(FIX, f), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { id: string; op: string; args: unknown[] });

/** the slack allowed past a deadline: the longest stretch between two checks, with room for a loaded machine */
const SLACK = 1500;

describe('long memory-system work honours its deadline', () => {
  it('bank_conflicts of a 2^24-value TV over a 24-mode swizzled M (repro 13)', async () => {
    const [m, tv, e] = lines('13-deadline-overruns.jsonl')[0]!.args as [string, string, number];
    await expectTimeout(200, 200 + SLACK, () => bankConflicts(parseLayoutFunction(m), parseLayout(tv), e));
  });

  it('the conflict-free search over 40 candidates of 2^24 values (repro 03), on the CPU', async () => {
    const [prop, cands] = lines('03-verify-conflict-free-no-deadline.jsonl')[0]!.args as [[string, string, number], string[]];
    const pattern = { tv: parseLayout(prop[1]), e: prop[2] };
    await expectTimeout(200, 200 + SLACK, () =>
      searchCpu(
        cands.map((c) => parseLayoutFunction(c)),
        [pattern],
      ),
    );
  });

  it('verify ["conflict-free", …] as batch runs it (the deadline carried across the op’s awaits)', async () => {
    const { op, args } = lines('03-verify-conflict-free-no-deadline.jsonl')[0]!;
    const ctx = makeContext('cpu');
    try {
      await expectTimeout(200, 200 + SLACK, () => runOpDirect(op, args, ctx));
    } finally {
      await ctx.dispose();
    }
  });

  it('cosize of a composed layout that enumerates 2^24 offsets, under 1 ms (repro 14)', async () => {
    const l = parseLayoutFunction('Sw<3,3,3> o 5 o (4096,4095):(3,5000)');
    await expectTimeout(1, 1 + SLACK, () => cosizeLayoutFunction(l));
  });
});
