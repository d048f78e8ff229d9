/**
 * The descriptor ops' inputs (docs/protocol.md, "Descriptors"): unknown, missing and wrongly typed keys are `bad-request`,
 * strings that do not parse `parse`, every rule of docs/descriptors.md `domain` naming the rule and the numbers; the library
 * functions take strings and parsed values alike; the element types and CUTLASS's atoms as CuTe prints them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { LayoutError } from '../../src/algebra/errors.js';
import { parseLayout } from '../../src/algebra/notation.js';
import { parseLayoutFunction } from '../../src/cute/composed.js';
import { parseTiler } from '../../src/cute/tiler.js';
import { gmmaDesc, tmaDesc } from '../../src/descriptors/api.js';
import { SMEM_ATOMS, atomLayout, atomName, atomTiledTo } from '../../src/descriptors/atoms.js';
import { formatLayoutFunction } from '../../src/cute/composed.js';
import { DTYPES, dtypeOf } from '../../src/descriptors/dtype.js';
import { loadAllOps, runOpDirect } from '../../src/ops/table.js';

beforeAll(loadAllOps); // the descriptors' room loads on first use (src/ops/lazy.ts)
import type { OpContext } from '../../src/ops/spec.js';
import { kindOf } from '../helpers/kind.js';

const ctx: OpContext = { backendChoice: 'cpu', backend: () => Promise.reject(new Error('no backend')) };
const G = '(4096,4096):(4096,1)';
const S = 'Sw<3,3,3> o ((8,16),(64,1)):((64,512),(1,0))';
const tma = (o: unknown, extra: unknown[] = []): string => kindOf(() => runOpDirect('tma_desc', [o, ...extra], ctx));
const gmma = (o: unknown): string => kindOf(() => runOpDirect('gmma_desc', [o], ctx));
const message = (f: () => unknown): string => {
  try {
    f();
    return 'ok';
  } catch (e) {
    if (e instanceof LayoutError) return e.message;
    throw e;
  }
};

describe('bad-request: the object, its keys and their JSON types', () => {
  it('tma_desc', () => {
    expect(tma({ gmem: G, smem: S, dtype: 'bfloat16_t' })).toBe('ok');
    expect(tma({ gmem: G, smem: S, dtype: 'bfloat16_t', tile: '(128,64)' })).toBe('bad-request');
    expect(tma({ gmem: G, smem: S })).toBe('bad-request');
    expect(tma({ smem: S, dtype: 'half_t' })).toBe('bad-request');
    expect(tma({ gmem: 4096, smem: S, dtype: 'half_t' })).toBe('bad-request');
    expect(tma({ gmem: G, smem: ['x'], dtype: 'half_t' })).toBe('bad-request');
    expect(tma({ gmem: G, smem: S, dtype: 2 })).toBe('bad-request');
    expect(tma({ gmem: G, smem: S, dtype: 'half_t', tiler: 128 })).toBe('bad-request');
    expect(tma({ gmem: G, smem: S, dtype: null })).toBe('bad-request');
    expect(tma([G, S, 'half_t'])).toBe('bad-request');
    expect(tma('not json')).toBe('bad-request');
    expect(tma(null)).toBe('bad-request');
    expect(tma({ gmem: G, smem: S, dtype: 'half_t' }, [1])).toBe('bad-request');
    expect(kindOf(() => runOpDirect('tma_desc', [], ctx))).toBe('bad-request');
    // a bad type is named before a string that does not parse
    expect(tma({ gmem: '(4,', smem: S, dtype: 7 })).toBe('bad-request');
    expect(message(() => runOpDirect('tma_desc', [{ gmem: G, smem: S, dtype: 'half_t', tile: 1 }], ctx))).toContain("unknown key 'tile'");
    expect(message(() => runOpDirect('tma_desc', [{ gmem: G, dtype: 'half_t' }], ctx))).toContain("missing key 'smem'");
  });
  it('gmma_desc', () => {
    const s = 'Sw<3,3,3> o ((8,8),16):((64,512),1)';
    expect(gmma({ smem: s, dtype: 'half_t', major: 'K' })).toBe('ok');
    expect(gmma({ smem: s, dtype: 'half_t', major: 'K', arch: 'sm100' })).toBe('ok');
    expect(gmma({ smem: s, dtype: 'half_t' })).toBe('bad-request');
    expect(gmma({ smem: s, dtype: 'half_t', major: 'k' })).toBe('bad-request');
    expect(gmma({ smem: s, dtype: 'half_t', major: 'K', arch: 'sm80' })).toBe('bad-request');
    expect(gmma({ smem: s, dtype: 'half_t', major: 1 })).toBe('bad-request');
    expect(gmma({ smem: s, dtype: 'half_t', major: 'K', swizzle: '128B' })).toBe('bad-request');
    expect(gmma({ smem: 5, dtype: 'half_t', major: 'K' })).toBe('bad-request');
    expect(gmma({ smem: s, dtype: true, major: 'K' })).toBe('bad-request');
  });
});

describe('parse: strings that are no layout, tiler or swizzle', () => {
  it('each argument string', () => {
    expect(tma({ gmem: '(4096,4096', smem: S, dtype: 'half_t' })).toBe('parse');
    expect(tma({ gmem: G, smem: 'Sw<3,3> o (8,64):(64,1)', dtype: 'half_t' })).toBe('parse');
    expect(tma({ gmem: G, smem: '(8,64):(64,1', dtype: 'half_t' })).toBe('parse');
    expect(tma({ gmem: G, smem: S, dtype: 'half_t', tiler: '(128,' })).toBe('parse');
    expect(gmma({ smem: '((8,8),16):((64,512),1', dtype: 'half_t', major: 'K' })).toBe('parse');
  });
});

describe('domain: every rule of docs/descriptors.md, naming it', () => {
  it('an unknown dtype, with "did you mean"', () => {
    expect(tma({ gmem: G, smem: S, dtype: 'bfloat16' })).toBe('domain');
    expect(message(() => dtypeOf('bfloat16'))).toContain("did you mean 'bfloat16_t'");
    expect(message(() => dtypeOf('flaot'))).toContain("did you mean 'float'");
    expect(gmma({ smem: 'Sw<3,3,3> o ((8,8),16):((64,512),1)', dtype: 'fp16', major: 'K' })).toBe('domain');
  });
  it("a swizzle the TMA has no mode for, with CuTe's reason", () => {
    expect(message(() => tmaDesc({ gmem: G, smem: 'Sw<3,3,2> o (8,64):(64,1)', dtype: 'half_t' }))).toMatch(/parse|\|S\| must be >= B/);
    expect(message(() => tmaDesc({ gmem: G, smem: 'Sw<2,3,2> o (8,64):(64,1)', dtype: 'half_t' }))).toContain('expected S = 3 when M = 4');
    expect(message(() => tmaDesc({ gmem: G, smem: 'Sw<1,4,2> o (8,64):(64,1)', dtype: 'half_t' }))).toContain('expected B = 2 when M = 5');
    expect(message(() => tmaDesc({ gmem: G, smem: 'Sw<2,5,2> o (8,64):(64,1)', dtype: 'half_t' }))).toContain('expected S = 3 when M = 6');
    expect(message(() => tmaDesc({ gmem: G, smem: 'Sw<3,6,3> o (8,64):(64,1)', dtype: 'half_t' }))).toContain('expected M = 4');
    expect(message(() => tmaDesc({ gmem: G, smem: 'Sw<0,2,3> o (8,64):(64,1)', dtype: 'half_t' }))).toContain('expected M = 4');
  });
  it('a composed smem with an offset, a swizzled gmem', () => {
    expect(message(() => tmaDesc({ gmem: G, smem: 'Sw<3,3,3> o 64 o (8,64):(64,1)', dtype: 'half_t' }))).toContain('offset 64');
    expect(tma({ gmem: 'Sw<3,3,3> o (4096,4096):(4096,1)', smem: S, dtype: 'half_t' })).toBe('domain');
  });
  it("CuTe's asserts: size equivalence, the tiler's rank, no vectorization, majorness", () => {
    expect(message(() => tmaDesc({ gmem: G, smem: S, dtype: 'half_t', tiler: '(64,64)' }))).toContain(
      'TMA requires CTA_Tile and SLayout top-level size equivalence',
    );
    expect(message(() => tmaDesc({ gmem: G, smem: S, dtype: 'half_t', tiler: '(128,64,2)' }))).toContain('has 3 modes but the tensor has rank 2');
    expect(message(() => tmaDesc({ gmem: G, smem: '(8,64):(128,2)', dtype: 'half_t' }))).toMatch(/vectorization/);
    expect(message(() => tmaDesc({ gmem: '(4096,4096):(1,4096)', smem: S, dtype: 'half_t' }))).toContain("majorness of smem doesn't match majorness of gmem");
  });
  it('a suggestion where an atom would pass, none where none would', () => {
    expect(message(() => tmaDesc({ gmem: '(4096,4096):(1,4096)', smem: S, dtype: 'half_t' }))).toContain(
      "CUTLASS's Layout_MN_SW128_Atom<half_t> tiled to (128,64) would pass: Sw<3,3,3> o (64,8):(1,64)",
    );
    expect(message(() => tmaDesc({ gmem: '(1024,1004):(1004,1)', smem: S, dtype: 'half_t' }))).not.toContain('would pass');
  });
});

describe('overflow: a dimension that cannot be represented', () => {
  it("the fifth dimension's recurrence beyond 2^53 − 1", () => {
    const g = `(8,2,2,2,${2 ** 27},${2 ** 27}):(1,8,16,32,64,${2 ** 33})`;
    expect(kindOf(() => tmaDesc({ gmem: g, smem: '8:1', dtype: 'half_t' }))).toBe('overflow');
    // the same fold within range: (2^20 − 1)·1 + (2^20 − 1)·2^20 + 1 = 2^40, beyond the driver's 2^32 (domain)
    const ok = `(8,2,2,2,${2 ** 20},${2 ** 20}):(1,8,16,32,64,${2 ** 26})`;
    expect(message(() => tmaDesc({ gmem: ok, smem: '8:1', dtype: 'half_t' }))).toContain('globalDim[4] = 1099511627776 must be 1 to 2^32');
  });
});

describe('the library functions take strings and parsed values alike', () => {
  it('tmaDesc and gmmaDesc', () => {
    const a = tmaDesc({ gmem: G, smem: S, dtype: 'bfloat16_t', tiler: '(128,64)' });
    const b = tmaDesc({ gmem: parseLayout(G), smem: parseLayoutFunction(S), dtype: dtypeOf('bfloat16_t'), tiler: parseTiler('(128,64)') });
    expect(b).toEqual(a);
    const s = 'Sw<3,3,3> o ((8,8),16):((64,512),1)';
    expect(gmmaDesc({ smem: parseLayoutFunction(s), dtype: dtypeOf('half_t'), major: 'K' })).toEqual(gmmaDesc({ smem: s, dtype: 'half_t', major: 'K' }));
  });
});

describe('element types and atoms (docs/descriptors.md §1)', () => {
  it('the table: sizes and TMA data types', () => {
    expect(DTYPES.map((d) => `${d.name}:${d.bytes}:${d.tmaDataType}`)).toEqual([
      'half_t:2:FLOAT16',
      'bfloat16_t:2:BFLOAT16',
      'float:4:FLOAT32',
      'tfloat32_t:4:TFLOAT32',
      'double:8:FLOAT64',
      'int8_t:1:UINT8',
      'uint8_t:1:UINT8',
      'float_e4m3_t:1:UINT8',
      'float_e5m2_t:1:UINT8',
      'uint16_t:2:UINT16',
      'int32_t:4:INT32',
      'uint32_t:4:UINT32',
      'int64_t:8:INT64',
      'uint64_t:8:UINT64',
    ]);
  });
  it("CUTLASS's atoms in elements: CuTe's Sw<3,4,3> o smem_ptr[16b] o (_8,_64):(_64,_1) is Sw<3,3,3> o (8,64):(64,1)", () => {
    const half = dtypeOf('half_t');
    const show = (name: string, t = half): string => formatLayoutFunction(atomLayout(SMEM_ATOMS.find((a) => a.name === name)!, t));
    expect(show('Layout_K_SW128_Atom')).toBe('Sw<3,3,3> o (8,64):(64,1)');
    expect(show('Layout_K_SW64_Atom')).toBe('Sw<2,3,3> o (8,32):(32,1)');
    expect(show('Layout_K_SW32_Atom')).toBe('Sw<1,3,3> o (8,16):(16,1)');
    expect(show('Layout_K_INTER_Atom')).toBe('Sw<0,3,3> o (8,8):(8,1)');
    expect(show('Layout_MN_SW128_Atom')).toBe('Sw<3,3,3> o (64,8):(1,64)');
    expect(show('Layout_MN_INTER_Atom')).toBe('Sw<0,3,3> o (8,8):(1,8)');
    expect(show('Layout_K_SW128_Atom', dtypeOf('float_e4m3_t'))).toBe('Sw<3,4,3> o (8,128):(128,1)');
    expect(show('Layout_K_SW128_Atom', dtypeOf('double'))).toBe('Sw<3,1,3> o (8,16):(16,1)');
    expect(show('Layout_MN_SW128_32B_Atom', dtypeOf('float'))).toBe('Sw<2,3,2> o (32,4):(1,32)');
    expect(atomName(SMEM_ATOMS[0]!, dtypeOf('bfloat16_t'))).toBe('Layout_K_SW128_Atom<bfloat16_t>');
    // docs/descriptors.md §2's worked tile
    expect(formatLayoutFunction(atomTiledTo(SMEM_ATOMS[0]!, dtypeOf('bfloat16_t'), [128, 64]))).toBe(S);
  });
});

describe('hostile input: one clear error or an answer, quickly, never a crash', () => {
  const timed = (f: () => unknown): string => {
    const t0 = performance.now();
    const k = kindOf(f);
    expect(performance.now() - t0).toBeLessThan(2000);
    return k;
  };
  it('deep nesting, long strings, many modes, huge extents', () => {
    const deep = `${'('.repeat(100_000)}8${')'.repeat(100_000)}:1`;
    expect(timed(() => tmaDesc({ gmem: G, smem: deep, dtype: 'half_t' }))).toBe('parse');
    expect(timed(() => gmmaDesc({ smem: deep, dtype: 'half_t', major: 'K' }))).toBe('parse');
    expect(timed(() => tmaDesc({ gmem: G, smem: S, dtype: 'x'.repeat(100_000) }))).toBe('domain');
    expect(message(() => tmaDesc({ gmem: G, smem: S, dtype: 'x'.repeat(100_000) })).length).toBeLessThan(1100);
    const many = `(${Array(64).fill(2).join(',')}):(${Array.from({ length: 64 }, (_, i) => 2 ** Math.min(i, 52)).join(',')})`;
    expect(['ok', 'domain', 'overflow']).toContain(timed(() => tmaDesc({ gmem: many, smem: '(8,64):(64,1)', dtype: 'half_t', tiler: '8:1' })));
    expect(timed(() => tmaDesc({ gmem: G, smem: '(1048576,1048576):(1048576,1)', dtype: 'half_t' }))).toBe('domain');
    expect(timed(() => tmaDesc({ gmem: G, smem: S, dtype: 'half_t', tiler: `(${Array(1000).fill(1).join(',')})` }))).toBe('domain');
    expect(timed(() => gmmaDesc({ smem: '(1048576,1048576):(1048576,1)', dtype: 'half_t', major: 'K' }))).toBe('domain');
  });
});
