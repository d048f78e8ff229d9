#!/usr/bin/env node
// One-off (issue 19, "one name per idea"): renames a room (or single files) with `git mv` and rewrites every relative
// import that names a moved file (static, type-only, re-exports, `import()`, `vi.mock()`, `new URL(…, import.meta.url)`)
// and every relative import inside a moved file, in src/, test/ and bench/, then type-checks. Arguments are pairs
// FROM TO, each a file or a folder (a folder moves every file below it):
//   node scripts/rename-room.mjs OLD_ROOM NEW_ROOM OLD_TEST NEW_TEST   (folders under src/, files under test/)
// --dry-run: say what it would do. Comments and docs naming the old path are left to the reviewer (`git grep` them).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const dry = process.argv.includes('--dry-run');
const pairs = process.argv.slice(2).filter((a) => a !== '--dry-run');
if (pairs.length === 0 || pairs.length % 2 !== 0) {
  console.error('usage: node scripts/rename-room.mjs [--dry-run] FROM TO [FROM TO …]');
  process.exit(2);
}
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

/** every file below a folder, with every file kind (not only sources) */
function everyFile(dir) {
  return readdirSync(join(ROOT, dir)).flatMap((e) => {
    const p = posix.join(dir, e);
    return statSync(join(ROOT, p)).isDirectory() ? everyFile(p) : [p];
  });
}

const MOVES = new Map();
for (let i = 0; i < pairs.length; i += 2) {
  const from = posixPath(pairs[i]).replace(/\/$/, '');
  const to = posixPath(pairs[i + 1]).replace(/\/$/, '');
  if (!existsSync(join(ROOT, from))) throw new Error(`rename-room: ${from} is missing (already moved?)`);
  if (statSync(join(ROOT, from)).isDirectory()) for (const f of everyFile(from)) MOVES.set(f, to + f.slice(from.length));
  else MOVES.set(from, to);
}
for (const to of MOVES.values()) if (existsSync(join(ROOT, to))) throw new Error(`rename-room: ${to} exists already`);

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

for (const [from, to] of MOVES) {
  mkdirSync(join(ROOT, dirname(to)), { recursive: true });
  execFileSync('git', ['mv', from, to], { cwd: ROOT, stdio: 'inherit' });
}
for (const e of edits) if (e.changed) writeFileSync(join(ROOT, e.moved), e.out);

console.log('rename-room: moved and rewritten; type-checking (npm run typecheck) …');
try {
  execFileSync(join(ROOT, 'node_modules', '.bin', 'tsc'), ['--noEmit', '-p', 'tsconfig.check.json'], { cwd: ROOT, stdio: 'inherit' });
  console.log('rename-room: done; review `git status` and `git grep` the old names, run the tests, then commit');
} catch {
  console.error('rename-room: the type check failed (above); fix it before committing');
  process.exit(1);
}
