/**
 * The whole `layoutgpu bench` suite in one process, for a lent GPU machine (bundled by pack.sh,
 * run by run.sh). Writes, under the output folder (argv[2], default ./out), after every step:
 *   bench.txt   the tables      bench.json  every report (adapter, limits, samples)
 *   bench.svg   efficiencies    summary.txt the figures the issue asks for
 * Stops starting new steps past the time budget (SUITE_BUDGET_S, default 390 s), so a run
 * always ends within 8 minutes with what it measured.
 *
 * The planner's step (planner.ts) runs last, with PLANNER_BUDGET_S (default 60 s) kept for it out of the budget:
 * candidates/s and plans/s of the CPU planner, and of the GPU planner where the build has one.
 *
 * Sizes: on a hardware adapter the defaults of runBench (2^26 indices, ≤ 1 GiB per buffer),
 * elements of 4, 8 and 16 bytes; on a software adapter (the local rehearsal) 2^20 indices and
 * elements of 4 and 16 bytes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { acquireBenchEnv } from '../../src/throughput/node-env.js';
import { renderSvg, renderTable } from '../../src/throughput/report.js';
import { runBench, type BenchReport } from '../../src/throughput/run.js';
import { plannerStep } from './planner.js';

const outDir = process.argv[2] ?? 'out';
mkdirSync(outDir, { recursive: true });
const plannerBudget = Number(process.env.PLANNER_BUDGET_S ?? 60) * 1000;
const budget = Number(process.env.SUITE_BUDGET_S ?? 390) * 1000 - plannerBudget;
const t0 = Date.now();

const LAYOUTS: [string, string][] = [
  ['a', '(1024,1024):(1,1024)'],
  ['b', '((8,16),(32,8)):((1,256),(8,4096))'],
  ['c', '(11,13,15,17,19,21):(315,58905,1,3465,765765,15)'],
  ['d', '(32,64,128,256):(128,1048576,1,4096)'],
  ['col-major', '(1024,1024):(1,1024)'],
  ['row-major', '(1024,1024):(1024,1)'],
  ['identity', '67108864:1'],
  ['transpose-4k', '(4096,4096):(4096,1)'],
];
const TILED: [string, string, string][] = [
  ['a by 32x32', '(1024,1024):(1,1024)', '(32,32):(1,1024)'],
  ['row-major by 32x32', '(1024,1024):(1024,1)', '(32,32):(1,1024)'],
  ['d by (32,16):(1,2048)', '(32,64,128,256):(128,1048576,1,4096)', '(32,16):(1,2048)'],
];

const acquired = await acquireBenchEnv(process.env.SUITE_BACKEND === 'cpu' ? 'cpu' : 'gpu');
const env = acquired.env;
const soft = env.software || env.backend === 'cpu';
const elems = soft ? [4, 16] : [4, 8, 16];
const limit = soft ? 2 ** 20 : undefined;
const reports: { name: string; report: BenchReport }[] = [];
const errors: string[] = [];
let planner: { report: Record<string, unknown>; lines: string[] } | null = null;

function write(): void {
  const header = {
    adapter: env.adapter,
    adapterInfo: env.adapterInfo,
    limits: env.limits,
    features: env.features,
    timestampQueries: Boolean(env.gpu?.timestamps),
    seconds: (Date.now() - t0) / 1000,
  };
  writeFileSync(join(outDir, 'bench.json'), JSON.stringify({ ...header, errors, runs: reports, planner: planner?.report ?? null }, null, 2) + '\n');
  writeFileSync(
    join(outDir, 'bench.txt'),
    reports.map((r) => `== ${r.name}\n${renderTable(r.report)}`).join('\n') + (errors.length ? `\nerrors:\n${errors.join('\n')}\n` : ''),
  );
  if (reports.length) {
    const merged: BenchReport = {
      ...reports[0]!.report,
      layouts: reports.flatMap((r) => r.report.layouts.map((l) => ({ ...l, layout: `${r.name}: ${l.layout}` }))),
    };
    writeFileSync(join(outDir, 'bench.svg'), renderSvg(merged));
  }
  // the issue's goals
  const lines: string[] = [`adapter: ${env.adapter}`, `timestamps: ${header.timestampQueries}`, `elapsed: ${header.seconds.toFixed(1)} s`];
  for (const { name, report } of reports) {
    for (const l of report.layouts) {
      for (const r of l.results) {
        const what =
          r.kernel === 'eval'
            ? `${(r.indicesPerSecond / 1e6).toFixed(0)} M idx/s = ${r.gbps.toFixed(1)} GB/s written`
            : r.kernel === 'reduce' || r.kernel === 'compact'
              ? `${(r.indicesPerSecond / 1e6).toFixed(0)} M idx/s`
              : `${r.gbps.toFixed(1)} GB/s`;
        lines.push(
          `${name.padEnd(20)} ${r.kernel.padEnd(8)} ${String(r.elemBytes).padStart(2)} B  n=${r.n}  ${what}` +
            `${r.efficiency !== undefined ? `  eff ${r.efficiency.toFixed(3)}` : ''}  (iqr ±${((r.timing.iqr * 100) / 2).toFixed(1)}%, ${r.timing.method})`,
        );
      }
    }
  }
  const copies = reports.flatMap((r) => r.report.layouts.flatMap((l) => l.results.filter((x) => x.kernel === 'copy')));
  if (copies.length) {
    const best = Math.max(...copies.map((c) => c.gbps));
    lines.push(`best plain copy: ${best.toFixed(0)} GB/s = ${((best / 4300) * 100).toFixed(1)}% of an H200's ~4300 GB/s (goal ≥ 80%)`);
  }
  const d = reports.find((r) => r.name === 'd');
  const evalD = d?.report.layouts[0]?.results.find((x) => x.kernel === 'eval');
  if (evalD) {
    lines.push(
      `eval of d (grid-stride, generated): ${evalD.gbps.toFixed(0)} GB/s of offsets written = ${((evalD.gbps / 4300) * 100).toFixed(1)}% of an H200's ~4300 GB/s`,
    );
  }
  const id = reports.find((r) => r.name === 'identity');
  if (id)
    for (const r of id.report.layouts[0]!.results.filter((x) => x.kernel === 'gather'))
      lines.push(`identity gather ${r.elemBytes} B: ${((r.efficiency ?? 0) * 100).toFixed(1)}% of the plain copy (goal ≥ 90%)`);
  if (planner !== null) lines.push(...planner.lines);
  writeFileSync(join(outDir, 'summary.txt'), lines.join('\n') + '\n');
}

const steps: { name: string; layout: string; tile?: string }[] = [
  ...LAYOUTS.map(([name, layout]) => ({ name, layout })),
  ...TILED.map(([name, layout, tile]) => ({ name, layout, tile })),
];
for (const s of steps) {
  if (Date.now() - t0 > budget) {
    errors.push(`${s.name}: not run (time budget of ${budget / 1000} s spent)`);
    continue;
  }
  process.stderr.write(`[${((Date.now() - t0) / 1000).toFixed(0)} s] ${s.name} ${s.layout}${s.tile ? ` ⊘ ${s.tile}` : ''}\n`);
  try {
    const report = await runBench(env, {
      layouts: [s.layout],
      elems,
      samples: 10,
      ...(limit !== undefined ? { limit } : {}),
      ...(s.tile ? { tile: s.tile, kernels: ['copy', 'tile'] } : { kernels: ['eval', 'reduce', 'compact', 'copy', 'gather', 'scatter'] }),
    });
    reports.push({ name: s.name, report });
  } catch (e) {
    errors.push(`${s.name}: ${(e as Error).message}`);
    process.stderr.write(`  failed: ${(e as Error).message}\n`);
  }
  write();
}
acquired.release();
if (plannerBudget > 0) {
  process.stderr.write(`[${((Date.now() - t0) / 1000).toFixed(0)} s] planner (${plannerBudget / 1000} s)\n`);
  try {
    planner = await plannerStep(plannerBudget);
  } catch (e) {
    errors.push(`planner: ${(e as Error).message}`);
  }
}
write();
process.stdout.write(`suite done in ${((Date.now() - t0) / 1000).toFixed(1)} s; results in ${outDir}\n`);
