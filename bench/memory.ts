/**
 * Memory-system throughput (issue 12, "Speed"): bank_conflicts of a 128×64 fp16 tile, 128
 * threads, 128-bit vectors (target ≥ 10,000 analyses/s on the CPU), and the swizzle search
 * over every Sw<B,M,S> o base with two access patterns, against a loop calling bank_conflicts
 * once per candidate (target ≥ 10×), on each backend available.
 * Run: npx tsx bench/memory.ts [--gpu]
 */
import { parseLayout } from '../src/algebra/notation.js';
import { parseLayoutFunction } from '../src/cute/composed.js';
import { bankConflicts } from '../src/memory/banks.js';

const M = parseLayoutFunction('Sw<3,3,3> o (128,64):(64,1)');
// 128-bit row-wise write: thread t writes row t/8 + 16p, columns 8(t%8) … +7
const WRITE = parseLayout('((8,16),(8,8)):((1024,1),(128,16))');
// ldmatrix-style read: 8 threads per phase read 8 consecutive rows at one 16-byte column block
const READ = parseLayout('((8,4,4),(8,2,4)):((1,1024,8),(128,4096,32))');

/** Calls per second of f, by wall clock and by this process's CPU time (the second is the
 *  fairer figure on a loaded machine: it does not count the time other processes ran). */
function rate(label: string, f: () => unknown, minMs = 1500, reps = 50): number {
  for (let i = 0; i < reps; i++) f(); // warm-up
  let n = 0;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  let t = t0;
  while (t - t0 < minMs) {
    for (let i = 0; i < reps; i++) f();
    n += reps;
    t = performance.now();
  }
  const c = process.cpuUsage(c0);
  const r = (n * 1000) / (t - t0);
  const rc = (n * 1e6) / (c.user + c.system);
  console.log(`${label.padEnd(64)} ${r.toFixed(0).padStart(10)} /s wall  ${rc.toFixed(0).padStart(10)} /s CPU time`);
  return rc;
}

console.log('bank_conflicts (CPU, single thread; figures depressed by other load on a shared machine)');
rate('128×64 fp16, Sw<3,3,3>, 128 threads, 128-bit row-wise write', () => bankConflicts(M, WRITE, 2));
rate('128×64 fp16, Sw<3,3,3>, 128 threads, ldmatrix-style read', () => bankConflicts(M, READ, 2));

const search = await import('../src/memory/search.js');
{
  const base = parseLayout('(128,64):(64,1)');
  const cands = search.swizzleCandidates(base);
  const patterns = [
    { tv: WRITE, e: 2 },
    { tv: READ, e: 2 },
  ];
  console.log(`\nswizzle search: ${cands.length} candidates Sw<B,M,S> o (128,64):(64,1), two access patterns`);
  const loop = (): void => {
    for (const c of cands) for (const p of patterns) bankConflicts(c, p.tv, p.e);
  };
  const loopRate = rate('loop: bank_conflicts per candidate and pattern (passes/s)', loop, 3000, 1) * cands.length;
  console.log(`${'  = candidates/s of the loop'.padEnd(64)} ${loopRate.toFixed(0).padStart(10)}`);
  const cpuRate = rate('search, CPU backend (passes/s)', () => search.searchCpu(cands, patterns), 3000, 1) * cands.length;
  console.log(`${'  = candidates/s on the CPU'.padEnd(64)} ${cpuRate.toFixed(0).padStart(10)}  (${(cpuRate / loopRate).toFixed(1)}× the loop)`);
  if (process.argv.includes('--gpu')) {
    {
      const { acquireNodeDevice } = await import('../src/engine/node/device-node.js');
      const d = await acquireNodeDevice();
      console.log(`GPU: ${d.adapter.description ?? ''} ${d.adapter.software ? '(software adapter)' : ''}`);
      const { GpuConflictSearch } = await import('../src/engine/conflicts-gpu.js');
      const gpu = new GpuConflictSearch(d.device);
      await gpu.search(cands, patterns);
      const t0 = performance.now();
      let n = 0;
      while (performance.now() - t0 < 3000) {
        await gpu.search(cands, patterns);
        n++;
      }
      const gpuRate = (n * cands.length * 1000) / (performance.now() - t0);
      console.log(
        `${'  = candidates/s on the GPU (wall clock, whole search incl. transfers)'.padEnd(64)} ${gpuRate.toFixed(0).padStart(10)}  (${(gpuRate / loopRate).toFixed(1)}× the loop)`,
      );
      d.release();
    }
  }
}
