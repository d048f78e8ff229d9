/**
 * The layout of a function, partitions, local tiles and partitions, and conflicts by name (docs/atoms.md,
 * "The layout of a function", "Partitions", "Bank conflicts of a tiled copy"): every answer compared element by
 * element with the tensor read at the coordinates the definitions give (test/atoms/_oracle.ts), over plain and
 * swizzled tensors; the bank counts against a direct model of the phases.
 */
import { describe, expect, it } from 'vitest';
import { layoutsWithFunction, parseL, phiB, pick, randInt, sizeB, showL, type BL } from '../helpers/brute.js';
import { parsePiece, phiPiece } from '../helpers/match.js';
import { seededRuns } from '../helpers/seeds.js';
import { fnB, isLayoutOnModes, mmaPartitionIndex, modeSizes, threadCoords, vFunction, type MmaSpec } from './_oracle.js';
import { exactOrNull, exactOrTabulated, layoutOfTable } from '../../src/atoms/function-layout.js';
import { makeTiledMma } from '../../src/atoms/tiled-mma.js';
import { makeTiledCopy, makeTiledCopyFromMma, type TiledCopy } from '../../src/atoms/tiled-copy.js';
import { localPartition, localTile, partitionCopy, partitionMma, type TensorResult } from '../../src/atoms/partition.js';
import { copyBankConflicts } from '../../src/atoms/conflicts.js';
import { copyAtom } from '../../src/atoms/atom.js';
import { formatLayout, parseLayout } from '../../src/algebra/notation.js';
import { formatLayoutFunction, parseLayoutFunction } from '../../src/cute/composed.js';
import { parseTiler } from '../../src/cute/tiler.js';
import { parseSliceCoord } from '../../src/cute/slice.js';
import { domainError, LayoutError } from '../../src/algebra/errors.js';

const forSeeds = seededRuns(0xa70c5);
const asB = (l: { shape: unknown; stride: unknown }): BL => parseL(formatLayout(l as never));
const colex = (x: number, dims: readonly number[]): number[] =>
  dims.map((d) => {
    const c = x % d;
    x = Math.floor(x / d);
    return c;
  });

describe('exactOrTabulated: the exact composite, else the layout of the function', () => {
  const l = parseLayout('(2,(2,3)):(6,(1,2))');
  const f = () => (x: number) => phiB(asB(l), x);
  let reads = 0;
  const counted = () => {
    reads = 0;
    const at = f();
    return (x: number) => (reads++, at(x));
  };

  it('takes the composite when it exists and reads no point', () => {
    expect(formatLayout(exactOrTabulated(() => l, counted, [2, 6], 'f'))).toBe('(2,(2,3)):(6,(1,2))');
    expect(reads).toBe(0);
  });

  it('reads every point, in order, where the composite is null, not-composable or overflow, and gives the function', () => {
    const seen: number[] = [];
    const inOrder = () => {
      const at = f();
      return (x: number) => (seen.push(x), at(x));
    };
    for (const exact of [
      () => null,
      () => {
        throw new LayoutError('not-composable', 'no');
      },
      () => {
        throw new LayoutError('overflow', 'big');
      },
    ]) {
      seen.length = 0;
      const got = asB(exactOrTabulated(exact, inOrder, [2, 6], 'f'));
      expect(seen).toEqual(Array.from({ length: 12 }, (_, x) => x));
      expect(modeSizes(got)).toEqual([2, 6]);
      for (let x = 0; x < 12; x++) expect(phiB(got, x)).toBe(phiB(asB(l), x));
    }
  });

  it('passes any other error of the composite, and refuses a function that no layout has', () => {
    expect(() =>
      exactOrTabulated(
        () => {
          throw domainError('bad');
        },
        counted,
        [2, 6],
        'f',
      ),
    ).toThrow(/bad/);
    expect(reads).toBe(0);
    expect(() =>
      exactOrTabulated(
        () => null,
        () => (x) => [0, 2, 1, 4][x]!,
        [4],
        'f',
      ),
    ).toThrow(/not a layout function/);
    expect(() => exactOrTabulated(() => null, counted, [1 << 13, 1 << 12], 'f')).toThrow(/beyond the bound of 2\^24/);
  });

  it('wraps the tabulated layout into the answer form, and not the composite', () => {
    const wrap = (m: ReturnType<typeof parseLayout>) => `tab ${formatLayout(m)}`;
    expect(exactOrTabulated(() => 'exact', f, [2, 6], 'f', wrap)).toBe('exact');
    expect(exactOrTabulated(() => null, f, [2, 6], 'f', wrap)).toBe('tab (2,6):(6,1)');
  });

  it('exactOrNull, its first half: the composite, or null where it is missing, and every other error passes', () => {
    expect(exactOrNull(() => 'exact')).toBe('exact');
    expect(exactOrNull(() => null)).toBeNull();
    expect(
      exactOrNull(() => {
        throw new LayoutError('not-composable', 'no');
      }),
    ).toBeNull();
    expect(
      exactOrNull(() => {
        throw new LayoutError('overflow', 'big');
      }),
    ).toBeNull();
    expect(() =>
      exactOrNull(() => {
        throw new LayoutError('timeout', 'late');
      }),
    ).toThrow(/late/);
    expect(() =>
      exactOrNull(() => {
        throw domainError('bad');
      }),
    ).toThrow(/bad/);
    expect(() =>
      exactOrNull(() => {
        throw new Error('bug');
      }),
    ).toThrow(/bug/);
  });
});

describe('layoutOfTable: the layout of a function, decided by Φ', () => {
  it('recovers every random layout from its values, each top-level mode coalesced', () => {
    forSeeds(200, (rng) => {
      const sizes = Array.from({ length: randInt(rng, 1, 3) }, () => pick(rng, [1, 2, 3, 4, 6, 8]));
      const ms: BL[] = sizes.map((n) => {
        const fs = n === 1 ? [1] : n % 2 === 0 && rng() < 0.5 ? [2, n / 2] : [n];
        return { shape: fs, stride: fs.map(() => (rng() < 0.15 ? 0 : randInt(rng, 1, 40))) };
      });
      const l: BL = { shape: ms.map((m) => m.shape), stride: ms.map((m) => m.stride) };
      const vals = Array.from({ length: sizeB(l) }, (_, x) => phiB(l, x));
      const got = asB(layoutOfTable(vals, sizes, 'f'));
      expect(modeSizes(got)).toEqual(sizes);
      vals.forEach((v, x) => expect(phiB(got, x)).toBe(v));
    });
  });

  it('answers exactly when some layout has the function, and not-composable otherwise (exhaustive search)', () => {
    forSeeds(300, (rng) => {
      const sizes = Array.from({ length: randInt(rng, 1, 2) }, () => pick(rng, [2, 3, 4, 6]));
      const n = sizes.reduce((a, b) => a * b, 1);
      const base: BL = { shape: [n], stride: [randInt(rng, 1, 5)] };
      const vals = Array.from({ length: n }, (_, x) => phiB(base, x));
      // perturb some values: the result must be exact either way
      for (let k = randInt(rng, 0, 2); k > 0; k--) vals[randInt(rng, 1, n - 1)] = randInt(rng, 0, 12);
      const exists = isLayoutOnModes((x) => vals[x]!, sizes);
      let got: BL | null = null;
      try {
        got = asB(layoutOfTable(vals, sizes, 'f'));
      } catch (e) {
        expect((e as LayoutError).kind).toBe('not-composable');
      }
      expect(got !== null, `${vals.join(',')} over ${sizes.join('x')}`).toBe(exists);
      if (got) vals.forEach((v, x) => expect(phiB(got!, x)).toBe(v));
    });
  });

  it('names a function that is no layout function in one mode', () => {
    expect(layoutsWithFunction([0, 2, 1, 3]).length).toBeGreaterThan(0);
    expect(() => layoutOfTable([0, 2, 1, 4], [4], 'f')).toThrow(/mode of size 4: k -> \[0, 2, 1, 4\] is not a layout function/);
    expect(() => layoutOfTable([1, 2], [2], 'f')).toThrow(/maps 0 to 1/);
  });
});

/** The offset of element x of a tensor result, as the result says. */
function offsetOf(r: TensorResult): (x: number) => bigint {
  const p = parsePiece(formatLayoutFunction(r.layout));
  return (x) => BigInt(r.offset) + phiPiece(p, x);
}

/** A random tensor of mode sizes ns: plain (a random order, some padding) or swizzled. */
function randomTensor(rng: () => number, ns: readonly number[]): string {
  const order = ns.map((_, i) => i).sort(() => rng() - 0.5);
  const d: number[] = new Array(ns.length);
  let p = 1;
  for (const i of order) {
    d[i] = p;
    p *= ns[i]! + (rng() < 0.2 ? 1 : 0);
  }
  const plain = `(${ns.join(',')}):(${d.join(',')})`;
  return rng() < 0.4 ? `Sw<${pick(rng, ['3,3,3', '2,3,3', '3,4,3', '1,1,2'])}> o ${randInt(rng, 0, 1) * 64} o ${plain}` : plain;
}

/** Every element of a result against the tensor read at identity index idx(x). */
function expectTensor(r: TensorResult, tensor: string, guide: readonly number[], idx: (x: number) => number, what: string): void {
  const t = parsePiece(tensor);
  const got = offsetOf(r);
  const inner = parsePiece(formatLayoutFunction(r.layout)).inner;
  expect(modeSizes(inner), `${what}: ${formatLayoutFunction(r.layout)}`).toEqual([...guide]);
  const n = guide.reduce((a, b) => a * b, 1);
  for (let x = 0; x < n; x++) {
    const want = phiPiece(t, idx(x));
    if (got(x) !== want) expect(`${what} element ${x}: ${got(x)}`).toBe(`${what} element ${x}: ${want}`);
  }
}

describe('partition_A/B/C of every thread, over plain and swizzled tensors', () => {
  it('matches the tensor at (y_I, y_J, e…)', () => {
    const atoms = ['SM80_16x8x16_F32F16F16F32_TN', 'SM70_8x8x4_F32F16F16F32_NT', 'UniversalFMA', 'SM80_8x8x4_F64F64F64F64_TN', 'SM75_16x8x8_F32F16F16F32_TN'];
    forSeeds(12, (rng) => {
      const name = pick(rng, atoms);
      const lText = pick(rng, ['1', '(2,2,1)', '(2,1,2)', '(1,2,1):(0,1,0)', '(4,2)']);
      const m = makeTiledMma(name, parseLayout(lText));
      const L = parseL(formatLayout(parseLayout(lText)));
      const spec: MmaSpec = { name, L, P: [null, null, null] };
      const { values, dims } = vFunction(spec);
      const coords = threadCoords(layoutsWithFunction(values)[0]!, dims);
      for (const x of ['A', 'B', 'C'] as const) {
        const [I, J] = x === 'A' ? [0, 2] : x === 'B' ? [1, 2] : [0, 1];
        const ns = [m.tileShape[I]! * randInt(rng, 1, 2), m.tileShape[J]! * randInt(rng, 1, 2), ...(rng() < 0.3 ? [3] : [])];
        const tensor = randomTensor(rng, ns);
        const t = randInt(rng, 0, m.T - 1);
        const r = partitionMma(m, x, t, parseLayoutFunction(tensor));
        const atomVX = sizeB(parseL(formatLayout(m.atom[x]))) / sizeB(parseL(formatLayout(m.atom.thrID)));
        const atomI = m.atom.shapeMNK[I]!;
        const atomJ = m.atom.shapeMNK[J]!;
        const li = sizeB(parseL(formatLayout(m.atomLayout[I]!)));
        const lj = sizeB(parseL(formatLayout(m.atomLayout[J]!)));
        const guide = [atomVX, ns[0]! / (atomI * li), ns[1]! / (atomJ * lj), ...ns.slice(2)];
        expectTensor(r, tensor, guide, (el) => mmaPartitionIndex(spec, coords, x, t, ns, el), `${name} ${lText} ${x} t=${t} ${tensor}`);
      }
    });
  });

  it('every thread of the SM80 2×2×1 tiled MMA over a swizzled 64×32 tile (A, B, C)', () => {
    const name = 'SM80_16x8x16_F32F16F16F32_TN';
    const m = makeTiledMma(name, parseLayout('(2,2,1)'), parseTiler('(32,32,16)'));
    const spec: MmaSpec = { name, L: parseL('(2,2,1):(1,2,4)'), P: [parseL('32:1'), parseL('32:1'), parseL('16:1')] };
    const { values, dims } = vFunction(spec);
    const coords = threadCoords(layoutsWithFunction(values)[0]!, dims);
    const tensor = 'Sw<3,3,3> o 64 o (64,32):(32,1)';
    for (const x of ['A', 'B', 'C'] as const) {
      const ns = [64, 32];
      for (let t = 0; t < m.T; t++) {
        const r = partitionMma(m, x, t, parseLayoutFunction(tensor));
        const [I, J] = x === 'A' ? [0, 2] : x === 'B' ? [1, 2] : [0, 1];
        const guide = [x === 'A' ? 8 : 4, 64 / (m.atom.shapeMNK[I]! * 2), 32 / (m.atom.shapeMNK[J]! * (J === 2 ? 1 : 2))];
        expectTensor(r, tensor, guide, (el) => mmaPartitionIndex(spec, coords, x, t, ns, el), `${x} t=${t}`);
      }
    }
  });

  it('thread out of range and tiles that do not divide the tensor', () => {
    const m = makeTiledMma('SM80_16x8x16_F32F16F16F32_TN', parseLayout('(2,2,1)'));
    expect(() => partitionMma(m, 'A', 128, parseLayoutFunction('(32,16)'))).toThrow(/outside \[0, 128\)/);
    expect(() => partitionMma(m, 'A', 0, parseLayoutFunction('(48,16)'))).toThrowError(expect.objectContaining({ kind: 'not-complementable' }));
    expect(() => partitionMma(m, 'A', 0, parseLayoutFunction('64'))).toThrowError(expect.objectContaining({ kind: 'domain' }));
  });
});

/** Element (w, q…, e…) of partition_S/D: the identity index of (τ_i + tiler_i·q_i, e…), τ = colex(X_TV(t, w), tiler). */
function copyIndex(c: TiledCopy, side: 'S' | 'D', t: number, ns: readonly number[]): (el: number) => number {
  const tv = fnB(asB(side === 'S' ? c.layoutS_TV : c.layoutD_TV));
  const W = modeSizes(asB(side === 'S' ? c.layoutS_TV : c.layoutD_TV))[1]!;
  const r = c.tiler.length;
  const qs = c.tiler.map((ti, i) => ns[i]! / ti);
  return (el) => {
    const [w, ...q] = colex(el, [W, ...qs, ...ns.slice(r)]);
    const tau = colex(tv(t + c.threads * w!), c.tiler);
    let idx = 0;
    let p = 1;
    for (let i = 0; i < ns.length; i++) {
      idx += p * (i < r ? tau[i]! + c.tiler[i]! * q[i]! : q[i]!);
      p *= ns[i]!;
    }
    return idx;
  };
}

describe('partition_A/B/C of tiled MMAs that share their thread layout', () => {
  it('answers for each its own atom, whatever was partitioned before (one-thread atoms share TRIVIAL as thread inverse)', () => {
    // SM100 UMMA and UniversalFMA are one-thread atoms: a cache keyed by the thread inverse gave the second the first's tile
    const atoms = ['SM100_MMA_TF32_TS<128,240>', 'SM100_MMA_TF32_TS<128,256>', 'UniversalFMA', 'SM100_MMA_F16BF16_SS<64,8>'];
    const tensorOf = (x: 'A' | 'B' | 'C', m: ReturnType<typeof makeTiledMma>): string => {
      const [tM, tN, tK] = m.tileShape;
      const [r, c] = x === 'A' ? [tM, tK] : x === 'B' ? [tN, tK] : [tM, tN];
      return `(${r},${2 * c}):(1,${r})`;
    };
    const alone = (name: string, x: 'A' | 'B' | 'C'): string => {
      const m = makeTiledMma(name, parseLayout('1'));
      return formatLayoutFunction(partitionMma(m, x, 0, parseLayoutFunction(tensorOf(x, m))).layout);
    };
    const first = new Map<string, string>();
    for (const name of atoms) for (const x of ['A', 'B', 'C'] as const) first.set(`${name} ${x}`, alone(name, x));
    // again in the other order, each tiled MMA made anew: the same answers
    for (const name of [...atoms].reverse()) for (const x of ['C', 'B', 'A'] as const) expect(alone(name, x), `${name} ${x}`).toBe(first.get(`${name} ${x}`));
    // and each the size its own tile says: every value of the thread's partition once
    for (const name of atoms) {
      const m = makeTiledMma(name, parseLayout('1'));
      const [tM, tN] = m.tileShape;
      const c = partitionMma(m, 'C', 0, parseLayoutFunction(tensorOf('C', m)));
      expect(sizeB(parseL(formatLayout(parseLayout(formatLayoutFunction(c.layout))))), name).toBe(tM * tN * 2);
    }
  });
});

describe('partition_S/D of every thread', () => {
  it('matches the tensor at (τ + tiler·q, e…)', () => {
    const mma = makeTiledMma('SM80_16x8x16_F32F16F16F32_TN', parseLayout('(2,2,1)'), parseTiler('(32,32,16)'));
    const copies = [
      makeTiledCopy({ atom: 'SM80_CP_ASYNC_CACHEALWAYS<uint128_t>', bits: 16, thr: parseLayout('(32,8):(8,1)'), val: parseLayout('(1,8)') }),
      makeTiledCopy({ atom: 'UniversalCopy<uint32_t>', bits: 32, thr: parseLayout('(4,8)'), val: parseLayout('(2,1)') }),
      makeTiledCopyFromMma({ atom: 'SM75_U32x4_LDSM_N', bits: 16, mma, operand: 'A' }),
      makeTiledCopyFromMma({ atom: 'SM75_U16x8_LDSM_T', bits: 16, mma, operand: 'B' }),
      makeTiledCopyFromMma({ atom: 'SM90_U32x4_STSM_N', bits: 16, mma, operand: 'C' }),
    ];
    forSeeds(20, (rng) => {
      const c = pick(rng, copies);
      const side = pick(rng, ['S', 'D'] as const);
      const ns = [...c.tiler.map((ti) => ti * randInt(rng, 1, 2)), ...(rng() < 0.3 ? [2] : [])];
      const tensor = randomTensor(rng, ns);
      const t = randInt(rng, 0, c.threads - 1);
      const r = partitionCopy(c, side, t, parseLayoutFunction(tensor));
      const tv = asB(side === 'S' ? c.layoutS_TV : c.layoutD_TV);
      const guide = [modeSizes(tv)[1]!, ...c.tiler.map((ti, i) => ns[i]! / ti), ...ns.slice(c.tiler.length)];
      expectTensor(r, tensor, guide, copyIndex(c, side, t, ns), `${c.atom.name} ${side} t=${t} ${tensor}`);
    });
  });
});

describe('partition_S/D of every thread of the SM80 ldmatrix copy for A', () => {
  it('over plain and swizzled 64×32 tiles', () => {
    const mma = makeTiledMma('SM80_16x8x16_F32F16F16F32_TN', parseLayout('(2,2,1)'), parseTiler('(32,32,16)'));
    const c = makeTiledCopyFromMma({ atom: 'SM75_U32x4_LDSM_N', bits: 16, mma, operand: 'A' });
    for (const tensor of ['(64,32):(32,1)', 'Sw<3,3,3> o (64,32):(32,1)']) {
      for (const side of ['S', 'D'] as const) {
        for (let t = 0; t < c.threads; t++) {
          const r = partitionCopy(c, side, t, parseLayoutFunction(tensor));
          expectTensor(r, tensor, [8, 2, 2], copyIndex(c, side, t, [64, 32]), `${side} t=${t} ${tensor}`);
        }
      }
    }
  });
});

describe('local_tile and local_partition', () => {
  it('local_tile: the tile whole, the rest at the coordinate (with and without a projection)', () => {
    forSeeds(60, (rng) => {
      const r = randInt(rng, 1, 3);
      const tile = Array.from({ length: r }, () => pick(rng, [1, 2, 4, 3]));
      const reps = Array.from({ length: r }, () => randInt(rng, 1, 3));
      const ns = tile.map((t, i) => t * reps[i]!);
      const tensor = randomTensor(rng, ns);
      const c = reps.map((k) => (rng() < 0.5 ? '_' : randInt(rng, 0, k - 1)));
      const useProj = r > 1 && rng() < 0.3;
      const drop = useProj ? randInt(rng, 0, r - 1) : -1;
      // with a projection, the dropped item of the tiler and of the coordinate are extra members
      const tilerText = useProj ? `(${tile.flatMap((t, i) => (i === drop ? [t, 7] : [t])).join(',')})` : `(${tile.join(',')})`;
      const cText = useProj ? `(${c.flatMap((x, i) => (i === drop ? [x, 5] : [x])).join(',')})` : `(${c.join(',')})`;
      const projText = useProj ? `(${tile.map((_, i) => (i === drop ? '1,X' : '1')).join(',')})` : undefined;
      const proj = projText
        ? projText
            .slice(1, -1)
            .split(',')
            .map((p) => p === '1')
        : undefined;
      const res = localTile(parseLayoutFunction(tensor), parseTiler(tilerText), parseSliceCoord(cText), proj);
      const free = c.map((x, i) => (x === '_' ? i : -1)).filter((i) => i >= 0);
      const guide = [...tile, ...free.map((i) => reps[i]!)];
      expectTensor(
        res,
        tensor,
        guide,
        (el) => {
          const xs = colex(el, guide);
          let idx = 0;
          let p = 1;
          for (let i = 0; i < r; i++) {
            const k = c[i] === '_' ? xs[tile.length + free.indexOf(i)]! : (c[i] as number);
            idx += p * (xs[i]! + tile[i]! * k);
            p *= ns[i]!;
          }
          return idx;
        },
        `local_tile ${tensor} ${tilerText} ${cText} ${projText ?? ''}`,
      );
    });
  });

  it("local_partition: the rest at the thread's coordinate", () => {
    forSeeds(60, (rng) => {
      const r = randInt(rng, 1, 3);
      const thrS = Array.from({ length: r }, () => pick(rng, [1, 2, 4, 3]));
      const reps = Array.from({ length: r }, () => randInt(rng, 1, 3));
      const ns = [...thrS.map((t, i) => t * reps[i]!), ...(rng() < 0.3 ? [2] : [])];
      const tensor = randomTensor(rng, ns);
      const order = thrS.map((_, i) => i).sort(() => rng() - 0.5);
      const d: number[] = new Array(r);
      let p = 1;
      for (const i of order) {
        d[i] = p;
        p *= thrS[i]!;
      }
      const thr: BL = { shape: thrS, stride: d };
      const i0 = randInt(rng, 0, sizeB(thr) - 1);
      const res = localPartition(parseLayoutFunction(tensor), parseLayout(showL(thr)), i0);
      let x = -1;
      for (let y = 0; y < sizeB(thr); y++) if (phiB(thr, y) === i0) x = y;
      const c = colex(x, thrS);
      const guide = [...reps, ...ns.slice(r)];
      expectTensor(
        res,
        tensor,
        guide,
        (el) => {
          const xs = colex(el, guide);
          let idx = 0;
          let q = 1;
          for (let k = 0; k < ns.length; k++) {
            idx += q * (k < r ? c[k]! + thrS[k]! * xs[k]! : xs[k]!);
            q *= ns[k]!;
          }
          return idx;
        },
        `local_partition ${tensor} ${showL(thr)} ${i0}`,
      );
    });
  });

  it('a function that is no layout is not-composable; a non-compact thr or an index out of range is domain', () => {
    const kind = (k: string): unknown => expect.objectContaining({ kind: k });
    expect(() => localPartition(parseLayoutFunction('((3,4),8):((4,1),12)'), parseLayout('(2):(1)'), 1)).toThrowError(kind('not-composable'));
    expect(() => localPartition(parseLayoutFunction('(16,64)'), parseLayout('(2,16):(1,4)'), 1)).toThrowError(expect.objectContaining({ kind: 'domain' }));
    expect(() => localPartition(parseLayoutFunction('(16,64)'), parseLayout('(2,16)'), 32)).toThrowError(expect.objectContaining({ kind: 'domain' }));
    expect(() => localTile(parseLayoutFunction('(16,64)'), parseTiler('(3,8)'), 0)).toThrowError(expect.objectContaining({ kind: 'not-complementable' }));
    expect(() => localTile(parseLayoutFunction('(16,64)'), parseTiler('(4,8)'), parseSliceCoord('(0,0,0)'))).toThrowError(kind('domain'));
  });
});

/** The bank model of a tiled copy, directly: per warp, instruction and phase, the live threads' words. */
function bruteBanks(c: TiledCopy, side: 'src' | 'dst', m: string): { phases: number; wavefronts: number; instructions: number } {
  const mp = parsePiece(m);
  const ns = modeSizes(mp.inner);
  const atom = copyAtom(c.atom.name, c.atom.bits);
  const x = asB(side === 'src' ? atom.src : atom.dst);
  const AT = sizeB(asB(atom.thrID));
  const NX = sizeB(x) / AT;
  const rows = Array.from({ length: AT }, (_, a) => Array.from({ length: NX }, (_, s) => phiB(x, a + AT * s)).join(','));
  const live = rows.map((row, a) => rows.indexOf(row) === a);
  const identity = parseLayoutFunction(formatLayout(parseLayout(`(${ns.join(',')})`)));
  const parts = Array.from({ length: c.threads }, (_, t) => partitionCopy(c, side === 'src' ? 'S' : 'D', t, identity));
  const per = sizeB(asB(parts[0]!.layout as never));
  const e = c.atom.bits / 8;
  const w = NX * e;
  const tpp = w <= 4 ? 32 : 128 / w;
  let phases = 0;
  let wavefronts = 0;
  for (let g = 0; g * 32 < c.threads; g++) {
    for (let k = 0; k < per / NX; k++) {
      for (let f = 0; f * tpp < 32; f++) {
        const words = new Map<number, Set<number>>();
        let any = false;
        for (let lane = f * tpp; lane < (f + 1) * tpp && g * 32 + lane < c.threads; lane++) {
          const t = g * 32 + lane;
          if (!live[t % AT]) continue;
          any = true;
          const idx = parts[t]!.offset + phiB(asB(parts[t]!.layout as never), k * NX);
          const byte = Number(phiPiece(mp, idx)) * e;
          for (let b = byte; b < byte + w; b += 4) {
            const word = Math.floor(b / 4);
            if (!words.has(word % 32)) words.set(word % 32, new Set());
            words.get(word % 32)!.add(word);
          }
        }
        if (!any) continue;
        phases++;
        wavefronts += Math.max(...[...words.values()].map((s) => s.size));
      }
    }
  }
  return { phases, wavefronts, instructions: Math.ceil(c.threads / 32) * (per / NX) };
}

describe('copy_bank_conflicts against a direct model of the phases', () => {
  const mma = makeTiledMma('SM80_16x8x16_F32F16F16F32_TN', parseLayout('(2,2,1)'), parseTiler('(32,32,16)'));
  it('the SM80 example: 448 conflicts unswizzled, none with Sw<3,3,3>', () => {
    const c = makeTiledCopyFromMma({ atom: 'SM75_U32x4_LDSM_N', bits: 16, mma, operand: 'A' });
    const plain = copyBankConflicts(c, parseLayoutFunction('(32,64):(64,1)'));
    expect([plain.instructions, plain.phases, plain.wavefronts, plain.conflicts, plain.worst?.wavefronts]).toEqual([16, 64, 512, 448, 8]);
    expect(plain.worst?.threads).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const sw = copyBankConflicts(c, parseLayoutFunction('Sw<3,3,3> o (32,64):(64,1)'));
    expect([sw.wavefronts, sw.conflicts, sw.worst]).toEqual([64, 0, null]);
  });

  it('ldmatrix .x1/.x2/.x4 and stmatrix over plain and swizzled tiles (repeated rows left out)', () => {
    const rowMajor = ['(32,64):(64,1)', 'Sw<3,3,3> o (32,64):(64,1)', 'Sw<2,3,3> o (32,64):(64,1)'];
    const colMajor = ['(32,64):(1,32)', 'Sw<3,3,3> o (32,64):(1,32)', 'Sw<1,3,3> o (32,64):(1,32)'];
    const cases: [string, 'A' | 'B' | 'C', string[]][] = [
      ['SM75_U32x1_LDSM_N', 'A', rowMajor],
      ['SM75_U32x2_LDSM_N', 'A', rowMajor],
      ['SM75_U32x4_LDSM_N', 'A', rowMajor],
      ['SM75_U16x4_LDSM_T', 'B', colMajor],
      ['SM90_U32x2_STSM_N', 'C', rowMajor],
      ['SM90_U32x1_STSM_N', 'C', rowMajor],
    ];
    for (const [name, op, ms] of cases) {
      const c = makeTiledCopyFromMma({ atom: name, bits: 16, mma, operand: op });
      for (const m of ms) {
        const got = copyBankConflicts(c, parseLayoutFunction(m));
        const want = bruteBanks(c, name.includes('STSM') ? 'dst' : 'src', m);
        expect([got.instructions, got.phases, got.wavefronts], `${name} ${m}`).toEqual([want.instructions, want.phases, want.wavefronts]);
      }
    }
  });

  it('a side only where the atom says it; vectors that are not contiguous are domain', () => {
    const u = makeTiledCopy({ atom: 'UniversalCopy<uint128_t>', bits: 16, thr: parseLayout('(32,8):(8,1)'), val: parseLayout('(1,8)') });
    expect(() => copyBankConflicts(u, parseLayoutFunction('(32,64):(64,1)'))).toThrow(/does not say which side/);
    expect(copyBankConflicts(u, parseLayoutFunction('(32,64):(64,1)'), 'dst').conflicts).toBe(0);
    const c = makeTiledCopyFromMma({ atom: 'SM75_U32x4_LDSM_N', bits: 16, mma, operand: 'A' });
    expect(() => copyBankConflicts(c, parseLayoutFunction('(32,64):(1,32)'))).toThrowError(expect.objectContaining({ kind: 'domain' }));
  });
});
