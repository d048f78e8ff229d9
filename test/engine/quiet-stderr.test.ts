/**
 * Dawn's warnings never reach a library user's output (docs/engine.md): a script that acquires the Node device through
 * the library, in a child process, writes nothing of Dawn's to its stderr — a pipe or a file (a terminal is reopened
 * the same way; a socket cannot be, see device-node.ts) — and its own stderr still works afterwards (the descriptor is
 * put back where it was). Before device-node.ts's quietNativeStderr, the two "Warning: … artificially reduced …" lines
 * of a software adapter came through.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');
const SCRIPT = `
import { acquireNodeDevice } from ${JSON.stringify(join(ROOT, 'src/engine/node/device-node.ts'))};
process.stderr.write('before\\n');
const d = await acquireNodeDevice();
process.stderr.write('after\\n');
console.error('still here');
d.device.destroy();
`;

function runScript(stderrTo: 'pipe' | string): { stderr: string; status: number | null } {
  const dir = mkdtempSync(join(tmpdir(), 'layoutgpu-quiet-'));
  try {
    const file = join(dir, 'acquire.mts');
    writeFileSync(file, SCRIPT);
    const tsx = join(ROOT, 'node_modules', '.bin', 'tsx');
    if (stderrTo === 'pipe') {
      // a pipe made by the shell (spawnSync's own 'pipe' is a socket pair): stderr through it, stdout dropped
      const r = spawnSync('sh', ['-c', `"${tsx}" "${file}" 2>&1 >/dev/null | cat`], { encoding: 'utf8', timeout: 60_000 });
      return { stderr: r.stdout, status: r.status };
    }
    const log = join(dir, stderrTo);
    const r = spawnSync('sh', ['-c', `"${tsx}" "${file}" 2>>"${log}"`], { encoding: 'utf8', timeout: 60_000 });
    return { stderr: readFileSync(log, 'utf8'), status: r.status };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("Dawn's native warnings", () => {
  it('do not reach the stderr pipe of a library user, whose own stderr works before and after', () => {
    const r = runScript('pipe');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('before\nafter\nstill here\n');
  });

  it('do not reach a stderr file either, which keeps its earlier contents and gets the later lines appended', () => {
    const r = runScript('stderr.log');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('before\nafter\nstill here\n');
  });
});
