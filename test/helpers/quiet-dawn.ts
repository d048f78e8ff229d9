/**
 * The suite's output without Dawn's start-up lines (`Warning: maxDynamicUniformBuffersPerPipelineLayout artificially
 * reduced …`, written by native code on the fd 2 of every process that opens a Vulkan adapter). A test file runs in a
 * forked process whose stderr is a pipe that vitest's main process copies to its own stderr; there, those lines are
 * dropped by the CLI's own rule (src/cli/quiet-stderr.ts, StderrFilter) and everything else passes at once.
 */
import { StderrFilter } from '../../src/cli/quiet-stderr.js';

const QUIET = Symbol.for('layoutgpu.quiet-dawn');

type Write = (chunk: string | Uint8Array, ...rest: unknown[]) => boolean;

/** Drop Dawn's start-up lines from everything written to `stream` (once per stream; later calls do nothing). */
export function quietDawn(stream: NodeJS.WritableStream): void {
  const s = stream as NodeJS.WritableStream & { [QUIET]?: true; write: Write };
  if (s[QUIET]) return;
  s[QUIET] = true;
  const write = s.write.bind(s) as Write;
  const filter = new StderrFilter((text) => write(text));
  s.write = (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
    filter.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const cb = rest.find((r): r is () => void => typeof r === 'function');
    cb?.();
    return true;
  };
}
