/**
 * Generator of bench/corpus/descriptors.jsonl: the speed corpus of the descriptors (docs/descriptors.md), one batch
 * request per line — tma_desc of CUTLASS's smem atoms of every element type tiled to realistic CTA tiles (K- and
 * MN-major, multi-stage buffers, 2- to 4-mode global tensors, an explicit tiler now and then, one request in ten a
 * failing rule), and gmma_desc of their k-blocks on sm90 and sm100. Seeded and deterministic: the committed corpus is
 * what `npx tsx bench/gen-descriptors-corpus.ts` writes.
 * Run: npx tsx bench/gen-descriptors-corpus.ts [out.jsonl] [requests per op]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '../test/helpers/brute.js'; // the project's one seeded generator
import { SMEM_ATOMS, atomTiledTo } from '../src/descriptors/atoms.js';
import { DTYPES } from '../src/descriptors/dtype.js';
import { formatLayoutFunction } from '../src/cute/composed.js';
import { composeByMode } from '../src/cute/divide.js';
import { makeLayout } from '../src/algebra/layout.js';
import { mapInner } from '../src/cute/composed.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = process.argv[2] ?? join(root, 'bench', 'corpus', 'descriptors.jsonl');
const PER_OP = Number(process.argv[3] ?? 500);
const SEED = 0xde5c;

const rng = mulberry32(SEED);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;

const lines: string[] = [];
const add = (op: string, args: unknown[]): void => void lines.push(JSON.stringify({ op, args }));

for (let i = 0; i < PER_OP; i++) {
  const dt = pick(DTYPES);
  const atom = pick(SMEM_ATOMS);
  const w = atom.rowBits / (8 * dt.bytes);
  const [am, ak] = atom.major === 'K' ? [atom.rows, w] : [w, atom.rows];
  const tm = am * pick([1, 2, 4, 8, 16].filter((x) => am * x <= 256));
  const tk = ak * pick([1, 2, 4].filter((x) => ak * x <= 256));
  const stages = rng() < 0.25 ? pick([2, 3, 4]) : 0;
  const smem = formatLayoutFunction(atomTiledTo(atom, dt, stages > 0 ? [tm, tk, stages] : [tm, tk]));
  const bigM = tm * pick([2, 8, 32]);
  // one request in ten breaks a rule: a pitch that is no multiple of 16 bytes, or the other majorness
  const broken = rng() < 0.1;
  const bigK = tk * pick([2, 8, 32]) + (broken && atom.major === 'K' ? 1 : 0);
  const major = broken && atom.major === 'MN' ? 'K' : atom.major;
  const batch = stages > 0 ? stages : rng() < 0.3 ? pick([2, 8]) : 0;
  const s = major === 'K' ? [bigK, 1] : [1, bigM];
  const shape = batch > 0 ? [bigM, bigK, batch] : [bigM, bigK];
  const stride = batch > 0 ? [...s, bigM * bigK] : s;
  const o: Record<string, string> = { gmem: `(${shape.join(',')}):(${stride.join(',')})`, smem, dtype: dt.name };
  if (stages === 0 && batch > 0 && rng() < 0.5) o.tiler = `(${tm},${tk})`;
  add('tma_desc', [o]);
}

for (let i = 0; i < PER_OP; i++) {
  const dt = pick(DTYPES);
  const arch = rng() < 0.5 ? 'sm90' : 'sm100';
  const atom = pick(SMEM_ATOMS.filter((a) => a.namespace === 'GMMA' || arch === 'sm100'));
  const w = atom.rowBits / (8 * dt.bytes);
  const [am, ak] = atom.major === 'K' ? [atom.rows, w] : [w, atom.rows];
  // one k-block: 32 bytes of K (at least the atom's 8 rows MN-major, 4 for the 32-byte UMMA atom)
  const kb = atom.major === 'MN' ? Math.max(32 / dt.bytes, atom.rows) : 32 / dt.bytes;
  const mn = am * pick([1, 2, 4, 8].filter((x) => am * x <= 256));
  const tile = atomTiledTo(atom, dt, [mn, Math.max(ak, kb) * 2]);
  const block = mapInner(tile, (l) => composeByMode(l, [makeLayout(mn, 1), makeLayout(kb, 1)]));
  const o: Record<string, string> = { smem: formatLayoutFunction(block), dtype: dt.name, major: atom.major };
  if (arch === 'sm100' || rng() < 0.2) o.arch = arch;
  add('gmma_desc', [o]);
}

mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${lines.join('\n')}\n`);
console.log(`${lines.length} requests → ${out}`);
