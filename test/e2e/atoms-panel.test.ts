/**
 * The page's atoms panel (src/web/atoms-panel.ts) in headless Chromium, against the page as vite builds it (into a
 * directory of its own, so that this file and test/e2e/page.test.ts may run side by side). Every cell of the three
 * pictures (A M×K, B shown K×N, C M×N) is checked against the tiled MMA's TV layouts computed here in Node: the first
 * (thread, value) in the order x = t + T·v that lands on the cell, how many land there, and its column-major index.
 * Then a search, another atom, hover, a bad atom layout, and no page errors.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { mode, phi, size, type Layout } from '../../src/algebra/layout.js';
import { parseLayout } from '../../src/algebra/notation.js';
import { parseTiler } from '../../src/cute/tiler.js';
import { makeTiledMma } from '../../src/atoms/tiled-mma.js';
import { makeTiledCopy, makeTiledCopyFromMma, type TiledCopy } from '../../src/atoms/tiled-copy.js';
import { copyBankConflicts } from '../../src/atoms/conflicts.js';
import { builtPage, watchedPage } from '../helpers/browser.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SHOTS = join(ROOT, 'test-results');
interface Want {
  thread: number;
  value: number;
  holders: number;
}

/** The expected picture of one operand, from the definition: (t, v) ↦ Φ_TV(t + T·v), cell of that index; first holder kept. */
function expected(tv: Layout, rows: number, cols: number, cellOf: (index: number) => [number, number]): Map<string, Want> {
  const T = size(mode(tv, 1));
  const V = size(mode(tv, 2));
  const out = new Map<string, Want>();
  for (let x = 0; x < T * V; x++) {
    const [r, c] = cellOf(phi(tv, x));
    expect(r < rows && c < cols, `(${r},${c}) inside ${rows}×${cols}`).toBe(true);
    const k = `${r},${c}`;
    const w = out.get(k);
    if (w) w.holders++;
    else out.set(k, { thread: x % T, value: Math.floor(x / T), holders: 1 });
  }
  return out;
}

interface Got {
  row: number;
  col: number;
  index: number;
  thread: number | null;
  value: number | null;
  holders: number;
  fill: string;
}

async function pictureCells(page: Page, operand: string): Promise<{ rows: number; cols: number; cells: Got[] }> {
  return page.$eval(`[data-testid="atoms-picture"][data-operand="${operand}"]`, (svg) => ({
    rows: Number(svg.getAttribute('data-rows')),
    cols: Number(svg.getAttribute('data-cols')),
    cells: [...svg.querySelectorAll('[data-testid="atoms-cell"]')].map((g) => ({
      row: Number(g.getAttribute('data-row')),
      col: Number(g.getAttribute('data-col')),
      index: Number(g.getAttribute('data-index')),
      thread: g.hasAttribute('data-thread') ? Number(g.getAttribute('data-thread')) : null,
      value: g.hasAttribute('data-value') ? Number(g.getAttribute('data-value')) : null,
      holders: Number(g.getAttribute('data-holders')),
      fill: g.querySelector('rect')?.getAttribute('fill') ?? '',
    })),
  }));
}

/** Every cell of the source and destination pictures against the tiled copy made here. */
async function expectCopyPictures(page: Page, c: TiledCopy): Promise<void> {
  await expect.poll(() => page.getByTestId('copy-info').getAttribute('data-tiler')).toBe(`(${c.tiler.join(',')})`);
  const rows = c.tiler[0]!;
  const cols = c.tiler.slice(1).reduce((a, b) => a * b, 1);
  for (const [op, tv] of [
    ['S', c.layoutS_TV],
    ['D', c.layoutD_TV],
  ] as const) {
    const want = expected(tv, rows, cols, (i) => [i % rows, Math.floor(i / rows)]);
    const got = await pictureCells(page, op);
    expect([got.rows, got.cols]).toEqual([rows, cols]);
    for (const cell of got.cells) {
      const tag = `${c.atom.name} ${op} (${cell.row},${cell.col})`;
      expect(cell.index, tag).toBe(cell.row + rows * cell.col);
      expect({ thread: cell.thread, value: cell.value, holders: cell.holders }, tag).toEqual(
        want.get(`${cell.row},${cell.col}`) ?? { thread: null, value: null, holders: 0 },
      );
    }
  }
}

/** Every cell of the three pictures against the tiled MMA made here. */
async function expectPictures(page: Page, atom: string, layout: string, perm: string): Promise<void> {
  const m = makeTiledMma(atom, parseLayout(layout), parseTiler(perm));
  const [tM, tN, tK] = m.tileShape;
  await expect.poll(() => page.getByTestId('atoms-info').getAttribute('data-tile')).toBe(`(${tM},${tN},${tK})`);
  expect(await page.getByTestId('atoms-info').getAttribute('data-threads')).toBe(String(m.threads));
  const specs: Array<[string, Layout, number, number, (i: number) => [number, number], (r: number, c: number) => number]> = [
    ['A', m.layoutA_TV, tM, tK, (i) => [i % tM, Math.floor(i / tM)], (r, c) => r + tM * c],
    ['B', m.layoutB_TV, tK, tN, (i) => [Math.floor(i / tN), i % tN], (r, c) => c + tN * r],
    ['C', m.layoutC_TV, tM, tN, (i) => [i % tM, Math.floor(i / tM)], (r, c) => r + tM * c],
  ];
  for (const [op, tv, rows, cols, cellOf, indexOf] of specs) {
    const want = expected(tv, rows, cols, cellOf);
    const got = await pictureCells(page, op);
    expect([got.rows, got.cols], `${op} picture of ${atom}`).toEqual([rows, cols]);
    expect(got.cells).toHaveLength(rows * cols);
    const colourOf = new Map<number, string>();
    for (const c of got.cells) {
      const w = want.get(`${c.row},${c.col}`);
      const tag = `${atom} ${op} (${c.row},${c.col})`;
      expect(c.index, tag).toBe(indexOf(c.row, c.col));
      expect({ thread: c.thread, value: c.value, holders: c.holders }, tag).toEqual(w ?? { thread: null, value: null, holders: 0 });
      if (c.thread !== null) {
        expect(colourOf.get(c.thread) ?? c.fill, `${tag}: one colour per thread`).toBe(c.fill);
        colourOf.set(c.thread, c.fill);
      }
    }
    for (const [t, f] of colourOf) if (colourOf.has(t + 1)) expect(colourOf.get(t + 1), `threads ${t} and ${t + 1} differ in colour`).not.toBe(f);
  }
}

describe('the atoms panel in headless Chromium', () => {
  const site = builtPage('layoutgpu-atoms-web-');
  const pageErrors: string[] = [];

  it('draws the tiled MMA cell by cell, searches, switches atoms, hovers and flags a bad atom layout', async () => {
    const page = await watchedPage(site.browser, { width: 1440, height: 1000 }, pageErrors);
    await page.goto(site.base);
    await page.waitForSelector('body[data-ready="true"]');
    await page.waitForSelector('[data-testid="atoms-list"] option');

    // 1. the default: a 2×2×1 SM80_16x8x16 with tile (32,32,16)
    await expectPictures(page, 'SM80_16x8x16_F32F16F16F32_TN', '(2,2,1)', '(32,32,16)');
    mkdirSync(SHOTS, { recursive: true });
    await page.getByTestId('atoms-card').screenshot({ path: join(SHOTS, 'atoms-panel.png') });
    console.log(`screenshot: ${join(SHOTS, 'atoms-panel.png')}`);

    // the tiled copy below it: ldmatrix .x4 at 16 bits for A (make_tiled_copy_A), source and destination cell by cell
    const mma = makeTiledMma('SM80_16x8x16_F32F16F16F32_TN', parseLayout('(2,2,1)'), parseTiler('(32,32,16)'));
    const ldsm = makeTiledCopyFromMma({ atom: 'SM75_U32x4_LDSM_N', bits: 16, mma, operand: 'A' });
    await expectCopyPictures(page, ldsm);
    // one click sends the tiled copy to the memory panel, which prices it over the whole memory tile as
    // copy_bank_conflicts does (the default M is smaller than the copy's tile: M becomes one tile, row-major)
    await page.getByTestId('copy-send').click();
    expect(await page.getByTestId('copy-send').getAttribute('data-side')).toBe('src');
    expect(await page.getByTestId('mem-form').inputValue()).toBe('copy');
    expect(JSON.parse(await page.getByTestId('mem-tv').inputValue())).toEqual({
      atom: 'SM75_U32x4_LDSM_N',
      bits: 16,
      mma: { atom: 'SM80_16x8x16_F32F16F16F32_TN', layout: '(2,2,1)', permutation: '(32,32,16)' },
      operand: 'A',
    });
    expect(await page.getByTestId('mem-layout').inputValue()).toBe('(32,16):(16,1)');
    expect(await page.getByTestId('mem-label').inputValue()).toBe('tv');
    await expect.poll(() => page.getByTestId('mem-canvas').getAttribute('data-label')).toBe('tv');
    const report = copyBankConflicts(ldsm, parseLayout('(32,16):(16,1)'));
    await expect.poll(() => page.getByTestId('mem-table').getAttribute('data-wavefronts')).toBe(String(report.wavefronts));
    // from thread and value layouts: cp.async 128-bit, 16-bit values, (32,8):(8,1) × (1,8), a 32×64 tile
    await page.getByTestId('copy-atom').selectOption('SM80_CP_ASYNC_CACHEALWAYS<uint128_t>');
    await page.getByTestId('copy-from').selectOption('thr');
    const cpAsync = makeTiledCopy({ atom: 'SM80_CP_ASYNC_CACHEALWAYS<uint128_t>', bits: 16, thr: parseLayout('(32,8):(8,1)'), val: parseLayout('(1,8)') });
    await expectCopyPictures(page, cpAsync);
    // a value size the atom cannot take: domain
    await page.getByTestId('copy-atom').selectOption('SM75_U32x4_LDSM_N');
    await page.getByTestId('copy-from').selectOption('A');
    await page.getByTestId('copy-bits').fill('64');
    await expect.poll(() => page.getByTestId('copy-error').getAttribute('data-error-kind')).toBe('domain');
    await page.getByTestId('copy-bits').fill('16');
    await expectCopyPictures(page, ldsm);

    // 2. the search narrows the list; another atom, one atom alone (8 threads on lanes 0-3 and 16-19)
    await page.getByTestId('atoms-search').fill('sm70 f32 nt');
    const listed = await page.$$eval('[data-testid="atoms-list"] option', (os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(listed).toEqual(['SM70_8x8x4_F32F16F16F32_NT']);
    await page.getByTestId('atoms-layout').fill('1');
    await page.getByTestId('atoms-perm').fill('_');
    await page.getByTestId('atoms-list').selectOption('SM70_8x8x4_F32F16F16F32_NT');
    await expectPictures(page, 'SM70_8x8x4_F32F16F16F32_NT', '1', '_');

    // 3. a GMMA atom: 128 threads, every thread sees all of A (shared memory), cells too small for labels
    await page.getByTestId('atoms-search').fill('64x64x16_F16F16F16_SS');
    await page.getByTestId('atoms-list').selectOption('SM90_64x64x16_F16F16F16_SS');
    await expectPictures(page, 'SM90_64x64x16_F16F16F16_SS', '1', '_');
    const a0 = await pictureCells(page, 'A');
    expect(a0.cells.every((c) => c.holders === 128)).toBe(true);

    // 4. hovering a C cell names its thread, value, coordinate and index
    await page.getByTestId('atoms-search').fill('16x8x16_F32F16F16F32');
    await page.getByTestId('atoms-list').selectOption('SM80_16x8x16_F32F16F16F32_TN');
    await page.getByTestId('atoms-layout').fill('(2,2,1)');
    await page.getByTestId('atoms-perm').fill('(32,32,16)');
    await expectPictures(page, 'SM80_16x8x16_F32F16F16F32_TN', '(2,2,1)', '(32,32,16)');
    const cell = page.locator('[data-testid="atoms-picture"][data-operand="C"] [data-testid="atoms-cell"][data-row="9"][data-col="3"]');
    const [t, v, index] = await Promise.all(['data-thread', 'data-value', 'data-index'].map((k) => cell.getAttribute(k)));
    await cell.hover();
    await expect.poll(() => page.getByTestId('atoms-hover').textContent()).toBe(`C: thread ${t}, value ${v}, (m,n) = (9,3), index ${index}`);
    expect(index).toBe(String(9 + 32 * 3));

    // 5. a bad atom layout: an inline parse error, no pictures
    await page.getByTestId('atoms-layout').fill('(2,2');
    await expect.poll(() => page.getByTestId('atoms-error').getAttribute('data-error-kind')).toBe('parse');
    expect(await page.getByTestId('atoms-error').isVisible()).toBe(true);
    expect(await page.locator('[data-testid="atoms-picture"]').count()).toBe(0);
    // a permutation that is no permutation: domain
    await page.getByTestId('atoms-layout').fill('(2,2,1)');
    await page.getByTestId('atoms-perm').fill('(32,32,15)');
    await expect.poll(() => page.getByTestId('atoms-error').getAttribute('data-error-kind')).toBe('domain');

    expect(pageErrors).toEqual([]);
  }, 240_000);
});
