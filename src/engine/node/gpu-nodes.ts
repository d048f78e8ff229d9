/**
 * Whether this machine can have a hardware GPU adapter at all, from its device nodes alone
 * (synchronous, no Dawn): the CLI asks it before deciding to filter Dawn's stderr, and `auto`'s
 * probe (device-node.ts) before loading the `webgpu` package.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The GPU device nodes under `dev` (default /dev) through which a hardware Vulkan driver reaches
 * a GPU on Linux: DRM render nodes (/dev/dri/renderD*: Mesa's radv, anv, nvk, …), NVIDIA's
 * /dev/nvidia0… and /dev/nvidiactl, and WSL's /dev/dxg. Empty when there are none.
 * @example hardwareGpuNodes() // [] on a machine with only lavapipe; ['/dev/dri/renderD128'] with a GPU
 */
export function hardwareGpuNodes(dev = '/dev'): string[] {
  const out: string[] = [];
  const list = (d: string): string[] => {
    try {
      return readdirSync(d).sort();
    } catch {
      return [];
    }
  };
  for (const f of list(join(dev, 'dri'))) if (/^renderD\d+$/.test(f)) out.push(join(dev, 'dri', f));
  for (const f of list(dev)) if (/^nvidia(\d+|ctl)$/.test(f) || f === 'dxg') out.push(join(dev, f));
  return out;
}

/**
 * Whether `--backend auto` may open a GPU device here: false exactly on Linux without a GPU
 * device node (only a software adapter can exist, and auto runs on the CPU without a device).
 * @example autoMayOpenDevice() // false on a machine with only lavapipe
 */
export function autoMayOpenDevice(dev = '/dev'): boolean {
  return !(process.platform === 'linux' && hardwareGpuNodes(dev).length === 0);
}
