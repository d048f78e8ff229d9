/**
 * The shared example pairs (shared/examples/*.jsonl) through `layoutgpu batch`, as
 * tools/check-batch-examples runs them: id, ok, result and error kind must match exactly.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { cli, ROOT } from './_build.js';

type Resp = { id: unknown; ok: boolean; result?: unknown; error?: { kind: string; message: string } };

/** Runs every pair of `name` (e.g. 'batch-examples.jsonl') through batch and asserts each one. */
export async function expectExamplePairs(name: string, minPairs: number): Promise<void> {
  const candidates = [join(ROOT, '..', 'shared', 'examples', name), join(ROOT, 'shared', 'examples', name)];
  const file = candidates.find((p) => existsSync(p));
  expect(file, `${name} not found at ${candidates.join(' or ')}`).toBeDefined();
  const pairs = readFileSync(file!, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { request: unknown; response: Resp });
  expect(pairs.length).toBeGreaterThanOrEqual(minPairs);
  const run = await cli(['batch', '--backend', 'cpu'], pairs.map((p) => JSON.stringify(p.request)).join('\n') + '\n');
  expect(run.code, run.stderr).toBe(0);
  const resps = run.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Resp);
  expect(resps.length).toBe(pairs.length);
  resps.forEach((got, i) => {
    const want = pairs[i]!.response;
    const tag = JSON.stringify(pairs[i]!.request);
    expect(got.id, tag).toEqual(want.id);
    expect(got.ok, tag).toBe(want.ok);
    if (want.ok) expect(got.result, tag).toEqual(want.result);
    else expect(got.error?.kind, tag).toBe(want.error?.kind);
  });
}
