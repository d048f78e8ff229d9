/**
 * vitest's global set-up for every project: the run's own temporary folder (TMPDIR for the test processes and every
 * child they start), removed with everything left in it when the run ends, so that a full run leaves nothing behind
 * in the system's temporary folder; and the run's output without Dawn's start-up warnings (quiet-dawn.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quietDawn } from './quiet-dawn.js';

export default function setup(): () => void {
  quietDawn(process.stderr);
  // vitest runs the global set-up once for the root and once per project: the first one makes the folder, the others
  // keep it (nesting one inside the other made Chromium's socket path too long)
  if (process.env.LAYOUTGPU_TEST_TMPDIR !== undefined) return () => {};
  const dir = mkdtempSync(join(tmpdir(), 'layoutgpu-test-'));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  process.env.LAYOUTGPU_TEST_TMPDIR = dir;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    delete process.env.LAYOUTGPU_TEST_TMPDIR;
    rmSync(dir, { recursive: true, force: true });
  };
}
