/**
 * Atom lookups (issue 20, "Speed"): `mma_atom` and `copy_atom` (target ≥ 1M lookups/s, single thread), over a seeded
 * corpus of names (and value sizes for the copy atoms) drawn from the whole table: the library (mmaAtom, copyAtom) and
 * the ops' results as batch returns them (runOpDirect).
 * Then the tiled atoms over bench/corpus/atoms.jsonl (see the section below).
 * Run: npx tsx bench/atoms.ts [--count N] [--seconds S]
 */
import { copyAtom, mmaAtom } from '../src/atoms/atom.js';
import { copyAtomNames, mmaAtomNames } from '../src/atoms/registry.js';
import { loadAllOps, runOpDirect, type OpContext } from '../src/ops/table.js';
import { mulberry32 } from '../test/helpers/brute.js';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Layout } from '../src/algebra/layout.js';
import { parseLayout } from '../src/algebra/notation.js';
import { parseLayoutFunction } from '../src/cute/composed.js';
import { parseTiler, type Tiler } from '../src/cute/tiler.js';
import { parseSliceCoord } from '../src/cute/slice.js';
import { makeTiledMma, type Operand } from '../src/atoms/tiled-mma.js';
import { makeTiledCopy, makeTiledCopyFromMma, type TiledCopy } from '../src/atoms/tiled-copy.js';
import { localPartition, localTile, partitionCopy, partitionMma } from '../src/atoms/partition.js';
import { copyBankConflicts } from '../src/atoms/conflicts.js';

const count = Number(process.argv[process.argv.indexOf('--count') + 1] ?? 0) || 1_000_000;

const r = mulberry32(20); // the project's one seeded generator: the corpus is the same on every run
const mmaNames = mmaAtomNames();
const copyNames = copyAtomNames();
const mmaCorpus = Array.from({ length: 4096 }, () => mmaNames[Math.floor(r() * mmaNames.length)]!);
/** copy atoms in bits or at 8-bit values (a value size every atom of the table takes). */
const copyCorpus: Array<[string, number | undefined]> = Array.from({ length: 4096 }, () => {
  const name = copyNames[Math.floor(r() * copyNames.length)]!;
  const bits = [undefined, 8][Math.floor(r() * 2)];
  return [name, bits];
});
const ctx: OpContext = {
  backendChoice: 'cpu',
  backend: async () => {
    throw new Error('no backend needed');
  },
};

function rate(label: string, f: (i: number) => unknown): void {
  for (let i = 0; i < 10_000; i++) f(i); // warm-up (fills the caches)
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < count; i++) f(i);
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  const perWall = (count * 1000) / wall;
  const perCpu = (count * 1e6) / (c.user + c.system);
  console.log(`${label.padEnd(44)} ${perWall.toFixed(0).padStart(10)} /s wall  ${perCpu.toFixed(0).padStart(10)} /s CPU time`);
}

await loadAllOps(); // the ops' rooms load on first use (src/ops/lazy.ts): loaded before the timing
console.log(`atom lookups, ${count} each (single thread; target ≥ 1,000,000/s)`);
rate('mmaAtom(name)', (i) => mmaAtom(mmaCorpus[i & 4095]!));
rate('copyAtom(name, bits)', (i) => copyAtom(...copyCorpus[i & 4095]!));
rate('op mma_atom [name]', (i) => runOpDirect('mma_atom', [mmaCorpus[i & 4095]!], ctx));
rate('op copy_atom [name, bits]', (i) => {
  const [name, bits] = copyCorpus[i & 4095]!;
  return runOpDirect('copy_atom', bits === undefined ? [name] : [name, bits], ctx);
});

// ---------------------------------------------------------------------------------------------
// Tiled MMAs and copies, partitions, conflicts by name (issue 20, "Speed"): the requests of
// bench/corpus/atoms.jsonl (bench/gen-atoms-corpus.ts), arguments parsed once, each op timed alone
// through the library, single thread (no result cache: make_tiled_mma/make_tiled_copy build every
// time; the partitions get their tiled MMA or copy built beforehand, as a kernel's would be).
// Targets: make_tiled_mma, make_tiled_copy ≥ 50k/s; partition_*, local_tile, local_partition
// ≥ 200k/s; copy_bank_conflicts of a 128×64 fp16 tile by a 128-thread tiled copy ≥ 10k/s.
// --seconds S: the time per op (default 1).

const seconds = Number(process.argv[process.argv.indexOf('--seconds') + 1] ?? 0) || 1;
const corpusFile = join(dirname(fileURLToPath(import.meta.url)), 'corpus', 'atoms.jsonl');
const tiledRequests = readFileSync(corpusFile, 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { op: string; args: unknown[] });

/** Requests per second of f over the jobs, for about `seconds` (after a warm-up pass). */
function rateOf(label: string, jobs: readonly (() => unknown)[], target: number): void {
  if (jobs.length === 0) return;
  for (const j of jobs) j();
  let n = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  while (performance.now() - t0 < seconds * 1000) for (const j of jobs) j(), n++;
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  const perWall = (n * 1000) / wall;
  const perCpu = (n * 1e6) / (c.user + c.system);
  console.log(`${label.padEnd(44)} ${perWall.toFixed(0).padStart(10)} /s wall  ${perCpu.toFixed(0).padStart(10)} /s CPU time  (target ${target}/s)`);
}

const mmaParts = (o: Record<string, string>): [string, Layout | undefined, Tiler | undefined] => [
  o.atom!,
  o.layout === undefined ? undefined : parseLayout(o.layout),
  o.permutation === undefined ? undefined : parseTiler(o.permutation),
];
const copyBuilder = (o: Record<string, unknown>): (() => TiledCopy) => {
  if (o.mma !== undefined) {
    const m = makeTiledMma(...mmaParts(o.mma as Record<string, string>));
    return () => makeTiledCopyFromMma({ atom: o.atom as string, bits: o.bits as number, mma: m, operand: o.operand as Operand });
  }
  const thr = parseLayout(o.thr as string);
  const val = o.val === undefined ? undefined : parseLayout(o.val as string);
  return () => makeTiledCopy({ atom: o.atom as string, bits: o.bits as number, thr, ...(val ? { val } : {}) });
};
const byOp = (op: string): { op: string; args: unknown[] }[] => tiledRequests.filter((r) => r.op === op);

console.log(`\ntiled atoms over ${corpusFile} (single thread, ${seconds} s per op)`);
rateOf(
  'makeTiledMma',
  byOp('make_tiled_mma').map((r) => {
    const a = mmaParts(r.args[0] as Record<string, string>);
    return () => makeTiledMma(...a);
  }),
  50_000,
);
rateOf(
  'makeTiledCopy / makeTiledCopyFromMma',
  byOp('make_tiled_copy').map((r) => copyBuilder(r.args[0] as Record<string, unknown>)),
  50_000,
);
rateOf(
  'partition_a/b/c',
  tiledRequests
    .filter((r) => /^partition_[abc]$/.test(r.op))
    .map((r) => {
      const m = makeTiledMma(...mmaParts(r.args[0] as Record<string, string>));
      const t = parseLayoutFunction(r.args[2] as string);
      const x = r.op.slice(-1).toUpperCase() as Operand;
      return () => partitionMma(m, x, r.args[1] as number, t);
    }),
  200_000,
);
rateOf(
  'partition_s/d',
  tiledRequests
    .filter((r) => /^partition_[sd]$/.test(r.op))
    .map((r) => {
      const c = copyBuilder(r.args[0] as Record<string, unknown>)();
      const t = parseLayoutFunction(r.args[2] as string);
      const s = r.op.slice(-1).toUpperCase() as 'S' | 'D';
      return () => partitionCopy(c, s, r.args[1] as number, t);
    }),
  200_000,
);
rateOf(
  'local_tile',
  byOp('local_tile').map((r) => {
    const t = parseLayoutFunction(r.args[0] as string);
    const tiler = parseTiler(r.args[1] as string);
    const c = parseSliceCoord(r.args[2] as string);
    return () => localTile(t, tiler, c);
  }),
  200_000,
);
rateOf(
  'local_partition',
  byOp('local_partition').map((r) => {
    const t = parseLayoutFunction(r.args[0] as string);
    const thr = parseLayout(r.args[1] as string);
    return () => localPartition(t, thr, r.args[2] as number);
  }),
  200_000,
);
const conflictJobs = byOp('copy_bank_conflicts').map((r) => {
  const o = r.args[0] as Record<string, unknown>;
  const c = copyBuilder(o)();
  const m = parseLayoutFunction(r.args[1] as string);
  return { atom: o.atom as string, job: () => copyBankConflicts(c, m) };
});
rateOf(
  'copy_bank_conflicts (128×64 fp16, 128 threads)',
  conflictJobs.map((j) => j.job),
  10_000,
);
// the same by copy atom: ldmatrix .x2 reads each row 4 times over (16 live lanes, warps along N repeating)
for (const atom of [...new Set(conflictJobs.map((j) => j.atom))]) {
  rateOf(
    `  of which ${atom}`,
    conflictJobs.filter((j) => j.atom === atom).map((j) => j.job),
    10_000,
  );
}
rateOf(
  'op make_tiled_mma (batch path, cached by argument)',
  byOp('make_tiled_mma').map((r) => () => runOpDirect('make_tiled_mma', r.args, ctx)),
  50_000,
);
