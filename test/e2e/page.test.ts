/**
 * The browser demo, end to end, in a real browser: Debian's Chromium (headless, driven by
 * playwright-core) against the page as `npm run build:web` builds it, served from dist/web/ by
 * a tiny static server on 127.0.0.1.
 *
 * It opens the page at ?layout=…, types layouts, checks every SVG cell's data-offset against Φ
 * computed here in Node, runs an operation through the page and compares with the ops table in
 * Node, runs the GPU checks in the page (WebGPU on Chromium's SwiftShader adapter) and compares
 * each answer with the CPU backend's in Node, types a bad layout and sees the inline parse
 * error, checks the no-WebGPU banner and CPU fallback, and saves a screenshot (path printed).
 *
 * The Chromium flags: `--enable-unsafe-webgpu` is the one that gives headless Chromium 156 a
 * WebGPU adapter here (SwiftShader through Dawn's Vulkan backend, `google / swiftshader`); the
 * rest keep it off the network and quiet. If no adapter appears, the test says so LOUDLY and
 * checks the CPU path instead.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexToCoord, phi, size } from '../../src/algebra/layout.js';
import { formatTuple, parseLayout } from '../../src/algebra/notation.js';
import { gridShape } from '../../src/render/grid.js';
import { CpuBackend } from '../../src/engine/cpu.js';
import { algebraOps, runOp, type OpContext } from '../../src/ops/table.js';
import { innerLayout, parseLayoutFunction } from '../../src/cute/composed.js';
import { applySwizzle } from '../../src/cute/swizzle.js';
import { threadValues } from '../../src/memory/access.js';
import { bankMap } from '../../src/memory/banks.js';
import { accessorsOf, BANK_PALETTE, bankSvg } from '../../src/render/banks.js';
import { composedPicture } from '../../src/render/composed.js';
import { svgPicture } from '../../src/render/svg.js';
import { tikzPicture } from '../../src/render/tikz.js';
import { mode } from '../../src/algebra/layout.js';
import { CHROMIUM, CHROMIUM_ARGS, serve } from '../helpers/browser.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = join(ROOT, 'dist/web');
const SHOTS = join(ROOT, 'test-results');
/** accept the CPU fallback when headless Chromium gives no WebGPU adapter (said loudly) */
const ALLOW_CPU = !!process.env['LAYOUTGPU_E2E_ALLOW_CPU'];

const cpu = new CpuBackend();
const ctx: OpContext = { backendChoice: 'cpu', backend: async () => cpu };

interface CellData {
  index: number;
  offset: number;
  row: number;
  col: number;
}

async function cells(page: Page): Promise<CellData[]> {
  return page.$$eval('[data-testid="cell"]', (els) =>
    els.map((e) => ({
      index: Number(e.getAttribute('data-index')),
      offset: Number(e.getAttribute('data-offset')),
      row: Number(e.getAttribute('data-row')),
      col: Number(e.getAttribute('data-col')),
    })),
  );
}

/** every cell of the main picture against Φ_L computed here, and the CLI's grid grouping */
async function expectCellsMatch(page: Page, text: string): Promise<void> {
  const l = parseLayout(text);
  const n = size(l);
  await page.waitForFunction((k) => document.querySelectorAll('[data-testid="cell"]').length === k, n);
  const got = await cells(page);
  expect(got.length).toBe(n);
  const { index } = gridShape(l);
  const seen = new Set<number>();
  for (const c of got) {
    expect(c.offset, `cell x=${c.index} of ${text}`).toBe(phi(l, c.index));
    expect(index(c.row, c.col)).toBe(c.index);
    seen.add(c.index);
  }
  expect(seen.size).toBe(n);
}

async function typeLayout(page: Page, testid: string, text: string): Promise<void> {
  const input = page.getByTestId(testid);
  await input.fill('');
  await input.pressSequentially(text);
}

interface GpuCard {
  verdict: string | null;
  backend: string | null;
  json: string;
  agree: string | null;
  op: string | null;
}

/** click a GPU-panel button and read the newest outcome card */
async function runCheck(page: Page, button: string): Promise<GpuCard> {
  const before = await page.getByTestId('gpu-result').count();
  await page.getByTestId(button).click();
  await page.waitForFunction((k) => document.querySelectorAll('[data-testid="gpu-result"]').length > k, before, { timeout: 45_000 });
  const card = page.getByTestId('gpu-result').first();
  return {
    verdict: await card.getAttribute('data-verdict'),
    backend: await card.getAttribute('data-backend'),
    op: await card.getAttribute('data-op'),
    json: (await card.getByTestId('gpu-json').textContent()) ?? '',
    agree: (await card.getByTestId('gpu-agree').count()) ? await card.getByTestId('gpu-agree').getAttribute('data-agree') : null,
  };
}

function loud(lines: string[]): void {
  const bar = '!'.repeat(78);
  console.warn(['', bar, ...lines.map((l) => `!!! ${l}`), bar, ''].join('\n'));
}

describe('the browser demo in headless Chromium', () => {
  let server: http.Server;
  let browser: Browser;
  let base: string;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`no Chromium at ${CHROMIUM}: run scripts/setup-system.sh (Debian package 'chromium'), or set LAYOUTGPU_CHROMIUM`);
    }
    // the page exactly as `npm run build:web` builds it
    execFileSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'vite.config.ts', '--logLevel', 'warn'], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    expect(existsSync(join(DIST, 'index.html'))).toBe(true);
    expect(readFileSync(join(DIST, 'index.html'), 'utf8')).toMatch(/src="\.\/assets\//); // relative asset paths
    server = await serve(DIST);
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((ok) => (server ? server.close(ok) : ok(undefined)));
  });

  async function open(query: string, noWebGpu = false): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    page.on('console', (m) => {
      if (m.type() === 'error') pageErrors.push(m.text());
    });
    if (noWebGpu) {
      await page.addInitScript(() => {
        Object.defineProperty(Navigator.prototype, 'gpu', { get: () => undefined, configurable: true });
      });
    }
    await page.goto(base + query);
    await page.waitForSelector('body[data-ready="true"]');
    return page;
  }

  it('shows ?layout=…, types layouts, runs ops and the GPU checks, flags a bad layout', async () => {
    // 1. a layout from the address
    const nested = '(3,(3,2)):(3,(1,10))';
    const page = await open(`?layout=${encodeURIComponent(nested)}`);
    expect(await page.getByTestId('layout-input').inputValue()).toBe(nested);
    await expectCellsMatch(page, nested);

    // 2. typed layouts, character by character: every cell against Φ
    for (const text of ['((2,2),(2,4)):((1,4),(2,8))', '(8):(3)', '(2,3,4):(12,4,1)', '((2,2),2):((3,0),10)']) {
      await typeLayout(page, 'layout-input', text);
      await expectCellsMatch(page, text);
      expect(decodeURIComponent(new URL(page.url()).searchParams.get('layout') ?? '')).toBe(text);
    }

    // hovering a cell names its index, nested coordinate and offset
    const probe = '(3,(3,2)):(3,(1,10))';
    await typeLayout(page, 'layout-input', probe);
    await expectCellsMatch(page, probe);
    const cell = page.locator('[data-testid="cell"][data-index="7"]');
    await cell.hover();
    const pl = parseLayout(probe);
    await expect.poll(() => page.getByTestId('hover-info').textContent()).toContain(`coordinate ${formatTuple(indexToCoord(pl, 7))}`);
    expect(await page.getByTestId('hover-info').textContent()).toContain(`Φ(x) = ${phi(pl, 7)}`);
    expect(await cell.locator('title').textContent()).toContain(`x = 7`);

    // every algebra operation of the ops table is offered
    const offered = await page.$$eval('[data-testid="op"] option', (os) => os.map((o) => (o as HTMLOptionElement).value));
    for (const o of algebraOps) expect(offered, `op ${o.name} in the chooser`).toContain(o.name);

    // 3. operations through the page = the ops table in Node
    const cases: [string, string, string][] = [
      ['logical_divide', '(4,8):(1,4)', '(2,2):(1,4)'],
      ['compose', '(100):(7)', '(3,5):(10,2)'],
      ['logical_product', '(2,2):(5,10)', '(3,5):(5,1)'],
    ];
    for (const [op, a, b] of cases) {
      await page.getByTestId('op').selectOption(op);
      await typeLayout(page, 'layout-input', a);
      await typeLayout(page, 'layout-input-2', b);
      const want = String(await runOp(op, [a, b], ctx));
      await expect.poll(() => page.getByTestId('result').textContent()).toBe(want);
      expect(await page.getByTestId('result').getAttribute('data-error-kind')).toBeNull();
    }
    // ⊗ colours the result by tile: one colour per column, one opacity per row
    const tiles = await page.$$eval('[data-testid="result-cell"]', (els) =>
      els.map((e) => [
        Number(e.getAttribute('data-col')),
        Number(e.getAttribute('data-tile')),
        Number(e.getAttribute('data-row')),
        Number(e.getAttribute('data-entry')),
      ]),
    );
    expect(tiles.length).toBe(60);
    for (const [col, tile, row, entry] of tiles) {
      expect(tile).toBe(col);
      expect(entry).toBe(row);
    }
    // a result clicked becomes the layout
    const product = (await page.getByTestId('result').textContent()) ?? '';
    await page.getByTestId('result').click();
    expect(await page.getByTestId('layout-input').inputValue()).toBe(product);
    await expectCellsMatch(page, product);
    // the state is in the address: the same link opens the same state
    const link = page.url();
    expect(new URL(link).searchParams.get('op')).toBe('logical_product');
    const again = await open(new URL(link).search);
    expect(await again.getByTestId('layout-input').inputValue()).toBe(product);
    expect(await again.getByTestId('op').inputValue()).toBe('logical_product');
    expect(await again.getByTestId('layout-input-2').inputValue()).toBe('(3,5):(5,1)');
    await again.close();
    // CuTe's vocabulary (docs/semantics.md §8.3): a shape tiler in the second field; a zipped result is
    // coloured by tile (mode 1 the tile, mode 2 which tile), and A's cells by the tile they fall in
    await page.getByTestId('op').selectOption('zipped_divide');
    await page.getByTestId('layout-input').fill('(4,8):(1,4)');
    await page.getByTestId('layout-input-2').fill('(2,4)');
    await expect.poll(() => page.getByTestId('result').textContent()).toBe('((2,4),(2,2)):((1,4),(2,16))');
    const zipped = await page.$$eval('[data-testid="result-cell"]', (els) =>
      els.map((e) => [Number(e.getAttribute('data-index')), Number(e.getAttribute('data-tile')), Number(e.getAttribute('data-entry'))]),
    );
    expect(zipped.length).toBe(32);
    for (const [x, tile, entry] of zipped) expect([tile, entry]).toEqual([Math.floor(x! / 8), x! % 8]);
    const cellsOfA = await page.$$eval('[data-testid="cell"]', (els) =>
      els.map((e) => [Number(e.getAttribute('data-index')), Number(e.getAttribute('data-tile'))]),
    );
    expect(cellsOfA.length).toBe(32);
    // index j of A is (j mod 4, ⌊j/4⌋); its 2×4 tile is (⌊(j mod 4)/2⌋, ⌊⌊j/4⌋/4⌋) in a 2×2 grid
    for (const [j, tile] of cellsOfA) expect(tile).toBe(Math.floor((j! % 4) / 2) + 2 * Math.floor(Math.floor(j! / 4) / 4));
    // a by-mode tiler with `_`, through the same field
    await page.getByTestId('op').selectOption('logical_divide');
    await page.getByTestId('layout-input-2').fill('<2,_>');
    await expect.poll(() => page.getByTestId('result').textContent()).toBe(String(await runOp('logical_divide', ['(4,8):(1,4)', '<2,_>'], ctx)));
    // an example from the paper, one click away
    await page.getByTestId('example').filter({ hasText: 'Ex. 2.3.8.4' }).click();
    await expect.poll(() => page.getByTestId('result').textContent()).toBe(String(await runOp('logical_divide', ['(4,8):(1,4)', '(2,2):(4,1)'], ctx)));
    // a property
    await page.getByTestId('op').selectOption('is_compact');
    await typeLayout(page, 'layout-input', '(4,8):(8,1)');
    await expect.poll(() => page.getByTestId('result').textContent()).toBe(String(await runOp('is_compact', ['(4,8):(8,1)'], ctx)));
    // complement with N
    await page.getByTestId('op').selectOption('complement');
    await typeLayout(page, 'layout-input', '((4,2),(2,2)):((3,24),(192,96))');
    await page.getByTestId('arg-input').fill('768');
    await expect.poll(() => page.getByTestId('result').textContent()).toBe('(3,2,2,2):(1,12,48,384)');

    // 4. the GPU panel: the adapter, then checks compared with the CPU backend in Node
    await page.waitForSelector('[data-testid="adapter"][data-ready="true"]', { timeout: 30_000 });
    const adapter = (await page.getByTestId('adapter').textContent()) ?? '';
    const adapterBackend = await page.getByTestId('adapter').getAttribute('data-backend');
    console.log(`e2e: WebGPU adapter line in headless Chromium: ${adapter.trim()}`);
    if (adapterBackend !== 'gpu') {
      loud([
        'NO WebGPU ADAPTER in headless Chromium: the GPU checks of the page were NOT exercised;',
        `the page fell back to the CPU backend (adapter line: ${adapter.trim()}).`,
        `Chromium: ${CHROMIUM}, flags: ${CHROMIUM_ARGS.join(' ')}`,
        ALLOW_CPU ? 'LAYOUTGPU_E2E_ALLOW_CPU is set: checking the CPU path only.' : 'Set LAYOUTGPU_E2E_ALLOW_CPU=1 to accept the CPU path on such a machine.',
      ]);
      if (!ALLOW_CPU) expect(adapterBackend, 'headless Chromium found no WebGPU adapter').toBe('gpu');
    }
    const expectBackend = adapterBackend === 'gpu' ? 'gpu' : 'cpu';
    const checks: [string, string, string, string[], 'pass' | 'fail'][] = [
      ['check-compact', 'check_compact', '(4,8):(1,4)', [], 'pass'],
      ['check-compact', 'check_compact', '(4,4):(1,2)', [], 'fail'],
      ['check-complement', 'check_complement', '(4,2):(1,16)', ['(4,2):(4,32)'], 'pass'],
      ['check-compose', 'check_compose', '(100):(7)', ['(3,5):(10,2)'], 'pass'],
      ['tile-map', 'tile_map', '(4,8):(1,4)', ['(2,2):(1,4)'], 'pass'],
    ];
    await page.getByTestId('op').selectOption('logical_divide');
    for (const [button, op, l1, rest, verdict] of checks) {
      await typeLayout(page, 'layout-input', l1);
      await page.getByTestId('layout-input-2').fill(rest[0] ?? '');
      const t0 = Date.now();
      const card = await runCheck(page, button);
      const want = await runOp(op, [l1, ...rest], ctx);
      console.log(`e2e: ${op} ${[l1, ...rest].join(' ')} on ${card.backend}: ${card.verdict} in ${Date.now() - t0} ms`);
      expect(card.op).toBe(op);
      expect(card.backend).toBe(expectBackend);
      expect(card.verdict).toBe(verdict);
      expect(JSON.parse(card.json)).toEqual(want);
      if (expectBackend === 'gpu') expect(card.agree).toBe('true');
    }

    // 5. a bad layout: the inline error with its kind and position, and the result says so
    await page.getByTestId('op').selectOption('coalesce');
    await typeLayout(page, 'layout-input', '(4,8:(1,4)');
    const err = page.getByTestId('layout-error');
    await expect.poll(() => err.getAttribute('data-error-kind')).toBe('parse');
    expect(await err.isVisible()).toBe(true);
    expect(await err.getAttribute('data-position')).toBe('4');
    expect(await err.textContent()).toContain('offset 4');
    expect(await page.getByTestId('result').getAttribute('data-error-kind')).toBe('parse');
    expect(await page.getByTestId('cell').count()).toBe(0);
    // markup typed in is text, never HTML
    await typeLayout(page, 'layout-input', '<img src=x onerror=alert(1)>');
    await expect.poll(() => page.getByTestId('result').getAttribute('data-error-kind')).toBe('parse');
    expect(await page.locator('img').count()).toBe(0);

    // 5b. a layout beyond 2^53 − 1 under an op that takes any size: one outcome, the exact answer
    // (no overflow error beside it)
    await page.getByTestId('op').selectOption('size');
    await typeLayout(page, 'layout-input', '(9007199254740991,2):(1,0)');
    await expect.poll(() => page.getByTestId('result').textContent()).toBe('18014398509481982');
    expect(await page.getByTestId('result').getAttribute('data-error-kind')).toBeNull();
    expect(await err.isVisible()).toBe(false);
    // an op that computes with the size refuses it: the inline error and the result agree
    await page.getByTestId('op').selectOption('coalesce');
    await expect.poll(() => page.getByTestId('result').getAttribute('data-error-kind')).toBe('overflow');
    expect(await err.getAttribute('data-error-kind')).toBe('overflow');

    // 6. a screenshot of a representative state: Example 2.3.8.2 with a GPU check
    await page.goto(`${base}?layout=${encodeURIComponent('(4,8):(1,4)')}&op=logical_divide&layout2=${encodeURIComponent('(2,2):(1,4)')}`);
    await page.waitForSelector('body[data-ready="true"]');
    await expectCellsMatch(page, '(4,8):(1,4)');
    expect(await page.getByTestId('result').textContent()).toBe('((2,2),(2,4)):((1,4),(2,8))');
    await page.waitForSelector('[data-testid="adapter"][data-ready="true"]');
    const shotCard = await runCheck(page, 'tile-map');
    expect(shotCard.verdict).toBe('pass');
    await page.getByTestId('cell').nth(5).hover();
    mkdirSync(SHOTS, { recursive: true });
    const shot = join(SHOTS, 'e2e-page.png');
    await page.screenshot({ path: shot, fullPage: true });
    console.log(`e2e: screenshot saved to ${shot}`);
    await page.close();
    expect(pageErrors).toEqual([]);
  }, 90_000);

  it('draws 2^20 cells on a canvas with hover; survives a lost GPU device', async () => {
    // 1. a layout of 2^20 cells: a canvas picture, hover names the cell under the pointer
    const big = '(1024,(32,32)):(1,(1024,32768))';
    const page = await open(`?layout=${encodeURIComponent(big)}&op=size`);
    await page.waitForSelector('[data-testid="picture-canvas"]', { timeout: 60_000 });
    const canvas = page.getByTestId('picture-canvas');
    const geo = await canvas.evaluate((c) =>
      Object.fromEntries(['rows', 'cols', 'cells', 'cw', 'ch', 'left', 'top'].map((k) => [k, Number(c.getAttribute(`data-${k}`))])),
    );
    expect([geo.rows, geo.cols, geo.cells]).toEqual([1024, 1024, 1 << 20]);
    const l = parseLayout(big);
    const { index } = gridShape(l);
    /** hover the cell at (r, c) of what is in view and check the hover line against Φ here */
    const hoverCell = async (r: number, c: number): Promise<void> => {
      const { sx, sy } = await page.evaluate(() => {
        const s = document.querySelector('[data-testid="picture-canvas"]')!.closest('.scroller')!;
        return { sx: s.scrollLeft, sy: s.scrollTop };
      });
      const x = index(r, c);
      await canvas.hover({ position: { x: geo.left! + c * geo.cw! - sx + geo.cw! / 2, y: geo.top! + r * geo.ch! - sy + geo.ch! / 2 } });
      await expect.poll(() => page.getByTestId('hover-info').getAttribute('data-index')).toBe(String(x));
      const text = (await page.getByTestId('hover-info').textContent()) ?? '';
      expect(text).toContain(`x = ${x} `);
      expect(text).toContain(`coordinate ${formatTuple(indexToCoord(l, x))}`);
      expect(text).toContain(`Φ(x) = ${phi(l, x)}`);
    };
    await hoverCell(2, 3);
    // scrolled far into the grid: the cells in view are drawn and hovered there
    await page.evaluate(() => {
      const s = document.querySelector('[data-testid="picture-canvas"]')!.closest('.scroller')!;
      s.scrollTo(s.scrollWidth * 0.6, s.scrollHeight * 0.8);
    });
    const { r0, c0 } = await page.evaluate(
      ({ cw, ch }) => {
        const s = document.querySelector('[data-testid="picture-canvas"]')!.closest('.scroller')!;
        return { r0: Math.floor(s.scrollTop / ch), c0: Math.floor(s.scrollLeft / cw) };
      },
      { cw: geo.cw!, ch: geo.ch! },
    );
    expect(r0).toBeGreaterThan(500);
    await hoverCell(r0 + 3, c0 + 2);
    // the canvas is painted where it is scrolled to (not blank)
    const painted = await canvas.evaluate((c: HTMLCanvasElement) => {
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let nonWhite = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i]! < 250 || d[i + 1]! < 250 || d[i + 2]! < 250) nonWhite++;
      return nonWhite / (d.length / 4);
    });
    expect(painted).toBeGreaterThan(0.05);
    await page.close();

    // 2. a lost device: the panel says so, and the next check acquires a new one
    const lossy = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    lossy.on('pageerror', (e) => pageErrors.push(String(e)));
    await lossy.addInitScript(() => {
      const w = window as unknown as { __devices: GPUDevice[] };
      w.__devices = [];
      const request = GPUAdapter.prototype.requestDevice;
      GPUAdapter.prototype.requestDevice = async function (this: GPUAdapter, d?: GPUDeviceDescriptor) {
        const dev = await request.call(this, d);
        w.__devices.push(dev);
        return dev;
      };
    });
    await lossy.goto(`${base}?layout=${encodeURIComponent('(4,8):(1,4)')}&op=size`);
    await lossy.waitForSelector('body[data-ready="true"]');
    await lossy.waitForSelector('[data-testid="adapter"][data-ready="true"]', { timeout: 30_000 });
    if ((await lossy.getByTestId('adapter').getAttribute('data-backend')) !== 'gpu') {
      loud(['NO WebGPU ADAPTER in headless Chromium: the lost-device path was NOT exercised.']);
      if (!ALLOW_CPU) expect.fail('headless Chromium found no WebGPU adapter');
      await lossy.close();
      return;
    }
    expect((await runCheck(lossy, 'check-compact')).backend).toBe('gpu');
    expect(await lossy.evaluate(() => (window as unknown as { __devices: GPUDevice[] }).__devices.length)).toBe(1);
    await lossy.evaluate(() => (window as unknown as { __devices: GPUDevice[] }).__devices[0]!.destroy());
    await lossy.waitForSelector('[data-testid="adapter"][data-lost="true"]', { timeout: 15_000 });
    expect(await lossy.getByTestId('adapter').textContent()).toMatch(/device lost.*next check acquires a new device/);
    const after = await runCheck(lossy, 'check-compact');
    expect([after.backend, after.verdict]).toEqual(['gpu', 'pass']);
    expect(JSON.parse(after.json)).toEqual(await runOp('check_compact', ['(4,8):(1,4)'], ctx));
    expect(await lossy.evaluate(() => (window as unknown as { __devices: GPUDevice[] }).__devices.length)).toBe(2);
    expect(await lossy.getByTestId('adapter').getAttribute('data-lost')).toBeNull();
    await lossy.close();
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('without WebGPU shows a banner and answers on the CPU backend', async () => {
    const page = await open(`?layout=${encodeURIComponent('(4,4):(1,2)')}&op=is_compact`);
    await page.waitForSelector('[data-testid="adapter"][data-ready="true"]');
    if (!ALLOW_CPU) expect(await page.getByTestId('adapter').getAttribute('data-backend')).toBe('gpu');
    expect(await page.locator('#banner').isVisible()).toBe(false);
    await page.close();

    const bare = await open(`?layout=${encodeURIComponent('(4,4):(1,2)')}&op=is_compact`, true);
    await bare.waitForSelector('[data-testid="adapter"][data-ready="true"]');
    expect(await bare.getByTestId('adapter').getAttribute('data-backend')).toBe('cpu');
    expect(await bare.locator('#banner').isVisible()).toBe(true);
    expect(await bare.locator('#banner').textContent()).toContain('no WebGPU');
    expect(await bare.getByTestId('result').textContent()).toBe('false');
    const card = await runCheck(bare, 'check-compact');
    expect(card.backend).toBe('cpu');
    expect(card.verdict).toBe('fail');
    expect(JSON.parse(card.json)).toEqual(await runOp('check_compact', ['(4,4):(1,2)'], ctx));
    // the memory panel (src/web/memory-panel.ts): the table answers as bank_conflicts, the CPU
    // search finds Sw<3,3,3> for the ldmatrix-style read, and a click puts it into the input
    const tv = '((8,4),(8,2)):((1,64),(8,256))';
    await bare.getByTestId('mem-layout').fill('(8,64):(64,1)');
    const table = bare.getByTestId('mem-table');
    const want = (await runOp('bank_conflicts', ['(8,64):(64,1)', tv, 2], ctx)) as { wavefronts: number; conflicts: number };
    expect(await table.getAttribute('data-wavefronts')).toBe(String(want.wavefronts));
    expect(await table.getAttribute('data-conflicts')).toBe(String(want.conflicts));
    expect(Number(await bare.getByTestId('mem-canvas').getAttribute('data-conflicted'))).toBeGreaterThan(0);
    await bare.getByTestId('mem-search').click();
    const sw = bare.locator('[data-testid="mem-found"] button[data-layout="Sw<3,3,3> o (8,64):(64,1)"]');
    await sw.click();
    expect(await bare.getByTestId('layout-input').inputValue()).toBe('Sw<3,3,3> o (8,64):(64,1)');
    // the main picture draws the composed layout the button put there (offsets after the swizzle)
    await bare.waitForFunction(() => document.querySelectorAll('[data-testid="cell"]').length === 512);
    for (const c of await cells(bare)) expect(c.offset).toBe(applySwizzle({ bits: 3, base: 3, shift: 3 }, 64 * c.row + c.col));
    expect(await bare.getByTestId('mem-table').getAttribute('data-conflicts')).toBe('0');
    await bare.close();
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('pictures a kernel engineer reads: composed layouts, real tiles, T5 V2 labels, tile coordinates, exports, the complement card', async () => {
    const page = await open(`?layout=${encodeURIComponent('Sw<3,3,3> o (8,64):(64,1)')}&op=coalesce`, true);
    await page.waitForSelector('[data-testid="adapter"][data-ready="true"]');
    // 1. the main picture of a composed layout: every cell's offset is Sw(Φ_L(x)), coloured by the swizzled bits
    const fn = parseLayoutFunction('Sw<3,3,3> o (8,64):(64,1)');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="cell"]').length === 512);
    expect(await page.locator('#picture .placeholder').count()).toBe(0);
    const main = await page.$$eval('[data-testid="cell"]', (els) =>
      els.map((e) => [Number(e.getAttribute('data-index')), Number(e.getAttribute('data-offset')), Number(e.getAttribute('data-swizzle'))]),
    );
    const sw = { bits: 3, base: 3, shift: 3 };
    for (const [x, v, k] of main) {
      const want = applySwizzle(sw, phi(innerLayout(fn), x!));
      expect(v).toBe(want);
      expect(k).toBe((want >> 3) & 7);
    }
    // it is saved as SVG and TikZ exactly as `show` writes them
    const save = async (testid: string): Promise<string> => {
      const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
      return readFileSync((await dl.path())!, 'utf8');
    };
    expect(await save('picture-export-svg')).toBe(svgPicture(composedPicture(fn)));
    const tex = await save('picture-export-tikz');
    expect(tex).toBe(tikzPicture(composedPicture(fn)));
    expect(tex.split('\n')[0]).toBe('% Layout: Sw<3,3,3> o (8,64):(64,1)');

    // a composed layout beyond the SVG picture's 4,096 cells goes on the canvas, swizzle colours named
    await page.getByTestId('layout-input').fill('Sw<3,3,3> o (128,128):(128,1)');
    await expect.poll(() => page.getByTestId('picture-canvas').getAttribute('data-cells')).toBe('16384');
    expect(await page.locator('#picture .note').textContent()).toContain('colour = offset bits [3, 6)');
    await page.getByTestId('layout-input').fill('Sw<3,3,3> o (8,64):(64,1)');

    // 2. hover names a tile by its coordinate: A = (8,8):(1,8) divided by the shape (2,4)
    await page.getByTestId('op').selectOption('zipped_divide');
    await page.getByTestId('layout-input').fill('(8,8):(1,8)');
    await page.getByTestId('layout-input-2').fill('(2,4)');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="cell"][data-tile]').length === 64);
    const z = parseLayout(String(await runOp('zipped_divide', ['(8,8)', '(2,4)'], ctx)));
    const probe = page.locator('[data-testid="cell"][data-index="45"]');
    await probe.hover();
    let u = 0;
    while (phi(z, u) !== 45) u++;
    const tileCoord = formatTuple(indexToCoord(mode(z, 2), Math.floor(u / 8)));
    await expect.poll(() => page.getByTestId('hover-info').textContent()).toContain(`tile ${tileCoord}, entry ${u % 8}`);
    expect(tileCoord).toMatch(/^\(\d+,\d+\)$/);

    // 3. the memory panel: the 128×64 tile (8,192 cells) drawn whole, fitting the screen; banks by colour
    const M = '(128,64):(64,1)';
    const TV = '((8,4,4),(8,2,4)):((1,1024,8),(128,4096,32))';
    await page.getByTestId('mem-label').selectOption('none');
    await page.getByTestId('mem-tv').fill(TV);
    await page.getByTestId('mem-layout').fill(M);
    const canvas = page.getByTestId('mem-canvas');
    await expect.poll(() => canvas.getAttribute('data-cells')).toBe('8192');
    const map = bankMap(parseLayout(M), parseLayout(TV), 2);
    expect(await canvas.getAttribute('data-conflicted')).toBe(String(map.ways.filter((w) => w > 1).length));
    const geo = async (): Promise<{ cw: number; ch: number; left: number; top: number }> => ({
      cw: Number(await canvas.getAttribute('data-cw')),
      ch: Number(await canvas.getAttribute('data-ch')),
      left: Number(await canvas.getAttribute('data-left')),
      top: Number(await canvas.getAttribute('data-top')),
    });
    await page.waitForTimeout(100); // a frame to draw
    const g = await geo();
    const box = (await canvas.boundingBox())!;
    expect(g.left + 64 * g.cw).toBeLessThanOrEqual(box.width + 1); // every column in view
    expect(g.top + 128 * g.ch).toBeLessThanOrEqual(box.height + 1); // every row in view
    expect(box.height).toBeLessThanOrEqual(1000);
    // the colour at the centre of sampled cells is its bank's (bank = ⌊2·offset/4⌋ mod 32)
    const samples = Array.from({ length: 64 }, (_, k) => [(k * 37) % 128, (k * 13) % 64] as const);
    const px = await canvas.evaluate(
      (el: HTMLCanvasElement, a: { pts: (readonly [number, number])[]; g: { cw: number; ch: number; left: number; top: number } }) => {
        const c = el.getContext('2d')!;
        const dpr = el.width / el.getBoundingClientRect().width;
        return a.pts.map(([r, col]) => {
          const d = c.getImageData(
            Math.floor((a.g.left + col * a.g.cw + a.g.cw * 0.6) * dpr),
            Math.floor((a.g.top + r * a.g.ch + a.g.ch / 2) * dpr),
            1,
            1,
          ).data;
          return '#' + [d[0]!, d[1]!, d[2]!].map((x) => x.toString(16).padStart(2, '0')).join('');
        });
      },
      { pts: samples, g },
    );
    samples.forEach(([r, col], k) => expect(px[k], `cell (${r},${col})`).toBe(BANK_PALETTE[Math.floor((2 * (64 * r + col)) / 4) % 32]));

    // 4. the 8×64 atom is not cut: all 64 columns in view, no horizontal scroll
    await page.getByTestId('mem-layout').fill('(8,64):(64,1)');
    await page.getByTestId('mem-tv').fill('((8,4),(8,2)):((1,64),(8,256))');
    await expect.poll(() => canvas.getAttribute('data-cells')).toBe('512');
    await page.waitForTimeout(100);
    const g8 = await geo();
    expect(g8.left + 64 * g8.cw).toBeLessThanOrEqual((await canvas.boundingBox())!.width + 1);
    expect(await page.locator('.mem-scroller').evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);

    // 5. cells labelled by thread and value: hover names T5 V2 at the cell that thread 5 reads as its value 2
    await page.getByTestId('mem-label').selectOption('tv');
    await page.getByTestId('mem-view').selectOption('cells');
    await expect.poll(() => canvas.getAttribute('data-label')).toBe('tv');
    const tvs = threadValues(parseLayout('((8,4),(8,2)):((1,64),(8,256))'));
    const acc = accessorsOf(tvs.index, tvs.threads, 512);
    let x52 = 0;
    while (!(acc.thread[x52] === 5 && acc.value[x52] === 2)) x52++;
    await page.waitForTimeout(100);
    const gc = await geo();
    await canvas.hover({ position: { x: gc.left + Math.floor(x52 / 8) * gc.cw + gc.cw / 2, y: gc.top + (x52 % 8) * gc.ch + gc.ch / 2 } });
    await expect.poll(() => page.getByTestId('mem-hover').getAttribute('data-index')).toBe(String(x52));
    const line = (await page.getByTestId('mem-hover').textContent()) ?? '';
    expect(line).toContain('T5 V2');
    expect(line).toContain(`coordinate (${x52 % 8},${Math.floor(x52 / 8)})`);
    // the bank picture saved as SVG is render/banks.ts' document with the same labels
    const m8 = parseLayout('(8,64):(64,1)');
    const map8 = bankMap(m8, parseLayout('((8,4),(8,2)):((1,64),(8,256))'), 2);
    const svg = await save('mem-export-svg');
    expect(svg).toBe(bankSvg(composedPicture(m8), map8.bank, map8.ways, 'banks of (8,64):(64,1), 2-byte elements', { label: 'tv', accessors: acc }));
    expect(svg).toContain('>T5 V2<');
    expect((await save('mem-export-tikz')).split('\n')[0]).toBe('% Banks: (8,64):(64,1)');

    // 6. the complement card reads like the CLI: the size of (A, B), no "below 0", no "?"
    await page.getByTestId('op').selectOption('logical_divide');
    await page.getByTestId('layout-input').fill('(4,8):(1,4)');
    await page.getByTestId('layout-input-2').fill('(2,2):(1,2)');
    const card = await runCheck(page, 'check-complement');
    const want = (await runOp('check_complement', ['(4,8):(1,4)', '(2,2):(1,2)'], ctx)) as { image: number; collisions: number };
    const text = (await page.getByTestId('gpu-result').first().getByTestId('gpu-explain').textContent()) ?? '';
    expect(card.verdict).toBe('fail');
    expect(text).toContain(`B = (2,2):(1,2) does not complement A = (4,8):(1,4)`);
    expect(text).toContain(`${want.image} distinct offsets below 128`);
    expect(text).toContain(`${want.collisions} collisions`);
    expect(text).not.toMatch(/below 0|\?/);
    await page.close();
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
