/**
 * The command line of issue 25 (items 5, 7, 8 and reproducer 08): one output per command on stdout, no two outputs to
 * one file, no empty file name; `ll <op> --timeout`; --alignment blamed on the op given; one shape syntax; the bridge
 * commands (`from-ll -`, `to-ll --form`, `ll-bank-conflicts`' table); `conflicts` of every side form, drawn.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { scratchDir } from '../helpers/tmp.js';
import { cli as spawnCli, ensureBuilt } from './_build.js';

beforeAll(() => ensureBuilt());

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { stdout: (s) => void out.push(s), stderr: (s) => void err.push(s), isTTY: false }, (async function* () {})());
  return { code, out: out.join(''), err: err.join('') };
}

const MMA = 'SM80_16x8x16_F32F16F16F32_TN';

/** The JSON a command printed; its stderr in the failure when it failed. */
function jsonOut(r: { code: number; out: string; err: string }): unknown {
  expect(r.code, r.err).toBe(0);
  return JSON.parse(r.out);
}
const LL1 = '{"bases":[["x",[[1]]]],"outDims":[["y",2]]}';
const COPY_A = ['--copy', 'SM75_U32x4_LDSM_N', '--bits', '16', '--mma', MMA, '--operand', 'A'];

describe('outputs (reproducer 08 a, c, g)', () => {
  it('two outputs to stdout are refused, whichever two (mma, copy, show, conflicts)', async () => {
    const cases = [
      ['mma', MMA, '--svg', '-', '--tikz', '-'],
      ['mma', MMA, '--ascii', '--svg', '-'],
      ['copy', 'SM75_U32x4_LDSM_N', '--bits', '16', '--mma', MMA, '--operand', 'A', '--svg', '-', '--tikz', '-'],
      ['show', '(2,2):(1,2)', '--svg', '-', '--tikz', '-'],
      ['conflicts', '(8,64):(64,1)', '(32,4):(4,1)', '--elem', '2', '--svg', '-', '--tikz', '-'],
    ];
    for (const argv of cases) {
      const r = await cli(argv);
      expect([r.code, r.out], argv.join(' ')).toEqual([2, '']);
      expect(r.err).toMatch(/only one output can go to stdout/);
    }
  });

  it('an empty file name is refused with one message, before anything is written', async () => {
    for (const argv of [
      ['mma', MMA, '--svg', ''],
      ['show', '(2,2):(1,2)', '--tikz', ''],
      ['conflicts', '(8,64):(64,1)', '(32,4):(4,1)', '--elem', '2', '--svg', ''],
    ]) {
      const r = await cli(argv);
      expect([r.code, r.err], argv.join(' ')).toEqual([2, `layoutgpu: ${argv.at(-2)} needs a file name\n`]);
    }
  });

  it('--svg and --tikz to one file are refused, and the file is not written', async () => {
    const dir = scratchDir('lg-25-');
    const same = join(dir, 'same.x');
    for (const argv of [
      ['show', '(2,2):(1,2)', '--svg', same, '--tikz', same],
      ['mma', MMA, '--svg', same, '--tikz', join(dir, '.', 'same.x')],
    ]) {
      const r = await cli(argv);
      expect([r.code, existsSync(same)]).toEqual([2, false]);
      expect(r.err).toMatch(/--svg and --tikz name the same file/);
    }
  });
});

describe('ll and the bridge commands (reproducer 08 d, e, f; item 8)', () => {
  it('ll <op> takes --timeout as every op subcommand does', async () => {
    const r = await spawnCli(['ll', 'is-injective', LL1, '--timeout', '1s']);
    expect([r.code, r.stdout]).toEqual([0, 'true\n']);
  });

  it('--alignment on an op other than format blames that op, not ll_format', async () => {
    const r = await spawnCli(['ll', 'invert', LL1, '--alignment', '8']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^layoutgpu: ll invert: --alignment goes with --form gluon or mlir/);
    expect(r.stderr).not.toMatch(/ll_format/);
  });

  it('one shape syntax: 16x8, [16,8] and tensor<16x8xf16> give the same tile to to-ll and ll-from-encoding', async () => {
    const C = '((4,8),(2,2)):((32,1),(16,8))';
    const outs = await Promise.all(['16x8', '[16,8]', 'tensor<16x8xf16>'].map((t) => cli(['to-ll', C, 'tv', t, '--json'])));
    for (const o of outs) expect(o.code, o.err).toBe(0);
    expect(new Set(outs.map((o) => o.out)).size).toBe(1);
    expect(JSON.parse(outs[0]!.out)).toEqual(await cli(['to-ll', C, 'tv', '[16,8]', '--json']).then((r) => JSON.parse(r.out)));
    const enc = '#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>';
    const e = await Promise.all(['16x8', 'tensor<16x8xf32, #mma>'].map((t) => cli(['ll-from-encoding', enc, t, '--json'])));
    expect(e[0]!.code, e[0]!.err).toBe(0);
    expect(e[1]!.out).toBe(e[0]!.out);
    expect(JSON.parse(e[0]!.out)).toEqual(JSON.parse(outs[0]!.out));
  });

  it('to-ll --form prints any LL form; from-ll - reads stdin; ll-bank-conflicts prints the conflicts table', async () => {
    const C = '((4,8),(2,2)):((32,1),(16,8))';
    const mlir = await cli(['to-ll', C, 'tv', '16x8', '--form', 'mlir']);
    expect(mlir.out).toMatch(/^#ttg\.linear<\{register = \[\[0, 1\], \[8, 0\]\], lane = /);
    const back = await spawnCli(['from-ll', '-', 'tv'], mlir.out);
    expect([back.code, back.stdout]).toEqual([0, `${C}\n`]);
    const r = (await cli(['to-ll', C, 'tv', '16x8', '--json'])).out.trim();
    const s = (await cli(['to-ll', '(16,8):(8,1)', 'shared', '16x8', '--json'])).out.trim();
    const table = await spawnCli(['ll-bank-conflicts', r, '-', '4'], s);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^the conversion of R \(32 threads, 4 values each\) into S, 4-byte elements\n\nvector\s+2 value/);
    expect(table.stdout).toMatch(/instructions \(warp\.instr\)\s+count\s+phases\s+wavefronts\n0\.0 – 0\.1\s+2\s+2\s+2\n$/);
    const json = await cli(['ll-bank-conflicts', r, s, '4', '--json']);
    expect(JSON.parse(json.out)).toEqual({ vector: 2, instructions: 2, phases: 4, wavefronts: 4, conflicts: 0, worst: null, sectors: 16, minSectors: 16 });
    // the same conversion through conflicts --ll prints the same
    const via = await cli(['conflicts', '--ll', r, s, '--elem', '4']);
    expect(via.out).toBe(table.stdout);
  });
});

describe('conflicts of every side form (item 5)', () => {
  it('--help shows every form', async () => {
    const r = await cli(['conflicts', '--help']);
    for (const f of ['--copy <atom>', '--mma <atom>', '--ll <R> <S>', '<M> <TV> --elem']) expect(r.out).toContain(f);
  });

  it('conflicts --copy draws (--svg, --tikz, --label tv) and names the side it priced', async () => {
    const dir = scratchDir('lg-25c-');
    const svg = join(dir, 'c.svg');
    const tex = join(dir, 'c.tex');
    const r = await cli(['conflicts', ...COPY_A, '(16,16):(16,1)', '--svg', svg, '--tikz', tex, '--label', 'tv']);
    expect(r.code, r.err).toBe(0);
    expect(r.out.split('\n')[0]).toBe('(16,16):(16,1) through SM75_U32x4_LDSM_N (16-bit values, 32 threads): the source side (shared memory, read)');
    const doc = readFileSync(svg, 'utf8');
    expect(doc.startsWith('<?xml')).toBe(true);
    expect(doc).toMatch(/T0 V0/);
    expect(readFileSync(tex, 'utf8')).toMatch(/tikzpicture/);
    const side = await cli([
      'conflicts',
      '--copy',
      'SM80_CP_ASYNC_CACHEALWAYS<uint128_t>',
      '--bits',
      '16',
      '--thr',
      '(32,8):(8,1)',
      '--val',
      '(1,8)',
      '(32,64):(64,1)',
    ]);
    expect(side.out).toMatch(/the destination side \(shared memory, written\)/);
  });

  it("a side that is not shared memory is refused: cp.async's source is global memory", async () => {
    const r = await cli([
      'conflicts',
      '--copy',
      'SM80_CP_ASYNC_CACHEALWAYS<uint128_t>',
      '--bits',
      '16',
      '--thr',
      '(32,8):(8,1)',
      '--val',
      '(1,8)',
      '(32,64):(64,1)',
      '--side',
      'src',
    ]);
    expect([r.code, r.out]).toEqual([2, '']);
    expect(r.err).toMatch(/^layoutgpu: domain: the source of SM80_CP_ASYNC_CACHEALWAYS<uint128_t> is global memory/);
  });

  it('an MMA operand and a TV layout of the same accesses print the same analysis', async () => {
    // operand A of one SM80 16x8x16 atom: thread t holds (m, k) = (t/4 + 8·v1, 2·(t mod 4) + v0 + 8·v2)
    const tv = '((4,8),(2,2,2)):((32,1),(16,8,128))';
    const m = '(16,16):(16,1)';
    const a = await cli(['conflicts', '--mma', MMA, '--operand', 'A', m, '--json']);
    const b = await cli(['conflicts', m, tv, '--elem', '2', '--json']);
    expect(a.code, a.err).toBe(0);
    expect(JSON.parse(a.out)).toEqual(JSON.parse(b.out));
    const wrong = await cli(['conflicts', '--mma', MMA, '--operand', 'A', m, '--side', 'src']);
    expect(wrong.err).toMatch(/--side is no option of this form/);
  });
});

describe('verify conflict-free of every side form (item 5)', () => {
  /** the ranked rows of a --json report */
  const ranked = async (argv: string[]): Promise<{ layout: string; wavefronts: number; phases: number; vector: number[] }[]> => {
    const r = await cli(['verify', 'conflict-free', ...argv, '--backend', 'cpu', '--json', '--top', '6']);
    expect(r.code, r.err).toBe(0);
    return (JSON.parse(r.out) as { ranked: { layout: string; wavefronts: number; phases: number; vector: number[] }[] }).ranked;
  };
  /** conflicts of the same side form over one candidate, --json */
  const priced = async (argv: string[], m: string): Promise<{ wavefronts: number; phases: number; vector: number }> =>
    jsonOut(await cli(['conflicts', ...argv, m, '--json'])) as { wavefronts: number; phases: number; vector: number };

  it('--copy, --mma … --operand and --ll rank what conflicts prices for each candidate', async () => {
    const copy = ['--copy', 'SM75_U32x4_LDSM_N', '--bits', '16', '--mma', MMA, '--layout', '(2,2,1)', '--permutation', '(32,32,16)', '--operand', 'A'];
    const rows = await ranked([...copy, '--swizzles', '(32,64):(64,1)']);
    expect(rows[0]!.layout).toBe('Sw<3,3,3> o (32,64):(64,1)');
    for (const row of rows) expect(await priced(copy, row.layout)).toMatchObject({ wavefronts: row.wavefronts, phases: row.phases, vector: row.vector[0] });
    const mma = ['--mma', MMA, '--operand', 'A'];
    for (const row of await ranked([...mma, '--swizzles', '(16,16):(16,1)'])) {
      expect(await priced(mma, row.layout)).toMatchObject({ wavefronts: row.wavefronts, phases: row.phases, vector: row.vector[0] });
    }
    const r = (await cli(['to-ll', '((4,8),(2,2)):((32,1),(16,8))', 'tv', '16x8', '--json'])).out.trim();
    const file = join(scratchDir('lg-25v-'), 'm.txt');
    writeFileSync(file, '(16,8):(8,1)\nSw<2,1,3> o (16,8):(8,1)\n(16,8):(1,16)\nSw<3,0,3> o (16,8):(8,1)\n');
    const lls = await ranked(['--ll', r, '--elem', '4', '--file', file]);
    expect(lls).toHaveLength(4);
    for (const row of lls) {
      const s = JSON.stringify(jsonOut(await cli(['to-ll', row.layout, 'shared', '16x8', '--json'])));
      expect(await priced(['--ll', r, '--elem', '4'], s)).toMatchObject({ wavefronts: row.wavefronts, phases: row.phases });
    }
  });

  it('a side form needs a tile: the --swizzles base or the first layout of --file, not --enumerate', async () => {
    const r = await cli(['verify', 'conflict-free', '--mma', MMA, '--operand', 'A', '--enumerate', '--size', '256', '--backend', 'cpu']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/take the tile from --swizzles <base> or the first layout of --file/);
  });
});
