/**
 * The descriptor sides of plan_smem (src/planner/descriptor-sides.ts, docs/planner.md "Sides") and every entry's
 * `tma` and `gmma`, re-checked with the descriptors room's library functions tmaDesc and gmmaDesc (docs/semantics.md
 * §12): a `tma` side returns only layouts tma_desc accepts over the row-major global tensor of the tile, a `wgmma` /
 * `umma` side only layouts whose every k-block gmma_desc accepts, and each front is the Pareto set of exactly the
 * candidates §12 accepts, the other side re-priced by the oracle.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { LayoutError } from '../../src/algebra/errors.js';
import { phi } from '../../src/algebra/layout.js';
import { formatLayoutFunction, isComposed, parseLayoutFunction, phiComposed, type LayoutFunction } from '../../src/cute/composed.js';
import { gmmaDesc, tmaDesc } from '../../src/descriptors/api.js';
import { kBlocks } from '../../src/descriptors/kblocks.js';
import { loadPlanner, planArgs } from '../../src/ops/planner.js';
import { BUILT_FAMILIES, candidates, type Tile } from '../../src/planner/families.js';
import type { PlanEntry, PlanResult } from '../../src/planner/plan.js';
import { type BruteSide, brutePrice } from './_brute.js';

beforeAll(async () => {
  await loadPlanner();
});

const E: Record<string, number> = { half_t: 2, bfloat16_t: 2, float: 4 };

/** The row-major global tensor of a shape, written out (the last mode contiguous). */
const gmemOf = (shape: number[]): string => {
  const stride = shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1));
  return `(${shape.join(',')}):(${stride.join(',')})`;
};

/** Whether f answers (false: it throws a LayoutError). */
function passes(f: () => unknown): boolean {
  try {
    f();
    return true;
  } catch (e) {
    if (e instanceof LayoutError) return false;
    throw e;
  }
}

const tmaOk = (l: LayoutFunction | string, shape: number[], dtype: string): boolean => passes(() => tmaDesc({ gmem: gmemOf(shape), smem: l, dtype }));

/** The layout type gmma_desc gives every k-block of l as a `major` operand, or null when one fails or they differ. */
function gmmaType(l: LayoutFunction | string, dtype: string, major: 'K' | 'MN', arch: 'sm90' | 'sm100'): string | null {
  const s = typeof l === 'string' ? parseLayoutFunction(l) : l;
  let blocks: ReturnType<typeof kBlocks>;
  try {
    blocks = kBlocks(s, E[dtype]!);
  } catch (e) {
    if (e instanceof LayoutError) return null;
    throw e;
  }
  const types = new Set<string>();
  for (const b of blocks) {
    try {
      types.add(gmmaDesc({ smem: formatLayoutFunction(b.layout), dtype, major, arch }).layoutType);
    } catch (e) {
      if (e instanceof LayoutError) return null;
      throw e;
    }
  }
  return types.size === 1 ? [...types][0]! : null;
}

/** What an entry's gmma must be: the first major whose every k-block gmma_desc accepts, with its type. */
function gmmaWant(l: string, shape: number[], dtype: string, arch: 'sm90' | 'sm100'): string | null {
  if (shape.length !== 2) return null;
  for (const major of ['K', 'MN'] as const) {
    const t = gmmaType(l, dtype, major, arch);
    if (t !== null) return `${major} ${t}`;
  }
  return null;
}

/** The TV side of a layout string, by Φ. */
function tvSide(text: string): BruteSide {
  const l = parseLayoutFunction(text);
  if (isComposed(l)) throw new Error('a TV is plain');
  const n = (l.shape as unknown[]).flat(4).reduce((a: number, b) => a * (b as number), 1);
  const t0 = (l.shape as unknown[])[0]!;
  const T = typeof t0 === 'number' ? t0 : (t0 as number[]).flat(4).reduce((a, b) => a * b, 1);
  return { T, V: n / T, index: Array.from({ length: n }, (_, x) => phi(l, x)), matrix: true };
}

const offsetsOf = (text: string, n: number): number[] => {
  const l = parseLayoutFunction(text);
  return Array.from({ length: n }, (_, x) => (isComposed(l) ? phiComposed(l, x) : phi(l, x)));
};

/** Every entry's tma and gmma as §12's functions decide them. */
function checkExpressibility(r: PlanResult, shape: number[], dtype: string, arch: 'sm90' | 'sm100' = 'sm90'): void {
  for (const x of r.front) {
    expect(x.tma, `${x.layout}: tma`).toBe(tmaOk(x.layout, shape, dtype));
    expect(x.gmma, `${x.layout}: gmma`).toBe(gmmaWant(x.layout, shape, dtype, arch));
  }
}

/**
 * The front of a plan with one descriptor side: the Pareto set over (write, read, bytes) of exactly the candidates that
 * `accepts` takes (the families as src enumerates them; their counts are test/planner/plan.test.ts's), the descriptor
 * side at 0 wavefronts and the other re-priced by the oracle.
 */
function checkFront(r: PlanResult, shape: number[], dtype: string, accepts: (l: LayoutFunction) => boolean, other: BruteSide, role: 'write' | 'read'): void {
  const e = E[dtype]!;
  const tile: Tile = { shape, size: shape.reduce((a, b) => a * b, 1), e };
  const all: number[][] = [];
  for (const f of BUILT_FAMILIES)
    for (const c of candidates(f, tile, dtype)) {
      if (!accepts(c.layout)) continue;
      const p = brutePrice(other, c.offsets.slice(), e);
      if (p === null) continue;
      all.push(role === 'write' ? [0, p.wavefronts, c.cosize * e] : [p.wavefronts, 0, c.cosize * e]);
    }
  const dom = (x: number[], y: number[]): boolean => x.every((v, i) => v <= y[i]!) && x.some((v, i) => v < y[i]!);
  const front = new Set(all.filter((t) => !all.some((u) => dom(u, t))).map((t) => t.join(',')));
  const triple = (x: PlanEntry): string => [x.write.wavefronts, x.read.wavefronts, x.bytes].join(',');
  expect(new Set(r.front.map(triple))).toEqual(front);
  for (const x of r.front) {
    const got = role === 'write' ? x.read : x.write;
    const p = brutePrice(other, offsetsOf(x.layout, tile.size), e)!;
    expect([got.vectorBytes, got.instructions, got.phases, got.wavefronts]).toEqual([p.vector * e, p.instructions, p.phases, p.wavefronts]);
  }
}

/** The error kind and message of f. */
function failure(f: () => unknown): { kind: string; message: string } {
  try {
    f();
  } catch (e) {
    if (e instanceof LayoutError) return { kind: e.kind, message: e.message };
    throw e;
  }
  throw new Error('expected an error');
}

const ROWS64 = '((8,16),(8,4)):((512,1),(64,16))'; // 128 threads, 16-byte rows of a (64,64) fp16 tile

describe('the tma side', () => {
  it('returns only layouts tma_desc accepts over the row-major global tile; its front is that set’s Pareto set', () => {
    const shape = [64, 64];
    const r = planArgs({ tile: '(64,64)', dtype: 'half_t', write: 'tma', read: ROWS64, top: 100000 });
    expect(r.front.length).toBeGreaterThan(0);
    for (const x of r.front) {
      expect(x.tma).toBe(true);
      const d = tmaDesc({ gmem: gmemOf(shape), smem: x.layout, dtype: 'half_t' });
      expect(x.write).toEqual({ instruction: 'tma', vectorBytes: 0, instructions: d.boxes, wavefronts: 0, phases: 0, conflicts: 0 });
    }
    checkFront(r, shape, 'half_t', (l) => tmaOk(l, shape, 'half_t'), tvSide(ROWS64), 'write');
    checkExpressibility(r, shape, 'half_t');
    // a column-major tile is not the row-major tensor's majorness: tma_desc refuses it, and so does the side
    expect(tmaOk('(64,64):(1,64)', shape, 'half_t')).toBe(false);
    expect(r.front.map((x) => x.layout)).not.toContain('(64,64):(1,64)');
    expect(r.certificate.kind).toBe('lower-bound');
  });

  it('an epilogue: a 128×128 fp32 accumulator stored by the TMA (the read side)', () => {
    const acc = '((4,32),(4,4,8)):((512,1),(128,32,2048))'; // 128 threads, 4 consecutive floats of a row per vector
    const r = planArgs({ tile: '(128,128)', dtype: 'float', write: acc, read: 'tma' });
    const best = r.front[0]!;
    expect(best.read.instruction).toBe('tma');
    expect(tmaOk(best.layout, [128, 128], 'float')).toBe(true);
    const p = brutePrice(tvSide(acc), offsetsOf(best.layout, 128 * 128), 4)!;
    expect([best.write.wavefronts, best.write.phases]).toEqual([p.wavefronts, p.phases]);
    expect(best.write.wavefronts).toBe(best.write.phases);
    expect(r.triton).toBeNull();
  });
});

describe('the tensor-core sides', () => {
  it('wgmma K: every k-block of every entry passes gmma_desc; the front is the Pareto set of those', () => {
    const shape = [64, 64];
    const r = planArgs({ tile: '(64,64)', dtype: 'half_t', write: ROWS64, read: { wgmma: 'K' }, top: 100000 });
    expect(r.front.length).toBeGreaterThan(0);
    for (const x of r.front) {
      expect(x.read).toEqual({ instruction: 'wgmma', vectorBytes: 0, instructions: 4, wavefronts: 0, phases: 0, conflicts: 0 });
      expect(gmmaType(x.layout, 'half_t', 'K', 'sm90')).not.toBeNull();
    }
    checkFront(r, shape, 'half_t', (l) => gmmaType(l, 'half_t', 'K', 'sm90') !== null, tvSide(ROWS64), 'read');
    checkExpressibility(r, shape, 'half_t');
    expect(r.front[0]!.write.wavefronts).toBe(r.front[0]!.write.phases);
  });

  it('wgmma MN over bf16 and umma MN on sm100, re-checked the same way', () => {
    const shape = [64, 32];
    const tv = '(128,16):(16,1)';
    const w = planArgs({ tile: '(64,32)', dtype: 'bfloat16_t', write: tv, read: { wgmma: 'MN' }, top: 100000 });
    checkFront(w, shape, 'bfloat16_t', (l) => gmmaType(l, 'bfloat16_t', 'MN', 'sm90') !== null, tvSide(tv), 'read');
    const u = planArgs({ tile: '(64,32)', dtype: 'bfloat16_t', write: tv, read: { umma: 'MN' }, arch: 'sm100', top: 100000 });
    expect(u.front.every((x) => x.read.instruction === 'umma')).toBe(true);
    checkFront(u, shape, 'bfloat16_t', (l) => gmmaType(l, 'bfloat16_t', 'MN', 'sm100') !== null, tvSide(tv), 'read');
    checkExpressibility(u, shape, 'bfloat16_t', 'sm100');
  });
});

describe('tma and gmma of every entry', () => {
  it('are what tma_desc and gmma_desc say, on the atoms and on every other family', () => {
    const cases: [string, string, string, string][] = [
      ['(128,64)', 'half_t', '((8,16),(8,8)):((1024,1),(128,16))', '((8,4,4),(8,2,4)):((1,1024,8),(128,4096,32))'],
      ['(64,96)', 'half_t', '(128,48):(48,1)', '(128,48):(1,128)'],
      ['(32,32)', 'float', '(32,32):(1,32)', '(32,32):(32,1)'],
    ];
    let tma = 0;
    let gmma = 0;
    for (const [tile, dtype, write, read] of cases) {
      const r = planArgs({ tile, dtype, write, read, top: 100000 });
      const shape = tile.slice(1, -1).split(',').map(Number);
      checkExpressibility(r, shape, dtype);
      tma += r.front.filter((x) => x.tma && x.family !== 'atoms').length;
      gmma += r.front.filter((x) => x.gmma !== null).length;
    }
    expect(tma).toBeGreaterThan(0);
    expect(gmma).toBeGreaterThan(0);
  });
});

describe('descriptor sides: the refusals', () => {
  it('one clear error each', () => {
    const base = { tile: '(64,64)', dtype: 'half_t', write: ROWS64, read: 'tma' };
    const cases: [unknown, string, RegExp][] = [
      [{ ...base, arch: 'sm80' }, 'domain', /the read side tma: sm80 has no tma/],
      [{ ...base, arch: 'gfx942' }, 'domain', /gfx942 has no tma/],
      [{ ...base, read: { wgmma: 'K' }, arch: 'sm100' }, 'domain', /sm100 has no wgmma/],
      [{ ...base, read: { umma: 'K' } }, 'domain', /sm90 has no umma/],
      [{ ...base, write: { wgmma: 'K' }, read: ROWS64 }, 'domain', /cannot be the write side/],
      [{ ...base, read: { wgmma: 'k' } }, 'bad-request', /"K" or "MN"/],
      [{ ...base, read: { wgmma: 'K', arch: 'sm90' } }, 'bad-request', /takes no other key/],
      [{ ...base, tile: '(8,8,64)', write: '(128,32):(32,1)', read: { wgmma: 'K' } }, 'domain', /rank 2/],
      [{ ...base, tile: '(64,8)', write: '(64,8):(8,1)', read: { wgmma: 'MN' } }, 'domain', /not a multiple of the k-block of 16/],
    ];
    for (const [req, kind, msg] of cases) {
      const f = failure(() => planArgs(req));
      expect(f.kind, JSON.stringify(req)).toBe(kind);
      expect(f.message).toMatch(msg);
    }
  });
});
