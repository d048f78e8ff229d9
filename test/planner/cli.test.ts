/**
 * `layoutgpu plan` (src/cli/plan.ts) and plan_smem through `batch`: the front as a table and the
 * certificate in one line, --json the protocol's object (the same as batch answers), and bad
 * input answered with one line on stderr and exit 2.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { cli, ensureBuilt } from '../cli/_build.js';

async function* noInput(): AsyncGenerator<string> {}

/** Runs the CLI in-process: exit code, stdout, stderr. */
async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { stdout: (s) => void (out += s), stderr: (s) => void (err += s), isTTY: false }, noInput);
  return { code, out, err };
}

const WRITE = '((8,16),(8,8)):((1024,1),(128,16))';
const READ = '((8,4,4),(8,2,4)):((1,1024,8),(128,4096,32))';
const ARGS = ['plan', '--tile', '128x64', '--dtype', 'half_t', '--write', WRITE, '--read', READ];

beforeAll(() => ensureBuilt());

describe('layoutgpu plan', () => {
  it('prints the front as a table and the certificate in one line', async () => {
    const r = await run([...ARGS, '--top', '2']);
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^#\s+write \(wavefronts\/phases\)\s+read/);
    expect(lines[1]).toMatch(/^1\s+st\.shared\.128 128\/128\s+ld\.shared\.128 128\/128\s+16384\s+swizzle \(tma, K B128\)\s+Sw<3,3,3> o \(128,64\):\(64,1\)$/);
    expect(lines.filter((l) => l.startsWith('certificate: '))).toEqual([
      "certificate: lower-bound (the best reaches both sides' least wavefronts; 719 candidates: swizzle 408, padded 296, atoms 15)",
    ]);
  });

  it('AMD machines and the descriptor sides: ds_write/ds_read on gfx942, tma and wgmma at 0 wavefronts', async () => {
    const amd = await run([...ARGS, '--arch', 'gfx942', '--top', '1']);
    expect(amd.code).toBe(0);
    expect(amd.out.split('\n')[1]).toMatch(/^1\s+ds_write_b128 \d+\/\d+\s+ds_read_b128 \d+\/\d+\s+16384\s/);
    const tma = await run(['plan', '--tile', '128x64', '--dtype', 'half_t', '--write', 'tma', '--read', '{"wgmma": "K"}', '--top', '1']);
    expect(tma.code).toBe(0);
    expect(tma.out.split('\n')[1]).toMatch(/^1\s+tma 0\/0\s+wgmma 0\/0\s+\d+\s+\w+ \(tma, K B\d+\)\s/);
  });

  it('--json is the object batch answers (the built bin)', async () => {
    const j = await cli([...ARGS, '--json']);
    expect(j.code).toBe(0);
    const req = { id: 1, op: 'plan_smem', args: [{ tile: '(128,64)', dtype: 'half_t', write: WRITE, read: READ }] };
    const b = await cli(['batch'], `${JSON.stringify(req)}\n`);
    expect(JSON.parse(b.stdout)).toEqual({ id: 1, ok: true, result: JSON.parse(j.stdout) });
  });

  it('--threads and --backend, and batch’s threads and backend, answer the same object (the built bin)', async () => {
    const small = ['plan', '--tile', '16x32', '--dtype', 'half_t', '--write', '(32,16):(16,1)', '--read', '(32,16):(1,32)', '--json'];
    const one = await cli([...small, '--threads', '1']);
    expect(one.code).toBe(0);
    for (const extra of [
      ['--threads', '2'],
      ['--backend', 'gpu'],
    ]) {
      const r = await cli([...small, ...extra]);
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(r.stdout).toBe(one.stdout);
    }
    const args = { tile: '(16,32)', dtype: 'half_t', write: '(32,16):(16,1)', read: '(32,16):(1,32)' };
    const lines = [{ ...args }, { ...args, threads: 2 }, { ...args, backend: 'gpu' }].map((a, id) => JSON.stringify({ id, op: 'plan_smem', args: [a] }));
    const b = await cli(['batch', '--threads', '2'], `${lines.join('\n')}\n`);
    const answers = b.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { ok: boolean; result: unknown });
    expect(answers.map((x) => x.result)).toEqual([0, 1, 2].map(() => JSON.parse(one.stdout)));
  });

  it('bad input: one line on stderr, exit 2', async () => {
    for (const [argv, msg] of [
      [
        ['plan', '--tile', '8x8', '--dtype', 'half_t', '--write', 'tma', '--read', '(32,2):(1,32)', '--arch', 'sm80'],
        /domain: the write side tma: sm80 has no tma/,
      ],
      [[...ARGS, '--arch', 'mi300'], /bad-request: unknown arch 'mi300'/],
      [[...ARGS.slice(0, 5)], /plan needs --write/],
      [[...ARGS, '--families', 'swizzle,linear', '--shard', '1/2'], /domain: the linear family is searched whole/],
      [[...ARGS, '--threads', '0'], /bad-request: --threads takes a positive integer/],
      [[...ARGS, '--backend', 'tpu'], /--backend must be cpu, gpu or auto/],
      [['plan', '--tile', '8x8', '--dtype', 'half', '--write', WRITE, '--read', READ], /domain: unknown dtype 'half'/],
      [['plan', '--tile', '8x8', '--dtype', 'half_t', '--write', '{"ll": 1', '--read', READ], /--write is not valid JSON/],
    ] as const) {
      const r = await run([...argv]);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err.trimEnd().split('\n')).toHaveLength(1);
      expect(r.err).toMatch(msg);
    }
  });

  it('--timeout stops a plan with kind timeout', async () => {
    const r = await run(['plan', '--tile', '128x128', '--dtype', 'half_t', '--write', '(32,2):(1,32)', '--read', '(32,2):(1,32)', '--timeout', '5ms']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/timeout/);
  });
});
