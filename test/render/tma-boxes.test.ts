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
import { mulberry32 } from '../helpers/brute.js';
import { asciiCells, svgCells, tikzCells } from './_box-media.js';

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

describe('the box pictures draw every cell in its box', () => {
  it('ASCII, SVG and TikZ on random box assignments, small and big (compact) panels', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), fc.boolean(), (seed, big) => {
        const rnd = mulberry32(seed);
        const dim = (): number => (big ? 32 * (1 + Math.floor(rnd() * 6)) : 1 + Math.floor(rnd() * 24));
        const a = randomPanel(rnd, dim(), dim(), !big && rnd() < 0.3, big ? 8 : 1);
        const panels = [a.panel, { ...a.panel, title: 'panel again' }];
        const pic: BoxPicture = { title: 'random', labels: Array.from({ length: a.boxes }, (_, k) => `(${k})`), panels };
        const want = panels.map((p) => Array.from(p.box));
        expect(svgCells(boxSvg(pic), panels).map((c) => Array.from(c))).toEqual(want);
        expect(tikzCells(boxTikz(pic), panels).map((c) => Array.from(c))).toEqual(want);
        expect(asciiCells(boxAscii(pic), panels, a.boxes).map((c) => Array.from(c))).toEqual(want);
      }),
      { numRuns: 25 },
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
    expect([b.br, b.bc, b.rows, b.cols]).toEqual([4, 2, 32, 32]);
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
