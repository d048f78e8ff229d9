/**
 * Generator of bench/corpus/planner.jsonl: the speed corpus of plan_smem (docs/planner.md).
 * Seeded and deterministic: the committed corpus is what `npx tsx bench/gen-planner-corpus.ts` writes.
 *
 * Pairs as a conversion has them: two register LLs over a power-of-two tile (random bases of the
 * tile's bits, 5 lane bits, up to 3 warp bits, the rest registers, some bases sums of others), and
 * TV layouts of row-wise 16-byte writes against column reads; tiles 64×64 fp16 (the plans/s
 * figure), 32×128 fp8, 64×32 fp32 and one 128×128 fp16 (the full plan).
 *
 * Run: npx tsx bench/gen-planner-corpus.ts [out.jsonl] [pairs per tile]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '../src/verify/mulberry32.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = process.argv[2] ?? join(root, 'bench', 'corpus', 'planner.jsonl');
const PER_TILE = Number(process.argv[3] ?? 24);
const SEED = 0x91a2026;
const rng = mulberry32(SEED);

/** A register LL over the tile: a random basis of its bits in the canonical JSON form. */
function randomLL(shape: number[]): unknown {
  const bits = shape.map((n) => Math.log2(n));
  const total = bits.reduce((a, b) => a + b, 0);
  const v = Array.from({ length: total }, (_, i) => 1 << i);
  for (let i = v.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [v[i], v[j]] = [v[j]!, v[i]!];
  }
  for (let i = 1; i < v.length; i++) if (rng() < 0.15) v[i] = v[i]! ^ v[Math.floor(rng() * i)]!;
  const coords = (x: number): number[] => bits.map((b, d) => (x >> bits.slice(0, d).reduce((a, c) => a + c, 0)) & ((1 << b) - 1));
  const warps = Math.min(total - 5, Math.floor(rng() * 4));
  return {
    bases: [
      ['register', v.slice(5 + warps).map(coords)],
      ['lane', v.slice(0, 5).map(coords)],
      ['warp', v.slice(5, 5 + warps).map(coords)],
      ['block', []],
    ],
    outDims: shape.map((n, d) => [`dim${d}`, n]),
  };
}

/** Row-wise 16-byte writes of an (m, n) tile of e-byte elements by 128 threads: TV over the column-major tile index. */
function rowWrite(m: number, n: number, e: number): string {
  const v = 16 / e;
  const perRow = n / v;
  return `((${perRow},${128 / perRow}),(${v},${(m * perRow) / 128})):((${m * v},1),(${m},${128 / perRow}))`;
}

const tiles: { shape: number[]; dtype: string; e: number; count: number }[] = [
  { shape: [64, 64], dtype: 'half_t', e: 2, count: PER_TILE },
  { shape: [32, 128], dtype: 'float_e4m3_t', e: 1, count: Math.ceil(PER_TILE / 3) },
  { shape: [64, 32], dtype: 'float', e: 4, count: Math.ceil(PER_TILE / 3) },
  { shape: [128, 128], dtype: 'half_t', e: 2, count: 1 },
];
const lines: string[] = [];
for (const t of tiles) {
  const tile = `(${t.shape.join(',')})`;
  for (let i = 0; i < t.count; i++) {
    const ll = rng() < 0.75;
    const write = ll ? { ll: randomLL(t.shape) } : rowWrite(t.shape[0]!, t.shape[1]!, t.e);
    const read = ll ? { ll: randomLL(t.shape) } : { ll: randomLL(t.shape) };
    lines.push(JSON.stringify({ id: `${tile}-${t.dtype}-${i}`, op: 'plan_smem', args: [{ tile, dtype: t.dtype, write, read }] }));
  }
}
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${lines.join('\n')}\n`);
console.log(`${lines.length} requests → ${out}`);
