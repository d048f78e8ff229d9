/**
 * The seeded set of plan_smem requests that the bulk paths are held to (test/planner/bulk.test.ts: slices and worker
 * threads; test/planner/gpu.test.ts: plan.wgsl): random F2-linear pairs over power-of-two tiles on every machine, TV
 * layouts over tiles that are not powers of two, a tile whose two mode orders give one base (duplicates across
 * slices), the MMA operand read by ldmatrix, tiled copies (ldmatrix.x1: repeated rows, a live mask; stmatrix), the
 * descriptor sides (tma, wgmma), AMD's lane tables.
 */
import { mulberry32 } from '../helpers/brute.js';

const DTYPE: Record<number, string> = { 1: 'uint8_t', 2: 'half_t', 4: 'float' };
const MMA = { atom: 'SM80_16x8x16_F16F16F16F16_TN', layout: '(2,2,1)' };
/** 128 threads, 16-byte rows of a (32,64) fp16 tile */
const ROWS = '((8,16),(8,2)):((256,1),(32,16))';
/** 128 threads, 16-byte rows of a (64,64) fp16 tile */
const ROWS64 = '((8,16),(8,4)):((512,1),(64,16))';

/** A random register LL over a power-of-two tile: a random basis of its bits (a few sums), 32 lanes, a warp bit or none. */
function randomLL(rng: () => number, shape: number[]): unknown {
  const bits = shape.map((n) => Math.log2(n));
  const total = bits.reduce((a, b) => a + b, 0);
  const units = Array.from({ length: total }, (_, i) => 1 << i);
  for (let i = units.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [units[i], units[j]] = [units[j]!, units[i]!];
  }
  for (let i = 1; i < units.length; i++) if (rng() < 0.2) units[i] = units[i]! ^ units[Math.floor(rng() * i)]!;
  const coords = (x: number): number[] => bits.map((b, d) => (x >> bits.slice(0, d).reduce((a, c) => a + c, 0)) & ((1 << b) - 1));
  const warps = Math.min(total - 5, Math.floor(rng() * 2));
  return {
    bases: [
      ['register', units.slice(5 + warps).map(coords)],
      ['lane', units.slice(0, 5).map(coords)],
      ['warp', units.slice(5, 5 + warps).map(coords)],
      ['block', []],
    ],
    outDims: shape.map((n, d) => [`dim${d}`, n]),
  };
}

/** The requests (each with top 100000: the whole front), `random` of them random LL pairs from `seed`. */
export function bulkCases(seed: number, random: number): { name: string; request: Record<string, unknown> }[] {
  const rng = mulberry32(seed);
  const shapes = [
    [16, 16],
    [8, 32],
    [4, 4, 16],
    [32, 8],
  ];
  const archs = ['sm80', 'sm90', 'sm100', 'gfx942', 'gfx950'];
  const out: { name: string; request: Record<string, unknown> }[] = [];
  for (let i = 0; i < random; i++) {
    const shape = shapes[Math.floor(rng() * shapes.length)]!;
    const e = [1, 2, 4][Math.floor(rng() * 3)]!;
    const arch = archs[Math.floor(rng() * archs.length)]!;
    const tile = `(${shape.join(',')})`;
    const request = { tile, dtype: DTYPE[e], arch, write: { ll: randomLL(rng, shape) }, read: { ll: randomLL(rng, shape) }, top: 100000 };
    out.push({ name: `random LL pair ${i}: ${tile} ${DTYPE[e]} ${arch}`, request });
  }
  const tv: [number[], number, string, string, string][] = [
    [[12, 8], 2, '(32,3):(3,1)', '(8,12):(12,1)', 'sm90'],
    [[12, 8], 4, '(32,3):(1,32)', '(16,6):(6,1)', 'gfx942'],
    [[6, 16], 1, '(48,2):(2,1)', '(32,3):(1,32)', 'sm80'],
    [[4, 6, 4], 4, '(32,3):(1,32)', '(24,4):(4,1)', 'gfx950'],
    [[1, 64], 2, '(32,2):(2,1)', '(32,2):(1,32)', 'sm90'],
  ];
  for (const [shape, e, write, read, arch] of tv) {
    out.push({
      name: `TV ${write} → ${read} over (${shape}) ${arch}`,
      request: { tile: `(${shape.join(',')})`, dtype: DTYPE[e], write, read, arch, top: 100000 },
    });
  }
  const half = (name: string, r: Record<string, unknown>): void => void out.push({ name, request: { dtype: 'half_t', top: 100000, ...r } });
  half('the MMA operand A read by ldmatrix.x4 or ld.shared', {
    tile: '(16,16)',
    write: '((16,2),8):((1,128),16)',
    read: { mma: { atom: MMA.atom }, operand: 'A' },
  });
  half('an ldmatrix.x1 copy (repeated rows: a live mask)', {
    tile: '(32,64)',
    write: ROWS,
    read: { atom: 'SM75_U32x1_LDSM_N', bits: 16, mma: MMA, operand: 'A' },
  });
  half('an ldmatrix.x4 copy', { tile: '(32,64)', write: ROWS, read: { atom: 'SM75_U32x4_LDSM_N', bits: 16, mma: MMA, operand: 'A' } });
  half('a stmatrix.x4 copy on sm90', { tile: '(32,64)', write: { atom: 'SM90_U32x4_STSM_N', bits: 16, mma: MMA, operand: 'A' }, read: ROWS, arch: 'sm90' });
  half('tma writes, 16-byte rows read', { tile: '(64,64)', write: 'tma', read: ROWS64 });
  half('16-byte rows written, wgmma K reads', { tile: '(64,64)', write: ROWS64, read: { wgmma: 'K' } });
  return out;
}

/** A plan's outcome as text: the result's JSON, or the error's kind and message (the bulk paths fail as planSmem does). */
export async function outcome(f: () => unknown): Promise<string> {
  try {
    return JSON.stringify(await f());
  } catch (e) {
    const x = e as { kind?: string; message?: string };
    if (typeof x.kind !== 'string') throw e;
    return JSON.stringify({ error: x.kind, message: x.message });
  }
}
