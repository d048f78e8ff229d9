/**
 * --threads is bounded by the cores available to the process (issue 18, item 6): the CLI,
 * `batch` and the library start at most os.availableParallelism() threads, and the CLI and batch
 * say so when they lower the number asked for.
 */
import { availableParallelism } from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import { boundThreads, parseThreads, WorkerPool } from '../../src/engine/node/pool.js';
import { ThreadedCpuBackend } from '../../src/engine/node/threaded-cpu.js';
import { CpuBackend } from '../../src/engine/cpu.js';
import { parseLayout } from '../../src/algebra/notation.js';
import { cli, ensureBuilt } from './_build.js';

beforeAll(() => ensureBuilt());

const cores = availableParallelism();

describe('--threads bounded by the cores available', () => {
  it('the library: parseThreads, boundThreads and a pool never exceed the cores, and say so when they lower', async () => {
    const notes: string[] = [];
    expect(parseThreads('1000', '--threads', (l) => notes.push(l))).toBe(cores);
    expect(notes).toEqual([`layoutgpu: --threads 1000 lowered to ${cores}: the cores available to this process\n`]);
    expect(parseThreads('1', '--threads', (l) => notes.push(l))).toBe(1);
    expect(notes).toHaveLength(1);
    expect(boundThreads(2 ** 40)).toBe(cores);
    const pool = new WorkerPool(1000);
    expect(pool.size).toBe(cores);
    const b = new ThreadedCpuBackend(new CpuBackend(), 1000, { pool });
    expect(b.info.adapter).toContain(`${cores} threads`);
    const r = await b.checkCompact(parseLayout('(512,256):(256,1)'));
    expect(r.compact).toBe(true);
    expect(pool.threadsStarted).toBeLessThanOrEqual(cores);
    b.dispose();
    pool.close();
  });

  it('the CLI and batch lower --threads 1000 and say so on stderr', async () => {
    const run = await cli(['check', 'compact', '(64,64):(64,1)', '--threads', '1000', '--backend', 'cpu']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`--threads 1000 lowered to ${cores}`);
    const b = await cli(['batch', '--threads', '1000', '--backend', 'cpu'], '{"id":1,"op":"check_compact","args":["(64,64):(64,1)"]}\n');
    expect(b.code, b.stderr).toBe(0);
    expect(b.stderr).toContain(`--threads 1000 lowered to ${cores}`);
    expect(JSON.parse(b.stdout.trim())).toMatchObject({ id: 1, ok: true });
  });
});
