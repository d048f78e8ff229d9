/**
 * Bulk verification throughput (issue 5, "Speed"): candidates per second for `compact`
 *  (1) over `--enumerate --size 64 --max-rank 4 --max-stride 63` (170,414,144 candidates), and
 *  (2) over 100,000 random layouts of size ≤ 4096,
 * for both verification backends, against a plain loop that checks one layout at a time with
 * the algebra's own `isCompact` (the Layout objects built beforehand, untimed).
 *
 * - CPU, enumeration: the whole enumeration end to end, as `verify compact --enumerate` runs it
 *   (the fused scan: every candidate visited with its cosize kept incrementally, the few with
 *   cosize = size checked structurally), and also as materialised chunks (generation into packed
 *   arrays + the structural check of each candidate, the path of the other properties).
 * - CPU, random: the candidates as the random source packs them while drawing them; the cost of
 *   packing ready-made Layout objects is reported beside it.
 * - GPU: the interpreter on this machine's adapter. On a software adapter (lavapipe) the whole
 *   enumeration would take far too long, so the GPU figure of (1) is measured on evenly spaced
 *   chunks of the enumeration (--gpu-chunks, default 6 × 65,536 candidates), pipeline compiled
 *   beforehand; (2) is measured on all 100,000.
 * - Baseline of (1): the same evenly spaced chunks (--baseline-chunks, default 30 × 65,536).
 * Verdict counts are cross-checked between the backends on what both ran.
 * Run: npx tsx bench/verify.ts [--gpu-chunks K] [--baseline-chunks K] [--no-gpu]
 */
import { makeFlat, type Layout } from '../src/algebra/layout.js';
import { isCompact } from '../src/algebra/properties.js';
import { acquireNodeDevice } from '../src/engine/node/device-node.js';
import { adapterLine } from '../src/engine/select.js';
import { CpuVerifyEngine } from '../src/verify/cpu.js';
import { GpuVerifyEngine } from '../src/verify/gpu.js';
import { batchOf, type FlatBatch } from '../src/verify/packed.js';
import { runVerify } from '../src/verify/run.js';
import { chunkItem } from '../src/verify/sources.js';
import { enumerateCount, enumerateSource } from '../src/verify/source-enumerate.js';
import { randomSource } from '../src/verify/source-random.js';

const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const noGpu = process.argv.includes('--no-gpu');
const GPU_CHUNKS = arg('--gpu-chunks', 6);
const BASE_CHUNKS = arg('--baseline-chunks', 30);
const CHUNK = 1 << 16;

const now = (): number => performance.now();
const fmt = (r: number): string => (r >= 1e6 ? `${(r / 1e6).toFixed(2)} M/s` : `${(r / 1e3).toFixed(1)} k/s`);

const ENUM = { size: 64, maxRank: 4, maxStride: 63 };
const total = enumerateCount(ENUM);
const nChunks = Math.ceil(total / CHUNK);

/** copies of evenly spaced chunks of the enumeration (chunk arrays are reused by the source) */
function sampleChunks(k: number): FlatBatch[] {
  const want = new Set<number>();
  for (let j = 0; j < k; j++) want.add(Math.floor(((j + 0.5) * nChunks) / k));
  const out: FlatBatch[] = [];
  let idx = 0;
  for (const c of enumerateSource(ENUM).chunks(CHUNK)) {
    if (want.has(idx)) {
      const f = c.flat!;
      out.push({ count: f.count, start: f.start.slice(), shapes: f.shapes.slice(), strides: f.strides.slice() });
    }
    idx++;
    if (out.length === want.size) break;
  }
  return out;
}

function layoutsOf(b: FlatBatch): Layout[] {
  const out: Layout[] = [];
  for (let i = 0; i < b.count; i++) {
    out.push(makeFlat(Array.from(b.shapes.subarray(b.start[i]!, b.start[i + 1]!)), Array.from(b.strides.subarray(b.start[i]!, b.start[i + 1]!))));
  }
  return out;
}

/** the plain loop, best of three passes (the machine is shared) */
function baseline(ls: readonly Layout[]): { rate: number; yes: number } {
  let best = 0;
  let yes = 0;
  for (let rep = 0; rep < 3; rep++) {
    yes = 0;
    const t0 = now();
    for (const l of ls) if (isCompact(l)) yes++;
    best = Math.max(best, ls.length / ((now() - t0) / 1000));
  }
  return { rate: best, yes };
}

const sum = (v: Uint8Array): number => v.reduce((a, b) => a + b, 0);

async function main(): Promise<void> {
  const cpu = new CpuVerifyEngine();
  let gpu: GpuVerifyEngine | null = null;
  let release = (): void => {};
  if (!noGpu) {
    const d = await acquireNodeDevice();
    gpu = new GpuVerifyEngine(d.device, { adapter: adapterLine(d.adapter), software: d.adapter.software });
    release = () => d.release();
    await gpu.bitmapCheck('compact', batchOf([makeFlat([4, 4], [1, 4])])); // compile
  }
  const rows: [string, string, string][] = [];
  console.log(`machine: ${(await import('node:os')).cpus().length} cores; GPU: ${gpu ? gpu.adapter : 'not measured'}`);

  // ---- (1) enumeration
  console.log(`\n(1) compact over --enumerate --size 64 --max-rank 4 --max-stride 63: ${total} candidates`);
  const sample = sampleChunks(Math.max(GPU_CHUNKS, BASE_CHUNKS));
  const baseSample = sample.slice(0, BASE_CHUNKS);
  const ls = baseSample.flatMap(layoutsOf);
  const b1 = baseline(ls);
  console.log(`  baseline isCompact loop (${ls.length} candidates, evenly spaced chunks): ${fmt(b1.rate)}`);

  // the CLI's path: runVerify, which takes the CPU's fused scan of the enumeration
  let t0 = now();
  const run = await runVerify({ property: { kind: 'compact' }, source: enumerateSource(ENUM), engine: cpu, maxExamples: 0 });
  const cpuSec = (now() - t0) / 1000;
  const cpuRate = total / cpuSec;
  console.log(
    `  cpu engine (fused scan, as \`verify compact --enumerate\` runs it): ${cpuSec.toFixed(2)} s, ${fmt(cpuRate)} (${run.passed} compact), ${(cpuRate / b1.rate).toFixed(1)}× the baseline`,
  );
  let yes = 0;
  let out: Uint8Array = new Uint8Array(CHUNK);
  t0 = now();
  for (const c of enumerateSource(ENUM).chunks(CHUNK)) {
    cpu.bitmapCheckSync('compact', c.flat!, out);
    for (let i = 0; i < c.count; i++) yes += out[i]!;
  }
  const matSec = (now() - t0) / 1000;
  const matRate = total / matSec;
  console.log(
    `  cpu engine, materialised chunks (generation + structural check of each): ${matSec.toFixed(2)} s, ${fmt(matRate)} (${yes} compact), ${(matRate / b1.rate).toFixed(1)}× the baseline`,
  );
  rows.push(
    ['enumerate size 64', 'baseline isCompact', fmt(b1.rate)],
    ['enumerate size 64', 'cpu fused scan', `${fmt(cpuRate)}  ${(cpuRate / b1.rate).toFixed(1)}×`],
    ['enumerate size 64', 'cpu materialised chunks', `${fmt(matRate)}  ${(matRate / b1.rate).toFixed(1)}×`],
  );
  // the check alone on the sample
  t0 = now();
  let n = 0;
  for (const b of baseSample) {
    cpu.bitmapCheckSync('compact', b, out);
    n += b.count;
  }
  const cpuCheck = n / ((now() - t0) / 1000);
  console.log(`  cpu engine, checks alone on the sample: ${fmt(cpuCheck)}`);
  if (gpu) {
    const gs = sample.slice(0, GPU_CHUNKS);
    let gn = 0;
    let gy = 0;
    let cy = 0;
    t0 = now();
    for (const b of gs) {
      gy += sum(await gpu.bitmapCheck('compact', b));
      gn += b.count;
    }
    const gRate = gn / ((now() - t0) / 1000);
    for (const b of gs) cy += sum(cpu.bitmapCheckSync('compact', b));
    console.log(
      `  gpu interpreter (${gn} candidates, evenly spaced chunks): ${fmt(gRate)}, ${(gRate / b1.rate).toFixed(2)}× the baseline; verdicts ${gy === cy ? 'agree with the cpu' : 'DIFFER'}`,
    );
    rows.push(['enumerate size 64', 'gpu (sampled)', `${fmt(gRate)}  ${(gRate / b1.rate).toFixed(2)}×`]);
  }

  // ---- (2) random
  console.log('\n(2) compact over 100,000 random layouts of size ≤ 4096 (--max-depth 2 --max-rank 4 --max-shape 16 --max-stride 64)');
  const rl: Layout[] = [];
  // the random source yields several chunks whatever the size asked (its packed arrays are
  // per chunk): the checks below all run on one packing of the 100,000 layouts
  for (const c of randomSource({ count: 100_000, seed: 2026, maxSize: 4096, maxShape: 16, maxStride: 64, maxDepth: 2, maxRank: 4 }).chunks(100_000)) {
    for (let i = 0; i < c.count; i++) rl.push(chunkItem(c, i)[0]!);
  }
  let totalIdx = 0;
  const b2 = baseline(rl);
  console.log(`  baseline isCompact loop: ${fmt(b2.rate)} (${b2.yes} compact)`);
  let packSec = Infinity;
  let packed = batchOf(rl);
  for (let rep = 0; rep < 3; rep++) {
    t0 = now();
    packed = batchOf(rl);
    packSec = Math.min(packSec, (now() - t0) / 1000);
  }
  for (let i = 0; i < packed.count; i++) {
    let p = 1;
    for (let k = packed.start[i]!; k < packed.start[i + 1]!; k++) p *= packed.shapes[k]!;
    totalIdx += p;
  }
  // best of three (the machine is shared)
  let cSec = Infinity;
  for (let rep = 0; rep < 3; rep++) {
    t0 = now();
    out = cpu.bitmapCheckSync('compact', packed);
    cSec = Math.min(cSec, (now() - t0) / 1000);
  }
  const cRate = rl.length / cSec;
  const cRateAll = rl.length / (cSec + packSec);
  console.log(`  cpu engine on the packed candidates: ${fmt(cRate)}, ${(cRate / b2.rate).toFixed(1)}× the baseline; ${sum(out)} compact`);
  console.log(
    `  (packing given Layout objects first: ${fmt(cRateAll)}, ${(cRateAll / b2.rate).toFixed(1)}× — the walk of the nested tuples costs about what isCompact does)`,
  );
  rows.push(
    ['random 100k ≤ 4096', 'baseline isCompact', fmt(b2.rate)],
    ['random 100k ≤ 4096', 'cpu (packed)', `${fmt(cRate)}  ${(cRate / b2.rate).toFixed(1)}×`],
    ['random 100k ≤ 4096', 'cpu (+ packing Layouts)', `${fmt(cRateAll)}  ${(cRateAll / b2.rate).toFixed(1)}×`],
  );
  if (gpu) {
    t0 = now();
    const g = await gpu.bitmapCheck('compact', packed);
    const gSec = (now() - t0) / 1000;
    const gRate = rl.length / gSec;
    let differ = 0;
    for (let i = 0; i < g.length; i++) if (g[i] !== out[i]) differ++;
    console.log(
      `  gpu interpreter: ${fmt(gRate)} (${(totalIdx / gSec / 1e6).toFixed(1)} M indices/s over ${totalIdx} indices), ` +
        `${(gRate / b2.rate).toFixed(2)}× the baseline; ${differ === 0 ? 'verdicts agree with the cpu' : `${differ} verdicts DIFFER`}`,
    );
    rows.push(['random 100k ≤ 4096', 'gpu', `${fmt(gRate)}  ${(gRate / b2.rate).toFixed(2)}×`]);
  }

  console.log('\nsummary (candidates/s, × the isCompact loop):');
  for (const r of rows) console.log(`  ${r[0].padEnd(20)} ${r[1].padEnd(28)} ${r[2]}`);
  gpu?.dispose();
  release();
}

await main();
