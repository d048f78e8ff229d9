// Placeholder: the evaluator's subcommands (wgsl, gpu-info, eval, digest, check, tiles) are
// registered here once they land.
import type { Io } from './main.js';
export interface Command {
  summary: string;
  run(argv: string[], io: Io): Promise<number>;
}
export const evaluatorCommands: Record<string, Command> = {};
