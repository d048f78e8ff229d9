/**
 * The page's descriptors panel (src/web/descriptors-panel.ts) in headless Chromium, against the page as vite builds it
 * (into a directory of its own). For several inputs — CUTLASS atoms tiled to a shape, K- and MN-major, sm90 and sm100,
 * a padded layout, a refused tensor map and a string that does not parse — every field the panel shows is compared
 * with the library run here in Node: the tile (atomTiledTo), each key of tma_desc's result (tmaDesc), every cell of
 * both box pictures (tmaBoxMap: the global tile cell by cell, shared memory by swizzled offset), each k-block's
 * gmma_desc result or error kind (kBlocks, gmmaDesc), the alignment; errors by kind and message. No page errors.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LayoutError } from '../../src/algebra/errors.js';
import { parseTuple } from '../../src/algebra/notation.js';
import { formatLayoutFunction, parseLayoutFunction } from '../../src/cute/composed.js';
import { gmmaDesc, readTmaArgs, tmaDesc, type TmaArgs } from '../../src/descriptors/api.js';
import { atomByName, atomTiledTo } from '../../src/descriptors/atoms.js';
import { tmaBoxMap } from '../../src/descriptors/boxes.js';
import { dtypeOf } from '../../src/descriptors/dtype.js';
import { kBlocks } from '../../src/descriptors/kblocks.js';
import { builtPage, watchedPage } from '../helpers/browser.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SHOTS = join(ROOT, 'test-results');

/** One input of the panel: the tile from an atom (name, shape) or a layout. */
interface Input {
  dtype: string;
  gmem: string;
  atom?: { name: string; shape: string };
  smem?: string;
  tiler?: string;
  major: 'K' | 'MN';
  arch: 'sm90' | 'sm100';
}

const INPUTS: Input[] = [
  { dtype: 'bfloat16_t', gmem: '(4096,4096):(4096,1)', atom: { name: 'Layout_K_SW128_Atom', shape: '128x64' }, major: 'K', arch: 'sm90' },
  { dtype: 'half_t', gmem: '(4096,2048):(1,4096)', atom: { name: 'Layout_MN_SW128_Atom', shape: '128x64' }, major: 'MN', arch: 'sm100' },
  { dtype: 'float', gmem: '(4096,4096):(4096,1)', atom: { name: 'Layout_K_SW32_Atom', shape: '64x32' }, major: 'K', arch: 'sm90' },
  { dtype: 'half_t', gmem: '(4096,4096):(4096,1)', smem: '(64,32):(40,1)', major: 'K', arch: 'sm90' },
  {
    dtype: 'half_t',
    gmem: '(2048,1024,16):(1024,1,2097152)',
    smem: 'Sw<3,3,3> o ((8,16),(64,1)):((64,512),(1,0))',
    tiler: '(128,64)',
    major: 'K',
    arch: 'sm90',
  },
  // refused: rows of 256 bytes under the 128-byte swizzle (the TMA), and no canonical GMMA form
  { dtype: 'half_t', gmem: '(1024,1024):(1024,1)', smem: 'Sw<3,3,3> o (8,128):(128,1)', major: 'K', arch: 'sm90' },
];

/** What the library answers, or the error's kind and message. */
function outcome<T>(f: () => T): { ok: true; value: T } | { ok: false; kind: string; message: string } {
  try {
    return { ok: true, value: f() };
  } catch (e) {
    if (!(e instanceof LayoutError)) throw e;
    return { ok: false, kind: e.kind, message: e.message };
  }
}

async function setInput(page: Page, x: Input): Promise<void> {
  await page.getByTestId('desc-dtype').selectOption(x.dtype);
  await page.getByTestId('desc-gmem').fill(x.gmem);
  await page.getByTestId('desc-tiler').fill(x.tiler ?? '');
  await page.getByTestId('desc-major').selectOption(x.major);
  await page.getByTestId('desc-arch').selectOption(x.arch);
  if (x.atom) {
    await page.getByTestId('desc-source').selectOption('atom');
    await page.getByTestId('desc-atom').selectOption(x.atom.name);
    await page.getByTestId('desc-shape').fill(x.atom.shape);
  } else {
    await page.getByTestId('desc-source').selectOption('layout');
    await page.getByTestId('desc-smem').fill(x.smem!);
  }
}

/** The panel's state once it shows this tile: the fields, the pictures' blocks, the k-blocks. */
async function read(page: Page) {
  return page.$eval('[data-testid="descriptors-card"]', (card) => {
    const attr = (el: Element | null, a: string): string | null => el?.getAttribute(a) ?? null;
    const q = (id: string): Element | null => card.querySelector(`[data-testid="${id}"]`);
    return {
      tile: attr(q('desc-tile'), 'data-layout'),
      tma: Object.fromEntries([...card.querySelectorAll('[data-testid="tma-field"]')].map((f) => [attr(f, 'data-key'), JSON.parse(attr(f, 'data-value')!)])),
      tmaError: q('tma-error') ? { kind: attr(q('tma-error'), 'data-error-kind'), text: q('tma-error')!.textContent } : null,
      panels: [...card.querySelectorAll('[data-testid="tma-picture"] .box-panel')].map((p) => ({
        rows: Number(attr(p, 'data-rows')),
        cols: Number(attr(p, 'data-cols')),
        blocks: [...p.querySelectorAll('rect.box-block')].map((r) =>
          ['data-box', 'data-row', 'data-col', 'data-rows', 'data-cols'].map((a) => Number(attr(r, a))),
        ),
        labels: [...p.querySelectorAll('text.box-label')].map((t) => Number(attr(t, 'data-box'))),
      })),
      blocks: [...card.querySelectorAll('[data-testid="gmma-block"]')].map((b) => ({
        k: Number(attr(b, 'data-k')),
        offset: Number(attr(b, 'data-offset')),
        layout: attr(b, 'data-layout'),
        fields: Object.fromEntries([...b.querySelectorAll('[data-testid="gmma-field"]')].map((f) => [attr(f, 'data-key'), JSON.parse(attr(f, 'data-value')!)])),
        error: attr(b.querySelector('[data-testid="gmma-error"]'), 'data-error-kind'),
        errorText: b.querySelector('[data-testid="gmma-error"]')?.textContent ?? null,
      })),
      alignment: Number(attr(q('desc-alignment'), 'data-bytes')),
    };
  });
}

/** Cell (r, c) of a panel of the picture → its box, from the drawn blocks (each stands for all its cells). */
function cellsOf(p: { rows: number; cols: number; blocks: number[][] }): number[] {
  const cells = new Array<number>(p.rows * p.cols).fill(-2);
  for (const [k, r0, c0, nr, nc] of p.blocks) for (let c = c0!; c < c0! + nc!; c++) for (let r = r0!; r < r0! + nr!; r++) cells[r + p.rows * c] = k!;
  return cells;
}

describe('the descriptors panel in headless Chromium', () => {
  const site = builtPage('layoutgpu-desc-web-');
  const pageErrors: string[] = [];

  it('shows tma_desc, its boxes, each k-block’s gmma_desc and the alignment as Node computes them', async () => {
    const page = await watchedPage(site.browser, { width: 1440, height: 1400 }, pageErrors);
    await page.goto(site.base);
    await page.waitForSelector('[data-testid="tma-picture"]');
    mkdirSync(SHOTS, { recursive: true });
    await page.getByTestId('descriptors-card').screenshot({ path: join(SHOTS, 'descriptors-panel.png') });

    for (const [i, x] of INPUTS.entries()) {
      if (i > 0) await setInput(page, x);
      const dt = dtypeOf(x.dtype);
      const tile = x.atom ? formatLayoutFunction(atomTiledTo(atomByName(x.atom.name)!, dt, parseTuple(`(${x.atom.shape.replace('x', ',')})`))) : x.smem!;
      await expect.poll(async () => (await read(page)).tile).toBe(tile);
      const arg: TmaArgs = { gmem: x.gmem, smem: tile, dtype: x.dtype, ...(x.tiler ? { tiler: x.tiler } : {}) };
      const tma = outcome(() => tmaDesc(arg));
      const blocks = kBlocks(parseLayoutFunction(tile), dt.bytes);
      const gmma = blocks.map((b) => outcome(() => gmmaDesc({ smem: b.layout, dtype: dt, major: x.major, arch: x.arch })));
      // wait for this input's answers (the panel updates asynchronously), then compare everything at once
      await expect
        .poll(async () => {
          const s = await read(page);
          return tma.ok ? JSON.stringify(s.tma) === JSON.stringify(tma.value) : s.tmaError?.kind === tma.kind;
        })
        .toBe(true);
      await expect.poll(async () => (await read(page)).blocks.map((b) => b.layout)).toEqual(blocks.map((b) => formatLayoutFunction(b.layout)));
      const s = await read(page);
      if (tma.ok) {
        expect(s.tma, `input ${i}`).toEqual(tma.value);
        const m = tmaBoxMap(readTmaArgs(arg));
        expect(s.panels, `input ${i}: two panels`).toHaveLength(2);
        const [smem, global] = s.panels;
        expect(cellsOf(global!), `input ${i}: the global tile`).toEqual(Array.from(m.boxOf));
        const w = tma.value.boxDim[0]!;
        const want = new Array<number>(smem!.rows * w).fill(-1);
        m.smemOffset.forEach((o, y) => {
          const at = Math.floor(o / w) + smem!.rows * (o % w);
          if (want[at]! < 0) want[at] = m.boxOf[y]!; // the lowest element stored there
        });
        expect(smem!.cols).toBe(w);
        expect(cellsOf(smem!), `input ${i}: shared memory`).toEqual(want);
        for (const p of s.panels) expect([...p.labels].sort((a, b) => a - b)).toEqual([...new Set(cellsOf(p).filter((k) => k >= 0))].sort((a, b) => a - b));
      } else {
        expect(s.tmaError!.text, `input ${i}`).toContain(tma.message);
        expect(s.panels).toHaveLength(0);
      }
      blocks.forEach((b, j) => {
        const got = s.blocks[j]!;
        const want = gmma[j]!;
        expect([got.k, got.offset], `input ${i}, k-block ${j}`).toEqual([b.k, b.offset]);
        if (want.ok) expect(got.fields, `input ${i}, k-block ${j}`).toEqual(want.value);
        else {
          expect(got.error, `input ${i}, k-block ${j}`).toBe(want.kind);
          expect(got.errorText).toContain(want.message);
        }
      });
      const aligns = [tma.ok ? tma.value.smemAlignment : 0, ...gmma.map((g) => (g.ok ? g.value.smemAlignment : 0))];
      expect(s.alignment, `input ${i}: alignment`).toBe(Math.max(...aligns));
    }

    // a global layout that does not parse: parse, named inline; no boxes
    await page.getByTestId('desc-gmem').fill('(4096,4096):(4096,1');
    await expect.poll(async () => (await read(page)).tmaError?.kind).toBe('parse');
    expect((await read(page)).panels).toHaveLength(0);
    // an unknown tile shape for the atom: the tile's own error
    await setInput(page, INPUTS[0]!);
    await page.getByTestId('desc-shape').fill('128xx');
    await expect.poll(() => page.getByTestId('desc-tile-error').getAttribute('data-error-kind')).toBe('parse');

    expect(pageErrors).toEqual([]);
    await page.close();
  }, 240_000);
});
