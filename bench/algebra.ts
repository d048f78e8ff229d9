/**
 * Algebra throughput (issue: the layout algebra, "Speed"). For each operation, its 2,000
 * requests of bench/corpus/algebra.jsonl are parsed once, then the operation alone
 * is timed, single thread, in-process: the best of several rounds of repeated passes.
 * Then `batch` is timed end to end on the whole corpus (a spawned process, stdin → stdout).
 * Then issue 10's vocabulary: each op of bench/vocab-corpus.jsonl (bench/gen-vocab-corpus.ts)
 * through its table entry on pre-parsed arguments (result printing included, parsing not),
 * single thread, the same way; an op the table lacks is reported as missing. Last, `batch`
 * on the old and new corpora interleaved.
 * Run: npx tsx bench/algebra.ts [path/to/algebra-corpus.jsonl] [path/to/vocab-corpus.jsonl]
 * BENCH_ONLY=op1,op2 times those ops alone (both tables) and skips the `batch` runs: for profiling.
 */
import { readFileSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseLayout } from '../src/algebra/notation.js';
import type { Layout } from '../src/algebra/layout.js';
import { compose } from '../src/algebra/compose.js';
import { complement } from '../src/algebra/complement.js';
import { logicalDivide, logicalProduct } from '../src/algebra/divide.js';
import { coalesce } from '../src/algebra/coalesce.js';
import { opsByName, parseArgs, type OpContext } from '../src/ops/table.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const corpusPath = process.argv[2] ?? join(root, 'bench', 'corpus', 'algebra.jsonl');
if (!existsSync(corpusPath)) {
  console.error(`corpus not found: ${corpusPath}`);
  process.exit(2);
}
const text = readFileSync(corpusPath, 'utf8');
const requests = text
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { op: string; args: (string | number)[] });

const only = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',')) : undefined;
const wanted = (op: string): boolean => only === undefined || only.has(op);

// CuTe's pure-Python reference, current version, on this machine (issue 10 "Speed"), and our
// targets from the issue (20× that reference, as the issue rounds them).
const reference: Record<string, number> = {
  compose: 72e3,
  complement: 164e3,
  logical_divide: 31e3,
  logical_product: 57e3,
  coalesce: 293e3,
};
const targets: Record<string, number> = {
  compose: 1.45e6,
  complement: 3.3e6,
  logical_divide: 620e3,
  logical_product: 1.15e6,
  coalesce: 5.9e6,
};

type Job = () => unknown;
const jobs: Record<string, Job[]> = {};
for (const r of requests) {
  if (!wanted(r.op)) continue;
  const a = r.args.map((x) => (typeof x === 'string' ? parseLayout(x) : x));
  let job: Job;
  switch (r.op) {
    case 'compose':
      job = () => {
        try {
          return compose(a[0] as Layout, a[1] as Layout);
        } catch (e) {
          return e;
        }
      };
      break;
    case 'complement':
      job = () => complement(a[0] as Layout, a[1] as number | undefined);
      break;
    case 'logical_divide':
      job = () => logicalDivide(a[0] as Layout, a[1] as Layout);
      break;
    case 'logical_product':
      job = () => logicalProduct(a[0] as Layout, a[1] as Layout);
      break;
    case 'coalesce':
      job = () => coalesce(a[0] as Layout);
      break;
    default:
      continue;
  }
  (jobs[r.op] ??= []).push(job);
}

function rate(list: Job[]): number {
  let best = 0;
  for (let round = 0; round < 7; round++) {
    let n = 0;
    const t0 = performance.now();
    let t = t0;
    while (t - t0 < 150) {
      for (const j of list) j();
      n += list.length;
      t = performance.now();
    }
    best = Math.max(best, (n / (t - t0)) * 1000);
  }
  return best;
}

const fmt = (x: number): string => (x >= 1e6 ? `${(x / 1e6).toFixed(2)}M` : `${(x / 1e3).toFixed(0)}k`);
console.log('operation         requests   ops/s      target (issue 10)      ratio to CuTe   ok');
let allOk = true;
for (const [op, list] of Object.entries(jobs)) {
  const r = rate(list);
  const target = targets[op]!;
  const ok = r >= target;
  allOk &&= ok;
  console.log(
    `${op.padEnd(17)} ${String(list.length).padStart(8)}   ${fmt(r).padStart(7)}    ≥ ${fmt(target).padStart(6)}               ${(r / reference[op]!).toFixed(0).padStart(5)}×        ${ok ? 'yes' : 'NO'}`,
  );
}

// batch end to end: spawn the compiled CLI, feed the whole corpus, median of 3.
const bin = join(root, 'bin', 'layoutgpu.js');
/** Median wall time of 3 `batch` processes on `input`, and its response count. */
function batchTime(input: string, expect: number): number {
  const ts: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const p = spawnSync(process.execPath, [bin, 'batch'], { input, maxBuffer: 1 << 30 });
    const lines = p.stdout.toString().trim().split('\n').length;
    if (p.status !== 0 || lines !== expect) {
      console.error(`batch failed: status ${p.status}, ${lines} lines of ${expect}\n${p.stderr}`);
      process.exit(1);
    }
    ts.push((performance.now() - t0) / 1000);
  }
  ts.sort((a, b) => a - b);
  return ts[1]!;
}
let startup = 0; // node's start-up and module loading, measured below
if (only === undefined) {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const p = spawnSync(process.execPath, [bin, 'batch'], { input: text, maxBuffer: 1 << 28 });
    const dt = (performance.now() - t0) / 1000;
    const lines = p.stdout.toString().trim().split('\n').length;
    if (p.status !== 0 || lines !== requests.length) {
      console.error(`batch failed: status ${p.status}, ${lines} lines\n${p.stderr}`);
      process.exit(1);
    }
    times.push(dt);
  }
  times.sort((a, b) => a - b);
  // the same process on empty input: node's start-up and module loading
  const empty: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    spawnSync(process.execPath, [bin, 'batch'], { input: '' });
    empty.push((performance.now() - t0) / 1000);
  }
  empty.sort((a, b) => a - b);
  const br = requests.length / times[1]!;
  const sustained = requests.length / (times[1]! - empty[1]!);
  allOk &&= sustained >= 50e3;
  console.log(
    `batch end to end  ${String(requests.length).padStart(8)}   ${fmt(br).padStart(7)}    (median of 3 processes: ${times[1]!.toFixed(3)} s including ${empty[1]!.toFixed(3)} s of start-up on empty input)`,
  );
  console.log(
    `batch sustained   ${String(requests.length).padStart(8)}   ${fmt(sustained).padStart(7)}    ≥    50k  (requests / (time − start-up))                ${sustained >= 50e3 ? 'yes' : 'NO'}`,
  );
  // steady state: the corpus five times over in one process (V8 warm after the first pass)
  const reps = 5;
  const big = text.endsWith('\n') ? text.repeat(reps) : (text + '\n').repeat(reps);
  const bigTimes: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const p = spawnSync(process.execPath, [bin, 'batch'], { input: big, maxBuffer: 1 << 29 });
    if (p.status !== 0) process.exit(1);
    bigTimes.push((performance.now() - t0) / 1000);
  }
  bigTimes.sort((a, b) => a - b);
  const steady = (reps * requests.length) / (bigTimes[1]! - empty[1]!);
  console.log(
    `batch steady      ${String(reps * requests.length).padStart(8)}   ${fmt(steady).padStart(7)}    ≥    50k  (the corpus ${reps}× in one process, ${bigTimes[1]!.toFixed(3)} s, less start-up)   ${steady >= 50e3 ? 'yes' : 'NO'}`,
  );
  startup = empty[1]!;
}

// ------------------------------------------------------------ issue 10: CuTe's vocabulary
const vocabPath = process.argv[3] ?? join(root, 'bench', 'vocab-corpus.jsonl');
if (!existsSync(vocabPath)) {
  console.error(`vocab corpus not found: ${vocabPath} (npx tsx bench/gen-vocab-corpus.ts writes it)`);
  process.exit(2);
}
const vocabText = readFileSync(vocabPath, 'utf8');
const vocab = vocabText
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { op: string; args: unknown[] });
const ctx: OpContext = { backendChoice: 'cpu', backend: () => Promise.reject(new Error('no backend in the algebra bench')) };
// divide/product family ≥ 300k ops/s each, the rest ≥ 1M ops/s (issue 10 "Speed")
const family = new Set([
  'logical_divide',
  'zipped_divide',
  'tiled_divide',
  'flat_divide',
  'logical_product',
  'zipped_product',
  'tiled_product',
  'flat_product',
  'blocked_product',
  'raked_product',
  'tile_to_shape',
]);
const vjobs = new Map<string, { jobs: Job[]; failed: number; unparsed: number; missing: boolean }>();
for (const r of vocab) {
  if (!wanted(r.op)) continue;
  let e = vjobs.get(r.op);
  if (!e) vjobs.set(r.op, (e = { jobs: [], failed: 0, unparsed: 0, missing: !opsByName.has(r.op) }));
  if (e.missing || !wanted(r.op)) continue;
  const spec = opsByName.get(r.op)!;
  let args: unknown[];
  try {
    args = parseArgs(spec, r.args);
  } catch {
    e.unparsed++;
    continue;
  }
  try {
    spec.run(args, ctx);
  } catch {
    e.failed++;
  }
  e.jobs.push(() => {
    try {
      return spec.run(args, ctx);
    } catch (err) {
      return err;
    }
  });
}
console.log('');
console.log('CuTe vocabulary (bench/vocab-corpus.jsonl; the table entry on parsed arguments, printing included)');
console.log('operation            requests  errors   ops/s      target    ok');
for (const [op, e] of vjobs) {
  const target = family.has(op) ? 300e3 : 1e6;
  const label = ['compose', 'logical_divide', 'logical_product'].includes(op) ? `${op} (tiler)` : op;
  if (e.missing) {
    console.log(`${label.padEnd(20)} ${'—'.padStart(8)}  missing from the table (not merged yet)`);
    allOk = false;
    continue;
  }
  if (e.jobs.length === 0) {
    console.log(`${label.padEnd(20)} ${'0'.padStart(8)}  every request failed to parse (${e.unparsed})`);
    allOk = false;
    continue;
  }
  const r = rate(e.jobs);
  const ok = r >= target;
  allOk &&= ok;
  const errs = `${e.failed}${e.unparsed ? `+${e.unparsed}p` : ''}`;
  console.log(
    `${label.padEnd(20)} ${String(e.jobs.length).padStart(8)}  ${errs.padStart(6)}   ${fmt(r).padStart(7)}    ≥ ${fmt(target).padStart(5)}    ${ok ? 'yes' : 'NO'}`,
  );
}

if (only === undefined) {
  // batch on the old and new corpora interleaved (one line of each in turn, then the rest)
  const oldLines = text.trim().split('\n');
  const newLines = vocabText.trim().split('\n');
  const mixed: string[] = [];
  for (let i = 0; i < Math.max(oldLines.length, newLines.length); i++) {
    if (i < newLines.length) mixed.push(newLines[i]!);
    if (i < oldLines.length) mixed.push(oldLines[i]!);
  }
  const mixedText = mixed.join('\n') + '\n';
  const mt = batchTime(mixedText, mixed.length);
  const mixedRate = mixed.length / (mt - startup);
  allOk &&= mixedRate >= 50e3;
  console.log(
    `batch mixed       ${String(mixed.length).padStart(8)}   ${fmt(mixedRate).padStart(7)}    ≥    50k  (old + new corpora interleaved, ${mt.toFixed(3)} s, less start-up)   ${mixedRate >= 50e3 ? 'yes' : 'NO'}`,
  );
}
console.log(allOk ? 'all targets met' : 'SOME TARGETS MISSED');
