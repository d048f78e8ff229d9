/**
 * `layoutgpu merge` reads only what the shards wrote (issue 18, items 1–2): a shard's match file
 * beside its report by plain name (never the current folder, never where the report points),
 * a missing or short match file is an error naming it, `--out` equal to an input is refused, the
 * printed count is the count written, and counts that do not add up are refused naming the shard.
 * In-process (src/cli/merge.ts, src/cli/verify.ts), with real shard reports of one search.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mergeCommand } from '../../src/cli/merge.js';
import { verifyCommand } from '../../src/cli/verify.js';
import { scratchDir } from '../helpers/tmp.js';

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(cmd: { run: (argv: string[], io: never) => Promise<number> }, argv: string[]): Promise<Ran> {
  let stdout = '';
  let stderr = '';
  const io = { stdout: (s: string) => void (stdout += s), stderr: (s: string) => void (stderr += s), isTTY: false };
  const code = await cmd.run(argv, io as never);
  return { code, stdout, stderr };
}

const SEARCH = ['compact', '--enumerate', '--size', '64', '--max-rank', '3', '--backend', 'cpu', '--threads', '1'];
const home = process.cwd();
let root = '';
/** the whole search's matches, from an unsharded run */
let whole = '';

afterEach(() => process.chdir(home));

beforeAll(async () => {
  root = scratchDir('merge-safety-');
  // each shard runs in its own folder with the same --out name, as a job array does
  for (const k of [1, 2, 3]) {
    const dir = join(root, `s${k}`);
    mkdirSync(dir);
    process.chdir(dir);
    const r = await cli(verifyCommand, ['verify', ...SEARCH, '--shard', `${k}/3`, '--json', '--out', 'matches.txt'].slice(1));
    expect(r.code, r.stderr).toBe(0);
    writeFileSync('report.json', r.stdout);
  }
  process.chdir(root);
  const w = await cli(verifyCommand, [...SEARCH, '--json', '--out', 'whole.txt']);
  expect(w.code, w.stderr).toBe(0);
  whole = readFileSync('whole.txt', 'utf8');
  process.chdir(home);
}, 120_000);

const lines = (t: string): number => t.split('\n').filter((l) => l !== '').length;
const reports = (): string[] => ['s1/report.json', 's2/report.json', 's3/report.json'];

describe('merge --out reads each shard match file beside its report', () => {
  it('an --out named like the shards’ files, in another folder, holds every match, and the count printed is the count written', async () => {
    process.chdir(root);
    const r = await cli(mergeCommand, [...reports(), '--out', 'matches.txt']);
    expect(r.code, r.stderr).toBe(0);
    const got = readFileSync('matches.txt', 'utf8');
    expect(got).toBe(whole);
    expect(lines(whole)).toBeGreaterThan(0);
    expect(r.stdout).toContain(`${lines(got)} matches written to matches.txt`);
  });

  it('a stale file of the same name in the current folder is never read in place of the shards’', async () => {
    process.chdir(root);
    writeFileSync('matches.txt', '(1):(1)\n');
    const r = await cli(mergeCommand, [...reports(), '--out', 'merged.txt']);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync('merged.txt', 'utf8')).toBe(whole);
  });

  it('--out naming a shard’s own match file (or a report) is refused and leaves it as it was', async () => {
    process.chdir(root);
    const before = readFileSync('s1/matches.txt', 'utf8');
    const r = await cli(mergeCommand, [...reports(), '--out', 's1/matches.txt']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--out s1\/matches\.txt is one of the inputs/);
    expect(readFileSync('s1/matches.txt', 'utf8')).toBe(before);
    const r2 = await cli(mergeCommand, [...reports(), '--out', './s2/../s2/report.json']);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toMatch(/one of the inputs/);
  });

  it('a missing or short match file is an error naming it', async () => {
    const dir = scratchDir('merge-missing-');
    process.chdir(dir);
    for (const k of [1, 2, 3]) {
      mkdirSync(`s${k}`);
      writeFileSync(`s${k}/report.json`, readFileSync(join(root, `s${k}/report.json`)));
      if (k !== 2) writeFileSync(`s${k}/matches.txt`, readFileSync(join(root, `s${k}/matches.txt`)));
    }
    const r = await cli(mergeCommand, [...reports(), '--out', 'o.txt']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/s2\/matches\.txt: the match file of shard 2\/3 .* is missing/);
    const short = readFileSync(join(root, 's2/matches.txt'), 'utf8').split('\n').slice(1).join('\n');
    writeFileSync('s2/matches.txt', short);
    const r2 = await cli(mergeCommand, [...reports(), '--out', 'o.txt']);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toMatch(new RegExp(`s2/matches\\.txt: the match file of shard 2/3 .* has ${lines(short)} lines, its report counts ${lines(short) + 1}`));
  });
});

describe('merge reads only files beside a report, by plain name, and checks the counts', () => {
  /** a copy of shard 2's report with `edit` applied, in the folder of shard 2 */
  const tampered = (name: string, edit: (r: Record<string, unknown>) => void): string => {
    const r = JSON.parse(readFileSync(join(root, 's2/report.json'), 'utf8')) as Record<string, unknown>;
    edit(r);
    writeFileSync(join(root, 's2', name), JSON.stringify(r));
    return `s2/${name}`;
  };

  it('an absolute or ../ path in "out" is not followed', async () => {
    process.chdir(root);
    writeFileSync(join(root, 'secret.txt'), 'SECRET-LINE\n');
    for (const out of [join(root, 'secret.txt'), '../secret.txt']) {
      const t = tampered('t.json', (r) => (r.out = out));
      const r = await cli(mergeCommand, ['s1/report.json', t, 's3/report.json', '--out', 'o.txt']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/s2\/secret\.txt: the match file of shard 2\/3 .* is missing/);
    }
  });

  it('negative counts, counts that do not add up, are refused naming the shard', async () => {
    process.chdir(root);
    const edits: [(r: Record<string, unknown>) => void, RegExp][] = [
      [(r) => (r.passed = -1), /s2\/t\.json \(shard 2\/3\): "passed" must be a non-negative integer, got -1/],
      [(r) => (r.passed = (r.passed as number) + 1), /s2\/t\.json \(shard 2\/3\): the counts do not add up/],
      [(r) => (r.failed = 0), /s2\/t\.json \(shard 2\/3\): the counts do not add up/],
      [(r) => (r.skipped = 1.5), /s2\/t\.json \(shard 2\/3\): "skipped" must be a non-negative integer/],
    ];
    for (const [edit, msg] of edits) {
      const t = tampered('t.json', edit);
      const r = await cli(mergeCommand, ['s1/report.json', t, 's3/report.json', '--json']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(msg);
    }
  });
});
