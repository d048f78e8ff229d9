/**
 * Scaling of the CPU engine over threads and shards, through the built CLI as a user runs it
 * (`npm run build` first):
 *   - the same bulk checks and searches with 1, 2, …, --max-threads threads: wall time of the
 *     process, the time the report gives, candidates (or indices) per second, speed-up over
 *     one thread, and whether the answer is the one-thread answer;
 *   - a sharded search: n shards one after the other (the sum of shard times against the
 *     unsharded run: the overhead of sharding) and all at once, merged and compared;
 *   - the estimate for a 64-core machine from the per-core rate and the measured efficiency.
 * Every figure is the best of --repeat runs (other work on the machine only slows runs down).
 *
 * The search (400,000 random candidates) and a large one (--large, 20 million) that
 * shows what threads give once they pay for their start; shards and the 64-core estimate use
 * the large one.
 *
 *   npx tsx bench/scaling.ts [--max-threads N] [--repeat R] [--shards n] [--large N] [--quick] [--json]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'bin', 'layoutgpu.js');

function arg(name: string, def: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
}
const quick = process.argv.includes('--quick');
const asJson = process.argv.includes('--json');
const maxThreads = arg('--max-threads', availableParallelism());
const repeat = arg('--repeat', quick ? 1 : 3);
const shards = arg('--shards', 4);

interface Timed {
  wall: number;
  stdout: string;
  stderr: string;
  code: number | null;
}

function runCli(args: readonly string[], env: Record<string, string> = {}): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const p = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    p.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    p.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    p.on('error', reject);
    p.on('close', (code) => resolve({ wall: (performance.now() - t0) / 1000, stdout, stderr, code }));
  });
}

/** the answer of a --json report: everything but timing and adapter text */
function answer(stdout: string): string {
  const { seconds: _s, adapter: _a, ...rest } = JSON.parse(stdout) as Record<string, unknown>;
  return JSON.stringify(rest);
}

async function best(args: readonly string[], env: Record<string, string> = {}): Promise<{ wall: number; seconds: number; answer: string; stdout: string }> {
  let out: { wall: number; seconds: number; answer: string; stdout: string } | null = null;
  for (let i = 0; i < repeat; i++) {
    const r = await runCli(args, env);
    if (r.code !== 0) throw new Error(`layoutgpu ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
    const seconds = (JSON.parse(r.stdout) as { seconds: number }).seconds;
    if (!out || r.wall < out.wall) out = { wall: r.wall, seconds, answer: answer(r.stdout), stdout: r.stdout };
  }
  return out!;
}

interface Row {
  workload: string;
  threads: number;
  wall: number;
  seconds: number;
  rate: number;
  speedup: number;
  speedupReport: number;
  same: boolean;
}

const fmt = (r: number): string => (r >= 1e6 ? `${(r / 1e6).toFixed(2)}M` : r >= 1e3 ? `${(r / 1e3).toFixed(1)}k` : r.toFixed(0));

async function main(): Promise<void> {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('build first: npm run build');
  const search = quick
    ? ['compact', '--random', '100000', '--seed', '11', '--max-size', '65536']
    : ['compact', '--random', '400000', '--seed', '11', '--max-size', '65536'];
  const nSearch = Number(search[2]);
  // the same search, large enough that threads pay for their start (the 400,000 now
  // take ~0.13 s on one thread, less than a thread costs to boot and warm on 2 cores)
  const nLarge = arg('--large', quick ? 4_000_000 : 20_000_000);
  const large = ['compact', '--random', String(nLarge), '--seed', '11', '--max-size', '65536'];
  const big = quick ? '(4096,4096):(1,4096)' : '(8192,8192):(1,8192)';
  const nBig = quick ? 2 ** 24 : 2 ** 26;
  const workloads: { name: string; args: string[]; n: number; unit: string }[] = [
    { name: `verify ${search.join(' ')}`, args: ['verify', ...search, '--backend', 'cpu', '--json'], n: nSearch, unit: 'candidates' },
    { name: `verify ${large.join(' ')}`, args: ['verify', ...large, '--backend', 'cpu', '--json'], n: nLarge, unit: 'candidates' },
    {
      name: 'verify compact --enumerate --size 64 --max-rank 3',
      args: ['verify', 'compact', '--enumerate', '--size', '64', '--max-rank', '3', '--backend', 'cpu', '--json'],
      n: 0,
      unit: 'candidates',
    },
    {
      name: `verify law:coalesce --random ${quick ? 20000 : 100000} --seed 7`,
      args: ['verify', 'law:coalesce', '--random', quick ? '20000' : '100000', '--seed', '7', '--backend', 'cpu', '--json'],
      n: quick ? 20000 : 100000,
      unit: 'candidates',
    },
    { name: `check compact ${big}`, args: ['check', 'compact', big, '--backend', 'cpu', '--json'], n: nBig, unit: 'indices' },
    // 2^28 offsets, column-major: past the single-threaded byte map, windows of offsets per thread
    ...(quick
      ? []
      : [
          {
            name: 'check compact (16384,16384):(16384,1)',
            args: ['check', 'compact', '(16384,16384):(16384,1)', '--backend', 'cpu', '--json'],
            n: 2 ** 28,
            unit: 'indices',
          },
        ]),
    { name: `digest ${big}`, args: ['digest', big, '--backend', 'cpu', '--json'], n: nBig, unit: 'indices' },
  ];
  const rows: Row[] = [];
  for (const w of workloads) {
    let base: { seconds: number; wall: number; answer: string } | null = null;
    for (let t = 1; t <= maxThreads; t++) {
      const r = await best([...w.args, '--threads', String(t)]);
      const n = w.n || (JSON.parse(r.stdout) as { candidates: number }).candidates;
      base ??= r;
      const row: Row = {
        workload: w.name,
        threads: t,
        wall: r.wall,
        seconds: r.seconds,
        rate: n / r.seconds,
        speedup: base.wall / r.wall,
        speedupReport: base.seconds / r.seconds,
        same: r.answer === base.answer,
      };
      rows.push(row);
      if (!asJson)
        console.log(
          `${w.name.padEnd(62)} threads ${t}: ${r.wall.toFixed(3)} s wall (${r.seconds.toFixed(3)} s in the report)` +
            `, ${fmt(row.rate)} ${w.unit}/s, speed-up ${row.speedup.toFixed(2)}× wall, ${row.speedupReport.toFixed(2)}× report${row.same ? '' : '  DIFFERENT ANSWER'}`,
        );
    }
  }

  // sharding (of the large search): n shards on one thread each, one after the other and all
  // at once, merged
  const shardSearch = large;
  const dir = mkdtempSync(join(tmpdir(), 'scaling-'));
  const one = await best(['verify', ...shardSearch, '--backend', 'cpu', '--json', '--threads', '1']);
  let sumSeconds = 0;
  let sumWall = 0;
  for (let k = 1; k <= shards; k++) {
    const r = await best(['verify', ...shardSearch, '--backend', 'cpu', '--json', '--threads', '1', '--shard', `${k}/${shards}`]);
    sumSeconds += r.seconds;
    sumWall += r.wall;
  }
  let parallelWall = Infinity;
  for (let i = 0; i < repeat; i++) {
    const t0 = performance.now();
    const rs = await Promise.all(
      Array.from({ length: shards }, (_, i) =>
        runCli(['verify', ...shardSearch, '--backend', 'cpu', '--json', '--threads', '1', '--out', join(dir, `m${i + 1}.txt`)], {
          LAYOUTGPU_SHARD: `${i + 1}/${shards}`,
        }),
      ),
    );
    parallelWall = Math.min(parallelWall, (performance.now() - t0) / 1000);
    rs.forEach((r, i) => requireOk(r, i));
    rs.forEach((r, i) => writeFileSync(join(dir, `r${i + 1}.json`), r.stdout));
  }
  const merged = await runCli(['merge', ...Array.from({ length: shards }, (_, i) => join(dir, `r${i + 1}.json`)), '--json']);
  const sameMerged = answer(merged.stdout) === one.answer;
  const sharding = {
    shards,
    unshardedSeconds: one.seconds,
    unshardedWall: one.wall,
    sumShardSeconds: sumSeconds,
    sumShardWall: sumWall,
    overheadSeconds: sumSeconds / one.seconds - 1,
    overheadWall: sumWall / one.wall - 1,
    allAtOnceWall: parallelWall,
    mergedEqualsUnsharded: sameMerged,
  };

  // 64 cores from the per-core rate and the efficiency measured at maxThreads
  const s = rows.filter((r) => r.workload === workloads[1]!.name);
  const perCore = s[0]!.rate;
  const eff = s.at(-1)!.speedupReport / s.at(-1)!.threads;
  const estimate = { perCoreRate: perCore, efficiencyAtMax: eff, cores64Ideal: 64 * perCore, cores64AtMeasuredEfficiency: 64 * perCore * eff };

  if (asJson) {
    console.log(JSON.stringify({ cores: availableParallelism(), load: readLoad(), repeat, rows, sharding, estimate }));
    return;
  }
  console.log(
    `\nsharded ${shardSearch.join(' ')} over ${shards} shards (one thread each): Σ shard times ${sumSeconds.toFixed(3)} s vs unsharded ${one.seconds.toFixed(3)} s ` +
      `(overhead ${(sharding.overheadSeconds * 100).toFixed(1)}% by the reports' times, ${(sharding.overheadWall * 100).toFixed(1)}% by wall time incl. process start); ` +
      `all at once ${parallelWall.toFixed(3)} s wall; merged = unsharded: ${sameMerged ? 'yes' : 'NO'}`,
  );
  console.log(
    `64 cores, by the per-core rate ${fmt(perCore)} candidates/s: ${fmt(estimate.cores64Ideal)}/s ideal, ` +
      `${fmt(estimate.cores64AtMeasuredEfficiency)}/s at the efficiency measured with ${s.at(-1)!.threads} threads (${(eff * 100).toFixed(0)}%)`,
  );
  console.log(`load average now: ${readLoad()} (other work on the machine depresses every figure)`);
}

function requireOk(r: Timed, i: number): void {
  if (r.code !== 0) throw new Error(`shard ${i + 1} failed: ${r.stderr}`);
}

function readLoad(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'unknown';
  }
}

await main();
