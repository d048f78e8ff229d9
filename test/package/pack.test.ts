/**
 * The npm package as a user meets it: `npm pack`, then the tarball installed into an empty
 * temporary project (offline: the tarball, plus the `webgpu` and `@webgpu/types` already installed
 * here), and there: `npx layoutgpu` answers, `import … from 'layoutgpu'` runs and type-checks
 * against the shipped .d.ts, and a Vite browser bundle of `layoutgpu/browser` has no Node built-in.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../cli/_build.js';

const tmp = mkdtempSync(join(tmpdir(), 'layoutgpu-pack-'));
const proj = join(tmp, 'proj');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function run(cmd: string, args: string[], cwd: string, timeout = 120_000): SpawnSyncReturns<string> {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout, env: { ...process.env, NO_COLOR: '1' } });
  if (r.error) throw r.error;
  return r;
}
const ok = (r: SpawnSyncReturns<string>, what: string): string => {
  expect(r.status, `${what}:\n${r.stdout}\n${r.stderr}`).toBe(0);
  return r.stdout;
};

let tarball = '';
let files: string[] = [];

beforeAll(() => {
  ensureBuilt();
  // the build is fresh (ensureBuilt); --ignore-scripts keeps `prepack` from rebuilding dist/
  // under the other test files that run the CLI meanwhile
  const packed = JSON.parse(ok(run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], ROOT), 'npm pack')) as Array<{
    filename: string;
    size: number;
    files: Array<{ path: string }>;
  }>;
  tarball = join(tmp, packed[0]!.filename);
  files = packed[0]!.files.map((f) => f.path);
  mkdirSync(proj);
  writeFileSync(join(proj, 'package.json'), JSON.stringify({ name: 'proj', private: true, type: 'module' }));
  ok(
    run(
      'npm',
      ['install', '--offline', '--no-audit', '--no-fund', tarball, join(ROOT, 'node_modules', 'webgpu'), join(ROOT, 'node_modules', '@webgpu', 'types')],
      proj,
    ),
    'npm install of the tarball',
  );
}, 300_000);

describe('the tarball', () => {
  it('holds the build, the bin, README and LICENSE, and neither tests nor sources', () => {
    for (const f of [
      'package.json',
      'README.md',
      'LICENSE',
      'bin/layoutgpu.js',
      'dist/node.js',
      'dist/node.d.ts',
      'dist/browser.js',
      'dist/browser.d.ts',
      'dist/cli/main.js',
      'dist/engine/shaders.generated.js',
    ]) {
      expect(files, f).toContain(f);
    }
    const stray = files.filter(
      (f) =>
        !/^(package\.json|README\.md|LICENSE|bin\/layoutgpu\.js|dist\/.*\.(js|d\.ts))$/.test(f) ||
        /^dist\/web\//.test(f) ||
        (f.endsWith('.ts') && !f.endsWith('.d.ts')),
    );
    expect(stray).toEqual([]);
    const pkg = JSON.parse(readFileSync(join(proj, 'node_modules', 'layoutgpu', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(pkg.dependencies)).toEqual(['webgpu']);
    // nothing npm runs on a user's install (the build needs tsconfig.build.json and src/, which the tarball lacks)
    const scripts = (JSON.parse(readFileSync(join(proj, 'node_modules', 'layoutgpu', 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts;
    const onInstall = ['preinstall', 'install', 'postinstall', 'prepare'].filter((k) => scripts?.[k] !== undefined);
    expect(onInstall).toEqual([]);
    expect(statSync(tarball).size).toBeLessThan(1 << 20);
  });
});

describe('installed in an empty project', () => {
  it('npx layoutgpu answers', () => {
    expect(ok(run('npx', ['--offline', 'layoutgpu', 'compose', '(100):(7)', '(3,5):(10,2)'], proj), 'npx layoutgpu compose')).toBe('(3,5):(70,14)\n');
    expect(ok(run('npx', ['--offline', 'layoutgpu', 'check', 'compact', '(4,8):(1,4)', '--backend', 'auto'], proj), 'npx layoutgpu check')).toMatch(
      /compact: yes/,
    );
  });

  it("import from 'layoutgpu' runs, the GPU included (webgpu resolved from the install)", () => {
    writeFileSync(
      join(proj, 'run.mjs'),
      `import { parseLayout, formatLayout, compose, createBackend, nodeDeviceSource } from 'layoutgpu';
import { svgPicture, makePicture } from 'layoutgpu/browser';
const a = parseLayout('(3,5):(10,2)');
const b = await createBackend('gpu', nodeDeviceSource);
const r = await b.checkCompact(parseLayout('(4,8):(1,4)'));
b.dispose();
console.log(formatLayout(compose(parseLayout('(100):(7)'), a)), r.compact, b.info.backend, svgPicture(makePicture(a)).startsWith('<?xml'));
`,
    );
    expect(
      ok(run(process.execPath, ['run.mjs'], proj), 'node run.mjs')
        .trim()
        .split('\n')
        .pop(),
    ).toBe('(3,5):(70,14) true gpu true');
  });

  it("import from 'layoutgpu' type-checks against the shipped .d.ts (strict, no skipLibCheck)", () => {
    writeFileSync(
      join(proj, 'a.ts'),
      `import { parseLayout, formatLayout, compose, phi, createBackend, nodeDeviceSource, LayoutError, type Layout, type Backend } from 'layoutgpu';
import { GpuBackend, svgPicture, tikzPicture, makePicture, browserDeviceSource } from 'layoutgpu/browser';
const a: Layout = parseLayout('(3,5):(10,2)');
export const c: string = formatLayout(compose(parseLayout('(100):(7)'), a));
// @ts-expect-error phi answers a number (the types are real, not any)
export const s: string = phi(a, 7);
export const b: Promise<Backend> = createBackend('auto', nodeDeviceSource);
export const pics: string[] = [svgPicture(makePicture(a)), tikzPicture(makePicture(a), { body: true })];
export const gpu = (d: GPUDevice): GpuBackend => new GpuBackend(d, { adapter: 'my GPU', software: false });
export const kinds = [LayoutError, browserDeviceSource];
`,
    );
    writeFileSync(
      join(proj, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, types: [] },
        files: ['a.ts'],
      }),
    );
    ok(run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], proj), 'tsc in the project');
  });

  it('a Vite browser bundle of layoutgpu/browser has no Node built-in (and the Node entry would)', () => {
    const bundle = (entry: string, out: string): { warnings: string; text: string } => {
      writeFileSync(join(proj, `${out}.js`), `import * as L from '${entry}';\nglobalThis.layoutgpu = L;\n`);
      writeFileSync(
        join(proj, `${out}.config.mjs`),
        `export default { logLevel: 'warn', build: { outDir: '${out}', emptyOutDir: true, minify: false, lib: { entry: '${out}.js', formats: ['es'], fileName: 'bundle' } } };\n`,
      );
      const r = run(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', `${out}.config.mjs`], proj);
      const warnings = ok(r, `vite build of ${entry}`) + r.stderr;
      const text = readdirSync(join(proj, out))
        .filter((f) => f.endsWith('.js'))
        .map((f) => readFileSync(join(proj, out, f), 'utf8'))
        .join('\n');
      return { warnings, text };
    };
    const nodeBuiltin = /__vite-browser-external|["'](node:[a-z_/]+|fs|os|path|url|module|child_process|worker_threads)["']/;
    const b = bundle('layoutgpu/browser', 'browser');
    expect(b.text).toMatch(/GpuBackend|class \w*Gpu/);
    expect(b.warnings).not.toMatch(/externalized for browser compatibility/);
    expect(b.text).not.toMatch(nodeBuiltin);
    expect(b.text).not.toMatch(/from ["']webgpu["']|import\(["']webgpu["']\)/);
    // the detector sees them where they are
    const n = bundle('layoutgpu', 'node');
    expect(n.warnings + n.text).toMatch(/externalized for browser compatibility|__vite-browser-external/);
  });
});
