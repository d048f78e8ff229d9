/**
 * tma_desc (docs/descriptors.md §2) against brute force: for random valid (gmem, smem) pairs — CUTLASS's smem atoms of every element
 * type tiled to realistic tiles, K- and MN-major, over 2- and 3-mode tensors, and padded plain tiles — every tile element's
 * box (boxes.ts) is checked by Φ: the box is a contiguous run of smem offsets, the global element the box map names is the
 * one Φ_G gives at the element's tile coordinate, and it is the one the descriptor's globalStrides and boxDim address.
 * And the steps of §12.2 one by one (coalesce_256, the remaining modes, the fifth mode's fold, the gcd recurrence).
 */
import { describe, expect, it } from 'vitest';
import { parseLayout } from '../../src/algebra/notation.js';
import { phi } from '../../src/algebra/layout.js';
import { formatLayoutFunction, innerLayout, type LayoutFunction } from '../../src/cute/composed.js';
import { SMEM_ATOMS, atomTiledTo } from '../../src/descriptors/atoms.js';
import { tmaBoxMap } from '../../src/descriptors/boxes.js';
import { DTYPES, dtypeOf, type DType } from '../../src/descriptors/dtype.js';
import { coalesce256, gmemShapeStride, remainingDims, tmaDescriptor } from '../../src/descriptors/tma.js';
import { tmaDesc } from '../../src/descriptors/api.js';
import { coalesceBasis, composeBasis } from '../../src/descriptors/basis.js';
import { parseLayoutFunction } from '../../src/cute/composed.js';
import { parseTiler } from '../../src/cute/tiler.js';
import { seededRuns } from '../helpers/seeds.js';

interface Case {
  gmem: string;
  smem: LayoutFunction;
  dtype: DType;
  /** G's top-level mode strides, flat modes: the tile coordinate (m, k[, l]) → Σ c_i·d_i */
  g: { shape: number[]; stride: number[] };
  /** the default tiler's tile (flat G modes), for the brute-force Φ_G; undefined: that check is skipped */
  tile?: number[] | undefined;
  tiler?: string | undefined;
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

/** A random valid case: an atom tiled to (M, K[, stages]) over a G whose contiguous mode is the atom's. */
function randomCase(r: () => number): Case {
  const dtype = pick(r, DTYPES);
  const atom = pick(r, SMEM_ATOMS);
  const w = atom.rowBits / (8 * dtype.bytes);
  const [am, ak] = atom.major === 'K' ? [atom.rows, w] : [w, atom.rows];
  const tm =
    am *
    pick(
      r,
      [1, 2, 4, 8, 16].filter((x) => am * x <= 256),
    );
  const tk =
    ak *
    pick(
      r,
      [1, 2, 4].filter((x) => ak * x <= 256),
    );
  const stages = r() < 0.25 ? pick(r, [2, 3, 4]) : 0;
  const tile = stages > 0 ? [tm, tk, stages] : [tm, tk];
  const smem = atomTiledTo(atom, dtype, tile);
  // the contiguous mode of G longer than the tile's (else coalesce_256 merges it with the next mode, as CuTe does:
  // then a swizzled box can outgrow its span, a case of its own below)
  const bigM = tm * pick(r, atom.major === 'MN' ? [2, 8, 32] : [1, 2, 8, 32]);
  const bigK = tk * pick(r, atom.major === 'K' ? [2, 8, 32] : [1, 2, 8, 32]);
  const batch = stages > 0 ? stages * pick(r, [1, 2]) : r() < 0.3 ? pick(r, [2, 5]) : 0;
  const s = atom.major === 'K' ? [bigK, 1] : [1, bigM];
  const shape = batch > 0 ? [bigM, bigK, batch] : [bigM, bigK];
  const stride = batch > 0 ? [...s, bigM * bigK] : s;
  return { gmem: `(${shape.join(',')}):(${stride.join(',')})`, smem, dtype, g: { shape, stride }, tile };
}

/** A padded plain K-major tile (m, k):(k + pad, 1) over a row-major G. */
function paddedCase(r: () => number): Case {
  const dtype = pick(
    r,
    DTYPES.filter((d) => d.bytes <= 4),
  );
  const k = (16 / dtype.bytes) * pick(r, [1, 2, 4]);
  const m = pick(r, [4, 8, 16, 64]);
  const pad = pick(r, [0, 16 / dtype.bytes, 8]);
  const smem = parseLayout(`(${m},${k}):(${k + pad},1)`);
  const bigK = k * 8;
  return { gmem: `(${m * 4},${bigK}):(${bigK},1)`, smem, dtype, g: { shape: [m * 4, bigK], stride: [bigK, 1] }, tile: [m, k] };
}

/** Φ_G at the tile coordinate of tile index y (the default tiler: the first tile[i] elements of each mode). */
function bruteGmem(c: Case, y: number): number {
  let rest = y;
  let g = 0;
  c.tile!.forEach((t, i) => {
    const ci = rest % t;
    rest = (rest - ci) / t;
    g += ci * c.g.stride[i]!;
  });
  return g;
}

/** The first element whose box disagrees with Φ, or null (expect() per element would cost seconds). */
function firstMismatch(c: Case): string | null {
  const map = tmaBoxMap({ gmem: parseLayout(c.gmem), smem: c.smem, dtype: c.dtype, tiler: c.tiler === undefined ? undefined : parseTiler(c.tiler) });
  const { desc } = map;
  const inner = innerLayout(c.smem);
  const n = map.boxOf.length;
  if (desc.boxes * map.boxElements !== n) return `boxes ${desc.boxes} × ${map.boxElements} ≠ ${n}`;
  const strides = [1, ...desc.globalStrides.map((b) => b / c.dtype.bytes)];
  const baseSmem = new Float64Array(desc.boxes).fill(-1);
  const baseGmem = new Float64Array(desc.boxes);
  const count = new Int32Array(desc.boxes);
  for (let y = 0; y < n; y++) {
    if (map.inBox[y] !== 0) continue;
    baseSmem[map.boxOf[y]!] = phi(inner, y);
    baseGmem[map.boxOf[y]!] = map.gmemOffset[y]!;
  }
  for (let y = 0; y < n; y++) {
    const b = map.boxOf[y]!;
    const t = map.inBox[y]!;
    if (b < 0 || b >= desc.boxes) return `y = ${y}: box ${b}`;
    count[b]!++;
    // the box is one run of smem offsets, filled innermost dimension first
    if (phi(inner, y) - t !== baseSmem[b]) return `y = ${y}: smem offset ${phi(inner, y)} is not ${baseSmem[b]} + ${t} (box ${b})`;
    // the global element: Φ_G at the tile coordinate, and the one the descriptor's strides address
    if (c.tile !== undefined && map.gmemOffset[y] !== bruteGmem(c, y)) return `y = ${y}: global offset ${map.gmemOffset[y]}, Φ_G says ${bruteGmem(c, y)}`;
    let rest = t;
    let g = baseGmem[b]!;
    desc.boxDim.forEach((bd, i) => {
      const ci = rest % bd;
      rest = (rest - ci) / bd;
      g += ci * strides[i]!;
    });
    if (map.gmemOffset[y] !== g) return `y = ${y}: global offset ${map.gmemOffset[y]}, the descriptor addresses ${g}`;
  }
  if (!count.every((k) => k === map.boxElements)) return 'a box without boxElements elements';
  return null;
}

function checkByPhi(c: Case): void {
  expect(firstMismatch(c), `${c.gmem} ${formatLayoutFunction(c.smem)} ${c.dtype.name}`).toBeNull();
}

describe('tma_desc by Φ: every box element maps to the right global element', () => {
  it('CUTLASS atoms of every element type tiled to realistic tiles, over 2- and 3-mode tensors (seeded)', () => {
    seededRuns(20261202)(120, (r) => checkByPhi(randomCase(r)));
  });
  it('padded plain tiles: one box per contiguous run (seeded)', () => {
    seededRuns(7)(40, (r) => checkByPhi(paddedCase(r)));
  });
  it("the worked padded tile: 64 boxes of one 32-element row, row r's box is r", () => {
    const c = {
      gmem: '(4096,4096):(4096,1)',
      smem: parseLayout('(64,32):(40,1)'),
      dtype: dtypeOf('half_t'),
      g: { shape: [4096, 4096], stride: [4096, 1] },
      tile: [64, 32],
    };
    checkByPhi(c);
    const map = tmaBoxMap({ gmem: parseLayout(c.gmem), smem: c.smem, dtype: c.dtype });
    for (let y = 0; y < 64 * 32; y++) expect(map.boxOf[y]).toBe(y % 64);
    // by smem offset: row r's 32 elements at 40r … 40r + 31, the 8-element padding of each row in no box
    expect(map.tileAt.length).toBe(63 * 40 + 32);
    for (let o = 0; o < map.tileAt.length; o++) {
      const y = map.tileAt[o]!;
      if (o % 40 < 32) expect(map.boxOf[y]).toBe(Math.floor(o / 40));
      else expect(y).toBe(-1);
    }
  });
});

describe("CUTLASS's TMA unit tests (test/unit/cute/hopper/tma_load.cu), every integer static", () => {
  // [name, gmem, smem, tiler, dtype, the rank CUTLASS expects or states]
  const PAIRS: [string, string, string, string | undefined, string, number][] = [
    ['3-mode', '(128,64,5):(1,128,8192)', '(64,32):(1,64)', '(64,32)', 'half_t', 3],
    // docs/descriptors.md §6: CUTLASS builds this G with run-time strides and gets one more dimension
    ['4-mode', '((80,40),(32,12)):((1,80),(3200,102400))', '(128,64):(1,128)', '((16,8),(32,2))', 'half_t', 3],
    ['5-mode', '((32,32,32),(32,12)):((1,32,1024),(32768,1048576))', '(128,32):(1,128)', '((16,4,2),(16,2))', 'half_t', 5],
    ['multimode 1', '((32,3,2,2),(32,4,2)):((1,32,96,192),(384,12288,49152))', '(32,64):(1,32)', '((32),(32,2))', 'half_t', 5],
    ['multimode 2', '((64,3,2,2),(32,4,2)):((1,64,192,384),(768,24576,98304))', '(96,64):(1,96)', '((32,3),(32,2))', 'half_t', 5],
    ['multimode 3', '((64,3,2,3,2),(32,4,2,2)):((1,64,192,384,1152),(2304,73728,294912,589824))', '(32,32):(1,32)', '((32),(16,2))', 'half_t', 5],
    ['coalesce: interleaved col-major', '(128,(4,128)):(4,(1,512))', '(32,(4,32)):(4,(1,128))', undefined, 'int8_t', 2],
    ['coalesce: interleaved row-major', '((4,128),128):((1,512),4)', '((4,32),32):((1,128),4)', undefined, 'int8_t', 2],
    ['coalesce: stride-0 modes in the tile', '(128,(32,4)):(1,(0,128))', '(64,(32)):(1,(0))', undefined, 'uint16_t', 2],
    ['coalesce: many modes and stride 0', '((32,4,4),32,(4,4)):((16,4,2048),0,(1,512))', '((32,4),32,(4)):((16,4),0,(1))', undefined, 'int8_t', 4],
  ];
  for (const [name, gmem, smem, tiler, dtype, rank] of PAIRS) {
    it(`${name}: rank ${rank}, every element where the descriptor addresses it`, () => {
      const d = tmaDesc({ gmem, smem, dtype, tiler });
      expect(d.rank).toBe(rank);
      expect(firstMismatch({ gmem, smem: parseLayout(smem), dtype: dtypeOf(dtype), g: { shape: [], stride: [] }, tiler })).toBeNull();
    });
  }
  it('the 4-mode case: box [16, 8, 64] (docs/descriptors.md §6)', () => {
    expect(tmaDesc({ gmem: PAIRS[1]![1], smem: PAIRS[1]![2], dtype: 'half_t', tiler: PAIRS[1]![3] }).boxDim).toEqual([16, 8, 64]);
  });
});

describe('the steps of docs/descriptors.md §2', () => {
  it('a G exactly as long as the tile along its contiguous mode: coalesce_256 merges the modes (CuTe), and a swizzled box outgrows its span', () => {
    // MN-major SW32 doubles: the tile's 4 rows are all of G's, so the box is 64 doubles in one dimension
    const smem = atomTiledTo(SMEM_ATOMS.find((a) => a.name === 'Layout_MN_SW32_Atom')!, dtypeOf('double'), [4, 16]);
    expect(() => tmaDesc({ gmem: '(4,32):(1,4)', smem, dtype: 'double' })).toThrow(/boxDim\[0\]·e = 512 bytes > 32/);
    expect(tmaDesc({ gmem: '(8,32):(1,8)', smem, dtype: 'double' }).boxDim).toEqual([4, 16]);
    expect(tmaDesc({ gmem: '(4,32):(1,4)', smem: parseLayout('(4,16):(1,4)'), dtype: 'double' }).boxDim).toEqual([64]);
  });
  const leaves = (n: number[], d: number[]) => ({ n, d });
  it('coalesce_256 merges contiguous box modes while the merged size is at most 256', () => {
    const l = leaves([8, 16, 64, 4], [1, 8, 128, 8192]);
    const dims = coalesce256(
      [
        { size: 8, leaf: 0, coef: 1 },
        { size: 16, leaf: 1, coef: 1 },
        { size: 4, leaf: 2, coef: 1 },
      ],
      l,
    );
    expect(dims).toEqual([
      { box: 128, leaves: [0, 1] },
      { box: 4, leaves: [2] },
    ]);
    // 8·32 = 256 merges, 8·64 does not
    const l2 = leaves([8, 32], [1, 8]);
    expect(
      coalesce256(
        [
          { size: 8, leaf: 0, coef: 1 },
          { size: 32, leaf: 1, coef: 1 },
        ],
        l2,
      ),
    ).toEqual([{ box: 256, leaves: [0, 1] }]);
    const l3 = leaves([8, 64], [1, 8]);
    expect(
      coalesce256(
        [
          { size: 8, leaf: 0, coef: 1 },
          { size: 64, leaf: 1, coef: 1 },
        ],
        l3,
      ),
    ).toEqual([
      { box: 8, leaves: [0] },
      { box: 64, leaves: [1] },
    ]);
  });
  it('the modes the box does not reach become box-1 dims, size-1 and stride-0 modes left out; beyond 5, folded into the fifth', () => {
    const l = leaves([64, 1, 7, 5, 3, 2, 9, 4], [1, 64, 64, 0, 448, 1344, 2688, 24192]);
    const dims = remainingDims([{ box: 64, leaves: [0] }], l);
    expect(dims.map((x) => x.leaves)).toEqual([[0], [2], [4], [5], [6, 7]]);
    expect(dims.map((x) => x.box)).toEqual([64, 1, 1, 1, 1]);
    // the fold's shape by the gcd recurrence: leaves 9:2688 and 4:24192 → gcd 2688, (9−1)·1 + (4−1)·9 + 1 = 36
    const { globalDim, strides } = gmemShapeStride(dims, l);
    expect(globalDim).toEqual([64, 7, 3, 2, 36]);
    expect(strides).toEqual([1, 64, 448, 1344, 2688]);
  });
  it('the recurrence over non-contiguous leaves (fill_tma_gmem_shape_stride): strides 6 and 4 → gcd 2', () => {
    const l = leaves([3, 5], [6, 4]);
    const { globalDim, strides } = gmemShapeStride([{ box: 1, leaves: [1, 0] }], leaves([3, 5], [1, 1]));
    expect(globalDim).toEqual([7]);
    expect(strides).toEqual([1]);
    expect(() => gmemShapeStride([{ box: 1, leaves: [0, 1] }], l)).toThrow(/majorness/);
  });
  it('a 5-mode tensor: rank 5, a 6-mode one folds its last two modes into the fifth dimension', () => {
    const s = parseLayoutFunction('Sw<3,3,3> o (8,64):(64,1)');
    const d5 = tmaDesc({ gmem: '(64,64,2,3,5):(64,1,4096,8192,24576)', smem: s, dtype: 'half_t' });
    expect(d5.rank).toBe(5);
    expect(d5.globalDim).toEqual([64, 64, 2, 3, 5]);
    expect(d5.boxDim).toEqual([64, 8, 1, 1, 1]);
    const d6 = tmaDesc({ gmem: '(64,64,2,3,5,7):(64,1,4096,8192,24576,122880)', smem: s, dtype: 'half_t' });
    expect(d6.rank).toBe(5);
    expect(d6.globalDim).toEqual([64, 64, 2, 3, 35]);
    expect(d6.globalStrides).toEqual([128, 8192, 16384, 49152]);
  });
  it('docs/descriptors.md §2: the tiler selects the tile (a (128,64) tile of a (M,K,L) tensor; the same with an explicit default)', () => {
    const s = 'Sw<3,3,3> o ((8,16),(64,1)):((64,512),(1,0))';
    const a = tmaDesc({ gmem: '(2048,1024,16):(1024,1,2097152)', smem: s, dtype: 'half_t' });
    const b = tmaDesc({ gmem: '(2048,1024,16):(1024,1,2097152)', smem: s, dtype: 'half_t', tiler: '(128,64)' });
    expect(a).toEqual(b);
    expect(a.boxDim).toEqual([64, 128, 1]);
  });
  it('contiguous leaves of different modes merge into one dimension up to 256 elements', () => {
    const d = tmaDescriptor({ gmem: parseLayout('((4,8),64):((64,256),1)'), smem: parseLayout('(32,64):(64,1)'), dtype: dtypeOf('half_t') });
    expect(d.boxDim).toEqual([256, 8]);
    expect(d.globalDim).toEqual([256, 8]);
    expect(d.globalStrides).toEqual([512]);
  });
  it('a tile step along one leaf never reads as a step along the next (scaled bases, not integers)', () => {
    const ids = [
      { size: 4, leaf: 0, coef: 1 },
      { size: 8, leaf: 1, coef: 1 },
    ];
    expect(composeBasis(ids, [4], [2], 't')).toEqual([
      { size: 2, leaf: 0, coef: 2 },
      { size: 2, leaf: 1, coef: 1 },
    ]);
    // the last entry is unbounded: 16 steps along leaf 1 from a (4,8) mode
    expect(composeBasis(ids, [16], [4], 't')).toEqual([{ size: 16, leaf: 1, coef: 1 }]);
    expect(() => composeBasis(ids, [2], [3], 't')).toThrow(/stride divisibility/);
    expect(
      coalesceBasis([
        { size: 8, leaf: 0, coef: 1 },
        { size: 8, leaf: 0, coef: 8 },
        { size: 1, leaf: 1, coef: 1 },
        { size: 4, leaf: 1, coef: 1 },
      ]),
    ).toEqual([
      { size: 64, leaf: 0, coef: 1 },
      { size: 4, leaf: 1, coef: 1 },
    ]);
  });
});
