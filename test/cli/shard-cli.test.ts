/**
 * Sharded searches as a scheduler runs them (separate processes of the built CLI, with the
 * scheduler's variables set: examples/slurm/verify-array.sh with SLURM_ARRAY_TASK_ID, the
 * Indexed Job's shard script with JOB_COMPLETION_INDEX), merged with `layoutgpu merge` and
 * compared with the unsharded run; identical answers whatever --threads; errors.
 */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuilt, ROOT, type Run } from './_build.js';
import { scratchDir } from '../helpers/tmp.js';

beforeAll(() => ensureBuilt(), 300_000);

function run(cmd: string, args: readonly string[], env: Record<string, string> = {}, input = ''): Promise<Run> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      p.kill('SIGKILL');
      reject(new Error(`${cmd} ${args.join(' ')} timed out`));
    }, 240_000);
    p.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    p.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    p.on('error', reject);
    p.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    p.stdin.on('error', () => {});
    p.stdin.end(input);
  });
}

const layoutgpu = (args: readonly string[], env: Record<string, string> = {}, input = ''): Promise<Run> => run(process.execPath, [BIN, ...args], env, input);

/** a --json report without its timing */
const json = (text: string): Record<string, unknown> => {
  const { seconds: _, ...rest } = JSON.parse(text) as Record<string, unknown>;
  return rest;
};
/** the human report without its timing line */
const human = (text: string, out: string): string[] =>
  text
    .trimEnd()
    .split('\n')
    .filter((l) => !/ s, .* candidates\/s, backend /.test(l))
    .map((l) => l.replace(out, '<out>'));

describe('sharded verify on schedulers, merged', () => {
  it('a Slurm job array (SLURM_ARRAY_TASK_ID) merges to the unsharded report', async () => {
    const dir = scratchDir('slurm-');
    const search = 'compact --random 30000 --seed 11 --max-size 4096';
    const env = (k: number): Record<string, string> => ({
      SLURM_ARRAY_TASK_ID: String(k - 1),
      SLURM_ARRAY_TASK_MIN: '0',
      SLURM_ARRAY_TASK_COUNT: '3',
      SLURM_CPUS_PER_TASK: '1',
      VERIFY_ARGS: search,
      LAYOUTGPU: `${process.execPath} ${BIN}`,
      RESULTS: dir,
      BACKEND: 'cpu',
    });
    const shards = await Promise.all([1, 2, 3].map((k) => run('bash', ['examples/slurm/verify-array.sh'], env(k))));
    for (const s of shards) expect(s.code, s.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['matches-1.txt', 'matches-2.txt', 'matches-3.txt', 'report-1.json', 'report-2.json', 'report-3.json']);
    const whole = await layoutgpu(['verify', ...search.split(' '), '--backend', 'cpu', '--threads', '1', '--json', '--out', join(dir, 'whole.txt')]);
    const reports = [3, 1, 2].map((k) => join(dir, `report-${k}.json`));
    const merged = await layoutgpu(['merge', ...reports, '--json', '--out', join(dir, 'merged.txt')]);
    expect(merged.code, merged.stderr).toBe(0);
    expect(json(merged.stdout)).toEqual(json(whole.stdout));
    expect(readFileSync(join(dir, 'merged.txt'), 'utf8')).toBe(readFileSync(join(dir, 'whole.txt'), 'utf8'));
    // the human report too
    const wholeText = await layoutgpu(['verify', ...search.split(' '), '--backend', 'cpu', '--threads', '1']);
    const mergedText = await layoutgpu(['merge', ...reports]);
    expect(human(mergedText.stdout, '')).toEqual(human(wholeText.stdout, ''));
  });

  it('a Kubernetes Indexed Job (JOB_COMPLETION_INDEX) and its merge step', async () => {
    const yaml = readFileSync(join(ROOT, 'examples/kubernetes/verify-indexed-job.yaml'), 'utf8');
    const block = (name: string): string => {
      const m = new RegExp(`#>>> ${name}\\n([\\s\\S]*?)\\n\\s*#<<< ${name}`).exec(yaml);
      expect(m, `the ${name} script of the YAML`).not.toBeNull();
      return m![1]!.replace(/^ {14}/gm, '');
    };
    expect(yaml).toMatch(/completionMode: Indexed/);
    const dir = scratchDir('k8s-');
    const search = 'compact --enumerate --size 24 --max-rank 3 --max-stride 23';
    const base = { SHARDS: '4', VERIFY_ARGS: search, RESULTS: dir, BACKEND: 'cpu', THREADS: '1', LAYOUTGPU: `${process.execPath} ${BIN}` };
    const pods = await Promise.all([0, 1, 2, 3].map((i) => run('sh', ['-c', block('shard')], { ...base, JOB_COMPLETION_INDEX: String(i) })));
    for (const p of pods) expect(p.code, p.stderr).toBe(0);
    const merged = await run('sh', ['-c', block('merge')], base);
    expect(merged.code, merged.stderr).toBe(0);
    const whole = await layoutgpu(['verify', ...search.split(' '), '--backend', 'cpu', '--out', join(dir, 'whole.txt')]);
    expect(human(merged.stdout, join(dir, 'matches.txt'))).toEqual(human(whole.stdout, join(dir, 'whole.txt')));
    expect(readFileSync(join(dir, 'matches.txt'), 'utf8')).toBe(readFileSync(join(dir, 'whole.txt'), 'utf8'));
  });

  it('a missing or repeated shard is an error naming it', async () => {
    const dir = scratchDir('miss-');
    const args = ['verify', 'injective', '--random', '900', '--seed', '2', '--backend', 'cpu', '--json'];
    for (const k of [1, 2, 3]) {
      const r = await layoutgpu(args, { LAYOUTGPU_SHARD: `${k}/3` });
      expect(r.code, r.stderr).toBe(0);
      writeFileSync(join(dir, `r${k}.json`), r.stdout);
    }
    const miss = await layoutgpu(['merge', join(dir, 'r1.json'), join(dir, 'r3.json')]);
    expect(miss.code).toBe(2);
    expect(miss.stderr).toMatch(/missing shard 2\/3 \(candidates \[300, 600\)\)/);
    const twice = await layoutgpu(['merge', join(dir, 'r1.json'), join(dir, 'r2.json'), join(dir, 'r2.json'), join(dir, 'r3.json')]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/shard 2\/3 is given twice/);
  });
});

describe('--threads', () => {
  it('verify: the same report and matches with 1, 2 and 3 threads', async () => {
    const dir = scratchDir('thr-');
    const outs: string[] = [];
    const reports: Record<string, unknown>[] = [];
    for (const t of ['1', '2', '3']) {
      const r = await layoutgpu([
        'verify',
        'compact',
        '--random',
        '60000',
        '--seed',
        '3',
        '--max-size',
        '4096',
        '--backend',
        'cpu',
        '--threads',
        t,
        '--json',
        '--out',
        join(dir, `m${t}.txt`),
      ]);
      expect(r.code, r.stderr).toBe(0);
      reports.push(json(r.stdout));
      outs.push(readFileSync(join(dir, `m${t}.txt`), 'utf8'));
    }
    expect(reports[1]).toEqual(reports[0]);
    expect(reports[2]).toEqual(reports[0]);
    expect(outs[1]).toBe(outs[0]);
    expect(outs[2]).toBe(outs[0]);
  });

  it('check compact, digest and batch: the same answers and witnesses with 1 and 2 threads', async () => {
    const meta = (t: string) => {
      const { seconds: _, adapter: __, ...rest } = JSON.parse(t) as Record<string, unknown>;
      return rest;
    };
    for (const l of ['(2048,2048):(1,2047)', '(2048,2048):(2048,1)', '(1024,4096):(2,1024)']) {
      const one = await layoutgpu(['check', 'compact', l, '--backend', 'cpu', '--threads', '1', '--json']);
      const two = await layoutgpu(['check', 'compact', l, '--backend', 'cpu', '--threads', '2', '--json']);
      expect(one.code, one.stderr).toBe(0);
      expect(meta(two.stdout)).toEqual(meta(one.stdout));
      const d1 = await layoutgpu(['digest', l, '--backend', 'cpu', '--threads', '1', '--json']);
      const d2 = await layoutgpu(['digest', l, '--backend', 'cpu', '--threads', '2', '--json']);
      expect(meta(d2.stdout)).toEqual(meta(d1.stdout));
    }
    const input =
      ['(2048,2048):(1,2047)', '(4096,1024):(1024,1)'].map((l, i) => JSON.stringify({ id: i, op: 'check_compact', args: [l] })).join('\n') +
      '\n{"id":9,"op":"check_compose","args":["(4096,4096):(1,4096)","(2048,2048):(1,2048)","(2048,2048):(1,2049)"]}\n';
    const b1 = await layoutgpu(['batch', '--threads', '1'], {}, input);
    const b2 = await layoutgpu(['batch', '--threads', '2'], {}, input);
    expect(b1.code).toBe(0);
    expect(b2.stdout).toBe(b1.stdout);
    expect(b1.stdout.split('\n').filter((l) => l).length).toBe(3);
  });

  it('a worker that dies is an error with what completed, never a hang; bad values are refused', async () => {
    const r = await layoutgpu(['verify', 'compact', '--random', '80000', '--seed', '3', '--backend', 'cpu', '--threads', '2'], {
      LAYOUTGPU_POOL_FAULT: 'exit-on-task:2',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/worker thread \d+ died \(exit code 3\).*completed \d+ of 80000 candidates/);
    const bad = await layoutgpu(['verify', 'compact', '--random', '10', '--seed', '3', '--threads', '0']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--threads takes a positive integer/);
    const shard = await layoutgpu(['verify', 'compact', '--random', '10', '--seed', '3'], { LAYOUTGPU_SHARD: '5/4' });
    expect(shard.code).toBe(2);
    expect(shard.stderr).toMatch(/LAYOUTGPU_SHARD: the shard k must be in 1\.\.4/);
  });
});
