/** How `bench` and `bench --smem` end a failure: the CLI's one policy (report.ts), with bench's own words for the unexpected. */
import type { Io } from './io.js';
import { LayoutError } from '../algebra/errors.js';
import { BenchVerifyError } from '../throughput/verify.js';
import { reportError, Usage } from './report.js';

/** The exit code of a failed bench (`what`: the command, for the last resort message): a file that cannot be
 *  written is a usage error (2); a wrong kernel output or anything else unexpected 1; one stderr line. */
export function benchError(e: unknown, io: Pick<Io, 'stderr'>, what: string): number {
  const msg = e instanceof Error ? e.message : String(e);
  const file = !(e instanceof Usage) && !(e instanceof LayoutError) && /ENOENT|EACCES|EISDIR/.test(msg);
  return reportError(file ? new Usage(msg) : e, io, {
    unexpected: (x) => (x instanceof BenchVerifyError ? `${what}: kernel output is wrong: ${x.message}` : `${what}: ${msg}`),
  });
}
