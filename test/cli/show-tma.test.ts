/**
 * `layoutgpu show tma` (src/cli/show-tma.ts): the text picture on stdout, SVG and TikZ to files or to stdout (one
 * `-`), each exactly the renderer's for the descriptors room's box map — and the SVG's cells, read back, are the box
 * map's boxes (the global tile cell by cell, shared memory by swizzled offset); errors by the CLI's one policy.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTmaArgs } from '../../src/descriptors/api.js';
import { tmaBoxMap } from '../../src/descriptors/boxes.js';
import { boxAscii, boxSvg, boxTikz } from '../../src/render/tma-boxes.js';
import { tmaBoxPicture } from '../../src/render/tma-pictures.js';
import { svgCells } from '../render/_box-media.js';
import { cli, ensureBuilt } from './_build.js';

beforeAll(() => ensureBuilt());
const dir = mkdtempSync(join(tmpdir(), 'layoutgpu-show-tma-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MN = { gmem: '(4096,2048):(1,4096)', smem: 'Sw<3,3,3> o ((64,2),(8,8)):((1,512),(64,1024))', dtype: 'half_t' };
const argv = (a: { gmem: string; smem: string; dtype: string }): string[] => ['show', 'tma', '--gmem', a.gmem, '--smem', a.smem, '--dtype', a.dtype];

describe('layoutgpu show tma', () => {
  it('prints the text picture and writes the SVG and the TikZ, each the renderer’s', async () => {
    const svg = join(dir, 'mn.svg');
    const tex = join(dir, 'mn.tex');
    const r = await cli([...argv(MN), '--svg', svg, '--tikz', tex]);
    expect(r.code, r.stderr).toBe(0);
    const pic = tmaBoxPicture(MN);
    expect(r.stdout).toBe(boxAscii(pic));
    expect(readFileSync(svg, 'utf8')).toBe(boxSvg(pic));
    expect(readFileSync(tex, 'utf8')).toBe(boxTikz(pic));
  });

  it('--svg -: the SVG alone on stdout, its cells the box map’s', async () => {
    const a = { gmem: '(4096,4096):(4096,1)', smem: '(64,32):(40,1)', dtype: 'half_t' };
    const r = await cli([...argv(a), '--svg', '-']);
    expect(r.code, r.stderr).toBe(0);
    const m = tmaBoxMap(readTmaArgs(a));
    const pic = tmaBoxPicture(a);
    const [smem, global] = svgCells(r.stdout, pic.panels);
    expect(Array.from(global!)).toEqual(Array.from(m.boxOf));
    // shared memory: the cell of offset Φ_S(y) (rows of boxDim[0] = 32) holds y's box; the padding none
    const rows = pic.panels[0]!.rows;
    const want = new Int32Array(rows * 32).fill(-1);
    m.smemOffset.forEach((o, y) => {
      const at = Math.floor(o / 32) + rows * (o % 32);
      if (want[at]! < 0) want[at] = m.boxOf[y]!;
    });
    expect(Array.from(smem!)).toEqual(Array.from(want));
  });

  it('--tikz - --tikz-body: the bare tikzpicture on stdout', async () => {
    const r = await cli([...argv(MN), '--tikz', '-', '--tikz-body']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(boxTikz(tmaBoxPicture(MN), { body: true }));
    expect(r.stdout).not.toMatch(/documentclass/);
  });

  it('a refused map: one line naming the rule, exit 2; usage errors: exit 2', async () => {
    const bad = await cli(argv({ gmem: '(1024,1024):(1024,1)', smem: 'Sw<3,3,3> o (8,128):(128,1)', dtype: 'half_t' }));
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/^layoutgpu: domain: .*256.*128/);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    const [missing, both, stray] = await Promise.all([
      cli(['show', 'tma', '--smem', MN.smem, '--dtype', MN.dtype]),
      cli([...argv(MN), '--svg', '-', '--tikz', '-']),
      cli([...argv(MN), 'extra']),
    ]);
    for (const r of [missing, both, stray]) {
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(missing.stderr).toMatch(/--gmem/);
  });

  it('layoutgpu tma --ascii draws in place of the table; --svg F writes beside it; --svg - alone', async () => {
    const tma = ['tma', ...argv(MN).slice(2)];
    const svg = join(dir, 'tma.svg');
    const [ascii, file, piped, table] = await Promise.all([cli([...tma, '--ascii']), cli([...tma, '--svg', svg]), cli([...tma, '--svg', '-']), cli(tma)]);
    const pic = tmaBoxPicture(MN);
    expect(ascii.code, ascii.stderr).toBe(0);
    expect(ascii.stdout).toBe(boxAscii(pic));
    expect(file.code, file.stderr).toBe(0);
    expect(file.stdout).toBe(table.stdout);
    expect(table.stdout).toMatch(/^dataType\s+FLOAT16/);
    expect(readFileSync(svg, 'utf8')).toBe(boxSvg(pic));
    expect(piped.stdout).toBe(boxSvg(pic));
  });

  it('--help', async () => {
    const r = await cli(['show', 'tma', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^layoutgpu show tma --gmem/);
  });
});
