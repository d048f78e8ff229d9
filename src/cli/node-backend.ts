/** The backend of the CLI and batch in Node: the GPU device comes from the `webgpu` package. */
import type { Backend, BackendChoice } from '../engine/backend.js';
import { nodeDeviceSource } from '../engine/device-node.js';
import { createBackend } from '../engine/select.js';

export async function createNodeBackend(choice: BackendChoice): Promise<Backend> {
  return createBackend(choice, nodeDeviceSource);
}
