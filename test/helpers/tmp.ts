/**
 * Scratch directories for tests: each is made in the system's temporary folder and removed after the test file
 * (a test that leaves a directory behind is a bug; test/helpers/global-setup.ts also catches what children leave).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];

// registered while the importing test file is collected (a hook cannot be added from inside a running test)
afterAll(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A fresh directory `<tmp>/<prefix>XXXXXX`, removed (with everything in it) when the test file ends. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
