/**
 * The GPU stack never writes to stdout, and GPU commands share one runtime directory per user
 * (issue 18, items 4 and 9). Dawn prints an error no error scope captures on stdout from native
 * code: the device comes with scopes at the bottom of its stack, so an invalid shader module's
 * messages stay off stdout; batch --backend gpu on the swizzles of the reproducer answers one
 * JSON line per request, the same as the CPU. Without XDG_RUNTIME_DIR, two GPU commands leave one
 * `layoutgpu-xdg-<uid>` directory in the temporary folder, not one each.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { scratchDir } from '../helpers/tmp.js';
import { BIN, ensureBuilt, ROOT, type Run } from './_build.js';

beforeAll(() => ensureBuilt());

function node(args: readonly string[], env: Record<string, string | undefined>, input = ''): Promise<Run> {
  return new Promise((resolve, reject) => {
    const e: Record<string, string | undefined> = { ...process.env, ...env };
    for (const k of Object.keys(env)) if (env[k] === undefined) delete e[k];
    const p = spawn(process.execPath, args, { cwd: ROOT, env: e as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      p.kill('SIGKILL');
      reject(new Error(`node ${args.join(' ')} timed out`));
    }, 120_000);
    p.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    p.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    p.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    p.stdin.end(input);
  });
}

describe('nothing from the GPU stack reaches stdout', () => {
  it('an invalid shader module on a device from acquireNodeDevice: its messages stay off stdout', async () => {
    const script = [
      `const { acquireNodeDevice } = await import(${JSON.stringify(join(ROOT, 'dist', 'engine', 'node', 'device-node.js'))});`,
      'const d = await acquireNodeDevice();',
      "const m = d.device.createShaderModule({ code: 'fn f() -> u32 { return 0u >> 32u; }' });",
      'const info = await m.getCompilationInfo();',
      "process.stdout.write('errors ' + info.messages.filter((x) => x.type === 'error').length + '\\n');",
      'await new Promise((r) => setTimeout(r, 300));',
      'd.release();',
    ].join('\n');
    const r = await node(['--input-type=module', '-e', script], {});
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('errors 1\n');
  });

  it('batch --backend gpu on the reproducer answers one JSON line per request, as the CPU does', async () => {
    const input = readFileSync(join(ROOT, 'test', 'fixtures', 'repro', '04-gpu-swizzle-codegen.jsonl'), 'utf8');
    const n = input.trim().split('\n').length;
    const gpu = await node([BIN, 'batch', '--backend', 'gpu'], {}, input);
    const cpu = await node([BIN, 'batch', '--backend', 'cpu'], {}, input);
    expect(gpu.code, gpu.stderr).toBe(0);
    const lines = gpu.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(n);
    for (const l of lines) expect(() => JSON.parse(l), l).not.toThrow();
    expect(gpu.stdout).toBe(cpu.stdout);
  });
});

describe('one runtime directory per user', () => {
  it('two GPU commands without XDG_RUNTIME_DIR leave one layoutgpu-xdg-<uid> directory, private and reused', async () => {
    const tmp = scratchDir('xdg-');
    for (let i = 0; i < 2; i++) {
      const r = await node([BIN, 'check', 'compact', '(8,8):(8,1)', '--backend', 'gpu', '--json'], { XDG_RUNTIME_DIR: undefined, TMPDIR: tmp });
      expect(r.code, r.stderr).toBe(0);
    }
    const made = readdirSync(tmp).filter((f) => f.startsWith('layoutgpu-xdg-'));
    expect(made).toEqual([`layoutgpu-xdg-${process.getuid!()}`]);
  });
});
