/**
 * plan_smem throughput (issue 28, "Speed"; docs/planner.md): over the seeded corpus
 * bench/corpus/planner.jsonl (bench/gen-planner-corpus.ts), candidates priced per second on one
 * thread, plans per second of the 64×64 fp16 pairs (target ≥ 20) and the time of the full plan of
 * the 128×128 fp16 tile over every family (target < 10 s). Figures by wall clock and by this
 * process's CPU time (the fairer one on a loaded machine). The linear family (opt-in, docs/planner.md "The linear
 * family's search"): its members counted per CPU second (a pruned branch by its size) on the SwizzleTest pairs of
 * test/fixtures/plan-swizzletest.jsonl that its search closes, and how many corpus requests it closes within 1 s.
 * Run: npx tsx bench/planner.ts [--quick]
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withDeadline } from '../src/algebra/deadline.js';
import { isLayoutError } from '../src/algebra/errors.js';
import { loadPlanner, planArgs } from '../src/ops/planner.js';

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

// the linear family: members counted per CPU second where its search closes, and the corpus requests it closes in 1 s
const swizzleTest = readFileSync(join(root, 'test', 'fixtures', 'plan-swizzletest.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as { id: string; args: [Record<string, unknown>] });
/** One plan with the linear family alone under a deadline: its count and CPU ms, or null when it did not close. */
function linearRun(req: Record<string, unknown>, ms: number): { members: number; cpu: number } | null {
  const c0 = process.cpuUsage();
  try {
    const r = withDeadline(ms, () => planArgs({ ...req, families: ['swizzle', 'linear'] }));
    const c = process.cpuUsage(c0);
    return { members: r.searched.linear ?? 0, cpu: (c.user + c.system) / 1000 };
  } catch (e) {
    if (isLayoutError(e) && (e.kind === 'timeout' || e.kind === 'overflow')) return null;
    throw e;
  }
}
for (const c of swizzleTest) {
  const r = linearRun(c.args[0], quick ? 2000 : 10000);
  const what = r === null ? 'not closed (deadline or count beyond 2^53)' : `${((r.members * 1000) / r.cpu).toExponential(2)} linear members/s CPU`;
  console.log(`linear ${c.id.padEnd(34)} ${what}`);
}
let closed = 0;
const sample = corpus.slice(0, quick ? 4 : corpus.length);
for (const c of sample) if (linearRun(c.args[0], 1000) !== null) closed++;
console.log(`linear: ${closed} of ${sample.length} corpus requests closed within 1 s (swizzle + linear)`);
