/** Build dist/ (what bin/layoutgpu.js runs) once, when it is older than src/, under a lock so
 *  that the CLI test files (run in parallel forks) do not build over each other. */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = join(ROOT, 'bin', 'layoutgpu.js');

function newestSource(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'web') t = Math.max(t, newestSource(p));
    } else if (e.name.endsWith('.ts')) t = Math.max(t, statSync(p).mtimeMs);
  }
  return t;
}

const sleep = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

export function ensureBuilt(): void {
  const main = join(ROOT, 'dist', 'cli', 'main.js');
  const lock = join(ROOT, 'node_modules', '.cache', 'layoutgpu-test-build.lock');
  mkdirSync(dirname(lock), { recursive: true });
  const t0 = Date.now();
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() - t0 > 150_000) rmSync(lock, { recursive: true, force: true });
      sleep(200);
    }
  }
  try {
    const stale = !existsSync(main) || statSync(main).mtimeMs < newestSource(join(ROOT, 'src'));
    if (stale) {
      const r = spawnSync('npx', ['--no', '--', 'tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, encoding: 'utf8' });
      // tsc emits even when some file of another part of the project does not typecheck;
      // the CLI is what matters here
      if (!existsSync(main)) throw new Error(`build failed:\n${r.stdout}\n${r.stderr}`);
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run `node bin/layoutgpu.js ...args` with optional stdin. */
export function cli(args: readonly string[], input?: string, timeoutMs = 60_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      p.kill('SIGKILL');
      reject(new Error(`layoutgpu ${args.join(' ')} timed out`));
    }, timeoutMs);
    p.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    p.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    p.on('error', reject);
    p.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    p.stdin.on('error', () => {});
    p.stdin.end(input ?? '');
  });
}
