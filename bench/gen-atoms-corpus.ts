/**
 * Generator of bench/corpus/atoms.jsonl: the speed corpus of the tiled atoms (docs/atoms.md), one batch request
 * per line — make_tiled_mma, make_tiled_copy, partition_a/b/c, partition_s/d, local_tile, local_partition and
 * copy_bank_conflicts of a 128×64 fp16 tile by 128-thread tiled copies. Seeded and deterministic: the committed
 * corpus is what `npx tsx bench/gen-atoms-corpus.ts` writes.
 * Run: npx tsx bench/gen-atoms-corpus.ts [out.jsonl] [requests per op]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '../test/helpers/brute.js'; // the project's one seeded generator

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = process.argv[2] ?? join(root, 'bench', 'corpus', 'atoms.jsonl');
const PER_OP = Number(process.argv[3] ?? 200);
const SEED = 0xa70a5;

const rng = mulberry32(SEED);
const int = (lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;

/** Atoms kernels use, with their (M, N, K). */
const MMAS: [string, number, number, number][] = [
  ['SM80_16x8x16_F32F16F16F32_TN', 16, 8, 16],
  ['SM80_16x8x8_F32F16F16F32_TN', 16, 8, 8],
  ['SM80_16x8x16_F32BF16BF16F32_TN', 16, 8, 16],
  ['SM80_16x8x8_F32TF32TF32F32_TN', 16, 8, 8],
  ['SM80_8x8x4_F64F64F64F64_TN', 8, 8, 4],
  ['SM80_16x8x32_S32S8S8S32_TN', 16, 8, 32],
  ['SM75_16x8x8_F32F16F16F32_TN', 16, 8, 8],
  ['SM70_8x8x4_F32F16F16F32_NT', 8, 8, 4],
  ['SM89_16x8x32_F32E4M3E4M3F32_TN', 16, 8, 32],
  ['SM90_64x64x16_F32F16F16_SS', 64, 64, 16],
  ['UniversalFMA', 1, 1, 1],
];
const LAYOUTS = ['1', '(2,2,1)', '(2,1,1)', '(1,2,1)', '(4,1,1)', '(2,2,1):(2,1,0)', '(2,2,2)', '(4,2,1)'];

function tiledMma(): { obj: Record<string, string>; tile: [number, number, number] } {
  const [atom, M, N, K] = pick(MMAS);
  const layout = atom === 'UniversalFMA' ? pick(['(16,16,1)', '(8,16,1)', '(32,8,1)']) : pick(LAYOUTS);
  const sizes = layout.replace(/:.*/, '').replace(/[()]/g, '').split(',').map(Number);
  while (sizes.length < 3) sizes.push(1);
  const tile: [number, number, number] = [M * sizes[0]!, N * sizes[1]!, K * sizes[2]!];
  const obj: Record<string, string> = { atom, layout };
  if (rng() < 0.5) {
    tile[1] *= 2;
    obj.permutation = `(${tile.join(',')})`;
  }
  return { obj, tile };
}

const lines: string[] = [];
const add = (op: string, args: unknown[]): void => void lines.push(JSON.stringify({ op, args }));

for (let i = 0; i < PER_OP; i++) add('make_tiled_mma', [tiledMma().obj]);

const CP128 = 'SM80_CP_ASYNC_CACHEALWAYS<uint128_t>';
function tiledCopy(): { obj: Record<string, unknown>; tile: number[] } {
  if (rng() < 0.5) {
    const rows = pick([8, 16, 32]);
    const atom = pick([CP128, 'UniversalCopy<uint128_t>']);
    return { obj: { atom, bits: 16, thr: `(${rows},${128 / rows}):(${128 / rows},1)`, val: '(1,8)' }, tile: [rows, (128 / rows) * 8] };
  }
  const mma = { atom: 'SM80_16x8x16_F32F16F16F32_TN', layout: '(2,2,1)', permutation: '(32,32,16)' };
  const [atom, operand, tile] = pick([
    ['SM75_U32x4_LDSM_N', 'A', [32, 16]],
    ['SM75_U32x2_LDSM_N', 'B', [32, 16]],
    ['SM75_U16x8_LDSM_T', 'B', [32, 16]],
    ['SM90_U32x4_STSM_N', 'C', [32, 32]],
  ] as const);
  return { obj: { atom, bits: 16, mma, operand }, tile: [...tile] };
}

for (let i = 0; i < PER_OP; i++) add('make_tiled_copy', [tiledCopy().obj]);

const tensor = (rows: number, cols: number): string => {
  const plain = rng() < 0.5 ? `(${rows},${cols}):(${cols},1)` : `(${rows},${cols}):(1,${rows})`;
  return rng() < 0.3 ? `Sw<3,3,3> o ${plain}` : plain;
};

for (let i = 0; i < PER_OP; i++) {
  const { obj, tile } = tiledMma();
  const x = pick(['a', 'b', 'c'] as const);
  const [I, J] = x === 'a' ? [0, 2] : x === 'b' ? [1, 2] : [0, 1];
  add(`partition_${x}`, [obj, int(0, 31), tensor(tile[I]! * int(1, 4), tile[J]! * int(1, 4))]);
}
for (let i = 0; i < PER_OP; i++) {
  const { obj, tile } = tiledCopy();
  add(`partition_${pick(['s', 'd'])}`, [obj, int(0, 127), tensor(tile[0]! * int(1, 4), tile[1]! * int(1, 4))]);
}
for (let i = 0; i < PER_OP; i++) {
  const rows = pick([64, 128, 256]);
  const cols = pick([32, 64, 128]);
  const tr = pick([16, 32, 64]);
  const tc = pick([16, 32]);
  add('local_tile', [tensor(rows, cols), `(${tr},${tc})`, `(${int(0, rows / tr - 1)},${rng() < 0.5 ? '_' : int(0, cols / tc - 1)})`]);
}
for (let i = 0; i < PER_OP; i++) {
  const rows = pick([32, 64, 128]);
  const cols = pick([32, 64]);
  const thr = pick(['(8,4)', '(4,8):(8,1)', '(16,8)', '(32,4):(4,1)']);
  const n = thr
    .replace(/:.*/, '')
    .replace(/[()]/g, '')
    .split(',')
    .map(Number)
    .reduce((a, b) => a * b, 1);
  add('local_partition', [tensor(rows, cols), thr, int(0, n - 1)]);
}
for (let i = 0; i < PER_OP; i++) {
  const mma = { atom: 'SM80_16x8x16_F32F16F16F32_TN', layout: '(2,2,1)', permutation: '(32,32,16)' };
  const copy =
    rng() < 0.5
      ? { atom: CP128, bits: 16, thr: pick(['(16,8):(8,1)', '(32,4):(4,1)']), val: '(1,8)' }
      : { atom: pick(['SM75_U32x4_LDSM_N', 'SM75_U32x2_LDSM_N']), bits: 16, mma, operand: 'A' };
  add('copy_bank_conflicts', [copy, pick(['(128,64):(64,1)', 'Sw<3,3,3> o (128,64):(64,1)', 'Sw<2,3,3> o (128,64):(64,1)'])]);
}

mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, lines.join('\n') + '\n');
console.log(`wrote ${lines.length} requests to ${out}`);
