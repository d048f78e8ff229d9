/**
 * `verify conflict-free` streams its candidates and takes shards (issue 18, items 7–8): the
 * streamed report (counts, the best `--top`, the --out file) equals the search run over every
 * candidate at once; `--shard k/n` and LAYOUTGPU_SHARD split it into parts whose counts and --out
 * files add up to the whole; a malformed shard, the empty one included, is refused by every search.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runConflictSearch } from '../../src/cli/conflict-search.js';
import { mergeCommand } from '../../src/cli/merge.js';
import { verifyCommand } from '../../src/cli/verify.js';
import { parseLayout } from '../../src/algebra/notation.js';
import { formatLayoutFunction } from '../../src/cute/composed.js';
import { rankResults, searchCpu, targetVectors } from '../../src/memory/search.js';
import { chunkItem } from '../../src/verify/sources.js';
import { randomSource } from '../../src/verify/source-random.js';

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(argv: string[], env: Record<string, string | undefined> = {}): Promise<Ran> {
  let stdout = '';
  let stderr = '';
  const saved = { ...process.env };
  Object.assign(process.env, env);
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k];
  try {
    const code = await runConflictSearch(argv, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s), isTTY: false });
    return { code, stdout, stderr };
  } finally {
    process.env = saved;
  }
}

const TV = '(8,4):(1,8)';
const SEARCH = ['conflict-free', '--random', '3000', '--seed', '7', '--tv', TV, '--elem', '4', '--max-size', '256', '--backend', 'cpu'];
const dir = mkdtempSync(join(tmpdir(), 'conflict-stream-'));

/** every candidate of the search at once: the results, ranked */
function wholeSearch(): { ranked: ReturnType<typeof rankResults>; texts: string[] } {
  const cands = [];
  for (const ch of randomSource({ count: 3000, seed: 7, arity: 1, composable: false, maxSize: 256 }).chunks(1000)) {
    for (let i = 0; i < ch.count; i++) cands.push(chunkItem(ch, i)[0]!);
  }
  const patterns = [{ tv: parseLayout(TV), e: 4 }];
  const results = searchCpu(cands, patterns);
  return { ranked: rankResults(cands, results, targetVectors(patterns)), texts: cands.map((c) => formatLayoutFunction(c)) };
}

/** a subcommand in process: its exit code and output */
async function cli(cmd: { run: (argv: string[], io: never) => Promise<number> }, argv: string[]): Promise<Ran> {
  let stdout = '';
  let stderr = '';
  const code = await cmd.run(argv, { stdout: (s: string) => void (stdout += s), stderr: (s: string) => void (stderr += s), isTTY: false } as never);
  return { code, stdout, stderr };
}

describe('verify conflict-free streams its candidates', () => {
  it('the streamed report equals the search over every candidate at once', async () => {
    const { ranked } = wholeSearch();
    const out = join(dir, 'whole.txt');
    const r = await run([...SEARCH, '--top', '25', '--json', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as { candidates: number; conflictFree: number; excluded: number; ranked: { layout: string; wavefronts: number | null }[] };
    expect(j.candidates).toBe(3000);
    expect(j.conflictFree).toBe(ranked.filter((x) => x.conflictFree).length);
    expect(j.excluded).toBe(ranked.filter((x) => x.excluded === 'not-injective').length);
    expect(j.ranked.map((x) => x.layout)).toEqual(ranked.slice(0, 25).map((x) => x.layout));
    expect(j.ranked.map((x) => x.wavefronts)).toEqual(ranked.slice(0, 25).map((x) => x.wavefronts));
    // --out: every conflict-free candidate, in candidate order
    const free = [...ranked].filter((x) => x.conflictFree).sort((a, b) => a.index - b.index);
    expect(readFileSync(out, 'utf8')).toBe(free.map((x) => x.layout + '\n').join(''));
    expect(free.length).toBeGreaterThan(10);
  });
});

describe('verify conflict-free takes shards', () => {
  it('--shard k/n and LAYOUTGPU_SHARD: the parts add up to the whole, their --out files concatenate to its', async () => {
    const whole = await run([...SEARCH, '--json', '--out', join(dir, 'w.txt')]);
    const W = JSON.parse(whole.stdout) as { conflictFree: number; excluded: number };
    let free = 0;
    let excluded = 0;
    let outs = '';
    for (const k of [1, 2, 3]) {
      const out = join(dir, `s${k}.txt`);
      // shard 2 from the environment, as a job array sets it
      const r =
        k === 2
          ? await run([...SEARCH, '--json', '--out', out], { LAYOUTGPU_SHARD: '2/3' })
          : await run([...SEARCH, '--json', '--out', out, '--shard', `${k}/3`]);
      expect(r.code, r.stderr).toBe(0);
      const j = JSON.parse(r.stdout) as {
        candidates: number;
        conflictFree: number;
        excluded: number;
        shard: { k: number; n: number; first: number; end: number };
      };
      expect(j.shard).toMatchObject({ k, n: 3, first: [0, 1000, 2000][k - 1], end: [1000, 2000, 3000][k - 1] });
      expect(j.candidates).toBe(1000);
      free += j.conflictFree;
      excluded += j.excluded;
      outs += readFileSync(out, 'utf8');
    }
    expect(free).toBe(W.conflictFree);
    expect(excluded).toBe(W.excluded);
    expect(outs).toBe(readFileSync(join(dir, 'w.txt'), 'utf8'));
  });

  it('layoutgpu merge of the shards gives the unsharded report, ranking and --out file', async () => {
    const m = join(dir, 'm');
    mkdirSync(m);
    const whole = await run([...SEARCH, '--top', '30', '--json', '--out', join(m, 'whole.txt')]);
    const reports: string[] = [];
    for (const k of [3, 1, 2]) {
      const r = await run([...SEARCH, '--top', '30', '--json', '--out', join(m, `cf-${k}.txt`), '--shard', `${k}/3`]);
      expect(r.code, r.stderr).toBe(0);
      writeFileSync(join(m, `r${k}.json`), r.stdout);
      reports.push(join(m, `r${k}.json`));
    }
    const merged = await cli(mergeCommand, [...reports, '--json', '--out', join(m, 'merged.txt')]);
    expect(merged.code, merged.stderr).toBe(0);
    const strip = (t: string): Record<string, unknown> => {
      const { seconds: _s, backend: _b, ...rest } = JSON.parse(t) as Record<string, unknown>;
      return rest;
    };
    expect(strip(merged.stdout)).toEqual(strip(whole.stdout));
    expect(readFileSync(join(m, 'merged.txt'), 'utf8')).toBe(readFileSync(join(m, 'whole.txt'), 'utf8'));
    const human = await cli(mergeCommand, reports);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(
      new RegExp(`^conflict-free: ${(JSON.parse(whole.stdout) as { conflictFree: number }).conflictFree} of 3000 candidates \\(merged from 3 shards`),
    );
    // a missing shard, and a shard of another search, are refused naming them
    const short = await cli(mergeCommand, reports.slice(0, 2));
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/missing shard 2\/3/);
    const other = await run([...SEARCH, '--top', '29', '--json', '--shard', '2/3']);
    writeFileSync(join(m, 'other.json'), other.stdout);
    const mixed = await cli(mergeCommand, [reports[0]!, reports[1]!, join(m, 'other.json')]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/other\.json belongs to a different search/);
  });

  it('a malformed shard is refused by every search, the empty one included', async () => {
    for (const bad of ['', '0/3', '4/3', 'x', '1/9007199254740992']) {
      const r = await run([...SEARCH, '--shard', bad]);
      expect(r.code, bad).toBe(2);
      expect(r.stderr, bad).toMatch(/--shard/);
      const env = await run(SEARCH, { LAYOUTGPU_SHARD: bad === '' ? 'nonsense' : bad });
      expect(env.code, bad).toBe(2);
      expect(env.stderr).toMatch(/LAYOUTGPU_SHARD/);
    }
    let stderr = '';
    const code = await verifyCommand.run(['compact', '--enumerate', '--size', '16', '--max-rank', '2', '--shard', '', '--backend', 'cpu'], {
      stdout: () => {},
      stderr: (s: string) => void (stderr += s),
      isTTY: false,
    } as never);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--shard takes k\/n/);
  });
});
