// The evaluator's subcommands (wgsl, gpu-info, eval, digest, check, tiles): see evaluator.ts.
import type { Io } from './main.js';
export interface Command {
  summary: string;
  run(argv: string[], io: Io): Promise<number>;
}
export { evaluatorCommands } from './evaluator.js';
