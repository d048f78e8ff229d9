/**
 * `layoutgpu plan --shard k/n` (and LAYOUTGPU_SHARD) and `layoutgpu merge` of its --json reports (src/cli/plan.ts,
 * src/cli/merge.ts, planner/shard.ts): the merge prints exactly what the unsharded plan prints, --json byte for byte
 * and the table too; a missing, repeated or foreign shard is one line on stderr and exit 2; plan_merge in batch; the
 * progress bar never reaches a pipe or --json.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { scratchDir } from '../helpers/tmp.js';
import { cli, ensureBuilt } from './_build.js';

async function* noInput(): AsyncGenerator<string> {}

/** Runs the CLI in-process: exit code, stdout, stderr. */
async function run(argv: string[], isTTY = false): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { stdout: (s) => void (out += s), stderr: (s) => void (err += s), isTTY }, noInput);
  return { code, out, err };
}

const PLAN = ['plan', '--tile', '16x16', '--dtype', 'bfloat16_t', '--arch', 'sm80'];
const SIDES = [
  '--write',
  '{"ll": "DistributedLinearLayout(reg_bases=[[0, 1], [0, 2], [0, 4]], lane_bases=[[0, 8], [1, 0], [2, 0], [4, 0], [8, 0]], warp_bases=[], block_bases=[], shape=[16, 16])"}',
  '--read',
  '{"ll": "DistributedLinearLayout(reg_bases=[[0, 1], [8, 0], [0, 8]], lane_bases=[[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp_bases=[], block_bases=[], shape=[16, 16])"}',
];
const TV = ['plan', '--tile', '24x40', '--dtype', 'half_t', '--write', '(240,4):(4,1)', '--read', '(240,4):(1,240)', '--top', '3'];

beforeAll(() => ensureBuilt(), 300_000);

/** Writes the n shard reports of a plan (its arguments) into a scratch folder; their paths. */
async function shardFiles(args: string[], n: number, dir: string): Promise<string[]> {
  const files: string[] = [];
  for (let k = 1; k <= n; k++) {
    const r = await run([...args, '--shard', `${k}/${n}`, '--json']);
    expect(r.code, r.err).toBe(0);
    const f = join(dir, `s${k}.json`);
    writeFileSync(f, r.out);
    files.push(f);
  }
  return files;
}

describe('layoutgpu plan --shard k/n and layoutgpu merge', () => {
  for (const [name, args] of [
    ['Test16x16Bf16BlockedMma', [...PLAN, ...SIDES]],
    ['a 24×40 fp16 TV pair', TV],
  ] as const) {
    it(`${name}: merge of 3 shards prints the plan (--json byte for byte, the table too)`, async () => {
      const dir = scratchDir('plan-shard');
      const files = await shardFiles([...args], 3, dir);
      const whole = await run([...args, '--json']);
      const merged = await run(['merge', ...files, '--json']);
      expect(merged.code, merged.err).toBe(0);
      expect(merged.out).toBe(whole.out);
      const table = await run([...args]);
      expect((await run(['merge', ...[...files].reverse()])).out).toBe(table.out);
    });
  }

  it('without --json a shard prints its range and counts; LAYOUTGPU_SHARD names the shard as --shard does', async () => {
    const r = await run([...TV, '--shard', '2/4']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^shard 2\/4: candidates \[\d+, \d+\) of \d+ \(swizzle \d+, padded \d+, atoms \d+\); a front of \d+\n/);
    const byOption = await cli([...TV, '--shard', '2/4', '--json']);
    const byEnv = await new Promise<string>((resolve, reject) => {
      process.env.LAYOUTGPU_SHARD = '2/4';
      run([...TV, '--json'])
        .then((x) => resolve(x.out), reject)
        .finally(() => delete process.env.LAYOUTGPU_SHARD);
    });
    expect(byEnv).toBe(byOption.stdout);
    expect(JSON.parse(byEnv).shard).toMatchObject({ k: 2, n: 4 });
  });

  it('a missing, repeated or foreign shard: one line on stderr, exit 2', async () => {
    const dir = scratchDir('plan-shard-bad');
    const [a, b, c] = (await shardFiles(TV, 3, dir)) as [string, string, string];
    const missing = await run(['merge', a, c]);
    expect([missing.code, missing.out, missing.err]).toEqual([2, '', 'layoutgpu merge: bad-request: missing shard 2/3\n']);
    const twice = await run(['merge', a, b, b, c]);
    expect(twice.code).toBe(2);
    expect(twice.err).toBe(`layoutgpu merge: bad-request: shard 2/3 is given twice: ${b} and ${b}\n`);
    const other = join(dir, 'other.json');
    writeFileSync(other, (await run([...PLAN, ...SIDES, '--shard', '2/3', '--json'])).out);
    const foreign = await run(['merge', a, other, c]);
    expect(foreign.code).toBe(2);
    expect(foreign.err).toMatch(/^layoutgpu merge: bad-request: .*other\.json belongs to a different plan than .*s1\.json/);
    expect(foreign.err.split('\n').length).toBe(2);
    const bad = await run([...TV, '--shard', '0/3']);
    expect([bad.code, bad.err]).toEqual([2, "layoutgpu: bad-request: --shard: the shard k must be in 1..3, got '0/3'\n"]);
  });

  it('plan_merge in batch joins plan_smem shard answers into the plan_smem answer', async () => {
    const req = { tile: '(24,40)', dtype: 'half_t', write: '(240,4):(4,1)', read: '(240,4):(1,240)', top: 3 };
    const lines = [1, 2].map((k) => JSON.stringify({ id: k, op: 'plan_smem', args: [{ ...req, shard: `${k}/2` }] }));
    lines.push(JSON.stringify({ id: 3, op: 'plan_smem', args: [req] }));
    const first = await cli(['batch'], `${lines.join('\n')}\n`);
    const answers = first.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { ok: boolean; result: unknown });
    expect(answers.every((x) => x.ok)).toBe(true);
    const merge = JSON.stringify({ id: 4, op: 'plan_merge', args: [[answers[1]!.result, answers[0]!.result]] });
    const second = await cli(['batch'], `${merge}\n`);
    expect(JSON.parse(second.stdout)).toEqual({ id: 4, ok: true, result: answers[2]!.result });
  });

  it('the progress bar: never on a pipe, never with --json (stdout the same on a terminal)', async () => {
    const pipe = await run([...TV]);
    expect(pipe.err).toBe('');
    const tty = await run([...TV], true);
    expect(tty.out).toBe(pipe.out);
    const json = await run([...TV, '--json'], true);
    expect(json.err).toBe('');
  });
});
