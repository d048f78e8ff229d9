/**
 * The atoms against CuTe's own traits (docs/atoms.md, "Atoms"): test/fixtures/cute-atoms.jsonl holds, for every MMA and
 * copy atom of the table, the thrID and TV layouts as CuTe's `MMA_Traits` / `Copy_Traits` define them (transcribed a
 * second time, independently of src/atoms/data, and checked by bench/cute-compare.py). Each answer of `mma_atom` /
 * `copy_atom` must be the same function on (thread, value) as CuTe's layout, with the same top-level mode sizes
 * (docs/atoms.md: TV layouts are compared as functions). The pairs are regression pairs: any later edit of the data
 * that changes a layout's function fails here. The SM100 rows (UMMA, FFMA2, TMEM copies) were read from the traits' text
 * of CUTLASS 7107b05 (each family's ALayout/BLayout/CLayout with M, N and K substituted; a TMEM store's `typename
 * Copy_Traits<…LOAD…>::…` resolved), not from scripts/gen-atoms.mjs's rules; their source names the header line. test/fixtures/cute-tiled.jsonl holds tiled copies and MMAs as compiled
 * CuTe printed them (quoted with their source); their TV layouts are compared the same way, tilers and tile shapes exactly.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flatB, parseL, phiB, sizeB, sizeT, type BL, type Tup } from '../helpers/brute.js';
import { FIXTURES } from '../helpers/fixtures.js';
import { runOp, type OpContext } from '../../src/ops/table.js';

const ctx: OpContext = {
  backendChoice: 'cpu',
  backend: async () => {
    throw new Error('the atoms need no backend');
  },
};

interface CutePair {
  readonly op: 'mma_atom' | 'copy_atom';
  readonly name: string;
  readonly cute: Readonly<Record<string, string>>;
  readonly source: string;
}

const pairs: CutePair[] = readFileSync(join(FIXTURES, 'cute-atoms.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as CutePair);

/** The sizes of the top-level modes of a layout. */
const modeSizes = (l: BL): number[] => (typeof l.shape === 'number' ? [l.shape] : l.shape.map((s: Tup) => sizeT(s)));

/** Φ_L with L's flat modes read once (phiB's definition, for the large shared-memory GMMA layouts). */
function fnOf(l: BL): (x: number) => number {
  const { s, d } = flatB(l);
  return (x) => {
    let off = 0;
    for (let i = 0; i < s.length; i++) {
      off += (x % s[i]!) * d[i]!;
      x = Math.floor(x / s[i]!);
    }
    return off;
  };
}

/** Why `ours` is not CuTe's layout `cute` as a function with the same top-level mode sizes, or null when it is. */
function differs(ours: string, cute: string): string | null {
  const a = parseL(ours);
  const b = parseL(cute);
  if (sizeB(a) !== sizeB(b)) return `size ${sizeB(a)} vs CuTe's ${sizeB(b)}`;
  const ma = modeSizes(a);
  const mb = modeSizes(b);
  if (ma.length > 1 && mb.length > 1 && ma[0] !== mb[0]) return `threads ${ma[0]} vs CuTe's ${mb[0]}`;
  const fa = fnOf(a);
  const fb = fnOf(b);
  for (let x = 0; x < sizeB(a); x++) {
    if (fa(x) !== fb(x)) return `at ${x}: ${phiB(a, x)} vs CuTe's ${phiB(b, x)}`;
  }
  return null;
}
/** differs, once per pair of texts (the GMMA families share a few layouts). */
const seen = new Map<string, string | null>();
const differsOnce = (ours: string, cute: string): string | null => {
  const key = `${ours} ${cute}`;
  if (!seen.has(key)) seen.set(key, differs(ours, cute));
  return seen.get(key)!;
};

/** The fields of our answer matched to CuTe's names. */
const FIELDS: Readonly<Record<CutePair['op'], readonly (readonly [string, string])[]>> = {
  mma_atom: [
    ['thrID', 'thrID'],
    ['layoutA_TV', 'A'],
    ['layoutB_TV', 'B'],
    ['layoutC_TV', 'C'],
  ],
  copy_atom: [
    ['thrID', 'thrID'],
    ['layoutSrc', 'src'],
    ['layoutDst', 'dst'],
    ['layoutRef', 'ref'],
  ],
};

describe("the atoms' layouts are CuTe's, as functions on (thread, value)", () => {
  it('the fixture covers every atom of the table', async () => {
    const listed = (await runOp('atoms', [], ctx)) as { mma: string[]; copy: string[] };
    const inFixture = (op: string): string[] =>
      pairs
        .filter((p) => p.op === op)
        .map((p) => p.name)
        .sort();
    expect(inFixture('mma_atom')).toEqual([...listed.mma].sort());
    expect(inFixture('copy_atom')).toEqual([...listed.copy].sort());
  });

  // one test per header and 64 atoms of it: each a few seconds at most (the unit project's 10 s a test)
  const groups = new Map<string, CutePair[]>();
  for (const p of pairs) {
    const key = `${p.op} ${p.source}`;
    const g = groups.get(key) ?? [];
    if (g.length === 0) groups.set(key, g);
    g.push(p);
  }
  const chunks = [...groups].flatMap(([key, g]) =>
    Array.from({ length: Math.ceil(g.length / 64) }, (_, k) => ({ key: `${key} #${k + 1}`, op: g[0]!.op, pairs: g.slice(64 * k, 64 * (k + 1)) })),
  );
  it('the groups cover every pair once', () => {
    expect(chunks.reduce((n, c) => n + c.pairs.length, 0)).toBe(pairs.length);
  });
  for (const { key, op, pairs: group } of chunks) {
    it(`every ${op} answer has CuTe's function: ${key}`, async () => {
      const wrong: string[] = [];
      for (const p of group) {
        const got = (await runOp(op, [p.name], ctx)) as Record<string, string>;
        for (const [ours, theirs] of FIELDS[op]) {
          const why = differsOnce(got[ours]!, p.cute[theirs]!);
          if (why !== null) wrong.push(`${p.name} ${ours}: ${got[ours]} vs CuTe's ${p.cute[theirs]} (${why})`);
        }
        if (op === 'mma_atom' && got.shapeMNK !== p.cute.shapeMNK) wrong.push(`${p.name} shapeMNK: ${got.shapeMNK} vs CuTe's ${p.cute.shapeMNK}`);
      }
      expect(wrong).toEqual([]);
    });
  }

  it('the comparison notices a changed layout (a regression pair fails on a wrong function)', () => {
    const sm80 = pairs.find((p) => p.name === 'SM80_16x8x16_F16F16F16F16_TN')!;
    expect(differs(sm80.cute.A!, sm80.cute.A!)).toBeNull();
    expect(differs('((4,8),(2,2,2)):((32,1),(8,16,128))', sm80.cute.A!)).not.toBeNull();
    expect(differs('((8,4),(2,2,2)):((1,32),(16,8,128))', sm80.cute.A!)).not.toBeNull();
  });
});

interface TiledPair {
  readonly op: 'make_tiled_copy' | 'make_tiled_mma' | 'copy_atom' | 'partition_a' | 'partition_c' | 'partition_s' | 'partition_d';
  readonly args: readonly unknown[];
  readonly cute: Readonly<Record<string, string>>;
  readonly source: string;
}

const tiledPairs: TiledPair[] = readFileSync(join(FIXTURES, 'cute-tiled.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as TiledPair);

/** The fields compared exactly (nested-tuple strings, offsets); the others are layouts compared as functions. */
const EXACT = new Set(['tiler', 'tileShape', 'offset']);
const PARTITIONS = new Set(['partition_a', 'partition_c', 'partition_s', 'partition_d']);

/** A tensor result against CuTe's: the same function and the same top-level mode sizes (docs/atoms.md, "Partitions"). */
function differsTensor(ours: string, cute: string): string | null {
  const a = modeSizes(parseL(ours)).join(',');
  const b = modeSizes(parseL(cute)).join(',');
  return a !== b ? `modes (${a}) vs CuTe's (${b})` : differs(ours, cute);
}

describe('tiled copies, MMAs and their partitions as compiled CuTe printed them', () => {
  for (const p of tiledPairs) {
    it(`${p.op} ${JSON.stringify(p.args)}`, async () => {
      const got = (await runOp(p.op, p.args, ctx)) as Record<string, string>;
      for (const [field, theirs] of Object.entries(p.cute)) {
        if (EXACT.has(field)) expect(String(got[field])).toBe(theirs);
        else if (PARTITIONS.has(p.op)) expect(differsTensor(got[field]!, theirs), `${field}: ${got[field]} vs CuTe's ${theirs}`).toBeNull();
        else expect(differs(got[field]!, theirs), `${field}: ${got[field]} vs CuTe's ${theirs}`).toBeNull();
      }
      // every copy atom quoted here has Ref = Dst, so CuTe's TiledLayout_TV is the destination's TV layout too
      if (p.op === 'make_tiled_copy') expect(differs(got.layoutD_TV!, p.cute.layoutTV!)).toBeNull();
    });
  }
});
