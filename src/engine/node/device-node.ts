/**
 * A GPUDevice in Node, from the `webgpu` package (Dawn). The only module that imports it.
 *
 * Traps handled here: the object returned by `create()` must stay reachable while its device
 * lives (the process crashes when it is collected) and must be dropped afterwards (the process
 * does not exit while it is reachable), so it is held in `held` until `release()`. Dawn needs
 * XDG_RUNTIME_DIR. Without an adapter, and with VK_ICD_FILENAMES unset, the Vulkan loader is
 * pointed at Mesa's lavapipe, then at Debian chromium's SwiftShader, and asked again (the
 * loader reads the variable on each instance, so no child process is needed).
 *
 * `auto` asks probeNodeAdapter first (nodeDeviceSource.probe): on Linux a hardware adapter
 * needs a GPU device node (/dev/dri/renderD*, /dev/nvidia*, /dev/dxg), so without one the answer
 * is "software" at once, without loading Dawn (a Vulkan instance alone costs ~0.1 s on
 * lavapipe); elsewhere the adapter's info decides, still without creating a device.
 */
import { closeSync, existsSync, lstatSync, mkdirSync, mkdtempSync, openSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LayoutError } from '../../algebra/errors.js';
import { autoMayOpenDevice, hardwareGpuNodes } from './gpu-nodes.js';

export { autoMayOpenDevice, hardwareGpuNodes };
import { adapterLine, describeAdapter, type AdapterDescription, type AdapterGuess, type DeviceSource } from '../select.js';

/** A GPUDevice from the `webgpu` package, with its adapter's description (an AcquiredDevice). */
export interface NodeDevice {
  /** the device (Dawn) */
  device: GPUDevice;
  /** its adapter, and the Vulkan ICD chosen when the default gave none */
  adapter: AdapterDescription;
  /** destroy the device and drop the `webgpu` objects so that the process can exit */
  release(): void;
}

/** Options of acquireNodeDevice. */
export interface NodeDeviceOptions {
  /** Dawn toggles / options for create(), e.g. 'disable-dawn-features=timestamp_quantization' */
  dawn?: string[];
  /** request 'timestamp-query' when the adapter has it */
  timestamps?: boolean;
  /** passed to requestAdapter (`high-performance` on a machine with two GPUs) */
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

/**
 * Dawn wants XDG_RUNTIME_DIR; where it is unset, one private directory per user in the
 * temporary folder, `layoutgpu-xdg-<uid>`, made once and reused by every later command (never
 * one per invocation). A directory of that name that is not this user's own, or that others may
 * enter, is not used: a fresh private one is made instead (mkdtemp).
 */
function ensureRuntimeDir(): void {
  if (process.env.XDG_RUNTIME_DIR) return;
  const uid = process.getuid?.();
  const dir = join(tmpdir(), `layoutgpu-xdg-${uid ?? 'user'}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  const own = st.isDirectory() && (uid === undefined || st.uid === uid) && (st.mode & 0o077) === 0;
  process.env.XDG_RUNTIME_DIR = own ? dir : mkdtempSync(join(tmpdir(), `layoutgpu-xdg-${uid ?? 'user'}-`));
}

/**
 * A GPUDevice in Node from the `webgpu` package, with the adapter's maximum buffer limits. Without
 * an adapter (and VK_ICD_FILENAMES unset) it tries Mesa's lavapipe, then Debian chromium's
 * SwiftShader. Call release() when done (the process does not exit while the device lives).
 * Pre-condition: Node, the `webgpu` package installed. Errors: LayoutError `gpu` when the package
 * does not load or no adapter exists (the message names the ICDs tried).
 * @example
 *   const d = await acquireNodeDevice();
 *   const gpu = gpuBackendOn(d); // … gpu.dispose() releases d
 */
export async function acquireNodeDevice(opts: NodeDeviceOptions = {}): Promise<NodeDevice> {
  ensureRuntimeDir();
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
    const adapter = await quietNativeStderr(() => gpu.requestAdapter(opts.powerPreference ? { powerPreference: opts.powerPreference } : undefined));
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
    // Dawn prints an error that no error scope captures on stdout (from native code, where no
    // JavaScript handler stops it), which would break a JSON Lines stream: a scope of every
    // filter at the bottom of the stack captures whatever the evaluator's own scopes, compile
    // info and rejected promises do not already report (it is never popped).
    for (const f of ['internal', 'out-of-memory', 'validation'] as const) device.pushErrorScope(f);
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

/**
 * What `auto` needs of the adapter acquireNodeDevice would give, without creating a device: on
 * Linux without a GPU device node (hardwareGpuNodes) only a software adapter can exist, known
 * without loading Dawn; otherwise the default adapter's info (and, without one, whether the
 * software ICDs acquireNodeDevice falls back to exist). Null when there is no adapter at all.
 * Pre-condition: Node. Errors: none (a failure to load `webgpu` is "no adapter").
 * @example await probeNodeAdapter() // { software: true, line: 'no GPU device node …' } here
 */
export async function probeNodeAdapter(dev = '/dev'): Promise<AdapterGuess | null> {
  if (!autoMayOpenDevice(dev)) {
    return { software: true, line: 'a software adapter (no GPU device node: /dev/dri/renderD*, /dev/nvidia*, /dev/dxg)' };
  }
  ensureRuntimeDir();
  let mod: typeof import('webgpu');
  try {
    mod = await import('webgpu');
  } catch {
    return null;
  }
  const gpu = mod.create([]);
  const adapter = await quietNativeStderr(() => gpu.requestAdapter());
  if (adapter) {
    const d = describeAdapter(adapter);
    return { software: d.software, line: `${d.software ? 'the software adapter ' : ''}${adapterLine(d)}` };
  }
  // acquireNodeDevice would fall back to lavapipe or SwiftShader: software either way
  if (!process.env.VK_ICD_FILENAMES && icdCandidates().length)
    return { software: true, line: 'a software adapter (lavapipe or SwiftShader: no default Vulkan adapter)' };
  return null;
}

/**
 * The Node device source: acquireNodeDevice(), with probeNodeAdapter as its probe so that
 * `auto` decides without a device where it can.
 * @example await createBackend('auto', nodeDeviceSource)
 */
export const nodeDeviceSource: DeviceSource = Object.assign(() => acquireNodeDevice(), { probe: () => probeNodeAdapter() });

/**
 * Runs `f` with file descriptor 2 pointed at /dev/null, then points it back where it was: Dawn writes its warnings about
 * a software adapter's limits ("Warning: maxDynamicUniformBuffersPerPipelineLayout artificially reduced …") from
 * native code, straight to fd 2, and synchronously inside `requestAdapter()` — so no JavaScript runs (and writes to
 * stderr) while it is redirected, and a library user's stderr (a terminal, a pipe, a file) holds nothing of Dawn's.
 * Linux only (fd 2 is reopened through /proc/self/fd; Node has no dup2); elsewhere, when stderr cannot be reopened (a
 * socket, such as the stdio a Node parent's spawn gives its child) or has output still pending, `f` runs as it is.
 */
function quietNativeStderr<T>(f: () => T): T {
  if (process.platform !== 'linux' || process.stderr.writableLength > 0) return f();
  let saved: number;
  try {
    saved = openSync('/proc/self/fd/2', 'a');
  } catch {
    return f();
  }
  const restore = (): void => {
    closeSync(2);
    const back = openSync(`/proc/self/fd/${saved}`, 'a'); // the lowest free descriptor: 2 again
    if (back !== 2) closeSync(back);
    closeSync(saved);
  };
  closeSync(2);
  const quiet = openSync('/dev/null', 'w');
  if (quiet !== 2) {
    // a native thread took descriptor 2 in between (never seen): leave it be, run as is
    closeSync(quiet);
    closeSync(saved);
    return f();
  }
  try {
    return f();
  } finally {
    restore();
  }
}
