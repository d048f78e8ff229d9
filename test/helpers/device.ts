/**
 * The one WebGPU device helper of the tests: the real device of the `webgpu` package (lavapipe here). No skipping:
 * without an adapter the GPU tests fail, loudly, saying what to install.
 */
import { acquireNodeDevice, type NodeDevice } from '../../src/engine/node/device-node.js';

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
