/** The scratch folders of the tests: inside the run's own temporary folder (test/helpers/global-setup.ts), fresh each time. */
import { existsSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { scratchDir } from './tmp.js';

describe('scratch folders', () => {
  it('the test processes see the run folder as their temporary folder', () => {
    expect(basename(tmpdir())).toMatch(/^layoutgpu-test-/);
  });
  it('scratchDir makes a fresh folder there each time', () => {
    const a = scratchDir('probe-');
    const b = scratchDir('probe-');
    expect(a).not.toBe(b);
    expect(dirname(a)).toBe(tmpdir());
    writeFileSync(join(a, 'x'), 'x');
    expect(existsSync(join(a, 'x'))).toBe(true);
  });
});
