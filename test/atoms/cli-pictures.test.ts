/**
 * The CLI of tiled MMAs and copies (src/cli/atoms.ts, run in-process through main) and the TV pictures
 * (src/render/tv.ts; docs/atoms.md, "Pictures"): every cell of the ASCII and SVG pictures holds the lowest
 * (thread, value) whose TV index is that cell, by brute force; the TikZ compiles with pdflatex.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseL, phiB, sizeB, type BL } from '../helpers/brute.js';
import { modeSizes } from './_oracle.js';
import { main } from '../../src/cli/main.js';
import { makeTiledMma } from '../../src/atoms/tiled-mma.js';
import { makeTiledCopyFromMma } from '../../src/atoms/tiled-copy.js';
import { copyPicture, mmaPicture, tvAscii, tvSvg, tvTikz, threadColour } from '../../src/render/tv.js';
import { formatLayout, parseLayout } from '../../src/algebra/notation.js';
import { parseTiler } from '../../src/cute/tiler.js';

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { stdout: (s) => void (out += s), stderr: (s) => void (err += s), isTTY: false }, (async function* () {})());
  return { code, out, err };
}

const asB = (l: { shape: unknown; stride: unknown }): BL => parseL(formatLayout(l as never));

/** The lowest (t, v) of a TV layout at each tile index. */
function holders(tv: BL): Map<number, [number, number]> {
  const [T] = modeSizes(tv);
  const m = new Map<number, [number, number]>();
  for (let x = 0; x < sizeB(tv); x++) {
    const i = phiB(tv, x);
    const t = x % T!;
    const v = Math.floor(x / T!);
    const h = m.get(i);
    if (!h || t < h[0] || (t === h[0] && v < h[1])) m.set(i, [t, v]);
  }
  return m;
}

describe('layoutgpu mma, copy, partition, local-tile, conflicts --copy', () => {
  const atom = 'SM80_16x8x16_F32F16F16F32_TN';
  it('mma prints the tiled MMA, --json the protocol object, --thread the values of one thread', async () => {
    const r = await run(['mma', atom, '--layout', '(2,2,1)', '--permutation', '(32,32,16)', '--json']);
    expect(r.code).toBe(0);
    const o = JSON.parse(r.out) as Record<string, unknown>;
    expect(o.tileShape).toBe('(32,32,16)');
    expect(o.threads).toBe(128);
    const human = await run(['mma', atom, '--layout', '(2,2,1)']);
    expect(human.out).toMatch(/^thrLayoutVMNK\s+\(32,2,2,1\):\(1,32,64,0\)$/m);
    const t = await run(['mma', atom, '--thread', '5', '--json']);
    const th = JSON.parse(t.out) as { A: [number, number][] };
    const a = asB(makeTiledMma(atom).layoutA_TV);
    th.A.forEach(([r0, c0], v) => expect(r0 + 16 * c0).toBe(phiB(a, 5 + 32 * v)));
  });

  it('copy, partition, local-tile and conflicts --copy answer as the batch ops do', async () => {
    const mmaOpts = ['--mma', atom, '--layout', '(2,2,1)', '--permutation', '(32,32,16)', '--operand', 'A'];
    const c = JSON.parse((await run(['copy', 'SM75_U32x4_LDSM_N', '--bits', '16', ...mmaOpts, '--json'])).out) as Record<string, unknown>;
    expect(c.tiler).toBe('(32,16)');
    const p = await run(['partition', 'S', 'SM75_U32x4_LDSM_N', '--bits', '16', ...mmaOpts, '--thread', '37', 'Sw<3,3,3> o (32,64):(64,1)', '--json']);
    expect(JSON.parse(p.out)).toEqual({ offset: 0, layout: 'Sw<3,3,3> o 1344 o (8,1,4):(1,0,16)' });
    const lt = await run(['local-tile', '(128,64):(64,1)', '(32,64,16)', '(1,0,_)', '(1,X,1)', '--json']);
    expect(JSON.parse(lt.out)).toEqual({ offset: 2048, layout: '(32,16,4):(64,1,16)' });
    const cf = await run(['conflicts', '--copy', 'SM75_U32x4_LDSM_N', '--bits', '16', ...mmaOpts, '(32,64):(64,1)', '--json']);
    expect((JSON.parse(cf.out) as { conflicts: number }).conflicts).toBe(448);
  });

  it('bad arguments exit 2 with one line naming the problem', async () => {
    const bad = [
      ['mma', 'nope'],
      ['copy', 'SM75_U32x4_LDSM_N', '--thr', '(32,1)'],
      ['mma', atom, '--thread', '32'],
    ];
    bad.push(['partition', 'Q', atom, '--thread', '0', '(16,16)']);
    for (const argv of bad) {
      const r = await run(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
    }
  });
});

describe('TV pictures', () => {
  const m = makeTiledMma('SM80_16x8x16_F32F16F16F32_TN', parseLayout('(2,2,1)'), parseTiler('(32,32,16)'));
  const [tM, tN, tK] = m.tileShape;

  it('ASCII: A (M×K), B (K×N), C (M×N), each cell the lowest (thread, value) on it', () => {
    const text = tvAscii(mmaPicture(m));
    const panels = text.split('\n\n').slice(1);
    const check = (panel: string, tv: BL, rows: number, cols: number, index: (r: number, c: number) => number): void => {
      const lines = panel
        .split('\n')
        .slice(2)
        .filter((l) => l !== '');
      expect(lines).toHaveLength(rows);
      const h = holders(tv);
      lines.forEach((line, r) => {
        const cells = line.trim().split(/\s+/).slice(1);
        expect(cells).toHaveLength(cols);
        cells.forEach((cell, c) => {
          const [t, v] = h.get(index(r, c))!;
          expect(cell).toBe(`T${t}V${v}`);
        });
      });
    };
    check(panels[0]!, asB(m.layoutA_TV), tM, tK, (r, c) => r + tM * c);
    check(panels[1]!, asB(m.layoutB_TV), tK, tN, (r, c) => c + tN * r);
    check(panels[2]!, asB(m.layoutC_TV), tM, tN, (r, c) => r + tM * c);
  });

  it('SVG: every cell carries its thread and value and the thread colour; neighbouring threads differ', () => {
    const c = makeTiledCopyFromMma({ atom: 'SM75_U32x4_LDSM_N', bits: 16, mma: m, operand: 'A' });
    const svg = tvSvg(copyPicture(c));
    const cells = svgCells(svg);
    expect(cells).toHaveLength(2 * 32 * 16);
    const hs = holders(asB(c.layoutS_TV));
    for (const { t, v, r, col, fill } of cells.slice(0, 32 * 16)) {
      expect([t, v]).toEqual(hs.get(r + 32 * col));
      expect(fill).toBe(threadColour(t));
    }
    for (let t = 0; t < 16; t++) expect(threadColour(t)).not.toBe(threadColour(t + 1));
  });

  it('SVG of big tiles is compact: a 2,048-cell copy well under 200 KB, the whole 128×128×64 CTA drawable', () => {
    const big = makeTiledMma('SM80_16x8x16_F32F16F16F32_TN', parseLayout('(4,2,1)'), parseTiler('(128,128,64)'));
    const c = makeTiledCopyFromMma({
      atom: 'SM75_U32x4_LDSM_N',
      bits: 16,
      mma: makeTiledMma('SM80_16x8x16_F32F16F16F32_TN', parseLayout('(4,2,1)')),
      operand: 'A',
    });
    const svg = tvSvg(copyPicture(c));
    expect(svgCells(svg)).toHaveLength(2048);
    expect(svg.length).toBeLessThan(150_000); // 772 KB before
    const cta = tvSvg(mmaPicture(big));
    const cells = svgCells(cta);
    expect(cells).toHaveLength(128 * 64 + 64 * 128 + 128 * 128);
    expect(cta.length).toBeLessThan(2_500_000); // 12.3 MB before
    // the C panel's cells are C's (thread, value), exactly
    const hs = holders(asB(big.layoutC_TV));
    for (const { t, v, r, col } of cells.slice(-128 * 128)) expect([t, v]).toEqual(hs.get(r + 128 * col));
  });

  // one pdflatex run a test (each a few seconds: the unit project's 10 s a test)
  const pictures = {
    mma: () => tvTikz(mmaPicture(m)),
    copy: () => tvTikz(copyPicture(makeTiledCopyFromMma({ atom: 'SM75_U32x4_LDSM_N', bits: 16, mma: m, operand: 'A' }))),
  };
  for (const [what, tex] of Object.entries(pictures)) {
    it(`the TikZ of a tiled ${what === 'mma' ? 'MMA' : 'copy'} compiles with pdflatex to one page`, () => {
      const dir = mkdtempSync(join(tmpdir(), 'tv-'));
      const name = `${what}.tex`;
      try {
        writeFileSync(join(dir, name), tex());
        const flags = ['-interaction=nonstopmode', '-halt-on-error', '-no-shell-escape'];
        const r = spawnSync('pdflatex', [...flags, name], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
        if (r.error) throw new Error(`pdflatex did not run (${r.error.message}); scripts/setup-system.sh installs it`);
        expect(r.status, r.stdout.slice(-2000)).toBe(0);
        expect(readFileSync(join(dir, name.replace('.tex', '.log')), 'utf8')).toMatch(/Output written on .*\(1 page/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});

describe('layoutgpu show of a tiled MMA or copy, by its atom name', () => {
  it('draws what mma / copy draw: text by default, SVG and TikZ on request; a layout still shows as a grid', async () => {
    const mma = ['SM80_16x8x16_F32F16F16F32_TN', '--layout', '(2,2,1)'];
    const text = await run(['show', ...mma]);
    expect(text.code).toBe(0);
    expect(text.out).toBe((await run(['mma', ...mma, '--ascii'])).out);
    const m = makeTiledMma('SM80_16x8x16_F32F16F16F32_TN', parseLayout('(2,2,1)'));
    expect(text.out.trimEnd()).toBe(tvAscii(mmaPicture(m)).trimEnd());
    const svg = await run(['show', ...mma, '--svg', '-']);
    expect(svg.out).toBe((await run(['mma', ...mma, '--svg', '-'])).out);
    expect(svg.out).toContain('<svg');
    const copy = ['SM75_U32x4_LDSM_N', '--bits', '16', '--mma', 'SM80_16x8x16_F32F16F16F32_TN', '--layout', '(2,2,1)', '--operand', 'A'];
    const c = await run(['show', ...copy, '--tikz', '-']);
    expect(c.code).toBe(0);
    expect(c.out).toBe((await run(['copy', ...copy, '--tikz', '-'])).out);
    expect((await run(['show', '(4,8):(1,4)'])).out).toMatch(/^\(4,8\):\(1,4\)\n/);
    const bad = await run(['show', 'SM80_16x8x16_F32F16F16F32_TN', '--layout', '(2,2,2,2)']);
    expect(bad.code).toBe(2);
    expect(bad.err.split('\n').filter((l) => l !== '')).toHaveLength(1);
  });
});

/** The cells of a compact TV SVG (render/svg.ts svgUseGrid): per row group, each `<use href="#t<t>" x>` and its
 *  V<v> tspan at the same column; the thread's fill from its face in <defs>. In document order (panel, row, column). */
function svgCells(svg: string): { t: number; v: number; r: number; col: number; fill: string }[] {
  const fills = new Map([...svg.matchAll(/<g id="t(\d+)"><rect [^>]*fill="(#[0-9a-f]{6})"/g)].map(([, t, f]) => [Number(t), f!]));
  const out: { t: number; v: number; r: number; col: number; fill: string }[] = [];
  for (const [, r, body] of svg.matchAll(/<g data-row="(\d+)" transform="translate\(0,\d+\)">(.*?)<\/g>/g)) {
    const uses = [...body!.matchAll(/<use href="#t(\d+)" x="(\d+)"\/>/g)].map(([, t, x]) => ({ t: Number(t), col: Number(x) / 44 }));
    const labels = new Map([...body!.matchAll(/<tspan x="(\d+)">V(\d+)<\/tspan>/g)].map(([, x, v]) => [(Number(x) - 22) / 44, Number(v)]));
    for (const u of uses) out.push({ t: u.t, v: labels.get(u.col)!, r: Number(r), col: u.col, fill: fills.get(u.t)! });
  }
  return out;
}
