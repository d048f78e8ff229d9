/**
 * The worked example pairs (test/fixtures/*-examples.jsonl) through `layoutgpu batch`: id and ok match exactly, a result
 * exactly or by the pair's `match` rule (test/helpers/match.ts), an error by its kind.
 */
import { expect } from 'vitest';
import { readPairs } from '../helpers/fixtures.js';
import { mismatch } from '../helpers/match.js';
import { cli } from './_build.js';

type Resp = { id: unknown; ok: boolean; result?: unknown; error?: { kind: string; message: string } };

/** Runs every pair of test/fixtures/`name` (e.g. 'batch-examples.jsonl') through batch and asserts each one. */
export async function expectExamplePairs(name: string, minPairs: number): Promise<void> {
  const pairs = readPairs(name);
  expect(pairs.length).toBeGreaterThanOrEqual(minPairs);
  const run = await cli(['batch', '--backend', 'cpu'], pairs.map((p) => JSON.stringify(p.request)).join('\n') + '\n', 120_000);
  expect(run.code, run.stderr).toBe(0);
  const resps = run.stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Resp);
  expect(resps.length).toBe(pairs.length);
  resps.forEach((got, i) => {
    const pair = pairs[i]!;
    const want = pair.response;
    const tag = `${name}:${i + 1} ${JSON.stringify(pair.request).slice(0, 200)}`;
    expect(got.id, tag).toEqual(want.id);
    expect(got.ok, `${tag}: ${JSON.stringify(got.error ?? got.result).slice(0, 300)}`).toBe(want.ok);
    if (want.ok) expect(mismatch(got.result, want.result, pair.match), tag).toBeNull();
    else expect(got.error?.kind, tag).toBe(want.error?.kind);
  });
}
