/**
 * bench/corpus/descriptors.jsonl is what the seeded bench/gen-descriptors-corpus.ts writes, and its requests are the
 * descriptor ops of the table on arguments that read: every gmma_desc request answers, every tma_desc request answers
 * or fails a rule of docs/descriptors.md (`domain`, the tenth the generator breaks on purpose), none a bad request.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAllOps, runOpDirect, type OpContext } from '../../src/ops/table.js';

beforeAll(loadAllOps); // the descriptors' room loads on first use (src/ops/lazy.ts)
import { kindOf } from '../helpers/kind.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CORPUS = join(ROOT, 'bench', 'corpus', 'descriptors.jsonl');
const ctx: OpContext = { backendChoice: 'cpu', backend: () => Promise.reject(new Error('no backend')) };

describe('the descriptors speed corpus', () => {
  it('is reproduced exactly by its seeded generator', () => {
    const dir = mkdtempSync(join(tmpdir(), 'desc-corpus-'));
    try {
      const out = join(dir, 'c.jsonl');
      const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'gen-descriptors-corpus.ts'), out], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      expect(readFileSync(out, 'utf8') === readFileSync(CORPUS, 'utf8')).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
  it('holds 500 requests of each op; gmma_desc all answer, tma_desc answer or fail a rule', () => {
    const reqs = readFileSync(CORPUS, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { op: string; args: unknown[] });
    const kinds = new Map<string, number>();
    for (const r of reqs) {
      const k = `${r.op} ${kindOf(() => runOpDirect(r.op, r.args, ctx))}`;
      kinds.set(k, (kinds.get(k) ?? 0) + 1);
    }
    expect(reqs.filter((r) => r.op === 'tma_desc').length).toBe(500);
    expect(kinds.get('gmma_desc ok')).toBe(500);
    expect((kinds.get('tma_desc ok') ?? 0) + (kinds.get('tma_desc domain') ?? 0)).toBe(500);
    expect(kinds.get('tma_desc domain')).toBeGreaterThan(20);
    expect(kinds.get('tma_desc domain')).toBeLessThan(100);
  });
});
