/**
 * The three media of a picture (src/render/ascii.ts, svg.ts, tikz.ts): every cell holds
 * Φ(r + rows·c) by brute force, tiled cells carry their tile's colour, and the TikZ compiles
 * with pdflatex to a one-page PDF (standalone, and the bare tikzpicture inside a document).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { logicalProduct } from '../../src/algebra/divide.js';
import { parseLayout } from '../../src/algebra/notation.js';
import { asciiPicture, renderGrid } from '../../src/render/ascii.js';
import { entryOpacity, tileColour } from '../../src/render/colour.js';
import { makePicture } from '../../src/render/grid.js';
import { svgPicture } from '../../src/render/svg.js';
import { tikzPicture } from '../../src/render/tikz.js';
import { divisionTiling, modeTiling } from '../../src/render/tiles.js';
import { mulberry32, phiB, showL, sizeB, type BL } from '../helpers/brute.js';
import { randomLayout } from '../helpers/arbitraries.js';

const rowsOf = (b: BL): number =>
  typeof b.shape === 'number' || b.shape.length <= 1 ? 1 : sizeB({ shape: b.shape[0]!, stride: (b.stride as BL['shape'][])[0]! });

/** cells of an SVG picture: index, offset, tile, entry, fill and the translate position */
function svgCells(svg: string): Array<{ x: number; v: number; tile?: number; entry?: number; fill?: string; tx: number; ty: number }> {
  const re = new RegExp(
    String.raw`<g class="cell[^"]*" data-index="(\d+)" data-offset="(\d+)"(?: data-tile="(\d+)" data-entry="(\d+)")? ` +
      String.raw`transform="translate\(([\d.]+),([\d.]+)\)">.*?<rect class="bg"[^>]*?(?: style="fill:(#[0-9a-f]{6})[^"]*")?\/><text[^>]*>(\d+)<\/text><\/g>`,
    'g',
  );
  return [...svg.matchAll(re)].map((m) => ({
    x: Number(m[1]),
    v: Number(m[2]),
    ...(m[3] !== undefined ? { tile: Number(m[3]), entry: Number(m[4]) } : {}),
    ...(m[7] !== undefined ? { fill: m[7] } : {}),
    tx: Number(m[5]),
    ty: Number(m[6]),
  }));
}

/** nodes of a TikZ picture at grid positions (r, c) ≥ 0: their fill and label */
function tikzNodes(tex: string): Array<{ r: number; c: number; fill: string; v: number }> {
  return [...tex.matchAll(/^\\node\[fill=([^,\]]+)[^\]]*\] at \((\d+),(\d+)\) \{(\d+)\};$/gm)].map((m) => ({
    fill: m[1]!,
    r: Number(m[2]),
    c: Number(m[3]),
    v: Number(m[4]),
  }));
}

describe('every medium puts Φ(r + rows·c) in cell (r, c)', () => {
  it('ASCII, SVG and TikZ on random layouts', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), (seed) => {
        const b = randomLayout(mulberry32(seed), { maxSize: 256 });
        const p = makePicture(parseLayout(showL(b)));
        const n = sizeB(b);
        const rows = rowsOf(b);
        // ASCII: the rows of the grid
        const ascii = asciiPicture(p).split('\n');
        for (let r = 0; r < rows; r++) {
          const line = ascii.find((s) => new RegExp(`^\\s*${r} \\|`).test(s))!;
          const got = line
            .slice(line.indexOf('|') + 1, -1)
            .split('|')
            .map((s) => Number(s.trim()));
          expect(got).toEqual(Array.from({ length: n / rows }, (_, c) => phiB(b, r + rows * c)));
        }
        // SVG: positions on the grid
        const cells = svgCells(svgPicture(p));
        expect(cells.length).toBe(n);
        const x0 = Math.min(...cells.map((c) => c.tx));
        const w = cells.length > 1 ? Math.min(...cells.map((c) => c.tx - x0).filter((d) => d > 0), Infinity) : 1;
        const y0 = Math.min(...cells.map((c) => c.ty));
        for (const c of cells) {
          const col = Math.round((c.tx - x0) / (Number.isFinite(w) ? w : 1));
          const row = Math.round((c.ty - y0) / 36);
          expect(c.x).toBe(row + rows * col);
          expect(c.v).toBe(phiB(b, c.x));
        }
        // TikZ: nodes at (r, c)
        const nodes = tikzNodes(tikzPicture(p));
        expect(nodes.length).toBe(n);
        for (const nd of nodes) expect(nd.v).toBe(phiB(b, nd.r + rows * nd.c));
      }),
      { numRuns: 60 },
    );
  });

  it('renderGrid is the ASCII picture of the layout', () => {
    const l = parseLayout('(2,2):(2,1)');
    expect(renderGrid(l)).toBe(asciiPicture(makePicture(l)));
    expect(
      renderGrid(l)
        .split('\n')
        .filter((s) => s.includes('|')),
    ).toEqual(['0 | 0 | 1 |', '1 | 2 | 3 |']);
  });
});

describe('tiled pictures: colour = tile, strength = entry', () => {
  const a = parseLayout('(4,8):(1,4)');
  const b = parseLayout('(2,2):(1,4)');
  const t = divisionTiling(a, b);
  const p = makePicture(a, { tiling: t });

  it('SVG cells carry tile, entry and the tile colour', () => {
    const cells = svgCells(svgPicture(p));
    expect(cells.length).toBe(32);
    for (const c of cells) {
      const te = t.tileOf(c.x)!;
      expect([c.tile, c.entry]).toEqual([te.tile, te.entry]);
      expect(c.fill).toBe(tileColour(te.tile));
    }
  });

  it('TikZ nodes are filled with their tile colour at the entry strength', () => {
    const tex = tikzPicture(p);
    for (const nd of tikzNodes(tex)) {
      const te = t.tileOf(nd.r + 4 * nd.c)!;
      expect(nd.fill).toBe(`tile${te.tile}!${Math.round(entryOpacity(te.entry, 4) * 100)}`);
    }
    for (let k = 0; k < 8; k++) expect(tex).toContain(`\\definecolor{tile${k}}{HTML}{${tileColour(k).slice(1).toUpperCase()}}`);
    expect(asciiPicture(p)).toMatch(/tile\.entry \(8 tiles of 4\)/);
  });
});

/** pdflatex on `tex` in a fresh directory: the page count from its log, or the failure */
function pdflatex(name: string, files: Record<string, string>): { pages: number; pdf: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'layoutgpu-tikz-'));
  try {
    for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
    const r = spawnSync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', '-no-shell-escape', name], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
    if (r.error) throw new Error(`pdflatex did not run (${r.error.message}); scripts/setup-system.sh installs texlive-latex-base and texlive-pictures`);
    expect(
      r.status,
      r.stdout
        .split('\n')
        .filter((l) => l.startsWith('!'))
        .join('\n') || r.stdout.slice(-800),
    ).toBe(0);
    const m = /Output written on .*\((\d+) pages?, \d+ bytes\)/.exec(r.stdout.replace(/\n/g, ''));
    expect(m, r.stdout.slice(-800)).not.toBeNull();
    return { pages: Number(m![1]), pdf: readFileSync(join(dir, name.replace(/\.tex$/, '.pdf'))) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the TikZ compiles with pdflatex', () => {
  it('a standalone document of a ⊗ tiling: one page', () => {
    const r = logicalProduct(parseLayout('(2,3):(3,1)'), parseLayout('(2,2):(1,2)'));
    const { pages, pdf } = pdflatex('product.tex', { 'product.tex': tikzPicture(makePicture(r, { tiling: modeTiling(r) })) });
    expect(pages).toBe(1);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('the bare tikzpicture inside a document of the user', () => {
    const body = tikzPicture(makePicture(parseLayout('(4,(2,2)):(2,(1,8))')), { body: true });
    expect(body).not.toMatch(/documentclass|begin\{document\}/);
    expect(body).toMatch(/^% Layout: \(4,\(2,2\)\):\(2,\(1,8\)\)\n\\begin\{tikzpicture\}/);
    const doc = '\\documentclass{article}\n\\usepackage{tikz}\n\\begin{document}\n\\input{body}\n\\end{document}\n';
    expect(pdflatex('doc.tex', { 'doc.tex': doc, 'body.tex': body }).pages).toBe(1);
  });
});
