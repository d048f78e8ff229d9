/** The backend of the CLI and batch in Node: the GPU device comes from the `webgpu` package;
 *  a CPU backend runs on `threads` worker threads when threads > 1 (engine/node/threaded-cpu.ts,
 *  loaded only then). */
import type { Backend, BackendChoice } from '../engine/backend.js';
import { nodeDeviceSource } from '../engine/node/device-node.js';
import { createBackend } from '../engine/select.js';

export async function createNodeBackend(choice: BackendChoice, threads = 1): Promise<Backend> {
  const b = await createBackend(choice, nodeDeviceSource);
  if (threads <= 1 || b.info.backend !== 'cpu') return b;
  return (await import('../engine/node/threaded-cpu.js')).withThreads(b, threads);
}
