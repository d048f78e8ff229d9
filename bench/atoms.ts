/**
 * Atom lookups (issue 20, "Speed"): `mma_atom` and `copy_atom` (target ≥ 1M lookups/s, single thread), over a seeded
 * corpus of names (and value sizes for the copy atoms) drawn from the whole table: the library (mmaAtom, copyAtom) and
 * the ops' results as batch returns them (runOpDirect).
 * Run: npx tsx bench/atoms.ts [--count N]
 */
import { copyAtom, mmaAtom } from '../src/atoms/atom.js';
import { copyAtomNames, mmaAtomNames } from '../src/atoms/registry.js';
import { runOpDirect, type OpContext } from '../src/ops.js';

const count = Number(process.argv[process.argv.indexOf('--count') + 1] ?? 0) || 1_000_000;

/** mulberry32: the corpus is the same on every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const r = rng(20);
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

console.log(`atom lookups, ${count} each (single thread; target ≥ 1,000,000/s)`);
rate('mmaAtom(name)', (i) => mmaAtom(mmaCorpus[i & 4095]!));
rate('copyAtom(name, bits)', (i) => copyAtom(...copyCorpus[i & 4095]!));
rate('op mma_atom [name]', (i) => runOpDirect('mma_atom', [mmaCorpus[i & 4095]!], ctx));
rate('op copy_atom [name, bits]', (i) => {
  const [name, bits] = copyCorpus[i & 4095]!;
  return runOpDirect('copy_atom', bits === undefined ? [name] : [name, bits], ctx);
});
