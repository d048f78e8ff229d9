/**
 * bench/vocab-corpus.jsonl is what the seeded bench/gen-vocab-corpus.ts writes, and every
 * request of it names an op of the table whose arguments parse (tilers as docs/semantics.md §8.2 reads
 * them), so the bench times issue 10's ops and not parse errors.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { opsByName, parseArgs } from '../../src/ops/table.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CORPUS = join(ROOT, 'bench', 'vocab-corpus.jsonl');

describe('the vocabulary speed corpus', () => {
  it('is reproduced exactly by its seeded generator', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vocab-corpus-'));
    try {
      const out = join(dir, 'c.jsonl');
      const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'gen-vocab-corpus.ts'), out], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      expect(readFileSync(out, 'utf8') === readFileSync(CORPUS, 'utf8')).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('covers every op of issue 10, 1,000 requests each, all of them parsing', () => {
    const reqs = readFileSync(CORPUS, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { op: string; args: unknown[] });
    const count = new Map<string, number>();
    for (const r of reqs) {
      count.set(r.op, (count.get(r.op) ?? 0) + 1);
      const spec = opsByName.get(r.op);
      expect(spec, r.op).toBeDefined();
      expect(() => parseArgs(spec!, r.args), JSON.stringify(r)).not.toThrow();
    }
    const ops = [
      'compose',
      'logical_divide',
      'logical_product',
      'zipped_divide',
      'tiled_divide',
      'flat_divide',
      'zipped_product',
      'tiled_product',
      'flat_product',
      'blocked_product',
      'raked_product',
      'tile_to_shape',
      'make_layout',
      'right_inverse',
      'left_inverse',
      'filter',
      'filter_zeros',
      'max_common_vector',
      'max_common_layout',
      'slice',
      'dice',
      'upcast',
      'downcast',
    ];
    expect([...count.keys()].sort()).toEqual([...ops].sort());
    for (const op of ops) expect(count.get(op), op).toBe(1000);
    // the by-mode ops get tilers (shape tuples or <…>), not only layouts
    const tilers = reqs.filter((r) => ['compose', 'logical_divide', 'zipped_divide'].includes(r.op)).map((r) => r.args[1] as string);
    expect(tilers.filter((t) => t.startsWith('<')).length).toBeGreaterThan(200);
    expect(tilers.filter((t) => /^\(\d+(,\d+)*\)$/.test(t)).length).toBeGreaterThan(1000);
  });
});
