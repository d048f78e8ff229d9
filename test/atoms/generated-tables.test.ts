/**
 * The generated atom tables (scripts/gen-atoms.mjs; docs/atoms.md, "SM90 GMMA" and "SM100 UMMA"): the committed
 * tables are what the script writes (the drift check of .ci/run, which fails on a stale table), and the SM90 GMMA table,
 * whose 320 names a loop in the atoms' data built before (commit 90a5d2e), answers as that loop did, row for row (the
 * loop is kept below as it was, the oracle of the change).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sm90GmmaMma } from '../../src/atoms/data/mma-sm90-gmma.generated.js';
import { sm80Mma } from '../../src/atoms/data/mma-sm80.js';
import { COPY_ATOMS, MMA_ATOMS } from '../../src/atoms/registry.js';
import type { MmaAtomData } from '../../src/atoms/types.js';

/** The GMMA data's loop before the table (commit 90a5d2e), verbatim but for its exports. */
function gmmaLoop(): MmaAtomData[] {
  const source = 'include/cute/atom/mma_traits_sm90_gmma.hpp';
  const GMMA_N: readonly number[] = [8, 16, 32, 64, 96, 128, 192, 256];
  const abLayout = (mn: number, k: number): string => `(128,(${mn},${k})):(0,(1,${mn}))`;
  const cLayout = (n: number): string => `((4,8,4),(2,2,${n / 8})):((128,1,16),(64,8,512))`;
  const rsA: Readonly<Record<number, string>> = {
    32: '((4,8,4),(2,2)):((64,1,16),(8,256))',
    16: '((4,8,4),(2,2,2)):((128,1,16),(64,8,512))',
    8: '((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))',
  };
  interface Family {
    readonly types: string;
    readonly k: number;
    readonly bitsA: 8 | 16 | 32;
    readonly suffix: string;
  }
  const families: readonly Family[] = [
    ...['F16F16F16', 'F32F16F16', 'F32BF16BF16'].map((types) => ({ types, k: 16, bitsA: 16 as const, suffix: '' })),
    { types: 'F32TF32TF32', k: 8, bitsA: 32, suffix: '_TN' },
    ...['S8S8', 'S8U8', 'U8S8', 'U8U8'].flatMap((ab) => ['_TN', '_TN_SATURATE'].map((suffix) => ({ types: `S32${ab}`, k: 32, bitsA: 8 as const, suffix }))),
    ...['E4M3E4M3', 'E4M3E5M2', 'E5M2E4M3', 'E5M2E5M2'].flatMap((ab) =>
      ['F16', 'F32'].map((acc) => ({ types: `${acc}${ab}`, k: 32, bitsA: 8 as const, suffix: '_TN' })),
    ),
  ];
  const atom = (f: Family, n: number, rs: boolean): MmaAtomData => ({
    name: `SM90_64x${n}x${f.k}_${f.types}_${rs ? 'RS' : 'SS'}${f.suffix}`,
    thrID: '128:1',
    shapeMNK: [64, n, f.k],
    A: rs ? rsA[f.bitsA]! : abLayout(64, f.k),
    B: abLayout(n, f.k),
    C: cLayout(n),
    source,
  });
  return families.flatMap((f) => GMMA_N.flatMap((n) => [atom(f, n, false), atom(f, n, true)]));
}

const root = join(import.meta.dirname, '..', '..');

describe('the generated atom tables', () => {
  it('SM90 GMMA: the same 320 rows, in the same order, as the loop it replaces; A and B (SS) or B (RS) descriptor operands', () => {
    const before = gmmaLoop();
    expect(before).toHaveLength(320);
    expect(sm90GmmaMma.map(({ descriptors: _, ...row }) => row)).toEqual(before);
    for (const a of sm90GmmaMma) expect(a.descriptors, a.name).toBe(a.name.includes('_SS') ? 'AB' : 'B');
  });

  it('are what scripts/gen-atoms.mjs writes (its --check passes here and fails on a stale table)', () => {
    const ok = spawnSync(process.execPath, [join(root, 'scripts', 'gen-atoms.mjs'), '--check'], { encoding: 'utf8' });
    expect(ok.status, ok.stderr).toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'gen-atoms-'));
    try {
      mkdirSync(join(dir, 'scripts'));
      mkdirSync(join(dir, 'src', 'atoms', 'data'), { recursive: true });
      copyFileSync(join(root, 'scripts', 'gen-atoms.mjs'), join(dir, 'scripts', 'gen-atoms.mjs'));
      writeFileSync(join(dir, 'src', 'atoms', 'data', 'mma-sm90-gmma.generated.ts'), '// stale\n');
      const stale = spawnSync(process.execPath, [join(dir, 'scripts', 'gen-atoms.mjs'), '--check'], { encoding: 'utf8' });
      expect(stale.status).toBe(1);
      expect(stale.stderr).toMatch(/mma-sm90-gmma\.generated\.ts does not match/);
      expect(stale.stderr).toMatch(/mma-sm100-umma-1sm\.generated\.ts does not match/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('every atom name is a literal of the data (issue 26 step 5: grep finds each)', () => {
  const dir = join(import.meta.dirname, '../../src/atoms/data');
  const text = readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');

  it('each of the MMA and copy atoms is named in quotes in src/atoms/data/', () => {
    expect(MMA_ATOMS.length + COPY_ATOMS.length).toBeGreaterThan(1200);
    const missing = [...MMA_ATOMS, ...COPY_ATOMS].map((a) => a.name).filter((n) => !text.includes(`'${n}'`));
    expect(missing).toEqual([]);
    expect(text).toContain("'SM80_16x8x32_S32S8U8S32_TN'");
  });

  it('the SM80 integer and 1-bit rows are the names the loops of mma-sm80.ts built before (issue 26 step 5), in their order', () => {
    const names: string[] = [];
    for (const [shape, bits] of [
      ['8x8x16', 8],
      ['16x8x16', 8],
      ['16x8x32', 8],
      ['8x8x32', 4],
      ['16x8x32', 4],
      ['16x8x64', 4],
    ] as const) {
      for (const a of ['S', 'U'])
        for (const b of ['S', 'U']) names.push(`SM80_${shape}_S32${a}${bits}${b}${bits}S32_TN`, `SM80_${shape}_S32${a}${bits}${b}${bits}S32_TN_SATURATE`);
    }
    for (const shape of ['16x8x256', '8x8x128', '16x8x128']) names.push(`SM80_${shape}_S32U1U1S32_TN_XORPOPC`, `SM80_${shape}_S32U1U1S32_TN_ANDPOPC`);
    expect(sm80Mma.slice(11).map((a) => a.name)).toEqual(names);
  });
});
