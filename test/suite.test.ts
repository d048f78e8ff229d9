/**
 * The shape of the suite, held by a test (vitest.config.ts): the unit project is the fast inner loop, so no file of it
 * opens a WebGPU device or needs the built package, not even through a test helper it imports. Every relative import
 * of a unit test file is followed through test/; reaching a helper that acquires a device or builds dist/, the `webgpu`
 * package, a device request or the GPU backend asked for by name, or the built CLI fails the test, naming the chain.
 * (src/ may be imported freely: importing the CLI or the Node device source opens nothing.)
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { globSync } from 'tinyglobby';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import config from '../vitest.config.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

interface Project {
  readonly test: { readonly name: string; readonly include?: readonly string[]; readonly exclude?: readonly string[] };
}
const projects = (config as unknown as { test: { projects: readonly Project[] } }).test.projects;

/** The files a project of vitest.config.ts runs. */
function filesOf(name: string): string[] {
  const p = projects.find((x) => x.test.name === name)!.test;
  return globSync([...(p.include ?? [])], { cwd: ROOT, ignore: [...(p.exclude ?? []), '**/node_modules/**'] }).sort();
}

/** What a unit test may not reach: the device source, the adapter package, the helpers that acquire a device or
 *  build dist/, and the built CLI itself. */
const FORBIDDEN_FILES = new Set(['test/helpers/device.ts', 'test/engine/gpu-device.ts', 'test/helpers/build-setup.ts', 'test/cli/_build.ts']);
const FORBIDDEN_PACKAGES = new Set(['webgpu']);
/** text in a test file that opens a device, asks for the GPU backend, builds the package or runs the built CLI */
const FORBIDDEN_TEXT = [
  /\b(?:acquireNodeDevice|requestAdapter|requestDevice)\(/,
  // the benchmarks' environment on the GPU (throughput/node-env.ts)
  /\bacquireBenchEnv\(\s*['"`](?:gpu|auto)/,
  /--backend[ =',"]+gpu\b/,
  /backend(?:Choice)?:\s*'gpu'/,
  /\bnpm (?:run )?(?:build|pack)\b/,
  /\bvite build\b/,
  /\bbin\/layoutgpu\.js\b/,
  /['"`]dist\//,
];

/** the file a relative specifier names (`./x.js` is x.ts), or null for a package */
function resolveSpec(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const p = relative(ROOT, resolve(ROOT, dirname(from), spec))
    .split('\\')
    .join('/');
  for (const c of [p, p.replace(/\.js$/, '.ts'), p.replace(/\.mjs$/, '.mts'), `${p}.ts`]) if (existsSync(join(ROOT, c))) return c;
  return p;
}

/** The first forbidden thing a file reaches, as the chain of imports that gets there, or null. */
function forbiddenReach(start: string): string[] | null {
  const seen = new Map<string, string | null>([[start, null]]);
  const queue = [start];
  const chain = (f: string): string[] => {
    const out = [f];
    for (let p = seen.get(f); p; p = seen.get(p)) out.unshift(p);
    return out;
  };
  while (queue.length > 0) {
    const f = queue.shift()!;
    if (FORBIDDEN_FILES.has(f)) return chain(f);
    const text = readFileSync(join(ROOT, f), 'utf8');
    if (f.startsWith('test/')) {
      const hit = FORBIDDEN_TEXT.find((r) => r.test(text));
      if (hit) return [...chain(f), `(text ${hit})`];
    }
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      const to = resolveSpec(f, fileName);
      if (to === null) {
        if (FORBIDDEN_PACKAGES.has(fileName)) return [...chain(f), fileName];
        continue;
      }
      if (!seen.has(to) && existsSync(join(ROOT, to)) && (to.startsWith('test/') || FORBIDDEN_FILES.has(to))) {
        seen.set(to, f);
        queue.push(to);
      }
    }
  }
  return null;
}

describe('the suite', () => {
  const unit = filesOf('unit');

  it('reads the projects of vitest.config.ts', () => {
    expect(unit.length).toBeGreaterThan(80);
    expect(filesOf('gpu').length).toBeGreaterThan(5);
    expect(unit).not.toContain('test/engine/gpu.test.ts');
  });

  it('finds a device reached through a helper, and the built CLI named in a test', () => {
    expect(forbiddenReach('test/engine/gpu.test.ts')).not.toBeNull();
    expect(forbiddenReach('test/cli/cli.test.ts')).not.toBeNull();
    expect(forbiddenReach('test/algebra/compose.test.ts')).toBeNull();
  });

  it('no unit test file opens a GPU device or builds the package', () => {
    const bad = unit.flatMap((f) => {
      const c = forbiddenReach(f);
      return c ? [c.join(' → ')] : [];
    });
    expect(bad).toEqual([]);
  });

  it('the unit project answers within 10 s a test', () => {
    const unitProject = projects.find((x) => x.test.name === 'unit')!.test as { testTimeout?: number };
    expect(unitProject.testTimeout).toBe(10_000);
  });
});
