// The evaluator's subcommands (wgsl, gpu-info, eval, digest, check, tiles): see evaluator.ts.
export type { Command } from './report.js';
export { evaluatorCommands } from './evaluator.js';
