/**
 * The benchmark's environment in Node: a GPUDevice from the `webgpu` package with
 * 'timestamp-query' where the adapter has it, Dawn started with
 * `disable-dawn-features=timestamp_quantization` (else timestamps are rounded to ~100 µs), or
 * the CPU. `auto`: the GPU when the adapter is hardware, else the CPU.
 */
import { cpus } from 'node:os';
import { acquireNodeDevice, type NodeDevice } from '../engine/node/device-node.js';
import { adapterLine } from '../engine/select.js';
import type { BenchEnv } from './run.js';

const LIMIT_NAMES = [
  'maxStorageBufferBindingSize',
  'maxBufferSize',
  'maxComputeWorkgroupsPerDimension',
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupSizeX',
  'maxComputeWorkgroupStorageSize',
  'maxStorageBuffersPerShaderStage',
  'minStorageBufferOffsetAlignment',
  'minUniformBufferOffsetAlignment',
];

export function limitsOf(device: GPUDevice): Record<string, number> {
  const out: Record<string, number> = {};
  const l = device.limits as unknown as Record<string, number>;
  for (const k of LIMIT_NAMES) if (typeof l[k] === 'number') out[k] = l[k];
  return out;
}

export interface AcquiredBenchEnv {
  env: BenchEnv;
  release(): void;
}

export function cpuEnv(note = ''): BenchEnv {
  const model = cpus()[0]?.model?.trim() ?? 'unknown CPU';
  return { backend: 'cpu', adapter: `cpu: ${model} (generated JavaScript, 1 thread)${note}`, software: false };
}

export async function acquireBenchEnv(choice: 'cpu' | 'gpu' | 'auto'): Promise<AcquiredBenchEnv> {
  if (choice === 'cpu') return { env: cpuEnv(), release: () => undefined };
  let d: NodeDevice;
  try {
    d = await acquireNodeDevice({ timestamps: true, dawn: ['disable-dawn-features=timestamp_quantization'] });
  } catch (e) {
    if (choice === 'gpu') throw e;
    return { env: cpuEnv(' (no GPU adapter)'), release: () => undefined };
  }
  if (choice === 'auto' && d.adapter.software) {
    const line = adapterLine(d.adapter);
    d.release();
    return { env: cpuEnv(`; passed over the software adapter ${line}`), release: () => undefined };
  }
  const timestamps = d.device.features.has('timestamp-query');
  return {
    env: {
      backend: 'gpu',
      gpu: { device: d.device, timestamps },
      adapter: adapterLine(d.adapter),
      software: d.adapter.software,
      adapterInfo: d.adapter,
      limits: limitsOf(d.device),
      features: [...d.device.features].map(String).sort(),
    },
    release: () => d.release(),
  };
}
