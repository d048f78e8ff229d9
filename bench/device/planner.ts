/**
 * The planner's step of the device suite (suite.ts; issue 28 "Speed", docs/planner.md "Scale"): over the seeded
 * corpus bench/corpus/planner.jsonl (carried as planner.jsonl beside the bundle), candidates priced per second and
 * plans per second by the CPU planner on one thread, the full plan of the 128×128 fp16 tile over every family, and,
 * where this build has the planner's GPU entry point (planner/gpu, another change, which `plan_smem` reaches through the op
 * context's backend, `--backend gpu`), the same on the GPU, each GPU answer checked equal to the CPU's. Each part
 * stops starting plans past its share of the time; the figures are CPU time for the CPU planner, wall time for the
 * GPU (whose work is not this process's CPU time).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeContext } from '../../src/cli/context.js';
import { runOp } from '../../src/ops/table.js';

/** One plan_smem request of the corpus. */
type Request = Record<string, unknown>;

/** The corpus: $PLANNER_CORPUS, else planner.jsonl beside the bundle (the payload), else the repository's. */
export function plannerCorpus(): { from: string; requests: Request[] } {
  const from = [process.env.PLANNER_CORPUS, 'planner.jsonl', join('bench', 'corpus', 'planner.jsonl')].find((f) => f !== undefined && existsSync(f));
  if (from === undefined) return { from: 'none', requests: [] };
  const requests = readFileSync(from, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => (JSON.parse(l) as { args: [Request] }).args[0]);
  return { from, requests };
}

/** Whether this build has the planner's GPU entry point (bundled by esbuild's glob import when the file exists). */
async function hasGpuPlanner(): Promise<boolean> {
  const name = 'gpu';
  try {
    await import(`../../src/planner/${name}.ts`);
    return true;
  } catch {
    return false;
  }
}

/** The figures of one backend over a list of requests: plans, candidates, seconds, the answers. */
interface Run {
  plans: number;
  candidates: number;
  seconds: number;
  answers: string[];
}

const searchedOf = (r: unknown): number => Object.values((r as { searched: Record<string, number> }).searched).reduce((a, b) => a + b, 0);

/** Plans the requests in order with `backend` until `budgetMs` is spent (CPU: this process's CPU time; GPU: wall time). */
async function runPlans(reqs: readonly Request[], backend: 'cpu' | 'gpu', budgetMs: number): Promise<Run> {
  const ctx = makeContext(backend);
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const out: Run = { plans: 0, candidates: 0, seconds: 0, answers: [] };
  for (const r of reqs) {
    if (performance.now() - t0 > budgetMs) break;
    const answer = await runOp('plan_smem', [r], ctx);
    out.plans++;
    out.candidates += searchedOf(answer);
    // the answer's own fields (an answer may also say which backend priced it)
    const { searched, front, certificate, triton } = answer as Record<string, unknown>;
    out.answers.push(JSON.stringify({ searched, front, certificate, triton }));
  }
  const c = process.cpuUsage(c0);
  out.seconds = backend === 'cpu' ? (c.user + c.system) / 1e6 : (performance.now() - t0) / 1000;
  return out;
}

/** The step: its report (for bench.json) and summary lines, within `budgetMs`. */
export async function plannerStep(budgetMs: number): Promise<{ report: Record<string, unknown>; lines: string[] }> {
  const { from, requests } = plannerCorpus();
  if (requests.length === 0) return { report: { corpus: from }, lines: ['planner: no corpus (planner.jsonl) carried: not measured'] };
  const gpu = await hasGpuPlanner();
  const share = gpu ? budgetMs / 2 : budgetMs;
  const big = requests.filter((r) => r.tile === '(128,128)');
  const pairs = requests.filter((r) => r.tile === '(64,64)');
  const lines: string[] = [`planner: corpus ${from} (${requests.length} requests)`];
  const report: Record<string, unknown> = { corpus: from, gpuPlanner: gpu };
  const figures = (name: string, r: Run, clock: string): string =>
    `planner ${name}: ${r.plans} plans, ${(r.candidates / Math.max(r.seconds, 1e-9)).toFixed(0)} candidates/s, ` +
    `${(r.plans / Math.max(r.seconds, 1e-9)).toFixed(1)} plans/s (${clock})`;
  for (const backend of gpu ? (['cpu', 'gpu'] as const) : (['cpu'] as const)) {
    await runPlans(requests.slice(0, 1), backend, Infinity); // warm-up: the planner's rooms load on the first plan
    const clock = backend === 'cpu' ? 'CPU time, one thread' : 'wall time';
    const all = await runPlans(requests, backend, share * 0.5);
    const pair = await runPlans(pairs, backend, share * 0.2);
    const whole = big.length > 0 ? await runPlans(big, backend, share * 0.3) : null;
    report[backend] = { corpus: all, pairs64: pair, full128: whole };
    lines.push(figures(`${backend} corpus`, all, clock), figures(`${backend} 64×64 fp16`, pair, clock) + ' (goal ≥ 20 plans/s)');
    if (whole !== null && whole.plans > 0)
      lines.push(`planner ${backend} full plan of 128×128 fp16: ${whole.seconds.toFixed(2)} s (goal < 10 s; ${whole.candidates} candidates)`);
  }
  if (gpu) {
    // the GPU's answers are the CPU's, plan by plan (the requests both reached)
    const c = report.cpu as { corpus: Run };
    const g = report.gpu as { corpus: Run };
    const n = Math.min(c.corpus.answers.length, g.corpus.answers.length);
    const differ = Array.from({ length: n }, (_, i) => i).filter((i) => c.corpus.answers[i] !== g.corpus.answers[i]);
    lines.push(`planner gpu = cpu: ${differ.length === 0 ? `yes, on ${n} plans` : `NO, plans ${differ.join(', ')} differ`}`);
  } else lines.push('planner gpu: this build has no GPU planner (planner/gpu): CPU only');
  for (const k of ['cpu', 'gpu']) for (const r of Object.values((report[k] ?? {}) as Record<string, Run | null>)) if (r) r.answers = [];
  return { report, lines };
}
