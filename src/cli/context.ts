/** The OpContext of the CLI and batch: the backend is created on first use and shared. */
import type { Backend, BackendChoice } from '../engine/backend.js';
import type { OpContext } from '../op-spec.js';
import { createNodeBackend } from './node-backend.js';

export interface CliContext extends OpContext {
  dispose(): Promise<void>;
}

/** `threads`: worker threads of the CPU backend's bulk checks (1: this thread) */
export function makeContext(backendChoice: BackendChoice, threads = 1): CliContext {
  let made: Promise<Backend> | null = null;
  return {
    backendChoice,
    backend: () => (made ??= createNodeBackend(backendChoice, threads)),
    async dispose() {
      if (made) {
        const b = await made.catch(() => null);
        b?.dispose();
      }
    },
  };
}
