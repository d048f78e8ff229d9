/**
 * Reading the TMA box pictures back (src/render/tma-boxes.ts): for each medium, every cell of every panel as the box
 * its block is drawn in (a compact block stands for all its cells; -2: no block drew the cell), for the render and
 * CLI tests.
 */
import { expect } from 'vitest';
import { tileColour } from '../../src/render/colour.js';
import { boxBlocks, type BoxPanel } from '../../src/render/tma-boxes.js';

/** The picture's SVG blocks, as the cells each stands for: cell (r, c) of panel q → box. */
export function svgCells(svg: string, panels: readonly BoxPanel[]): Int32Array[] {
  const cells = panels.map((p) => new Int32Array(p.rows * p.cols).fill(-2));
  const groups = svg.split('<g class="box-panel"').slice(1);
  groups.forEach((g, q) => {
    const p = panels[q]!;
    for (const m of g.matchAll(
      /<rect class="box-block" data-box="(-?\d+)" data-row="(\d+)" data-col="(\d+)" data-rows="(\d+)" data-cols="(\d+)"[^>]*fill="(#[0-9a-f]{6})"/g,
    )) {
      const [k, r0, c0, nr, nc] = m.slice(1, 6).map(Number) as [number, number, number, number, number];
      expect(m[6]).toBe(k < 0 ? '#ffffff' : tileColour(k));
      for (let c = c0; c < c0 + nc; c++) for (let r = r0; r < r0 + nr; r++) cells[q]![r + p.rows * c] = k;
    }
  });
  return cells;
}

/** The TikZ blocks (`% block r c rows cols box k` above each fill), likewise. */
export function tikzCells(tex: string, panels: readonly BoxPanel[]): Int32Array[] {
  const cells = panels.map((p) => new Int32Array(p.rows * p.cols).fill(-2));
  let q = -1;
  for (const line of tex.split('\n')) {
    if (/^% panel \d+: /.test(line)) q++;
    const m = /^% block (\d+) (\d+) (\d+) (\d+) box (-?\d+)$/.exec(line);
    if (!m) continue;
    const [r0, c0, nr, nc, k] = m.slice(1).map(Number) as [number, number, number, number, number];
    const p = panels[q]!;
    for (let c = c0; c < c0 + nc; c++) for (let r = r0; r < r0 + nr; r++) cells[q]![r + p.rows * c] = k;
  }
  return cells;
}

/** The ASCII marks, read back through the key (mark → box) and each row's and column's first cell index. */
export function asciiCells(text: string, panels: readonly BoxPanel[], boxes: number): Int32Array[] {
  const key = new Map<string, number>([['.', -1]]);
  for (const m of text.matchAll(/^ {2}(\S+) = box (\d+) at /gm)) key.set(m[1]!, Number(m[2]));
  expect(key.size).toBe(boxes + 1);
  const sections = text.split('\n\n').slice(1, 1 + panels.length);
  return sections.map((sec, q) => {
    const p = panels[q]!;
    const b = boxBlocks(p);
    const lines = sec.split('\n');
    const rowsText = lines.slice(lines.length - b.rows);
    const cells = new Int32Array(p.rows * p.cols).fill(-2);
    rowsText.forEach((line, i) => {
      const [first, ...marks] = line.trim().split(/\s+/);
      expect(Number(first)).toBe(i * b.br);
      expect(marks).toHaveLength(b.cols);
      marks.forEach((mk, j) => {
        for (let c = j * b.bc; c < Math.min(p.cols, (j + 1) * b.bc); c++)
          for (let r = i * b.br; r < Math.min(p.rows, (i + 1) * b.br); r++) cells[r + p.rows * c] = key.get(mk) ?? -3;
      });
    });
    return cells;
  });
}
