/**
 * Bank pictures a kernel engineer reads (issue 18): the 128×64 tile (8,192 cells) is drawn; each
 * cell is filled with one of 32 distinct bank colours, the bank by definition (word ⌊e·offset/4⌋
 * mod 32); conflicted cells stay marked (ways by brute force over the phases); cells can be
 * labelled by the thread and value that access them (`T5 V2`); the TikZ form compiles.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mode, phi, size } from '../../src/algebra/layout.js';
import { parseLayout } from '../../src/algebra/notation.js';
import { innerLayout, parseLayoutFunction } from '../../src/cute/composed.js';
import { applySwizzle } from '../../src/cute/swizzle.js';
import { bankMap } from '../../src/memory/banks.js';
import { accessorsOf, BANK_PALETTE, bankSvg, bankTikz } from '../../src/render/banks.js';
import { composedPicture } from '../../src/render/composed.js';
import type { Picture } from '../../src/render/grid.js';
import { threadValues } from '../../src/memory/access.js';

const TV128 = '((8,4,4),(8,2,4)):((1,1024,8),(128,4096,32))';
const TV8 = '((8,4),(8,2)):((1,64),(8,256))';

/** Φ_M by the definition (plain, or Sw<B,M,S> o L evaluated as Sw(Φ_L(x))) */
function offsetOf(mText: string): (x: number) => number {
  const m = parseLayoutFunction(mText);
  if ('kind' in m) return (x) => applySwizzle(m.swizzle, m.offset + phi(m.inner, x));
  return (x) => phi(m, x);
}

/** ways per tile index by brute force: per phase (tpp threads of one instruction), the distinct
 *  4-byte words of each bank; a cell takes the most its bank held in a phase that read it */
function bruteWays(mText: string, tvText: string, e: number, v: number): number[] {
  const tv = parseLayout(tvText);
  const T = size(mode(tv, 1));
  const V = size(tv) / T;
  const off = offsetOf(mText);
  const n = size(innerLayout(parseLayoutFunction(mText)));
  const ways = new Array<number>(n).fill(0);
  const tpp = v * e <= 4 ? 32 : 128 / (v * e);
  for (let w0 = 0; w0 < T; w0 += 32) {
    for (let k = 0; k < V / v; k++) {
      for (let f = w0; f < Math.min(w0 + 32, T); f += tpp) {
        const words = new Map<number, Set<number>>();
        const cells: { x: number; bank: number }[] = [];
        for (let t = f; t < Math.min(f + tpp, w0 + 32, T); t++) {
          for (let i = 0; i < v; i++) {
            const x = phi(tv, t + T * (k * v + i));
            const a = e * off(x);
            for (let b = 0; b < Math.max(e, 1); b += 4) {
              const w = Math.floor((a + b) / 4);
              if (!words.has(w % 32)) words.set(w % 32, new Set());
              words.get(w % 32)!.add(w);
            }
            cells.push({ x, bank: Math.floor(a / 4) % 32 });
          }
        }
        for (const c of cells) ways[c.x] = Math.max(ways[c.x]!, words.get(c.bank)!.size);
      }
    }
  }
  return ways;
}

/** The cells of a compact bank SVG (render/svg.ts svgUseGrid): per row group, each `<use href="#b<bank>[w<ways>]" x>`
 *  and the label tspan at its column; the fill and the conflict mark from its face in <defs>; x = the grid's index. */
function cellsOf(
  svg: string,
  p: Picture,
): { x: number; v: number; bank: number; ways: number; t?: number; j?: number; fill: string; label: string; conflict: boolean }[] {
  const faces = new Map(
    [...svg.matchAll(/<g id="(b\d+(?:w\d+)?)" class="([^"]*)"><rect class="bg" [^>]*style="fill:(#[0-9a-f]{6})"\/>/g)].map(([, id, cls, fill]) => [
      id!,
      { cls: cls!, fill: fill! },
    ]),
  );
  const cw = Number(/<rect class="bg" width="(\d+)"/.exec(svg)![1]);
  const out: ReturnType<typeof cellsOf> = [];
  for (const [, r, body] of svg.matchAll(/<g data-row="(\d+)" transform="translate\(0,\d+\)">(.*?)<\/g>/g)) {
    const labels = new Map([...body!.matchAll(/<tspan x="(\d+)"[^>]*>([^<]*)<\/tspan>/g)].map(([, x, l]) => [(Number(x) - cw / 2) / cw, l!]));
    for (const [, id, bank, w, xText] of body!.matchAll(/<use href="#(b(\d+)(?:w(\d+))?)" x="(\d+)"\/>/g)) {
      const col = Number(xText) / cw;
      const x = p.grid.index(Number(r), col);
      const label = labels.get(col) ?? '';
      const tv = /^T(\d+) V(\d+)$/.exec(label);
      const face = faces.get(id!)!;
      out.push({
        conflict: face.cls.includes('conflict'),
        x,
        v: p.offsets[x]!,
        bank: Number(bank),
        ways: w === undefined ? -1 : Number(w),
        ...(tv ? { t: Number(tv[1]), j: Number(tv[2]) } : {}),
        fill: face.fill,
        label,
      });
    }
  }
  return out;
}

describe('the bank colours', () => {
  it('32 distinct colours, neighbouring banks distinct', () => {
    expect(new Set(BANK_PALETTE).size).toBe(32);
    for (const c of BANK_PALETTE) expect(c).toMatch(/^#[0-9a-f]{6}$/);
  });
});

describe('bankSvg of real tiles', () => {
  for (const [mText, tvText, v] of [
    ['(128,64):(64,1)', TV128, 8],
    ['Sw<3,3,3> o (128,64):(64,1)', TV128, 8],
    ['(8,64):(64,1)', TV8, 8],
  ] as const) {
    it(`${mText}: every cell drawn, filled by its bank, conflicts marked as brute force finds them`, () => {
      const m = parseLayoutFunction(mText);
      const map = bankMap(m, parseLayout(tvText), 2);
      expect(map.report.vector).toBe(v);
      const pic = composedPicture(m);
      const cells = cellsOf(bankSvg(pic, map.bank, map.ways, mText), pic);
      const off = offsetOf(mText);
      const ways = bruteWays(mText, tvText, 2, v);
      expect(cells.length).toBe(ways.length);
      for (const c of cells) {
        expect(c.v).toBe(off(c.x));
        const bank = Math.floor((2 * c.v) / 4) % 32;
        expect(c.bank).toBe(bank);
        expect(c.fill).toBe(BANK_PALETTE[bank]);
        // the face says the ways of a conflicted cell; 0 (not accessed) and 1 look alike, with no mark
        expect(c.ways, `x = ${c.x}`).toBe(ways[c.x]! > 1 ? ways[c.x] : -1);
        expect(c.label).toBe(String(c.v));
        expect(c.conflict).toBe(ways[c.x]! > 1);
        expect(c.label).toBe(String(c.v));
      }
      // compact: a 128×64 tile well under its 2.3 MB of one element per cell before
      if (cells.length === 8192) expect(bankSvg(pic, map.bank, map.ways, mText).length).toBeLessThan(700_000);
      if (mText.startsWith('Sw')) expect(cells.some((c) => c.conflict)).toBe(false);
      else expect(cells.every((c) => c.conflict)).toBe(true);
    }, 60_000);
  }
  it('labels cells by thread and value, T5 V2: the first (t, j) with Φ_TV(t, j) = x', () => {
    const m = parseLayoutFunction('(8,64):(64,1)');
    const tv = parseLayout(TV8);
    const map = bankMap(m, tv, 2);
    const tvs = threadValues(tv);
    const pic = composedPicture(m);
    const svg = bankSvg(pic, map.bank, map.ways, 'tv', { label: 'tv', accessors: accessorsOf(tvs.index, tvs.threads, 512) });
    const cells = cellsOf(svg, pic);
    expect(cells.length).toBe(512);
    const T = 32;
    for (const c of cells) {
      let first: [number, number] | null = null;
      for (let t = 0; t < T && !first; t++) for (let j = 0; j < 16 && !first; j++) if (phi(tv, t + T * j) === c.x) first = [t, j];
      expect([c.t, c.j]).toEqual(first);
      expect(c.label).toBe(`T${first![0]} V${first![1]}`);
    }
    expect(svg).toMatch(/>T5 V2</);
  });
});

describe('bankTikz', () => {
  it('names the layout, fills by bank, frames conflicts, and compiles with pdflatex', () => {
    const m = parseLayoutFunction('(8,64):(64,1)');
    const map = bankMap(m, parseLayout(TV8), 2);
    const tex = bankTikz(composedPicture(m), map.bank, map.ways);
    expect(tex.split('\n')[0]).toBe('% Banks: (8,64):(64,1)');
    const nodes = [...tex.matchAll(/^\\node\[fill=bank(\d+)([^\]]*)\] at \((\d+),(\d+)\) \{(\d+)\};/gm)];
    expect(nodes.length).toBe(512);
    for (const n of nodes) {
      const v = Number(n[5]);
      expect(v).toBe(64 * Number(n[3]) + Number(n[4]));
      expect(Number(n[1])).toBe(Math.floor((2 * v) / 4) % 32);
      expect(n[2]).toContain('draw=red');
    }
    const dir = mkdtempSync(join(tmpdir(), 'layoutgpu-banks-'));
    try {
      writeFileSync(join(dir, 'b.tex'), ['\\documentclass{article}', '\\usepackage{tikz}', '\\begin{document}', tex, '\\end{document}', ''].join('\n'));
      const r = spawnSync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', '-no-shell-escape', 'b.tex'], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 120_000,
      });
      expect(r.status, r.stdout.slice(-800)).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
