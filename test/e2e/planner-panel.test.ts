/**
 * The page's planner panel (src/web/planner-panel.ts) in headless Chromium, against the page as vite builds it: the
 * 16×16 SwizzleTest pair planned on the page answers what the library (and so the CLI: formatPlan is its table) answers
 * for the same request — the front's rows, the certificate's line, Triton's entry; choosing the second entry (its row,
 * or its point on the plot) draws both sides' banks on that layout, cell by cell Φ of it (a big tile on the memory
 * panel's canvas, its conflicted cells counted as the library counts them); a side that is not JSON and a
 * request the planner refuses are inline errors of the kind and message the library gives; the address brings back
 * the request and the entry chosen. No page errors.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LayoutError } from '../../src/algebra/errors.js';
import { phi } from '../../src/algebra/layout.js';
import { isComposed, parseLayoutFunction, phiComposed } from '../../src/cute/composed.js';
import { loadPlanView, planEntryView, planSideText, planTileText } from '../../src/ops/plan-view.js';
import { formatPlan, loadPlanner, planArgs } from '../../src/ops/planner.js';
import type { PlanResult } from '../../src/planner/plan.js';
import { builtPage, watchedPage } from '../helpers/browser.js';
import { FIXTURES } from '../helpers/fixtures.js';

/** Triton's SwizzleTest pair of docs/planner.md's worked conversion, as the fixture writes its request. */
const SWIZZLETEST = readFileSync(join(FIXTURES, 'plan-swizzletest.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as { id: string; args: [Record<string, unknown>] })
  .find((x) => x.id === 'Test16x16Bf16BlockedMma')!.args[0];

/** The request the panel's fields hold, read as `layoutgpu plan` reads its options. */
async function pageRequest(page: Page): Promise<Record<string, unknown>> {
  const v = async (id: string): Promise<string> => page.getByTestId(id).inputValue();
  const req: Record<string, unknown> = {
    tile: planTileText(await v('plan-tile')),
    dtype: await v('plan-dtype'),
    write: planSideText(await v('plan-write'), 'write'),
    read: planSideText(await v('plan-read'), 'read'),
    arch: await v('plan-arch'),
  };
  const top = (await v('plan-top')).trim();
  if (top !== '') req.top = Number(top);
  return req;
}

/** Waits until the panel has planned the request its fields hold, and returns that request. */
async function planned(page: Page): Promise<Record<string, unknown>> {
  const req = await pageRequest(page);
  await expect
    .poll(async () => JSON.parse((await page.getByTestId('plan-status').getAttribute('data-request')) ?? 'null') as unknown, { timeout: 60_000 })
    .toEqual(req);
  return req;
}

/** The CLI's rows of a plan (formatPlan): each row's cells, split where it pads them. */
const cliRows = (r: PlanResult): string[][] =>
  formatPlan(r)
    .split('\n')
    .slice(1)
    .filter((l) => /^(\d+|triton)\s/.test(l))
    .map((l) => l.split(/\s{2,}/));

/** Φ of a printed CuTe layout at every index below n. */
function phiOf(text: string, n: number): number[] {
  const l = parseLayoutFunction(text);
  return Array.from({ length: n }, (_, x) => (isComposed(l) ? phiComposed(l, x) : phi(l, x)));
}

/** The offsets by tile index of a 2-d `#ttg.shared_linear<{offset = [[d0, d1], …]}>` (n rows): offset o is at the
 *  XOR of the bases of its set bits, tile index d0 + n·d1. */
function sharedLinearOffsets(text: string, n: number): number[] {
  const bases = JSON.parse(/offset = (\[\[.*?\]\])/.exec(text)![1]!) as [number, number][];
  const out: number[] = [];
  for (let o = 0; o < 2 ** bases.length; o++) {
    let [d0, d1] = [0, 0];
    bases.forEach(([a, b], k) => {
      if ((o >> k) & 1) [d0, d1] = [d0 ^ a, d1 ^ b];
    });
    out[d0 + n * d1] = o;
  }
  return out;
}

/** The offsets a bank picture labels, by tile index (row r, column c is index r + rows·c). */
async function pictureOffsets(page: Page, role: 'write' | 'read'): Promise<number[]> {
  const rows = await page
    .locator(`[data-testid="plan-banks"][data-role="${role}"] svg g[data-row]`)
    .evaluateAll((gs) => gs.map((g) => [...g.querySelectorAll('tspan')].map((t) => Number(t.textContent))));
  const out: number[] = [];
  rows.forEach((cells, r) => cells.forEach((o, c) => (out[r + rows.length * c] = o)));
  return out;
}

describe('the planner panel', () => {
  const site = builtPage('layoutgpu-planner-');
  const errors: string[] = [];

  async function open(url = site.base): Promise<Page> {
    const page = await watchedPage(site.browser, { width: 1440, height: 900 }, errors);
    await page.goto(url);
    await page.waitForSelector('body[data-ready="true"]');
    await page.getByTestId('plan-detail').waitFor({ timeout: 60_000 });
    return page;
  }

  it('plans the 16×16 SwizzleTest pair as the library does; the second entry, chosen, draws its banks', async () => {
    await loadPlanner();
    const page = await open();
    await page.getByTestId('plan-example').and(page.locator('[data-example="swizzletest-16x16"]')).click();
    const req = await planned(page);
    const { top: _, ...asked } = req;
    expect(asked).toEqual({ ...SWIZZLETEST }); // the example is the fixture's request
    const want = planArgs(req);
    expect(want.front.length).toBeGreaterThanOrEqual(2);
    // the front: every row's data and cells as the library's answer and the CLI's table
    await expect.poll(() => page.getByTestId('plan-row').count()).toBe(want.front.length + (want.triton ? 1 : 0));
    const rows = await page.getByTestId('plan-row').evaluateAll((trs) =>
      trs.map((tr) => ({
        index: tr.getAttribute('data-index'),
        layout: tr.getAttribute('data-layout'),
        write: Number(tr.getAttribute('data-write')),
        read: Number(tr.getAttribute('data-read')),
        bytes: Number(tr.getAttribute('data-bytes')),
        cells: [...tr.querySelectorAll('td')].map((td) => td.textContent),
      })),
    );
    const entries = [...want.front, ...(want.triton ? [want.triton] : [])];
    expect(rows.map((r) => [r.layout, r.write, r.read, r.bytes])).toEqual(entries.map((x) => [x.layout, x.write.wavefronts, x.read.wavefronts, x.bytes]));
    expect(rows.map((r) => r.cells)).toEqual(cliRows(want));
    expect(rows[0]!.layout).toBe(want.front[0]!.layout);
    const cert = formatPlan(want)
      .split('\n')
      .find((l) => l.startsWith('certificate:'));
    expect(await page.getByTestId('plan-certificate').textContent()).toBe(cert);
    expect(await page.getByTestId('plan-certificate').getAttribute('data-kind')).toBe(want.certificate.kind);
    // the plot: a point per entry, Triton's marked
    const points = await page.getByTestId('plan-point').evaluateAll((gs) => gs.map((g) => [g.getAttribute('data-index'), g.getAttribute('data-layout')]));
    expect(points).toEqual(rows.map((r) => [r.index, r.layout]));
    expect(await page.locator('[data-testid="plan-point"][data-index="triton"] .mark.triton').count()).toBe(want.triton ? 1 : 0);
    // entry 1: both sides' figures and banks on its layout
    const n = 16 * 16;
    const first = want.front[0]!;
    await expect.poll(() => page.getByTestId('plan-detail').getAttribute('data-layout')).toBe(first.layout);
    for (const role of ['write', 'read'] as const) {
      const side = page.locator(`[data-testid="plan-side"][data-role="${role}"]`);
      expect(await side.getAttribute('data-instruction')).toBe(first[role].instruction);
      expect(Number(await side.getAttribute('data-wavefronts'))).toBe(first[role].wavefronts);
      expect(await pictureOffsets(page, role)).toEqual(phiOf(first.layout, n));
    }
    // entry 2, by its row: the pictures change to its layout's
    const second = want.front[1]!;
    expect(phiOf(second.layout, n)).not.toEqual(phiOf(first.layout, n));
    await page.locator('[data-testid="plan-row"][data-index="2"]').click();
    await expect.poll(() => page.getByTestId('plan-detail').getAttribute('data-layout')).toBe(second.layout);
    for (const role of ['write', 'read'] as const) {
      expect(await page.locator(`[data-testid="plan-banks"][data-role="${role}"]`).getAttribute('data-layout')).toBe(second.layout);
      expect(await pictureOffsets(page, role)).toEqual(phiOf(second.layout, n));
      const side = page.locator(`[data-testid="plan-side"][data-role="${role}"]`);
      expect(Number(await side.getAttribute('data-wavefronts'))).toBe(second[role].wavefronts);
    }
    expect(await page.locator('[data-testid="plan-row"][data-index="2"]').getAttribute('aria-selected')).toBe('true');
    expect(await page.locator('[data-testid="plan-point"][data-index="2"]').getAttribute('aria-selected')).toBe('true');
    // a point chooses too: Triton's entry, then the first again
    if (want.triton) {
      await page.locator('[data-testid="plan-point"][data-index="triton"]').click();
      await expect.poll(() => page.getByTestId('plan-detail').getAttribute('data-layout')).toBe(want.triton.layout);
      expect(await pictureOffsets(page, 'write')).toEqual(sharedLinearOffsets(want.triton.layout, 16));
      expect(await pictureOffsets(page, 'read')).toEqual(sharedLinearOffsets(want.triton.layout, 16));
    }
    await page.locator('[data-testid="plan-point"][data-index="1"]').click();
    await expect.poll(() => page.getByTestId('plan-detail').getAttribute('data-layout')).toBe(first.layout);
    await page.close();
    expect(errors).toEqual([]);
  });

  it("draws a big tile's banks on the memory panel's canvas, and a TMA side as no banks", async () => {
    await loadPlanner();
    await loadPlanView();
    const page = await open();
    for (const ex of ['readme-128x64', 'epilogue-tma']) {
      await page.locator(`[data-testid="plan-example"][data-example="${ex}"]`).click();
      const req = await planned(page);
      const best = planArgs(req).front[0]!;
      await expect.poll(() => page.getByTestId('plan-detail').getAttribute('data-layout'), { timeout: 60_000 }).toBe(best.layout);
      const view = planEntryView(req, best.layout);
      for (const side of view.sides) {
        const canvas = page.locator(`[data-testid="plan-banks"][data-role="${side.role}"] [data-testid="plan-canvas"]`);
        if (side.banks === null) {
          expect(await canvas.count(), `${ex} ${side.role}`).toBe(0);
          expect(await page.locator(`[data-testid="plan-no-banks"][data-role="${side.role}"]`).textContent()).toMatch(/tma moves the tile without the banks/);
          continue;
        }
        const n = view.picture!.offsets.length;
        expect([await canvas.getAttribute('data-cells'), await canvas.getAttribute('data-conflicted')], `${ex} ${side.role}`).toEqual([
          String(n),
          String(side.conflicted),
        ]);
        expect(await canvas.getAttribute('aria-label')).toBe(`banks of ${best.layout}`);
      }
    }
    await page.close();
    expect(errors).toEqual([]);
  });

  it('shows a side that is not JSON, and a request the planner refuses, inline', async () => {
    await loadPlanner();
    const page = await open();
    const write = page.getByTestId('plan-write');
    const good = await write.inputValue();
    await write.fill('{"ll": 1');
    const fieldError = page.locator('[data-testid="plan-field-error"][data-field="write"]');
    await expect.poll(() => fieldError.isVisible()).toBe(true);
    expect(await fieldError.getAttribute('data-error-kind')).toBe('parse');
    expect(await write.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('plan-detail').count()).toBe(0);
    // the LL's dims are not the tile's: the planner's own error, as the library gives it
    await write.fill(good);
    await page.getByTestId('plan-tile').fill('16x32');
    const req = await pageRequest(page);
    let want: LayoutError | null = null;
    try {
      planArgs(req);
    } catch (e) {
      want = e as LayoutError;
    }
    expect(want).toBeInstanceOf(LayoutError);
    const err = page.getByTestId('plan-error');
    await expect.poll(() => err.getAttribute('data-error-kind')).toBe(want!.kind);
    expect(await err.textContent()).toContain(want!.message);
    expect(await fieldError.isVisible()).toBe(false);
    // a TMA write on sm80, which has none: domain, inline
    await page.getByTestId('plan-tile').fill('16x16');
    await write.fill('tma');
    await expect.poll(() => err.textContent()).toMatch(/sm80 has no tma/);
    expect(await err.getAttribute('data-error-kind')).toBe('domain');
    await page.close();
    expect(errors).toEqual([]);
  });

  it('keeps the request and the entry chosen in the address', async () => {
    await loadPlanner();
    const page = await open();
    await page.getByTestId('plan-top').fill('3');
    await page.getByTestId('plan-arch').selectOption('sm90');
    await page.getByTestId('plan-label').selectOption('bank');
    await planned(page);
    await expect.poll(() => page.getByTestId('plan-row').count()).toBeGreaterThanOrEqual(3);
    await page.locator('[data-testid="plan-row"][data-index="2"]').click();
    const chosen = await page.locator('[data-testid="plan-row"][data-index="2"]').getAttribute('data-layout');
    await expect.poll(() => page.getByTestId('plan-detail').getAttribute('data-layout')).toBe(chosen);
    const q = new URL(page.url()).searchParams;
    expect([q.get('plan-top'), q.get('plan-arch'), q.get('plan-entry'), q.get('plan-label')]).toEqual(['3', 'sm90', '2', 'bank']);
    const again = await open(page.url());
    await page.close();
    expect(await again.getByTestId('plan-top').inputValue()).toBe('3');
    expect(await again.getByTestId('plan-arch').inputValue()).toBe('sm90');
    await planned(again);
    await expect.poll(() => again.getByTestId('plan-detail').getAttribute('data-layout')).toBe(chosen);
    expect(await again.getByTestId('plan-detail').getAttribute('data-index')).toBe('2');
    const want = planArgs(await pageRequest(again));
    expect(want.front[1]!.layout).toBe(chosen);
    expect(await again.getByTestId('plan-row').count()).toBe(want.front.length + (want.triton ? 1 : 0));
    // bank labels: each cell names its bank
    const labels = await again.locator('[data-testid="plan-banks"][data-role="write"] svg tspan').allTextContents();
    expect(labels.every((t) => /^B\d+$/.test(t))).toBe(true);
    await again.close();
    expect(errors).toEqual([]);
  });
});
