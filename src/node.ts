/**
 * `layoutgpu` in Node: everything of the browser entry (src/browser.ts: algebra, ops, CuTe
 * vocabulary, evaluator, pictures) and a GPUDevice from the `webgpu` package (Dawn).
 * @example
 *   import { parseLayout, createBackend, nodeDeviceSource } from 'layoutgpu';
 *   const backend = await createBackend('auto', nodeDeviceSource);
 *   await backend.checkCompact(parseLayout('(4,8):(1,4)'));
 *   backend.dispose();
 * @module layoutgpu
 */
export * from './browser.js';
export {
  type NodeDevice,
  type NodeDeviceOptions,
  acquireNodeDevice,
  autoMayOpenDevice,
  hardwareGpuNodes,
  nodeDeviceSource,
  probeNodeAdapter,
} from './engine/node/device-node.js';
// plan_smem on worker threads (docs/planner.md "Scale")
export { type ThreadedPlanOptions, planSmemMany, planSmemThreaded } from './planner/parallel.js';
