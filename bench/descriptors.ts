/**
 * The descriptors (docs/descriptors.md; issue 27, "Speed"): `tma_desc` (target ≥ 100k requests/s) and `gmma_desc`
 * (≥ 200k requests/s) through the table (runOpDirect, as `batch` runs them: strings parsed on every request), single
 * thread, over the seeded corpus bench/corpus/descriptors.jsonl (bench/gen-descriptors-corpus.ts; one tma_desc request
 * in ten fails a rule, its message and suggestion included in the time).
 * Run: npx tsx bench/descriptors.ts [--seconds S]
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LayoutError } from '../src/algebra/errors.js';
import { runOpDirect, type OpContext } from '../src/ops/table.js';

const seconds = Number(process.argv[process.argv.indexOf('--seconds') + 1] ?? 0) || 2;
const corpusFile = join(dirname(fileURLToPath(import.meta.url)), 'corpus', 'descriptors.jsonl');
const requests = readFileSync(corpusFile, 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { op: string; args: unknown[] });
const ctx: OpContext = {
  backendChoice: 'cpu',
  backend: async () => {
    throw new Error('no backend needed');
  },
};

/** One request as batch answers it: a result, or a LayoutError's message read (batch writes it). */
function answer(op: string, args: readonly unknown[]): number {
  try {
    runOpDirect(op, args, ctx);
    return 1;
  } catch (e) {
    if (!(e instanceof LayoutError)) throw e;
    return e.message.length > 0 ? 0 : -1;
  }
}

function rate(op: string, target: number): void {
  const rs = requests.filter((r) => r.op === op);
  let failed = 0;
  for (const r of rs) if (answer(r.op, r.args) === 0) failed++;
  for (let k = 0; k < 20; k++) for (const r of rs) answer(r.op, r.args); // warm-up
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let n = 0;
  while (performance.now() - t0 < seconds * 1000) {
    for (const r of rs) answer(r.op, r.args);
    n += rs.length;
  }
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  const perWall = (n * 1000) / wall;
  const perCpu = (n * 1e6) / (c.user + c.system);
  console.log(
    `${op.padEnd(12)} ${rs.length} requests (${failed} failing)  ${perWall.toFixed(0).padStart(9)} /s wall  ${perCpu.toFixed(0).padStart(9)} /s CPU time  (target ≥ ${target.toLocaleString('en')}/s)`,
  );
}

console.log(`descriptors through the table, single thread, ${seconds} s per op`);
rate('tma_desc', 100_000);
rate('gmma_desc', 200_000);
