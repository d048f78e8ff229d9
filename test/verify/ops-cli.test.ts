/**
 * The batch op `verify`, the `layoutgpu verify` command, and the interpreter template's inline
 * copy (identical to shaders/interpret.wgsl).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backend } from '../../src/engine/backend.js';
import type { NodeDevice } from '../../src/engine/node/device-node.js';
import { GpuBackend } from '../../src/engine/gpu.js';
import { adapterLine } from '../../src/engine/select.js';
import type { OpContext } from '../../src/ops/spec.js';
import { verifyCommand } from '../../src/cli/verify.js';
import { verifyOps } from '../../src/ops/verify.js';
import { verifyTestDevice } from './device.js';
import { scratchDir } from '../helpers/tmp.js';
import { kindOfAsync as kindOf } from '../helpers/kind.js';

const op = verifyOps.find((o) => o.name === 'verify')!;
const cpuCtx: OpContext = {
  backendChoice: 'cpu',
  backend: () => Promise.reject(new Error('the cpu choice needs no backend')),
};

let dev: NodeDevice;
let gpuBackend: GpuBackend;
let gpuCtx: OpContext;

beforeAll(async () => {
  dev = await verifyTestDevice();
  gpuBackend = new GpuBackend(dev.device, { adapter: adapterLine(dev.adapter), software: dev.adapter.software });
  gpuCtx = { backendChoice: 'gpu', backend: async () => gpuBackend as Backend };
});

afterAll(() => dev?.release());

describe('batch op verify', () => {
  const cands = ['(4,8):(1,4)', '(4,8):(8,1)', '(2,2):(1,1)', '8:0', '(2,(2,2)):(4,(1,2))', '():()', '1:0'];
  it('answers one boolean per candidate, in order, on both backends', async () => {
    const want = [true, true, false, false, true, true, true];
    expect(await op.run(['compact', cands], cpuCtx)).toEqual(want);
    expect(await op.run(['compact', cands], gpuCtx)).toEqual(want);
    expect(await op.run(['injective', ['(2,2):(2,3)', '(2,2):(1,1)']], gpuCtx)).toEqual([true, false]);
    expect(
      await op.run(
        [
          ['complement-of', '(4):(2)'],
          ['2:1', '2:8', '(2,2):(1,8)'],
        ],
        cpuCtx,
      ),
    ).toEqual([true, false, true]);
    expect(
      await op.run(
        [
          ['complement-of', '(4):(2)'],
          ['2:1', '2:8', '(2,2):(1,8)'],
        ],
        gpuCtx,
      ),
    ).toEqual([true, false, true]);
    // A with (100):(7) ∘ A = (3,5):(70,14)
    const ce = ['compose-equals', '(3,5):(70,14)', '(100):(7)'];
    expect(await op.run([ce, ['(3,5):(10,2)', '(3,5):(2,10)', '15:1']], cpuCtx)).toEqual([true, false, false]);
    expect(await op.run([ce, ['(3,5):(10,2)', '(3,5):(2,10)', '15:1']], gpuCtx)).toEqual([true, false, false]);
    expect(await op.run(['law:coalesce', cands], gpuCtx)).toEqual(cands.map(() => true));
    expect(
      await op.run(
        [
          ['law:compose', '(2,2):(1,10)'],
          ['(2,2):(1,1)', '2:1'],
        ],
        cpuCtx,
      ),
    ).toEqual([true, true]);
    expect(await op.run(['compact', []], cpuCtx)).toEqual([]);
  });

  it('refuses bad requests', async () => {
    expect(await kindOf(op.run(['bogus', ['1:0']], cpuCtx))).toBe('bad-request');
    expect(await kindOf(op.run([['complement-of'], ['1:0']], cpuCtx))).toBe('bad-request');
    expect(await kindOf(op.run([7, ['1:0']], cpuCtx))).toBe('bad-request');
    expect(await kindOf(op.run(['compact', [3]], cpuCtx))).toBe('bad-request');
    expect(await kindOf(op.run(['compact', '1:0'], cpuCtx))).toBe('bad-request');
    expect(await kindOf(op.run(['law:compose', ['1:0']], cpuCtx))).toBe('bad-request');
    expect(await kindOf(op.run(['compact', ['(4,8:(1,4)']], cpuCtx))).toBe('parse');
    expect(await kindOf(op.run([['complement-of', '(4'], ['1:0']], cpuCtx))).toBe('parse');
  });
});

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (s: string) => void out.push(s), stderr: (s: string) => void err.push(s), isTTY: false } };
}

describe('layoutgpu verify', () => {
  it('--json reports the summary', async () => {
    const t = io();
    const code = await verifyCommand.run(['compact', '--enumerate', '--size', '16', '--backend', 'cpu', '--json'], t.io);
    expect(code).toBe(0);
    const r = JSON.parse(t.out.join(''));
    expect(r).toMatchObject({ candidates: 78608, passed: 49, failed: 78559, backend: 'cpu' });
    for (const k of ['adapter', 'seconds', 'examples']) expect(r).toHaveProperty(k);
    expect(r.examples[0]).toEqual({ candidate: ['(16):(1)'] });
  });

  it('reads --file, writes --out, runs on the GPU', async () => {
    const dir = scratchDir('verify-');
    const f = join(dir, 'c.jsonl');
    writeFileSync(f, '"(4,8):(1,4)"\n\n(2,2):(1,1)\n["(2,3):(3,1)"]\n');
    const out = join(dir, 'm.txt');
    const t = io();
    expect(await verifyCommand.run(['compact', '--file', f, '--out', out, '--backend', 'gpu'], t.io)).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('(4,8):(1,4)\n(2,3):(3,1)\n');
    expect(t.out.join('')).toMatch(/3 candidates: 2 match, 1 do not/);
    const t2 = io();
    expect(await verifyCommand.run(['law:compose', '--file', f, '--with', '(64):(1)', '--backend', 'cpu', '--json'], t2.io)).toBe(0);
    expect(JSON.parse(t2.out.join(''))).toMatchObject({ candidates: 3, passed: 3, failed: 0 });
  });

  it('bad input: one line on stderr, exit 2', async () => {
    for (const argv of [
      ['bogus', '--random', '3', '--seed', '1'],
      ['compact'],
      ['compact', '--random', '3'],
      ['compact', '--random', 'x', '--seed', '1'],
      ['compact', '--enumerate', '--size', '4', '--backend', 'tpu'],
      ['compact', '--enumerate', '--size', '4', '--frobnicate'],
      ['compose-equals', '4:1', '--enumerate', '--size', '4'],
      ['complement-of', '(4:1', '--enumerate', '--size', '4'],
      ['law:compose', '--enumerate', '--size', '4'],
      ['compact', '--file', '/nonexistent/file.jsonl'],
    ]) {
      const t = io();
      expect(await verifyCommand.run(argv, t.io), argv.join(' ')).toBe(2);
      expect(t.err.join('').trim().split('\n').length, argv.join(' ')).toBe(1);
      expect(t.out).toEqual([]);
    }
    const h = io();
    expect(await verifyCommand.run(['--help'], h.io)).toBe(0);
    expect(h.out.join('')).toMatch(/--enumerate --size N/);
  });
});
