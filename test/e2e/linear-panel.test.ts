/**
 * The page's linear-layout panel (src/web/linear-panel.ts) in headless Chromium, against the page as vite builds it
 * (into a directory of its own, so that this file and the other e2e files may run side by side). The conversions the
 * page shows are compared with the library run here in Node (from_ll, to_ll, ll_from_encoding), and every cell of
 * its pictures with the definition: for a register layout the first (thread, value) in x = t + T·v order that the LL
 * maps to the cell, for a shared layout the smallest offset the LL maps to it and that offset's bank — evaluated here
 * from the bases, and for a layout with a CuTe form also from CuTe's Φ. Then errors, and no page errors.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatLayoutFunction, parseLayoutFunction, phiLayoutFunctionBig } from '../../src/cute/composed.js';
import { fromLL, toLL } from '../../src/linear/bridge.js';
import { llFromEncoding } from '../../src/linear/encodings.js';
import { parseLL, toCanonicalJson } from '../../src/linear/forms.js';
import type { LinearLayout } from '../../src/linear/value.js';
import { builtPage, watchedPage } from '../helpers/browser.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SHOTS = join(ROOT, 'test-results');
interface Cell {
  row: number;
  col: number;
  thread: number | null;
  value: number | null;
  holders: number | null;
  offset: number | null;
  bank: number | null;
}

async function cells(page: Page): Promise<{ rows: number; cols: number; cells: Cell[] }> {
  return page.$eval('[data-testid="ll-picture"]', (svg) => {
    const num = (g: Element, a: string): number | null => (g.hasAttribute(a) ? Number(g.getAttribute(a)) : null);
    return {
      rows: Number(svg.getAttribute('data-rows')),
      cols: Number(svg.getAttribute('data-cols')),
      cells: [...svg.querySelectorAll('[data-testid="ll-cell"]')].map((g) => ({
        row: Number(g.getAttribute('data-row')),
        col: Number(g.getAttribute('data-col')),
        thread: num(g, 'data-thread'),
        value: num(g, 'data-value'),
        holders: num(g, 'data-holders'),
        offset: num(g, 'data-offset'),
        bank: num(g, 'data-bank'),
      })),
    };
  });
}

/** L at one input per in-dim (by name; missing: 0), from the definition: the XOR of the bases of the set bits. */
function at(l: LinearLayout, input: Record<string, number>): number[] {
  const out = l.outDims.map(() => 0);
  for (const d of l.inDims) d.bases.forEach((b, i) => (Math.floor((input[d.name] ?? 0) / 2 ** i) % 2 === 1 ? b.forEach((v, j) => (out[j] = out[j]! ^ v)) : 0));
  return out;
}
const n = (l: LinearLayout, name: string): number => 2 ** (l.inDims.find((d) => d.name === name)?.bases.length ?? 0);

/** The register picture from the definition: cell (dim0, dim1) ↦ first (t, v) in x = t + T·v order, and how many. */
function expectRegisterCells(l: LinearLayout, got: Cell[]): void {
  const T = n(l, 'lane') * n(l, 'warp') * n(l, 'block');
  const want = new Map<string, { thread: number; value: number; holders: number }>();
  for (let x = 0; x < T * n(l, 'register'); x++) {
    const t = x % T;
    const v = Math.floor(x / T);
    const lanes = n(l, 'lane');
    const [r, c] = at(l, { register: v, lane: t % lanes, warp: Math.floor(t / lanes) % n(l, 'warp'), block: Math.floor(t / (lanes * n(l, 'warp'))) });
    const k = `${r},${c ?? 0}`;
    const w = want.get(k);
    if (w) w.holders++;
    else want.set(k, { thread: t, value: v, holders: 1 });
  }
  for (const c of got) {
    const w = want.get(`${c.row},${c.col}`) ?? { thread: null, value: null, holders: 0 };
    expect({ thread: c.thread, value: c.value, holders: c.holders }, `cell (${c.row},${c.col})`).toEqual(w);
  }
}

async function setValue(page: Page, id: string, text: string): Promise<void> {
  await page.getByTestId(id).fill(text);
}

describe('the linear-layout panel in headless Chromium', () => {
  const site = builtPage('layoutgpu-linear-web-');
  const pageErrors: string[] = [];

  it('converts an encoding and an LL to CuTe with their pictures, and a CuTe layout to an LL', async () => {
    const page = await watchedPage(site.browser, { width: 1440, height: 1200 }, pageErrors);
    await page.goto(site.base);
    await page.waitForSelector('[data-testid="ll-cute"]');

    // 1. the default: the MMAv2 accumulator encoding over 16 × 8 is CuTe's ((4,8),(2,2)):((32,1),(16,8))
    const mma = llFromEncoding('#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>', [16, 8]);
    expect(await page.getByTestId('ll-cute').getAttribute('data-layout')).toBe(formatLayoutFunction(fromLL(mma)));
    expect(await page.getByTestId('ll-cute').getAttribute('data-layout')).toBe('((4,8),(2,2)):((32,1),(16,8))');
    expect(await page.getByTestId('ll-kind').getAttribute('data-kind')).toBe('tv');
    let pic = await cells(page);
    expect([pic.rows, pic.cols]).toEqual([16, 8]);
    expect(pic.cells).toHaveLength(128);
    expectRegisterCells(mma, pic.cells);
    // and the same cells from CuTe's Φ: thread t, value v at tile index Φ(t + 32 v) = row + 16 col
    const tv = parseLayoutFunction('((4,8),(2,2)):((32,1),(16,8))');
    for (const c of pic.cells) expect(Number(phiLayoutFunctionBig(tv, c.thread! + 32 * c.value!))).toBe(c.row + 16 * c.col);
    mkdirSync(SHOTS, { recursive: true });
    await page.getByTestId('linear-card').screenshot({ path: join(SHOTS, 'linear-panel.png') });

    // 2. a blocked encoding over another shape (broadcast lanes): the picture still from the definition
    await setValue(page, 'll-input', '#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>');
    await setValue(page, 'll-shape', '16x8');
    const blocked = llFromEncoding('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>', [16, 8]);
    await expect.poll(() => page.getByTestId('ll-cute').getAttribute('data-layout')).toBe(formatLayoutFunction(fromLL(blocked)));
    pic = await cells(page);
    expect([pic.rows, pic.cols]).toEqual([16, 8]);
    expectRegisterCells(blocked, pic.cells);

    // 3. the 128-byte fp16 shared layout (Gluon's repr): Sw<3,3,3> o (8,64):(64,1); offsets and banks per cell
    const gluon = 'SharedLinearLayout(offset_bases=[[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32]], block_bases=[], alignment=16)';
    await setValue(page, 'll-input', gluon);
    await expect.poll(() => page.getByTestId('ll-cute').getAttribute('data-layout')).toBe('Sw<3,3,3> o (8,64):(64,1)');
    expect(await page.getByTestId('ll-kind').getAttribute('data-kind')).toBe('shared');
    pic = await cells(page);
    expect([pic.rows, pic.cols]).toEqual([8, 64]);
    const sw = parseLayoutFunction('Sw<3,3,3> o (8,64):(64,1)');
    const shared = parseLL(gluon);
    for (const c of pic.cells) {
      const o = Number(phiLayoutFunctionBig(sw, c.row + 8 * c.col));
      expect(c.offset, `cell (${c.row},${c.col})`).toBe(o);
      expect(at(shared, { offset: o })).toEqual([c.row, c.col]);
      expect(c.bank).toBe(Math.floor((2 * o) / 4) % 32);
    }
    await page.getByTestId('ll-elem').selectOption('4');
    await expect.poll(async () => (await cells(page)).cells.find((c) => c.row === 1 && c.col === 0)?.bank).toBe(Math.floor((4 * 72) / 4) % 32);

    // 4. an LL with no CuTe form: not-representable, and still pictured from its bases
    await setValue(page, 'll-input', '{"bases": [["offset", [[1], [2], [12], [6]]], ["block", []]], "outDims": [["dim0", 16]]}');
    await expect.poll(() => page.getByTestId('ll-error').getAttribute('data-error-kind')).toBe('not-representable');
    pic = await cells(page);
    const odd = parseLL({
      bases: [
        ['offset', [[1], [2], [12], [6]]],
        ['block', []],
      ],
      outDims: [['dim0', 16]],
    });
    for (const c of pic.cells) expect(at(odd, { offset: c.offset! })).toEqual([c.row]);

    // 5. broken input: the parse error, inline
    await setValue(page, 'll-input', 'DistributedLinearLayout(reg_bases=[[0, 1]]');
    await expect.poll(() => page.getByTestId('ll-error').getAttribute('data-error-kind')).toBe('parse');

    // 6. CuTe → LL: the default (Sw<3,3,3> o (8,64):(64,1), shared) is the LL above; the MMA TV layout with its tile
    const json = async (): Promise<unknown> => JSON.parse((await page.getByTestId('cute-ll').getAttribute('data-json')) ?? 'null');
    expect(await json()).toEqual(toCanonicalJson(toLL(sw, 'shared')));
    expect(await json()).toEqual(toCanonicalJson(shared));
    await setValue(page, 'cute-input', '((4,8),(2,2)):((32,1),(16,8))');
    await page.getByTestId('cute-kind').selectOption('tv');
    await setValue(page, 'cute-tile', '16x8');
    await expect.poll(json).toEqual(toCanonicalJson(mma));
    await page.getByTestId('cute-kind').selectOption('function');
    await setValue(page, 'cute-tile', '');
    await expect.poll(json).toEqual(toCanonicalJson(toLL(tv)));
    await setValue(page, 'cute-input', '(32,32):(1,33)');
    await expect.poll(() => page.getByTestId('cute-error').getAttribute('data-error-kind')).toBe('not-linear');
    expect(await page.getByTestId('cute-error').textContent()).toContain('x = 1, y = 32');

    expect(pageErrors).toEqual([]);
    await page.close();
  }, 180_000);

  it('draws a 128×64 tile as the memory panel does (a canvas of every cell, the cell under the pointer named)', async () => {
    const page = await watchedPage(site.browser, { width: 1440, height: 1200 }, pageErrors);
    await page.goto(site.base);
    await page.waitForSelector('[data-testid="ll-cute"]');
    const enc = '#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>';
    await setValue(page, 'll-input', enc);
    await setValue(page, 'll-shape', '128x64');
    const canvas = page.getByTestId('ll-canvas');
    await canvas.waitFor();
    const attr = async (k: string): Promise<number> => Number(await canvas.getAttribute(k));
    expect([await attr('data-rows'), await attr('data-cols'), await attr('data-cells')]).toEqual([128, 64, 8192]); // before: "too many to draw"
    const [cw, ch, left, top] = [await attr('data-cw'), await attr('data-ch'), await attr('data-left'), await attr('data-top')];
    const l = llFromEncoding(enc, [128, 64]);
    // the first (t, v) in x = t + T·v order that L maps to each cell, from the definition
    const T = n(l, 'lane') * n(l, 'warp');
    const first = new Map<string, [number, number]>();
    for (let x = 0; x < T * n(l, 'register'); x++) {
      const t = x % T;
      const v = Math.floor(x / T);
      const [r, c] = at(l, { register: v, lane: t % n(l, 'lane'), warp: Math.floor(t / n(l, 'lane')) });
      if (!first.has(`${r},${c}`)) first.set(`${r},${c}`, [t, v]);
    }
    await canvas.scrollIntoViewIfNeeded();
    const box = (await canvas.boundingBox())!;
    for (const [r, c] of [
      [0, 0],
      [3, 5],
      [9, 13],
      [17, 2],
    ] as const) {
      await page.mouse.move(box.x + left + c * cw + cw / 2, box.y + top + r * ch + ch / 2);
      const hover = page.getByTestId('ll-hover');
      await expect.poll(() => hover.getAttribute('data-index')).toBe(String(r + 128 * c));
      const [t, v] = first.get(`${r},${c}`)!;
      expect(await hover.textContent()).toMatch(new RegExp(`^thread ${t}, value ${v} at \\(${r}, ${c}\\)`));
    }
    expect(pageErrors).toEqual([]);
    await page.close();
  }, 180_000);
});
