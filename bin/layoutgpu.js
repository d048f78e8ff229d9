#!/usr/bin/env node
// The `layoutgpu` command: runs the compiled CLI (built by `npm install` through `prepare`).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const main = join(root, 'dist', 'cli', 'main.js');
if (!existsSync(main)) {
  const r = spawnSync('npx', ['--no', '--', 'tsc', '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    process.stderr.write('layoutgpu: could not build the CLI (run `npm install` in the package)\n');
    process.exit(1);
  }
}
await import(main);
