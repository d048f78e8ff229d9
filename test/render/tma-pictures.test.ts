/**
 * The pictures of real TMA descriptors (src/render/tma-pictures.ts) against the brute force: the TMA writes its boxes
 * into shared memory in address order, ∏ boxDim elements each, element t of a box (t = j_0 + boxDim_0·(j_1 + …))
 * read from G at the box's first element plus Σ j_i · stride_i (stride_0 = 1, the others globalStrides / e). So for
 * every element y of the tile: its rank v among the tile's (plain) smem offsets names its box ⌊v / ∏ boxDim⌋ and its
 * place t = v mod ∏ boxDim, and Φ_G∘T(y) — the global element the tiler puts at y, by the algebra's composition —
 * must be the box's first element's plus Σ j_i · stride_i. The library's box map must agree, and every cell the
 * ASCII, SVG and TikZ draw over the global tile (cell (r, c) = y = r + rows·c) and over shared memory (offset
 * Φ_S(y), swizzled, at row ⌊o / boxDim_0⌋) must be y's box.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { phi, size } from '../../src/algebra/layout.js';
import { parseLayout } from '../../src/algebra/notation.js';
import { innerLayout, parseLayoutFunction, phiLayoutFunctionBig } from '../../src/cute/composed.js';
import { composeByMode } from '../../src/cute/divide.js';
import { parseTiler, type Tiler } from '../../src/cute/tiler.js';
import { readTmaArgs, tmaDesc } from '../../src/descriptors/api.js';
import { tmaBoxMap } from '../../src/descriptors/boxes.js';
import { dtypeOf } from '../../src/descriptors/dtype.js';
import { defaultTiler } from '../../src/descriptors/tma.js';
import { boxAscii, boxSvg, boxTikz } from '../../src/render/tma-boxes.js';
import { tmaBoxPicture, type TmaPictureArg } from '../../src/render/tma-pictures.js';
import { kindOf } from '../helpers/kind.js';
import { asciiCells, svgCells, tikzCells } from './_box-media.js';

/** Valid pairs of the worked examples (docs/descriptors.md §2) and a few more: swizzles, MN-major, padding, stages, a tiler. */
const CASES: TmaPictureArg[] = [
  { gmem: '(4096,4096):(4096,1)', dtype: 'bfloat16_t', smem: 'Sw<3,3,3> o ((8,16),(64,1)):((64,512),(1,0))' },
  { gmem: '(4096,2048):(1,4096)', dtype: 'half_t', smem: 'Sw<3,3,3> o ((64,2),(8,8)):((1,512),(64,1024))' },
  { gmem: '(1024,1024):(1024,1)', dtype: 'half_t', smem: 'Sw<0,3,3> o ((8,8),(8,8)):((8,64),(1,512))' },
  { gmem: '(4096,4096):(4096,1)', dtype: 'float', smem: 'Sw<3,2,3> o ((8,16),(32,4)):((32,256),(1,4096))' },
  { gmem: '(4096,4096):(4096,1)', dtype: 'half_t', smem: '(64,32):(40,1)' },
  { gmem: '(4096,4096):(1,4096)', dtype: 'float', smem: 'Sw<2,3,2> o ((32,4),(4,8)):((1,128),(32,512))' },
  { gmem: '(4096,4096,8):(4096,1,16777216)', dtype: 'bfloat16_t', smem: 'Sw<3,3,3> o ((8,16),(64,1),(1,3)):((64,512),(1,0),(0,8192))' },
  { gmem: '(2048,1024,16):(1024,1,2097152)', dtype: 'half_t', smem: 'Sw<3,3,3> o ((8,16),(64,1)):((64,512),(1,0))', tiler: '(128,64)' },
  { gmem: '(64,64):(64,1)', dtype: 'uint8_t', smem: '(16,64):(64,1)' },
];

/** y → its box by the TMA's own addressing (see the header), checking Φ_G∘T(y) against the box's elements. */
function bruteBoxes(arg: TmaPictureArg): Int32Array {
  const d = tmaDesc(arg);
  const e = dtypeOf(arg.dtype as string).bytes;
  const s = innerLayout(parseLayoutFunction(arg.smem as string));
  const t: Tiler = arg.tiler === undefined ? defaultTiler(s) : parseTiler(arg.tiler as string);
  const gt = composeByMode(parseLayout(arg.gmem as string), t);
  const n = size(s);
  const plain = Array.from({ length: n }, (_, y) => phi(s, y));
  const order = [...plain.keys()].sort((a, b) => plain[a]! - plain[b]!);
  const per = d.boxDim.reduce((a, b) => a * b, 1);
  const strides = [1, ...d.globalStrides.map((b) => b / e)];
  const box = new Int32Array(n);
  order.forEach((y, v) => {
    const k = Math.floor(v / per);
    let t = v % per;
    let want = phi(gt, order[k * per]!);
    d.boxDim.forEach((b, i) => {
      want += (t % b) * strides[i]!;
      t = Math.floor(t / b);
    });
    expect(phi(gt, y), `element ${y}: box ${k}`).toBe(want);
    box[y] = k;
  });
  expect(d.boxes).toBe(n / per);
  return box;
}

describe('the boxes of a TMA descriptor, drawn', () => {
  it.each(CASES)('$smem over $gmem ($dtype): every cell of both panels in its box, in every medium', (arg) => {
    const box = bruteBoxes(arg);
    expect(Array.from(tmaBoxMap(readTmaArgs(arg)).boxOf)).toEqual(Array.from(box));
    const pic = tmaBoxPicture(arg);
    const [smem, global] = pic.panels;
    // the global tile: cell (r, c) is tile element r + rows·c
    expect(global!.rows * global!.cols).toBe(box.length);
    // shared memory: element y at its (swizzled) offset, rows of boxDim[0]; no other cell written
    const w = tmaDesc(arg).boxDim[0]!;
    expect(smem!.cols).toBe(w);
    const sf = parseLayoutFunction(arg.smem as string);
    const want = new Int32Array(smem!.rows * w).fill(-1);
    box.forEach((k, y) => {
      const o = Number(phiLayoutFunctionBig(sf, y));
      const at = Math.floor(o / w) + smem!.rows * (o % w);
      if (want[at]! < 0) want[at] = k; // the lowest element stored there (y ascending)
    });
    const expected = [Array.from(want), Array.from(box)];
    expect(pic.panels.map((p) => Array.from(p.box))).toEqual(expected);
    expect(svgCells(boxSvg(pic), pic.panels).map((c) => Array.from(c))).toEqual(expected);
    expect(tikzCells(boxTikz(pic), pic.panels).map((c) => Array.from(c))).toEqual(expected);
    expect(asciiCells(boxAscii(pic), pic.panels, pic.labels.length).map((c) => Array.from(c))).toEqual(expected);
    expect(pic.labels).toHaveLength(tmaDesc(arg).boxes);
  });

  it('one label per box: the padded tile’s 64 boxes, one per row, each labelled where its row starts', () => {
    const pic = tmaBoxPicture({ gmem: '(4096,4096):(4096,1)', dtype: 'half_t', smem: '(64,32):(40,1)' });
    expect(pic.labels).toHaveLength(64);
    expect(pic.labels[5]).toBe('G (5,0), tile (5,0)');
    // the MN-major tile's box 3: rows 64…127 of G, K columns 8…15
    expect(tmaBoxPicture(CASES[1]!).labels[3]).toBe('G (64,8), tile (64,8)');
    // with a tiler over a 3-mode G: the batch coordinate 0
    expect(tmaBoxPicture(CASES[7]!).labels[0]).toBe('G (0,0,0), tile (0,0)');
    const svg = boxSvg(pic);
    expect(svg.match(/<text class="box-label[^"]*" data-box="5"/g)).toHaveLength(2); // once per panel
  });

  it('a refused tensor map draws nothing: the rule (domain); a tile beyond the bound is bad-request', () => {
    expect(kindOf(() => tmaBoxPicture({ gmem: '(1024,1024):(1024,1)', dtype: 'half_t', smem: 'Sw<3,3,3> o (8,128):(128,1)' }))).toBe('domain');
    expect(kindOf(() => tmaBoxPicture({ gmem: '(4096,4096):(4096,1)', dtype: 'half_t', smem: '(512,256):(256,1)' }))).toBe('bad-request');
    expect(kindOf(() => tmaBoxPicture({ gmem: '(4096,4096):(4096,1', dtype: 'half_t', smem: '(64,32):(32,1)' }))).toBe('parse');
  });
});

describe('the TikZ compiles with pdflatex', () => {
  it('the standalone document of an MN-major tile: one page', () => {
    const tex = boxTikz(tmaBoxPicture(CASES[1]!));
    const dir = mkdtempSync(join(tmpdir(), 'layoutgpu-tma-tikz-'));
    try {
      writeFileSync(join(dir, 'boxes.tex'), tex);
      const r = spawnSync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', '-no-shell-escape', 'boxes.tex'], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 120_000,
      });
      if (r.error) throw new Error(`pdflatex did not run (${r.error.message}); scripts/setup-system.sh installs it`);
      expect(r.status, r.stdout.slice(-800)).toBe(0);
      expect(r.stdout.replace(/\n/g, '')).toMatch(/Output written on .*\(1 page/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);
});
