/// <reference types="@webgpu/types" preserve="true" />
/**
 * `layoutgpu/browser`: everything that runs in a browser, with nothing Node-only in it: the
 * algebra and the ops table (src/index.ts), the CuTe vocabulary (src/cute/), the evaluator on a
 * GPUDevice you pass in (GpuBackend; createBackend with browserDeviceSource for navigator.gpu;
 * CpuBackend), and the pictures as text (src/render/: ASCII, SVG, TikZ).
 * @example
 *   import { parseLayout, GpuBackend } from 'layoutgpu/browser';
 *   const device = await (await navigator.gpu.requestAdapter())!.requestDevice();
 *   const gpu = new GpuBackend(device, { adapter: 'navigator.gpu', software: false });
 *   const report = await gpu.checkCompact(parseLayout('(4,8):(1,4)'));
 * @module layoutgpu/browser
 */
export * from './index.js';
// the evaluator, on a device from anywhere
export { GpuBackend, type GpuBackendOptions } from './engine/gpu.js';
export { CpuBackend } from './engine/cpu.js';
export { wgslFor, KERNELS, type KernelName } from './engine/codegen.js';
export {
  type AcquiredDevice,
  type AdapterDescription,
  type AdapterGuess,
  type AdapterProbe,
  type DeviceSource,
  adapterLine,
  browserDeviceSource,
  createBackend,
  describeAdapter,
  gpuBackendOn,
  isSoftwareAdapter,
  probeOnce,
} from './engine/select.js';
// plan_smem's candidates priced on a device (docs/planner.md "Scale")
export { GpuPlanner, planSmemGpu } from './planner/gpu.js';
// pictures
export { type GridShape, type Picture, MAX_SHOW, cellOf, gridShape, makePicture } from './render/grid.js';
export { type TileOf, type Tiling, divisionTiling, modeTiling } from './render/tiles.js';
export { darkBackground, tileColour } from './render/colour.js';
export { asciiPicture, renderGrid } from './render/ascii.js';
export { svgPicture } from './render/svg.js';
export { type TikzOptions, tikzPicture } from './render/tikz.js';
