/**
 * plan_smem throughput (issue 28, "Speed"; docs/planner.md "Scale"): over the seeded corpus
 * bench/corpus/planner.jsonl (bench/gen-planner-corpus.ts), candidates priced per second on one
 * thread, plans per second of the 64×64 fp16 pairs (target ≥ 20) and the time of the full plan of
 * the 128×128 fp16 tile over every family (target < 10 s). Figures by wall clock and by this
 * process's CPU time (the fairer one on a loaded machine). The linear family (opt-in, docs/planner.md "The linear
 * family's search"): its members counted per CPU second (a pruned branch by its size) on the SwizzleTest pairs of
 * test/fixtures/plan-swizzletest.jsonl that its search closes, and how many corpus requests it closes within 1 s.
 * Then the bulk paths over the same corpus,
 * each answer checked equal to one thread's: candidates per second on two worker threads (a warm pool,
 * every plan sliced, and the corpus as one sweep with a plan per worker: target ≥ 1.8× one thread's wall figure;
 * beside them the machine's own ceiling, two one-thread planners at once in two processes) and on the GPU adapter (plan.wgsl;
 * lavapipe's figure is software), and the 128×128 plan on each.
 * Run: npx tsx bench/planner.ts [--quick] [--no-gpu] [--threads N]
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withDeadline } from '../src/algebra/deadline.js';
import { isLayoutError } from '../src/algebra/errors.js';
import { acquireNodeDevice } from '../src/engine/node/device-node.js';
import { WorkerPool } from '../src/engine/node/pool.js';
import { adapterLine } from '../src/engine/select.js';
import { loadPlanner, planArgs, planRequestOf } from '../src/ops/planner.js';
import { planSmemGpu } from '../src/planner/gpu.js';
import { planSmemMany, planSmemThreaded } from '../src/planner/parallel.js';
import { planSmem, type PlanRequest, type PlanResult } from '../src/planner/plan.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const quick = process.argv.includes('--quick');
const corpus = readFileSync(join(root, 'bench', 'corpus', 'planner.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as { id: string; args: [Record<string, unknown>] });

await loadPlanner();

/** Runs every request once; wall and CPU milliseconds, and the candidates the plans searched. */
function run(reqs: readonly Record<string, unknown>[]): { wall: number; cpu: number; candidates: number } {
  let candidates = 0;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  for (const r of reqs) candidates += Object.values(planArgs(r).searched).reduce((a, b) => a + b, 0);
  const c = process.cpuUsage(c0);
  return { wall: performance.now() - t0, cpu: (c.user + c.system) / 1000, candidates };
}

// --child: one one-thread planner over the corpus (best wall of a few passes), for the machine's two-thread ceiling below
if (process.argv.includes('--child')) {
  const reqs = corpus.map((c) => c.args[0]);
  run(reqs);
  let wall = Infinity;
  for (let i = 0; i < (quick ? 1 : 3); i++) wall = Math.min(wall, run(reqs).wall);
  console.log(`child-wall ${wall}`);
  process.exit(0);
}

const byTile = new Map<string, Record<string, unknown>[]>();
for (const c of corpus) {
  const key = `${String(c.args[0].tile)} ${String(c.args[0].dtype)}`;
  if (!byTile.has(key)) byTile.set(key, []);
  byTile.get(key)!.push(c.args[0]);
}

console.log(`plan_smem over ${corpus.length} requests of bench/corpus/planner.jsonl (one thread; a shared machine depresses the wall figures)`);
const reps = quick ? 1 : 3;
for (const [tile, reqs] of byTile) {
  run(reqs.slice(0, 2)); // warm-up
  let best = { wall: Infinity, cpu: Infinity, candidates: 0 };
  for (let i = 0; i < reps; i++) {
    const r = run(reqs);
    if (r.cpu < best.cpu) best = r;
  }
  const n = reqs.length;
  const line = `${tile.padEnd(22)} ${String(n).padStart(3)} plans  ${((n * 1000) / best.wall).toFixed(1).padStart(7)} plans/s wall  ${((n * 1000) / best.cpu)
    .toFixed(1)
    .padStart(
      7,
    )} plans/s CPU  ${((best.candidates * 1000) / best.cpu).toFixed(0).padStart(8)} candidates/s CPU  ${(best.cpu / n).toFixed(0).padStart(6)} ms/plan CPU`;
  console.log(line);
}

// the linear family: full plans over all four families (issue 28's "a 128×128 fp16 tile over all families within 10 s"):
// the SwizzleTest pairs, then the corpus (its spread: the linear search is branch and bound)
const swizzleTest = readFileSync(join(root, 'test', 'fixtures', 'plan-swizzletest.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as { id: string; args: [Record<string, unknown>] });
const ALL = ['swizzle', 'linear', 'padded', 'atoms'];
/** One plan over all families under a deadline: wall and CPU seconds, members counted, the best total; null when it did not close. */
function fullRun(req: Record<string, unknown>, ms: number): { wall: number; cpu: number; members: number; best: number } | null {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  try {
    const r = withDeadline(ms, () => planArgs({ ...req, families: ALL }));
    const c = process.cpuUsage(c0);
    const b = r.front[0]!;
    return {
      wall: (performance.now() - t0) / 1000,
      cpu: (c.user + c.system) / 1e6,
      members: r.searched.linear ?? 0,
      best: b.write.wavefronts + b.read.wavefronts,
    };
  } catch (e) {
    if (isLayoutError(e) && (e.kind === 'timeout' || e.kind === 'overflow')) return null;
    throw e;
  }
}
for (const c of swizzleTest) {
  const r = fullRun(c.args[0], quick ? 5000 : 20000);
  const what =
    r === null
      ? 'not closed (deadline, or the linear count beyond 2^53)'
      : `${r.wall.toFixed(2)} s wall ${r.cpu.toFixed(2)} s CPU, best ${r.best} wavefronts, ${(r.members / r.cpu).toExponential(2)} linear members/s CPU`;
  console.log(`all families ${c.id.padEnd(34)} ${what}`);
}
const sample = corpus.slice(0, quick ? 4 : corpus.length);
const walls: number[] = [];
let open = 0;
for (const c of sample) {
  const r = fullRun(c.args[0], 20000);
  if (r === null) open++;
  else walls.push(r.wall);
}
walls.sort((a, b) => a - b);
const q = (f: number): string => (walls.length === 0 ? '-' : walls[Math.min(walls.length - 1, Math.floor(f * walls.length))]!.toFixed(2));
console.log(
  `all families over the corpus: ${walls.length} of ${sample.length} closed within 20 s; wall s median ${q(0.5)}, p90 ${q(0.9)}, max ${q(1)}${open > 0 ? `; ${open} not closed` : ''}`,
);
for (const [tile, reqs] of byTile) {
  if (!tile.startsWith('(128,128)')) continue;
  const r = fullRun(reqs[0]!, 20000);
  console.log(`all families, the corpus's ${tile} pair: ${r === null ? 'not closed' : `${r.wall.toFixed(2)} s wall (target: within 10 s)`}`);
}
// ---------------------------------------------------------------------------------------------
// the bulk paths: one thread, `threads` worker threads, the GPU, each over the whole corpus once per rep

const threadsAt = process.argv.indexOf('--threads');
const threads = threadsAt > 0 ? Number(process.argv[threadsAt + 1]) : 2;
// each plan reads its request afresh (as a user's does: no side's tables kept from an earlier plan), on every path
const built: { id: string; req: () => PlanRequest; want: string }[] = corpus.map((c) => {
  const req = (): PlanRequest => planRequestOf(c.args[0]).request;
  return { id: c.id, req, want: JSON.stringify(planSmem(req())) };
});
const searchedOf = (r: PlanResult): number => Object.values(r.searched).reduce((a, b) => a + b, 0);

/** Plans every request with `f` (checked against one thread's answer); the wall milliseconds and the candidates. */
async function bulk(
  what: string,
  list: typeof built,
  f: (req: PlanRequest) => PlanResult | Promise<PlanResult>,
): Promise<{ wall: number; candidates: number }> {
  let candidates = 0;
  const t0 = performance.now();
  for (const b of list) {
    const r = await f(b.req());
    if (JSON.stringify(r) !== b.want) throw new Error(`${what}: the answer to ${b.id} differs from one thread's`);
    candidates += searchedOf(r);
  }
  return { wall: performance.now() - t0, candidates };
}

const line = (what: string, r: { wall: number; candidates: number }, n: number): void =>
  console.log(
    `${what.padEnd(30)} ${String(n).padStart(3)} plans  ${((r.candidates * 1000) / r.wall).toFixed(0).padStart(8)} candidates/s wall  ${(r.wall / n).toFixed(0).padStart(6)} ms/plan`,
  );

const big = built.filter((b) => b.id.startsWith('(128,128)'));
const pool = new WorkerPool(threads);
const onThreads = (req: PlanRequest): Promise<PlanResult> => planSmemThreaded(req, { threads, pool, lazyWorkers: null, minWork: 0 });
await bulk('warm-up', built.slice(0, 2), onThreads); // the workers booted and their code compiled
console.log(`\nthe bulk paths over the corpus (answers checked equal to one thread's; best of ${reps})`);
const best = async (what: string, list: typeof built, f: (req: PlanRequest) => PlanResult | Promise<PlanResult>, k = reps): Promise<void> => {
  let b = { wall: Infinity, candidates: 0 };
  for (let i = 0; i < k; i++) {
    const r = await bulk(what, list, f);
    if (r.wall < b.wall) b = r;
  }
  line(what, b, list.length);
};
await best('one thread', built, planSmem);
// the machine's own ceiling for two threads: two one-thread planners over the corpus at once, in two processes
{
  const child = (): Promise<number> =>
    new Promise((ok, fail) => {
      const p = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--child', ...(quick ? ['--quick'] : [])], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      p.stdout.on('data', (d: Buffer) => void (out += d.toString()));
      p.on('exit', (code) => (code === 0 ? ok(Number(/child-wall (\S+)/.exec(out)?.[1])) : fail(new Error(`child exited ${code}`))));
    });
  const alone = await child();
  const [a, b] = await Promise.all([child(), child()]);
  console.log(
    `the machine: two one-thread planners at once ${((2 * alone) / Math.max(a!, b!)).toFixed(2)}× one alone (the ceiling of any two-thread figure here)`,
  );
}
await best(`${pool.size} threads, each plan sliced`, built, onThreads);
{
  // the corpus as one sweep: each plan whole on a worker (planSmemMany), the answers checked as above
  let b = { wall: Infinity, candidates: 0 };
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    const rs = await planSmemMany(
      built.map((x) => x.req()),
      { threads, pool },
    );
    const wall = performance.now() - t0;
    rs.forEach((r, k) => {
      if (JSON.stringify(r) !== built[k]!.want) throw new Error(`planSmemMany: the answer to ${built[k]!.id} differs from one thread's`);
    });
    if (wall < b.wall) b = { wall, candidates: rs.reduce((a, r) => a + searchedOf(r), 0) };
  }
  line(`${pool.size} threads, a plan per worker`, b, built.length);
}
await best('128×128 fp16, one thread', big, planSmem);
await best(`128×128 fp16, ${pool.size} threads`, big, onThreads);
pool.close();
if (!process.argv.includes('--no-gpu')) {
  const dev = await acquireNodeDevice();
  const gpu = (req: PlanRequest): Promise<PlanResult> => planSmemGpu(req, dev.device);
  const list = quick ? built.slice(0, 4) : built;
  await bulk('warm-up', list.slice(0, 1), gpu);
  console.log(`GPU: ${adapterLine(dev.adapter)} (a software adapter is no GPU's figure)`);
  await best('GPU', list, gpu, 1);
  await best('128×128 fp16, GPU', big, gpu, 1);
  dev.release();
}
