/**
 * verify's candidates (ops/verify-conflicts.ts parseCandidate): reproducer 09 of the shared set
 * (test/fixtures/repro/09-…jsonl) through batch on the CPU. Each candidate is judged as bank_conflicts judges it
 * alone (the oracle: conflicts = 0), swizzles cut to the bits the offsets reach; a candidate whose values cannot be
 * represented exactly fails the request with `overflow` naming it, as one that does not parse fails it with `parse`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerLine } from '../../src/cli/batch.js';
import { makeContext } from '../../src/cli/context.js';
import { bankConflicts } from '../../src/memory/banks.js';
import { parseLayout } from '../../src/algebra/notation.js';
import { parseLayoutFunction } from '../../src/cute/composed.js';
import { FIXTURES } from '../helpers/fixtures.js';

const lines = readFileSync(join(FIXTURES, 'repro', '09-verify-conflict-free-gpu-vs-cpu.jsonl'), 'utf8')
  .trim()
  .split('\n');
const answer = async (line: string): Promise<{ ok: boolean; result?: unknown; error?: { kind: string; message: string } }> =>
  JSON.parse(await answerLine(line, makeContext('cpu')));

describe('verify conflict-free candidates (reproducer 09, CPU)', () => {
  it('each candidate answered as bank_conflicts answers it alone', async () => {
    const req = JSON.parse(lines[0]!) as { args: [[string, string, number], string[]] };
    const [[, tv, e], cands] = req.args;
    const want = cands.map((c) => bankConflicts(parseLayoutFunction(c), parseLayout(tv), e).conflicts === 0);
    const got = await answer(lines[0]!);
    expect(got.ok).toBe(true);
    expect(got.result).toEqual(want);
    expect(want).toHaveLength(5);
  });

  it('a candidate whose offsets pass 2^53 fails the request, naming it', async () => {
    const got = await answer(lines[2]!);
    expect(got.ok).toBe(false);
    expect(got.error?.kind).toBe('overflow');
    expect(got.error?.message).toMatch(/^candidate 2: Sw<1,0,-64> o 0 o \(64,64\):\(64,1\): /);
    const parse = await answer('{"id":1,"op":"verify","args":["compact",["4:1","(2,2):(1,x)"]]}');
    expect(parse.error?.message).toMatch(/^candidate 2: /);
    const size = await answer('{"id":1,"op":"verify","args":["compact",["4:1","(4294967296,4294967296):(1,4294967296)"]]}');
    expect([size.error?.kind, size.error?.message]).toEqual(['overflow', 'candidate 2: size exceeds 2^53-1 and cannot be represented exactly']);
  });
});
