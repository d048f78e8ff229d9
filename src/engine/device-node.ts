/**
 * A GPUDevice in Node, from the `webgpu` package (Dawn). The only module that imports it.
 *
 * Traps handled here: the object returned by `create()` must stay reachable while its device
 * lives (the process crashes when it is collected) and must be dropped afterwards (the process
 * does not exit while it is reachable), so it is held in `held` until `release()`. Dawn needs
 * XDG_RUNTIME_DIR. Without an adapter, and with VK_ICD_FILENAMES unset, the Vulkan loader is
 * pointed at Mesa's lavapipe, then at Debian chromium's SwiftShader, and asked again (the
 * loader reads the variable on each instance, so no child process is needed).
 */
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LayoutError } from '../algebra/errors.js';
import { describeAdapter, type AdapterDescription } from './select.js';

export interface NodeDevice {
  device: GPUDevice;
  adapter: AdapterDescription;
  /** destroy the device and drop the `webgpu` objects so that the process can exit */
  release(): void;
}

export interface NodeDeviceOptions {
  /** Dawn toggles / options for create(), e.g. 'disable-dawn-features=timestamp_quantization' */
  dawn?: string[];
  /** request 'timestamp-query' when the adapter has it */
  timestamps?: boolean;
  powerPreference?: GPUPowerPreference;
}

/** the create() results (and devices) alive now: reachable while their devices live */
const held = new Set<unknown>();

function icdCandidates(): string[] {
  const out: string[] = [];
  const dir = '/usr/share/vulkan/icd.d';
  if (existsSync(dir)) {
    for (const f of readdirSync(dir).sort()) if (/^lvp_icd.*\.json$/.test(f)) out.push(join(dir, f));
  }
  const swiftshader = '/usr/lib/chromium/vk_swiftshader_icd.json';
  if (existsSync(swiftshader)) out.push(swiftshader);
  return out;
}

export async function acquireNodeDevice(opts: NodeDeviceOptions = {}): Promise<NodeDevice> {
  if (!process.env.XDG_RUNTIME_DIR) process.env.XDG_RUNTIME_DIR = mkdtempSync(join(tmpdir(), 'layoutgpu-xdg-'));
  let mod: typeof import('webgpu');
  try {
    mod = await import('webgpu');
  } catch (e) {
    throw new LayoutError('gpu', `the webgpu package could not be loaded: ${(e as Error).message}`);
  }
  Object.assign(globalThis, mod.globals);
  const tries: (string | null)[] = [null];
  if (!process.env.VK_ICD_FILENAMES) tries.push(...icdCandidates());
  const tried: string[] = [];
  for (const icd of tries) {
    if (icd) process.env.VK_ICD_FILENAMES = icd;
    const gpu = mod.create(opts.dawn ?? []);
    held.add(gpu);
    const adapter = await gpu.requestAdapter(opts.powerPreference ? { powerPreference: opts.powerPreference } : undefined);
    if (!adapter) {
      held.delete(gpu);
      tried.push(icd ?? 'default Vulkan ICDs');
      if (icd) delete process.env.VK_ICD_FILENAMES;
      continue;
    }
    const lim = adapter.limits;
    const features: GPUFeatureName[] = [];
    if (opts.timestamps && adapter.features.has('timestamp-query')) features.push('timestamp-query');
    const device = await adapter.requestDevice({
      requiredFeatures: features,
      requiredLimits: {
        maxStorageBufferBindingSize: lim.maxStorageBufferBindingSize,
        maxBufferSize: lim.maxBufferSize,
        maxComputeWorkgroupsPerDimension: lim.maxComputeWorkgroupsPerDimension,
      },
    });
    const desc = describeAdapter(adapter, device);
    if (icd) desc.icd = icd;
    let released = false;
    return {
      device,
      adapter: desc,
      release() {
        if (released) return;
        released = true;
        try {
          device.destroy();
        } catch {
          /* already gone */
        }
        // drop the create() result a moment later, when Dawn has finished with the device
        setTimeout(() => held.delete(gpu), 0).unref?.();
      },
    };
  }
  throw new LayoutError('gpu', `no WebGPU adapter (tried ${tried.join(', ')}); install Mesa's lavapipe (mesa-vulkan-drivers) or chromium's SwiftShader`);
}
