/**
 * What the real-browser tests share: the headless Chromium to drive (Debian's, or LAYOUTGPU_CHROMIUM) with the flags
 * that give it WebGPU on SwiftShader and keep it off the network, a static server for the built page on 127.0.0.1,
 * the page built into a directory of its own with the server and Chromium around a file's tests, and a page that
 * collects its errors.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export const CHROMIUM = process.env['LAYOUTGPU_CHROMIUM'] ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--enable-unsafe-webgpu', // WebGPU in headless Chromium on Linux (adapter: SwiftShader)
  '--no-sandbox',
  '--disable-gpu-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
  '--disable-domain-reliability',
  '--disable-client-side-phishing-detection',
  '--disable-features=Translate,OptimizationHints,MediaRouter,InterestFeedContentSuggestions',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-quic',
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
];

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

/** A static server for `dir` (the built page) on 127.0.0.1, on a free port. */
export function serve(dir: string): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = normalize(join(dir, path));
    if (!file.startsWith(dir + sep) && file !== dir) {
      res.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    res.end(readFileSync(file));
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

/**
 * The page as vite builds it, into a temporary directory of its own (so that e2e files may run side by side), served
 * on 127.0.0.1, and a headless Chromium: built, served and launched before the calling describe's tests, closed and
 * removed after them. `base` (the page's address) and `browser` are set once its tests run.
 */
export function builtPage(tmpPrefix: string): { base: string; browser: Browser } {
  const site = {} as { base: string; browser: Browser };
  let dist: string | undefined;
  let server: http.Server | undefined;
  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: run scripts/setup-system.sh, or set LAYOUTGPU_CHROMIUM`);
    dist = mkdtempSync(join(tmpdir(), tmpPrefix));
    const vite = [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'vite.config.ts', '--outDir', dist, '--emptyOutDir', '--logLevel', 'warn'];
    execFileSync(process.execPath, vite, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    server = await serve(dist);
    site.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    site.browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
  }, 180_000);
  afterAll(async () => {
    await site.browser?.close();
    await new Promise((ok) => (server ? server.close(ok) : ok(undefined)));
    if (dist) rmSync(dist, { recursive: true, force: true });
  });
  return site;
}

/** A new page of `browser` whose uncaught errors and console errors are pushed onto `errors`. */
export async function watchedPage(browser: Browser, viewport: { width: number; height: number }, errors: string[]): Promise<Page> {
  const page = await browser.newPage({ viewport });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return page;
}
