/**
 * shared/examples/vocab-examples.jsonl (SPEC §8) through `layoutgpu batch`: ok, result and
 * error kind match exactly, for every pair.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, ensureBuilt, ROOT } from './_build.js';

beforeAll(() => ensureBuilt());

type Resp = { id: unknown; ok: boolean; result?: unknown; error?: { kind: string; message: string } };

describe('vocab-examples.jsonl', () => {
  it('every pair: ok, result and kind match exactly', async () => {
    const candidates = [join(ROOT, '..', 'shared', 'examples', 'vocab-examples.jsonl'), join(ROOT, 'shared', 'examples', 'vocab-examples.jsonl')];
    const file = candidates.find((p) => existsSync(p));
    expect(file, `vocab-examples.jsonl not found at ${candidates.join(' or ')}`).toBeDefined();
    const pairs = readFileSync(file!, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as { request: unknown; response: Resp });
    expect(pairs.length).toBeGreaterThan(30);
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
  });
});
