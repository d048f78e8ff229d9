/**
 * The TMA box pictures (src/render/tma-boxes.ts) as a drawing of any box assignment: every cell
 * of every panel, read back from the ASCII, the SVG and the TikZ (a compact block standing for
 * all its cells), is the box the assignment gives it; one label per box and panel; big tiles are
 * drawn compact and only where the blocks are exact. The pictures of real descriptors, against
 * the library's boxes and the brute force, are in tma-pictures.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boxAscii, boxBlocks, boxSvg, boxTikz, MAX_BLOCKS, type BoxPanel, type BoxPicture } from '../../src/render/tma-boxes.js';
import { tileColour } from '../../src/render/colour.js';
import { mulberry32 } from '../helpers/brute.js';

/** A panel of rows × cols cells cut into a grid of rectangles (rows and cols split at random), each its own box,
 *  with a few cells of no box when `holes`; cuts fall on multiples of `step` (a big panel drawn compact). */
function randomPanel(rnd: () => number, rows: number, cols: number, holes: boolean, step: number): { panel: BoxPanel; boxes: number } {
  const cuts = (n: number): number[] => [0, ...Array.from({ length: n / step - 1 }, (_, i) => step * (i + 1)).filter(() => rnd() < 0.2), n];
  const rc = cuts(rows);
  const cc = cuts(cols);
  const box = new Int32Array(rows * cols);
  const band = (cs: number[], x: number): number => cs.findIndex((_, i) => x >= cs[i]! && x < cs[i + 1]!);
  for (let c = 0; c < cols; c++) for (let r = 0; r < rows; r++) box[r + rows * c] = band(rc, r) + (rc.length - 1) * band(cc, c);
  if (holes) for (let i = 0; i < box.length; i++) if (rnd() < 0.05) box[i] = -1;
  return { panel: { title: `panel ${rows}x${cols}`, rows, cols, box }, boxes: (rc.length - 1) * (cc.length - 1) };
}

/** The picture's SVG blocks, as the cells each stands for: cell (r, c) of panel q → box. */
function svgCells(svg: string, panels: readonly BoxPanel[]): Int32Array[] {
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
function tikzCells(tex: string, panels: readonly BoxPanel[]): Int32Array[] {
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
function asciiCells(text: string, panels: readonly BoxPanel[], boxes: number): Int32Array[] {
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

describe('the box pictures draw every cell in its box', () => {
  it('ASCII, SVG and TikZ on random box assignments, small and big (compact) panels', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), fc.boolean(), (seed, big) => {
        const rnd = mulberry32(seed);
        const dim = (): number => (big ? 64 * (1 + Math.floor(rnd() * 4)) : 1 + Math.floor(rnd() * 24));
        const a = randomPanel(rnd, dim(), dim(), !big && rnd() < 0.3, big ? 8 : 1);
        const panels = [a.panel, { ...a.panel, title: 'panel again' }];
        const pic: BoxPicture = { title: 'random', labels: Array.from({ length: a.boxes }, (_, k) => `(${k})`), panels };
        const want = panels.map((p) => Array.from(p.box));
        expect(svgCells(boxSvg(pic), panels).map((c) => Array.from(c))).toEqual(want);
        expect(tikzCells(boxTikz(pic), panels).map((c) => Array.from(c))).toEqual(want);
        expect(asciiCells(boxAscii(pic), panels, a.boxes).map((c) => Array.from(c))).toEqual(want);
      }),
      { numRuns: 40 },
    );
  });

  it('one label per box present in a panel, none for an absent box', () => {
    const box = Int32Array.from({ length: 64 }, (_, x) => Math.floor(x / 16)); // 4 rows × 16 columns: 4 column bands
    const panel: BoxPanel = { title: 'p', rows: 4, cols: 16, box };
    const svg = boxSvg({ title: 't', labels: ['(0)', '(1)', '(2)', '(3)', '(4)'], panels: [panel] });
    const labels = [...svg.matchAll(/<text class="box-label[^"]*" data-box="(\d+)"/g)].map((m) => Number(m[1]));
    expect(labels).toEqual([0, 1, 2, 3]);
    const tex = boxTikz({ title: 't', labels: ['(0)', '(1)', '(2)', '(3)', '(4)'], panels: [panel] });
    expect(tex.match(/^\\node(\[text=white\])? at /gm)).toHaveLength(4);
  });
});

describe('compact pictures', () => {
  it('a 128 × 64 tile of one box is drawn as few blocks, every block exact', () => {
    const panel: BoxPanel = { title: 'p', rows: 128, cols: 64, box: new Int32Array(128 * 64) };
    const b = boxBlocks(panel);
    expect([b.br, b.bc, b.rows, b.cols]).toEqual([2, 1, 64, 64]);
  });

  it('blocks never straddle a change of box: a box boundary at row 3 of 256 keeps blocks of one row', () => {
    const rows = 256;
    const box = Int32Array.from({ length: rows * 4 }, (_, x) => (x % rows < 3 ? 0 : 1));
    const b = boxBlocks({ title: 'p', rows, cols: 4, box });
    expect(b.br).toBe(1);
    expect(b.rows).toBe(rows);
  });

  it('within bounds the grid is drawn cell by cell', () => {
    const b = boxBlocks({ title: 'p', rows: MAX_BLOCKS, cols: 3, box: new Int32Array(MAX_BLOCKS * 3) });
    expect([b.br, b.bc]).toEqual([1, 1]);
  });
});
