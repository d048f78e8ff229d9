/** The real WebGPU device of the verify GPU tests (lavapipe here). No skipping: without an
 *  adapter these tests fail. */
import { acquireNodeDevice, type NodeDevice } from '../../src/engine/device-node.js';

export async function verifyTestDevice(): Promise<NodeDevice> {
  try {
    return await acquireNodeDevice();
  } catch (e) {
    process.stderr.write(`\n!! NO WEBGPU ADAPTER: the verify GPU tests cannot run and FAIL: ${(e as Error).message}\n`);
    throw e;
  }
}
