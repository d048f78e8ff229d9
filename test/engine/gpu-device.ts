/** The real WebGPU device of the GPU tests (lavapipe in CI). No skipping: without an adapter
 *  the tests fail, loudly. */
import { acquireNodeDevice, type NodeDevice } from '../../src/engine/device-node.js';

export async function testDevice(): Promise<NodeDevice> {
  try {
    return await acquireNodeDevice();
  } catch (e) {
    const line = '!'.repeat(78);
    process.stderr.write(
      `\n${line}\n!! NO WEBGPU ADAPTER: the GPU tests cannot run and FAIL.\n!! ${(e as Error).message}\n` +
        `!! Install lavapipe (npm run setup) so that they run for real.\n${line}\n\n`,
    );
    throw e;
  }
}
