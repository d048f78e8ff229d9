/** The OpContext of the CLI and batch: the backend is created on first use and shared. */
import type { Backend, BackendChoice } from '../engine/backend.js';
import type { OpContext } from '../op-spec.js';
import { createNodeBackend } from './node-backend.js';

export interface CliContext extends OpContext {
  dispose(): Promise<void>;
}

export function makeContext(backendChoice: BackendChoice): CliContext {
  let made: Promise<Backend> | null = null;
  return {
    backendChoice,
    backend: () => (made ??= createNodeBackend(backendChoice)),
    async dispose() {
      if (made) {
        const b = await made.catch(() => null);
        b?.dispose();
      }
    },
  };
}
