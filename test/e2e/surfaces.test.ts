/**
 * The page answers what the CLI answers, and reads like a page (issue 25, items 4, 5 and 9), in headless Chromium:
 * the memory panel prices a tiled copy sent from the atoms panel over the WHOLE memory tile, with the figures of
 * `layoutgpu conflicts --copy` for the same inputs (and its swizzle search finds the CLI's fix), and takes every side
 * form (a TV layout, a tiled copy, an MMA operand, a Triton encoding) with the numbers of their ops; nothing overlaps
 * at 1440×900 or 1024×768 (the planner panel's plan drawn); inputs show their whole text; Save SVG/TikZ only beside a
 * picture; the TV pictures use the CLI's print_latex palette; a reload from the address restores every panel.
 */
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { parseLayoutFunction } from '../../src/cute/composed.js';
import { machineByName } from '../../src/memory/machines.js';
import { bankSide, loadBankSides, type BankSideForm } from '../../src/ops/bank-sides.js';
import { threadColour } from '../../src/render/colour.js';
import { builtPage, watchedPage } from '../helpers/browser.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const MMA = { atom: 'SM80_16x8x16_F32F16F16F32_TN', layout: '(2,2,1)', permutation: '(32,32,16)' };
const TILE = '(128,64):(64,1)';
const BLOCKED = '#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>';

/** `layoutgpu conflicts --copy …` of the atoms panel's default copy (ldmatrix .x4 for A of its tiled MMA) over M. */
function cliCopy(m: string): Record<string, unknown> {
  const args = ['conflicts', '--copy', 'SM75_U32x4_LDSM_N', '--bits', '16', '--mma', MMA.atom, '--layout', MMA.layout];
  args.push('--permutation', MMA.permutation, '--operand', 'A', m, '--json');
  return JSON.parse(execFileSync(process.execPath, [join(ROOT, 'bin/layoutgpu.js'), ...args], { encoding: 'utf8' })) as Record<string, unknown>;
}

/** The memory panel's figures: the table's rows by header, and its data attributes. */
async function memFigures(page: Page): Promise<Record<string, string>> {
  return page.getByTestId('mem-table').evaluate((t) => {
    const out: Record<string, string> = { wavefronts: t.getAttribute('data-wavefronts') ?? '', conflicts: t.getAttribute('data-conflicts') ?? '' };
    for (const tr of t.querySelectorAll('tr')) out[tr.querySelector('th')?.textContent ?? ''] = tr.querySelector('td')?.textContent ?? '';
    return out;
  });
}

/** Pairs of visible elements whose boxes (clipped by their scrolling ancestors) intersect, neither inside the other. */
async function overlaps(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const sel = 'button, input, select, textarea, label, h1, h2, code, output, canvas, svg.grid, .ref, .title, .chip, .fact, p, .hover-line';
    const name = (e: Element): string =>
      `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}[${e.getAttribute('data-testid') ?? e.className}] "${(e.textContent ?? '').slice(0, 30)}"`;
    const boxes: { e: Element; r: { l: number; t: number; r: number; b: number } }[] = [];
    for (const e of document.querySelectorAll(sel)) {
      if (e.closest('[hidden]') || (e.closest('svg.grid') !== null && !e.matches('svg.grid'))) continue;
      const cs = getComputedStyle(e);
      if (cs.visibility === 'hidden' || cs.display === 'none') continue;
      // the box, and the text it renders (text wider than its box overflows it)
      const b = e.getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(e);
      const t = range.getBoundingClientRect();
      const text = t.width > 0 && t.height > 0 && !e.matches('input, select, textarea');
      let r = {
        l: Math.min(b.left, text ? t.left : b.left),
        t: Math.min(b.top, text ? t.top : b.top),
        r: Math.max(b.right, text ? t.right : 0),
        b: Math.max(b.bottom, text ? t.bottom : 0),
      };
      for (let a = e.parentElement; a; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.overflowX !== 'visible' || s.overflowY !== 'visible') {
          const c = a.getBoundingClientRect();
          r = { l: Math.max(r.l, c.left), t: Math.max(r.t, c.top), r: Math.min(r.r, c.right), b: Math.min(r.b, c.bottom) };
        }
      }
      // what is in view (the test scrolls the page through the window)
      r = { l: Math.max(r.l, 0), t: Math.max(r.t, 0), r: Math.min(r.r, innerWidth), b: Math.min(r.b, innerHeight) };
      if (r.r - r.l > 1 && r.b - r.t > 1) boxes.push({ e, r });
    }
    const out: string[] = [];
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]!;
        const b = boxes[j]!;
        if (a.e.contains(b.e) || b.e.contains(a.e)) continue;
        const w = Math.min(a.r.r, b.r.r) - Math.max(a.r.l, b.r.l);
        const h = Math.min(a.r.b, b.r.b) - Math.max(a.r.t, b.r.t);
        if (w > 1 && h > 1) out.push(`${name(a.e)} × ${name(b.e)}`);
      }
    }
    return out;
  });
}

describe('the page against the CLI, and its layout', () => {
  const site = builtPage('layoutgpu-surfaces-');
  const errors: string[] = [];

  async function open(url = site.base, viewport = { width: 1440, height: 900 }): Promise<Page> {
    const page = await watchedPage(site.browser, viewport, errors);
    await page.goto(url);
    await page.waitForSelector('body[data-ready="true"]');
    await page.getByTestId('copy-info').waitFor();
    await expect.poll(() => page.getByTestId('copy-info').getAttribute('data-tiler')).toBeTruthy();
    return page;
  }

  it('sends a tiled copy over the whole 128×64 tile: the figures of conflicts --copy, and its fix Sw<3,3,3>', async () => {
    const page = await open();
    await page.getByTestId('mem-layout').fill(TILE);
    await page.getByTestId('copy-send').click();
    await expect.poll(() => page.getByTestId('mem-form').inputValue()).toBe('copy');
    const want = cliCopy(TILE);
    expect(want['vector']).toBe(8);
    await expect.poll(() => page.getByTestId('mem-table').getAttribute('data-wavefronts')).toBe(String(want['wavefronts']));
    const got = await memFigures(page);
    expect(got['conflicts']).toBe(String(want['conflicts']));
    expect(got['vector']).toBe(`${want['vector']} value(s)`);
    expect(got['instructions']).toBe(String(want['instructions']));
    expect(got['phases']).toBe(String(want['phases']));
    expect(got['worst phase']).toContain(`${(want['worst'] as { wavefronts: number }).wavefronts}-way`);
    expect(await page.getByTestId('mem-layout').inputValue()).toBe(TILE);
    // the search ranks by the copy's own pricing: the CLI's fix is conflict-free there, and the top answer is so for the CLI
    await page.getByTestId('mem-search').click();
    const fix = page.locator(`[data-testid="mem-found"] button[data-layout="Sw<3,3,3> o ${TILE}"]`);
    await fix.waitFor({ timeout: 60_000 });
    expect(await fix.getAttribute('data-vector')).toBe('8');
    const top = await page.locator('[data-testid="mem-found"] button[data-layout]').first().getAttribute('data-layout');
    const cliTop = cliCopy(top!);
    expect(cliTop['conflicts']).toBe(0);
    expect(cliTop['vector']).toBe(8);
    await fix.click();
    await expect.poll(() => page.getByTestId('mem-table').getAttribute('data-conflicts')).toBe('0');
    expect(cliCopy(`Sw<3,3,3> o ${TILE}`)['wavefronts']).toBe(Number(await page.getByTestId('mem-table').getAttribute('data-wavefronts')));
    await page.close();
  });

  it('takes every side form with the numbers of its op', async () => {
    const page = await open();
    const M = 'Sw<3,3,3> o (128,64):(64,1)';
    const m = parseLayoutFunction(M, 'M');
    // each side as the page enters it, and as ops/bank-sides.ts (which `conflicts` reads) takes it over M
    const copy = JSON.stringify({ atom: 'SM75_U32x4_LDSM_N', bits: 16, mma: MMA, operand: 'A' });
    const sides: { text: string; operand?: string; node: BankSideForm }[] = [
      { text: '((8,4),(8,2)):((1,64),(8,256))', node: { form: 'tv', m, tv: '((8,4),(8,2)):((1,64),(8,256))', elem: 2 } },
      { text: copy, node: { form: 'copy', copy, m } },
      { text: JSON.stringify(MMA), operand: 'B', node: { form: 'mma', mma: JSON.stringify(MMA), operand: 'B', m, elem: 2 } },
      { text: BLOCKED, node: { form: 'll', r: BLOCKED, s: m, shape: '128x64', elem: 2 } },
    ];
    await page.getByTestId('mem-layout').fill('(128,64):(64,1)');
    await loadBankSides();
    for (const { text, operand, node } of sides) {
      await page.getByTestId('mem-form').selectOption(node.form);
      await page.getByTestId('mem-tv').fill(text);
      if (operand !== undefined) await page.getByTestId('mem-operand').selectOption(operand);
      await page.getByTestId('mem-layout').fill(M);
      const want = bankSide(node).report;
      await expect.poll(() => page.getByTestId('mem-table').getAttribute('data-wavefronts'), { message: node.form }).toBe(String(want.wavefronts));
      const got = await memFigures(page);
      expect(got['vector'], node.form).toBe(`${want.vector} value(s)`);
      expect(got['instructions'], node.form).toBe(String(want.instructions));
      expect([got['phases'], got['conflicts']], node.form).toEqual([String(want.phases), String(want.conflicts)]);
      expect(Number(await page.getByTestId('mem-canvas').getAttribute('data-cells'))).toBe(8192);
      await page.getByTestId('mem-layout').fill('(128,64):(64,1)');
    }
    // the machine (--arch): gfx942's 64-lane waves price a TV layout as bankSide does on it
    await page.getByTestId('mem-form').selectOption('tv');
    await page.getByTestId('mem-tv').fill('(64,8):(8,1)');
    await page.getByTestId('mem-elem').selectOption('4');
    await page.getByTestId('mem-layout').fill(M);
    await page.getByTestId('mem-arch').selectOption('gfx942');
    const wide = { form: 'tv', m, tv: '(64,8):(8,1)', elem: 4 } as const;
    const amd = bankSide(wide, false, { machine: machineByName('gfx942') }).report;
    expect(amd.instructions).not.toBe(bankSide(wide).report.instructions);
    await expect.poll(() => memFigures(page).then((f) => f['instructions'])).toBe(String(amd.instructions));
    expect(await page.getByTestId('mem-table').getAttribute('data-wavefronts')).toBe(String(amd.wavefronts));
    expect(new URL(page.url()).searchParams.get('mem-arch')).toBe('gfx942');
    await page.getByTestId('mem-arch').selectOption('sm90');
    await page.getByTestId('mem-elem').selectOption('2');
    // the copy's side is chosen as the CLI chooses it, and a bad side names its problem
    await page.getByTestId('mem-form').selectOption('ll');
    await page.getByTestId('mem-tv').fill('#ttg.blocked<{sizePerThread = [1');
    await expect.poll(() => page.locator('.mem-out .inline-error').count()).toBe(1);
    await page.close();
  });

  const VIEWPORTS = [
    { width: 1440, height: 900 },
    { width: 1024, height: 768 },
  ];

  it('has nothing overlapping at 1440×900 and 1024×768, the sidebar and the panels scrolled through', async () => {
    for (const viewport of VIEWPORTS) {
      const page = await open(site.base, viewport);
      // the planner panel's plan drawn (its front, plot and both sides' banks)
      await page.getByTestId('plan-detail').waitFor({ timeout: 60_000 });
      const scrolls = await page.evaluate(() => document.documentElement.scrollHeight);
      for (let y = 0; y < scrolls; y += viewport.height - 100) {
        await page.evaluate((to) => window.scrollTo(0, to), y);
        expect(await overlaps(page), `${viewport.width}×${viewport.height} at ${y}`).toEqual([]);
      }
      // the examples' own scroller, scrolled through as well
      const list = page.locator('#examples');
      await list.scrollIntoViewIfNeeded();
      const inner = await list.evaluate((el) => el.scrollHeight);
      for (let y = 0; y < inner; y += 300) {
        await list.evaluate((el, to) => el.scrollTo(0, to), y);
        expect(await overlaps(page), `${viewport.width}×${viewport.height}, examples at ${y}`).toEqual([]);
      }
      await page.close();
    }
  });

  it('shows the whole text of every input, a long layout included', async () => {
    for (const viewport of VIEWPORTS) {
      const page = await open(site.base, viewport);
      const long = '((2,2,2,2,2,2),(4,4,4,4,4,4)):((1,2,4,8,16,32),(64,256,1024,4096,16384,65536))';
      await page.getByTestId('layout-input').fill(long);
      await page.getByTestId('atoms-perm').fill(`(${long},32,16)`);
      await page.getByTestId('mem-layout').fill(`Sw<3,3,3> o ${long}`);
      const clipped = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input[type=text], input[type=search], textarea')]
          .filter((e) => e.offsetParent !== null && (e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1))
          .map((e) => e.getAttribute('data-testid') ?? e.id),
      );
      expect(clipped, `${viewport.width}×${viewport.height}`).toEqual([]);
      expect(await overlaps(page), `${viewport.width}×${viewport.height}`).toEqual([]);
      await page.close();
    }
  });

  it('offers Save SVG/TikZ only beside a picture', async () => {
    const page = await open();
    await expect.poll(() => page.getByTestId('picture-export-svg').count()).toBe(1);
    // a layout too large to draw: the note, and no export
    await page.getByTestId('layout-input').fill('(2048,1024):(1,2048)');
    await expect.poll(() => page.locator('#picture .note').count()).toBe(1);
    expect(await page.getByTestId('picture-export-svg').count()).toBe(0);
    expect(await page.getByTestId('picture-export-tikz').count()).toBe(0);
    // one that does not parse
    await page.getByTestId('layout-input').fill('(4,8');
    await expect.poll(() => page.getByTestId('picture-export-svg').count()).toBe(0);
    await page.getByTestId('mem-layout').fill('(8,');
    await expect.poll(() => page.getByTestId('mem-export-svg').count()).toBe(0);
    const lone = await page.evaluate(
      () =>
        [...document.querySelectorAll('.export-row')].filter((r) => (r as HTMLElement).offsetParent !== null && !r.parentElement?.querySelector('canvas, svg'))
          .length,
    );
    expect(lone).toBe(0);
    await page.close();
  });

  it("draws the TV pictures in the CLI's print_latex palette", async () => {
    const page = await open();
    const cells = await page
      .locator('[data-testid="atoms-picture"][data-operand="A"] [data-testid="atoms-cell"]')
      .evaluateAll((gs) => gs.slice(0, 64).map((g) => ({ t: Number(g.getAttribute('data-thread')), fill: g.querySelector('rect')!.getAttribute('fill') })));
    expect(cells.length).toBe(64);
    for (const c of cells) expect(c.fill).toBe(threadColour(c.t));
    await page.close();
  });

  it('restores every panel from its address', async () => {
    const page = await open();
    await page.getByTestId('layout-input').fill('(8,4):(4,1)');
    await page.getByTestId('atoms-perm').fill('(32,32,32)');
    await page.getByTestId('copy-from').selectOption('B');
    await page.getByTestId('mem-layout').fill(TILE);
    await page.getByTestId('mem-label').selectOption('bank');
    await page.getByTestId('mem-arch').selectOption('sm80');
    const ll = page.getByTestId('ll-input');
    const llText = '#ttg.linear<{register = [[0, 1], [0, 2]], lane = [[1, 0]], warp = [], block = []}>';
    await ll.fill(llText);
    await page.getByTestId('plan-tile').fill('(16,16)');
    await page.getByTestId('plan-label').selectOption('tv');
    const before = {
      info: await page.getByTestId('atoms-info').getAttribute('data-tile'),
      copy: await page.getByTestId('copy-info').getAttribute('data-tiler'),
    };
    let again = await open(page.url());
    await page.close();
    expect(await again.getByTestId('layout-input').inputValue()).toBe('(8,4):(4,1)');
    expect(await again.getByTestId('atoms-perm').inputValue()).toBe('(32,32,32)');
    expect(await again.getByTestId('copy-from').inputValue()).toBe('B');
    await expect.poll(() => again.getByTestId('atoms-info').getAttribute('data-tile')).toBe(before.info);
    await expect.poll(() => again.getByTestId('copy-info').getAttribute('data-tiler')).toBe(before.copy);
    expect(await again.getByTestId('mem-layout').inputValue()).toBe(TILE);
    expect(await again.getByTestId('mem-label').inputValue()).toBe('bank');
    expect(await again.getByTestId('mem-arch').inputValue()).toBe('sm80');
    await expect.poll(() => again.getByTestId('ll-input').inputValue()).toBe(llText);
    await expect.poll(() => again.getByTestId('plan-tile').inputValue()).toBe('(16,16)');
    expect(await again.getByTestId('plan-label').inputValue()).toBe('tv');
    // a copy sent to the memory panel: its side and its figures come back with the link
    await again.getByTestId('copy-send').click();
    await expect.poll(() => again.getByTestId('mem-form').inputValue()).toBe('copy');
    await expect.poll(() => again.getByTestId('mem-table').getAttribute('data-wavefronts')).toBeTruthy();
    const sent = { side: await again.getByTestId('mem-tv').inputValue(), wavefronts: await again.getByTestId('mem-table').getAttribute('data-wavefronts') };
    const third = await open(again.url());
    await again.close();
    again = third;
    expect(await again.getByTestId('mem-form').inputValue()).toBe('copy');
    expect(await again.getByTestId('mem-tv').inputValue()).toBe(sent.side);
    await expect.poll(() => again.getByTestId('mem-table').getAttribute('data-wavefronts')).toBe(sent.wavefronts);
    await again.close();
    expect(errors).toEqual([]);
  });
});
