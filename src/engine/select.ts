/**
 * Choosing a backend: `cpu`, `gpu` or `auto` (the GPU when the adapter is hardware, the CPU
 * otherwise: on a small machine a software adapter is slower than the generated JavaScript).
 * Where the device comes from is the caller's business (`getDevice`): Node passes
 * device-node.ts's acquireNodeDevice, the page navigator.gpu. No Node imports here.
 */
import { LayoutError } from '../algebra/errors.js';
import type { Backend, BackendChoice } from './backend.js';
import { CpuBackend } from './cpu.js';
import { GpuBackend, type GpuBackendOptions } from './gpu.js';

/**
 * What is known of a WebGPU adapter (GPUAdapterInfo) and the limits its device got.
 * @example adapterLine(describeAdapter(adapter)) // 'mesa / software / llvmpipe … (software)'
 */
export interface AdapterDescription {
  /** GPUAdapterInfo.vendor, e.g. `nvidia`, `mesa`, `google` */
  vendor: string;
  /** GPUAdapterInfo.architecture */
  architecture: string;
  /** GPUAdapterInfo.device */
  device: string;
  /** GPUAdapterInfo.description (the driver's name for it) */
  description: string;
  /** whether it is a software rasteriser (isSoftwareAdapter) */
  software: boolean;
  /** the limits the device was created with */
  limits: { maxStorageBufferBindingSize: number; maxBufferSize: number; maxComputeWorkgroupsPerDimension: number };
  /** the Vulkan ICD that was selected (Node only) */
  icd?: string;
}

const SOFTWARE = /llvmpipe|lavapipe|swiftshader|software|warp|basic render|microsoft basic/i;

/** Whether an adapter is a software rasteriser (lavapipe, SwiftShader, WARP). */
export function isSoftwareAdapter(info: {
  vendor?: string;
  architecture?: string;
  device?: string;
  description?: string;
  isFallbackAdapter?: boolean;
}): boolean {
  if (info.isFallbackAdapter) return true;
  return SOFTWARE.test([info.vendor, info.architecture, info.device, info.description].join(' '));
}

/**
 * The description of an adapter (and the limits of its device, when given, else the adapter's).
 * Pre-condition: a WebGPU adapter. Errors: none.
 * @example describeAdapter(adapter).software // true on lavapipe
 */
export function describeAdapter(adapter: GPUAdapter, device?: GPUDevice): AdapterDescription {
  const i = adapter.info as GPUAdapterInfo & { isFallbackAdapter?: boolean };
  const l = device?.limits ?? adapter.limits;
  return {
    vendor: i.vendor ?? '',
    architecture: i.architecture ?? '',
    device: i.device ?? '',
    description: i.description ?? '',
    software: isSoftwareAdapter({ ...i, isFallbackAdapter: i.isFallbackAdapter ?? (adapter as { isFallbackAdapter?: boolean }).isFallbackAdapter }),
    limits: {
      maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
      maxBufferSize: l.maxBufferSize,
      maxComputeWorkgroupsPerDimension: l.maxComputeWorkgroupsPerDimension,
    },
  };
}

/** one line naming the adapter, for reports */
export function adapterLine(a: AdapterDescription): string {
  const parts = [a.vendor, a.architecture, a.description || a.device].filter((s) => s);
  return `${parts.join(' / ')}${a.software ? ' (software)' : ''}`;
}

/** A GPUDevice with its adapter's description and how to give it back. */
export interface AcquiredDevice {
  /** the device */
  device: GPUDevice;
  /** its adapter */
  adapter: AdapterDescription;
  /** destroy the device and drop what holds it */
  release(): void;
}

/** What `auto` needs to know of an adapter before it decides: software or not, and its name. */
export interface AdapterGuess {
  /** whether the adapter is (or can only be) a software one */
  readonly software: boolean;
  /** the adapter's line (adapterLine), or why no hardware adapter can exist here */
  readonly line: string;
}

/**
 * A cheap look at the adapter a DeviceSource would give, without creating a device (the
 * adapter's info, or facts of the machine). Resolves to null when there is no adapter at all.
 */
export type AdapterProbe = () => Promise<AdapterGuess | null>;

/**
 * Where a GPU device comes from: acquiring one (with its adapter), and optionally `probe`, which
 * lets `auto` decide without creating a device.
 */
export interface DeviceSource {
  (): Promise<AcquiredDevice>;
  /** a look at the adapter without creating a device (Node: probeNodeAdapter) */
  probe?: AdapterProbe;
}

/** what each probe learnt, for the life of the process (the machine does not change under us) */
const probed = new WeakMap<AdapterProbe, Promise<AdapterGuess | null>>();

/**
 * The probe's answer, asked once per process (later calls reuse it); a probe that fails counts as
 * "no adapter".
 * @example await probeOnce(nodeDeviceSource.probe!) // { software: true, line: '…' } on lavapipe
 */
export function probeOnce(probe: AdapterProbe): Promise<AdapterGuess | null> {
  let p = probed.get(probe);
  if (!p) {
    p = probe().catch(() => null);
    probed.set(probe, p);
  }
  return p;
}

/** the CPU backend, its info naming the adapter auto passed over */
function cpuPassingOver(line: string): Backend {
  const cpu = new CpuBackend();
  (cpu.info as { adapter: string }).adapter = `generated JavaScript; auto passed over ${line}`;
  return cpu;
}

/** A GPU backend on an acquired device (released by dispose()). */
export function gpuBackendOn(d: AcquiredDevice, extra: Partial<GpuBackendOptions> = {}): GpuBackend {
  return new GpuBackend(d.device, { adapter: adapterLine(d.adapter), software: d.adapter.software, onDispose: () => d.release(), ...extra });
}

/**
 * cpu: the CPU backend. gpu: the GPU backend, or a `gpu` error without a device.
 * auto: the GPU when `getDevice` yields a hardware adapter, else the CPU. With a `probe` on the
 * source, auto decides from the probe (asked once per process) and creates a device only for a
 * hardware adapter; without one it acquires a device and releases it again when the adapter is
 * a software one. The CPU backend's info then names the adapter it passed over.
 * Errors: `gpu` for choice gpu without a device.
 * @example await createBackend('auto', nodeDeviceSource) // CpuBackend on lavapipe, GpuBackend on a GPU
 */
export async function createBackend(choice: BackendChoice, getDevice?: DeviceSource): Promise<Backend> {
  if (choice === 'cpu') return new CpuBackend();
  if (choice === 'gpu') {
    if (!getDevice) throw new LayoutError('gpu', 'no GPU device source in this environment');
    return gpuBackendOn(await getDevice());
  }
  if (!getDevice) return new CpuBackend();
  if (getDevice.probe) {
    const guess = await probeOnce(getDevice.probe);
    if (!guess) return new CpuBackend();
    if (guess.software) return cpuPassingOver(guess.line);
  }
  let d: AcquiredDevice;
  try {
    d = await getDevice();
  } catch {
    return new CpuBackend();
  }
  if (!d.adapter.software) return gpuBackendOn(d);
  d.release();
  return cpuPassingOver(`the software adapter ${adapterLine(d.adapter)}`);
}

/** The device source of a browser (navigator.gpu), or undefined without WebGPU. */
export function browserDeviceSource(): DeviceSource | undefined {
  const nav = (globalThis as { navigator?: { gpu?: GPU } }).navigator;
  const gpu = nav?.gpu;
  if (!gpu) return undefined;
  return async () => {
    const adapter = await gpu.requestAdapter();
    if (!adapter) throw new LayoutError('gpu', 'navigator.gpu has no adapter');
    const lim = adapter.limits;
    const device = await adapter.requestDevice({
      requiredLimits: {
        maxStorageBufferBindingSize: lim.maxStorageBufferBindingSize,
        maxBufferSize: lim.maxBufferSize,
        maxComputeWorkgroupsPerDimension: lim.maxComputeWorkgroupsPerDimension,
      },
    });
    return { device, adapter: describeAdapter(adapter, device), release: () => device.destroy() };
  };
}
