/**
 * `show` of a swizzled layout makes the swizzle visible (issue 18): the SVG and the TikZ colour
 * each cell by the bits the swizzle writes, and the TikZ header names the composed layout. The
 * oracle is the definition of Sw<B,M,S> evaluated by hand on the offsets of the inner layout.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLayoutFunction } from '../../src/cute/composed.js';
import { tileColour } from '../../src/render/colour.js';
import { composedPicture } from '../../src/render/composed.js';
import { svgPicture } from '../../src/render/svg.js';
import { tikzPicture } from '../../src/render/tikz.js';
import { asciiPicture } from '../../src/render/ascii.js';
import { showCommand } from '../../src/cli/show.js';

/** Sw<B,M,S> by its definition: y XOR ((y AND Ymask) >> S), Ymask = (2^B − 1) << (M + max(0, S)) */
function sw(b: number, m: number, s: number, y: number): number {
  const mask = (2 ** b - 1) * 2 ** (m + Math.max(0, s));
  const src = y & mask;
  return y ^ (s >= 0 ? src >>> s : src << -s);
}

const TEXT = 'Sw<3,3,3> o (8,64):(64,1)';
/** the bits Sw<3,3,3> writes at cell (r, c) of (8,64):(64,1): offset bits 3..5 after the swizzle */
const klass = (r: number, c: number): number => (sw(3, 3, 3, 64 * r + c) >> 3) & 7;

describe('the swizzle is visible in SVG and TikZ', () => {
  const pic = composedPicture(parseLayoutFunction(TEXT));
  it('SVG: every cell is filled with the colour of the bits the swizzle writes', () => {
    const svg = svgPicture(pic);
    expect(svg).toContain('<title>picture of Sw&lt;3,3,3&gt; o (8,64):(64,1)</title>');
    const cells = [...svg.matchAll(/<g class="cell[^"]*" data-index="(\d+)" data-offset="(\d+)" data-swizzle="(\d+)"[^>]*>.*?style="fill:(#[0-9a-f]{6})/g)];
    expect(cells.length).toBe(512);
    for (const m of cells) {
      const x = Number(m[1]);
      const [r, c] = [x % 8, Math.floor(x / 8)];
      expect(Number(m[2])).toBe(sw(3, 3, 3, 64 * r + c));
      expect(Number(m[3])).toBe(klass(r, c));
      expect(m[4]).toBe(tileColour(klass(r, c)));
    }
    expect(new Set(cells.map((m) => m[4])).size).toBe(8);
    // the swizzle shows: row r's colours are row 0's permuted by XOR with r
    expect(klass(1, 0)).not.toBe(klass(0, 0));
  });
  it('TikZ: the header names the composed layout; fills follow the swizzled bits, not Φ mod 8', () => {
    const tex = tikzPicture(pic, { body: true });
    expect(tex.split('\n')[0]).toBe(`% Layout: ${TEXT}`);
    const nodes = [...tex.matchAll(/^\\node\[fill=sw(\d)!55[^\]]*\] at \((\d+),(\d+)\) \{(\d+)\};$/gm)];
    expect(nodes.length).toBe(512);
    for (const m of nodes) {
      const [r, c] = [Number(m[2]), Number(m[3])];
      expect(Number(m[1])).toBe(klass(r, c));
      expect(Number(m[4])).toBe(sw(3, 3, 3, 64 * r + c));
    }
    for (let k = 0; k < 8; k++) expect(tex).toContain(`\\definecolor{sw${k}}{HTML}{${tileColour(k).slice(1).toUpperCase()}}`);
  });
  it('a negative shift writes the bits from M − S: Sw<2,1,-3>', () => {
    const p = composedPicture(parseLayoutFunction('Sw<2,1,-3> o (4,32):(32,1)'));
    expect(p.swizzle).toEqual({ low: 4, bits: 2 });
    const svg = svgPicture(p);
    for (const m of svg.matchAll(/data-offset="(\d+)" data-swizzle="(\d+)"/g)) expect(Number(m[2])).toBe((Number(m[1]) >> 4) & 3);
  });
  it('the text picture and show name the composed layout', async () => {
    expect(asciiPicture(pic).split('\n')[0]).toBe(TEXT);
    let out = '';
    const code = await showCommand.run([TEXT, '--tikz', '-'], { stdout: (s) => void (out += s), stderr: () => undefined, isTTY: false });
    expect(code).toBe(0);
    expect(out.split('\n')[0]).toBe(`% Layout: ${TEXT}`);
  });
  it('the swizzled TikZ compiles with pdflatex', () => {
    const dir = mkdtempSync(join(tmpdir(), 'layoutgpu-swz-'));
    try {
      writeFileSync(join(dir, 'sw.tex'), tikzPicture(composedPicture(parseLayoutFunction('Sw<3,3,3> o (8,16):(16,1)'))));
      const r = spawnSync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', '-no-shell-escape', 'sw.tex'], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 120_000,
      });
      expect(r.status, r.stdout.slice(-800)).toBe(0);
      expect(r.stdout.replace(/\n/g, '')).toMatch(/Output written on .*\(1 page/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
