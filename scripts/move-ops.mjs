#!/usr/bin/env node
// One-off (issue 19): moves the operation table and every op-table file into the one room src/ops/ with `git mv` (and
// the GPU swizzle search up to engine/, where it takes the WebGPU host layer),
// rewrites every relative import that names a moved file (static, type-only, re-exports, `import()`, `vi.mock()`,
// `new URL(…, import.meta.url)`) and every relative import inside a moved file, in src/, test/ and bench/, then
// type-checks. Run it once from the repository root on a clean tree: `node scripts/move-ops.mjs` (--dry-run: say what
// it would do). Afterwards no room below ops/ imports the table (test/architecture.test.ts).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const MOVES = new Map([
  ['src/ops.ts', 'src/ops/table.ts'],
  ['src/op-spec.ts', 'src/ops/spec.ts'],
  ['src/cute/ops.ts', 'src/ops/cute.ts'],
  ['src/cute/ops-more.ts', 'src/ops/cute-more.ts'],
  ['src/cute/composed-ops.ts', 'src/ops/composed.ts'],
  ['src/memory/ops.ts', 'src/ops/memory.ts'],
  ['src/memory/verify-op.ts', 'src/ops/verify-conflicts.ts'],
  ['src/engine/bulk-ops.ts', 'src/ops/bulk.ts'],
  ['src/verify/ops.ts', 'src/ops/verify.ts'],
  // the GPU swizzle search drives WebGPU: on the engine's floor it takes the host layer (engine/webgpu.ts)
  ['src/memory/search-gpu.ts', 'src/engine/conflicts-gpu.ts'],
]);
/** after the move: the GPU search's own usage flags give way to the host layer's */
const HOST_LAYER = 'src/engine/conflicts-gpu.ts';
const dry = process.argv.includes('--dry-run');
const posixPath = (p) => p.split(sep).join('/');

function files(dir) {
  if (!existsSync(join(ROOT, dir))) return [];
  return readdirSync(join(ROOT, dir)).flatMap((e) => {
    const p = posix.join(dir, e);
    if (e === 'node_modules' || e === 'fixtures') return [];
    if (statSync(join(ROOT, p)).isDirectory()) return files(p);
    return /\.(ts|mts|mjs|js|tsx)$/.test(e) ? [p] : [];
  });
}

for (const [from, to] of MOVES) {
  if (!existsSync(join(ROOT, from))) throw new Error(`move-ops: ${from} is missing (already moved?)`);
  if (existsSync(join(ROOT, to))) throw new Error(`move-ops: ${to} exists already`);
}

const all = ['src', 'test', 'bench'].flatMap(files).concat(['vite.config.ts', 'vitest.config.ts'].filter((f) => existsSync(join(ROOT, f))));
const known = new Set(all);

/** the file a relative specifier names from `file` (`./x.js` is x.ts in the sources), or null */
function named(file, spec) {
  const p = posixPath(relative(ROOT, resolve(ROOT, dirname(file), spec)));
  if (known.has(p)) return { path: p, ext: '' };
  const m = /\.(js|mjs)$/.exec(p);
  if (m) {
    const ts = p.slice(0, -m[0].length) + (m[1] === 'js' ? '.ts' : '.mts');
    if (known.has(ts)) return { path: ts, ext: m[0] };
  }
  return null;
}

/** the specifier of `target` from `file`, written as `spec` was (.js for a .ts file) */
function specifier(file, target, ext) {
  let p = posix.relative(posix.dirname(file), target);
  if (ext) p = p.replace(/\.(ts|mts)$/, ext);
  return p.startsWith('.') ? p : `./${p}`;
}

const LITERAL = /(['"])(\.\.?\/[^'"\n]*)\1/g;
const edits = [];
for (const file of all) {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const moved = MOVES.get(file) ?? file;
  const out = text.replace(LITERAL, (whole, q, spec) => {
    const t = named(file, spec);
    if (!t) return whole;
    const next = specifier(moved, MOVES.get(t.path) ?? t.path, t.ext);
    return next === spec ? whole : `${q}${next}${q}`;
  });
  if (out !== text || moved !== file) edits.push({ file, moved, out, changed: out !== text });
}

for (const e of edits)
  console.log(`${e.moved === e.file ? '  ' : 'mv'} ${e.file}${e.moved === e.file ? '' : ` → ${e.moved}`}${e.changed ? ' (imports rewritten)' : ''}`);
if (dry) process.exit(0);

for (const [from, to] of MOVES) execFileSync('git', ['mv', from, to], { cwd: ROOT, stdio: 'inherit' });
for (const e of edits) if (e.changed) writeFileSync(join(ROOT, e.moved), e.out);
{
  const p = join(ROOT, HOST_LAYER);
  const text = readFileSync(p, 'utf8');
  const own = /^const USAGE = \{[^}]*\} as const;\n/m;
  if (own.test(text)) {
    const lines = text.replace(own, '').split('\n');
    const last = lines.reduce((k, l, i) => (l.startsWith('import ') || l.startsWith('} from ') ? i : k), -1);
    lines.splice(last + 1, 0, "import { USAGE } from './webgpu.js';");
    writeFileSync(p, lines.join('\n'));
  }
}

console.log('move-ops: moved and rewritten; type-checking (npm run typecheck) …');
try {
  execFileSync(join(ROOT, 'node_modules', '.bin', 'tsc'), ['--noEmit', '-p', 'tsconfig.check.json'], { cwd: ROOT, stdio: 'inherit' });
  console.log('move-ops: done; review `git status`, run the tests, then commit');
} catch {
  console.error('move-ops: the type check failed (above); fix or undo with `git reset --hard` before committing');
  process.exit(1);
}
