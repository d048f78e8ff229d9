/**
 * `auto` decides without a device where it can (src/engine/select.ts, device-node.ts): a probe
 * that says "software" means the CPU and no device; the probe is asked once per process.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CpuBackend } from '../../src/engine/cpu.js';
import { hardwareGpuNodes, probeNodeAdapter } from '../../src/engine/node/device-node.js';
import { autoMayOpenDevice } from '../../src/engine/node/gpu-nodes.js';
import { mayOpenDevice } from '../../src/cli/quiet-stderr.js';
import { ops } from '../../src/ops/table.js';
import { createBackend, probeOnce, type AcquiredDevice, type AdapterGuess, type DeviceSource } from '../../src/engine/select.js';

/** a device source that counts its calls and never yields a device, with the given probe */
function source(guess: AdapterGuess | null | 'throws', probeCalls: { n: number }, deviceCalls: { n: number }): DeviceSource {
  const get = (): Promise<AcquiredDevice> => {
    deviceCalls.n++;
    return Promise.reject(new Error('no device in this test'));
  };
  return Object.assign(get, {
    probe: async () => {
      probeCalls.n++;
      if (guess === 'throws') throw new Error('probe failed');
      return guess;
    },
  });
}

describe('createBackend auto with a probe', () => {
  it('software: the CPU, naming what it passed over, without acquiring a device', async () => {
    const p = { n: 0 };
    const d = { n: 0 };
    const src = source({ software: true, line: 'the software adapter llvmpipe' }, p, d);
    const b = await createBackend('auto', src);
    expect(b).toBeInstanceOf(CpuBackend);
    expect(b.info.adapter).toBe('generated JavaScript; auto passed over the software adapter llvmpipe');
    expect(d.n).toBe(0);
    // asked once per process
    await createBackend('auto', src);
    await createBackend('auto', src);
    expect(p.n).toBe(1);
    expect(d.n).toBe(0);
  });

  it('hardware: a device is acquired (here it fails, so the CPU)', async () => {
    const p = { n: 0 };
    const d = { n: 0 };
    const b = await createBackend('auto', source({ software: false, line: 'NVIDIA H200' }, p, d));
    expect(b).toBeInstanceOf(CpuBackend);
    expect([p.n, d.n]).toEqual([1, 1]);
  });

  it('no adapter, or a failing probe: the CPU, no device', async () => {
    for (const g of [null, 'throws'] as const) {
      const p = { n: 0 };
      const d = { n: 0 };
      expect(await createBackend('auto', source(g, p, d))).toBeInstanceOf(CpuBackend);
      expect([p.n, d.n]).toEqual([1, 0]);
    }
  });

  it('cpu and gpu never ask the probe', async () => {
    const p = { n: 0 };
    const d = { n: 0 };
    const src = source({ software: true, line: 'x' }, p, d);
    expect(await createBackend('cpu', src)).toBeInstanceOf(CpuBackend);
    await expect(createBackend('gpu', src)).rejects.toThrow(/no device in this test/);
    expect([p.n, d.n]).toEqual([0, 1]);
  });

  it('probeOnce shares one answer between concurrent callers', async () => {
    let n = 0;
    const probe = async (): Promise<AdapterGuess> => ({ software: n++ > 0, line: String(n) });
    const [a, b] = await Promise.all([probeOnce(probe), probeOnce(probe)]);
    expect(a).toBe(b);
    expect(n).toBe(1);
  });
});

describe('GPU device nodes (Linux)', () => {
  const dev = mkdtempSync(join(tmpdir(), 'layoutgpu-dev-'));
  afterAll(() => rmSync(dev, { recursive: true, force: true }));

  it('none: only a software adapter can exist, said without loading Dawn', async () => {
    writeFileSync(join(dev, 'null'), '');
    mkdirSync(join(dev, 'dri'));
    writeFileSync(join(dev, 'dri', 'card0'), '');
    expect(hardwareGpuNodes(dev)).toEqual([]);
    if (process.platform === 'linux') expect(await probeNodeAdapter(dev)).toEqual({ software: true, line: expect.stringMatching(/no GPU device node/) });
  });

  it('no node: auto may not open a device on Linux', () => {
    if (process.platform === 'linux') expect(autoMayOpenDevice(dev)).toBe(false);
  });

  it('render nodes, NVIDIA and WSL nodes are found', () => {
    for (const f of ['dri/renderD128', 'nvidia0', 'nvidiactl', 'nvidia-uvm', 'dxg']) writeFileSync(join(dev, f), '');
    expect(hardwareGpuNodes(dev)).toEqual([join(dev, 'dri', 'renderD128'), join(dev, 'dxg'), join(dev, 'nvidia0'), join(dev, 'nvidiactl')]);
    expect(autoMayOpenDevice(dev)).toBe(true);
  });
});

describe('the CLI filters Dawn through a child process only where a device may open', () => {
  const names = new Set(ops.map((o) => o.name));
  const never = true; // softwareOnly: auto cannot open a device here
  it('auto where no device can open: in process; gpu, verify, bench, gpu-info: still filtered', () => {
    expect(mayOpenDevice(['check', 'compact', '(4,8):(1,4)'], names, never)).toBe(false);
    expect(mayOpenDevice(['check', 'compact', '(4,8):(1,4)', '--backend', 'auto'], names, never)).toBe(false);
    expect(mayOpenDevice(['check-compact', '4:1'], names, never)).toBe(false);
    expect(mayOpenDevice(['batch', '--backend', 'auto'], names, never)).toBe(false);
    expect(mayOpenDevice(['check', 'compact', '4:1', '--backend', 'gpu'], names, never)).toBe(true);
    expect(mayOpenDevice(['batch', '--backend=gpu'], names, never)).toBe(true);
    // plan: cpu by default, filtered for gpu, and for auto where a device may open
    expect(mayOpenDevice(['plan', '--tile', '8x8'], names, false)).toBe(false);
    expect(mayOpenDevice(['plan', '--backend', 'auto'], names, never)).toBe(false);
    expect(mayOpenDevice(['plan', '--backend', 'auto'], names, false)).toBe(true);
    expect(mayOpenDevice(['plan', '--backend', 'gpu'], names, never)).toBe(true);
    for (const cmd of ['verify', 'bench', 'gpu-info']) expect(mayOpenDevice([cmd, 'x'], names, never), cmd).toBe(true);
    // where a device may open, auto is filtered as before
    expect(mayOpenDevice(['check', 'compact', '4:1'], names, false)).toBe(true);
  });
});
