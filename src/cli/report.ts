/**
 * The CLI's one error policy (docs/cli.md, "Conventions of every command"): every subcommand ends a failure here, with one line on
 * stderr and one exit code by one rule —
 * - a reader that has gone (broken pipe): 0, nothing said;
 * - a usage error (`Usage`: a bad option, a missing argument, a file that cannot be read or written): 2;
 * - a `LayoutError`: 2 for every kind but `gpu` (the machine, not the input), which is 1;
 * - anything unexpected: 1 (`internal error`).
 * A RangeError thrown by the runtime on hostile input (a string or array too large) counts as bad input (2), as it
 * does in `batch` (kind `bad-request`).
 */
import { LayoutError } from '../algebra/errors.js';
import { isBrokenPipe } from './epipe.js';
import type { Io } from './io.js';

/** A subcommand of `layoutgpu` that is not an operation of the table. */
export interface Command {
  summary: string;
  run(argv: string[], io: Io): Promise<number>;
}

/** A usage error: the command line, not the layouts, is wrong (exit 2). */
export class Usage extends Error {}

/** The exit code of a failed command, by the one rule above. */
export function exitCode(e: unknown): 0 | 1 | 2 {
  if (isBrokenPipe(e)) return 0;
  if (e instanceof LayoutError) return e.kind === 'gpu' ? 1 : 2;
  if (e instanceof Usage || e instanceof RangeError) return 2;
  return 1;
}

/** What `reportError` says: `prefix` starts the line (e.g. 'layoutgpu verify'); `unexpected` words an error of no known class. */
export interface ReportOptions {
  readonly prefix?: string;
  readonly unexpected?: (e: unknown) => string;
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** The one stderr line for a failed command (empty for a broken pipe). */
export function errorLine(e: unknown, opts: ReportOptions = {}): string {
  const prefix = opts.prefix ?? 'layoutgpu';
  if (isBrokenPipe(e)) return '';
  if (e instanceof LayoutError) return `${prefix}: ${e.kind}: ${oneLine(e.message)}\n`;
  if (isStackOverflow(e)) return `${prefix}: input ${NESTED_TOO_DEEPLY}\n`;
  if (e instanceof Usage || e instanceof RangeError) return `${prefix}: ${oneLine(e.message)}\n`;
  return `${prefix}: ${oneLine(opts.unexpected ? opts.unexpected(e) : `internal error: ${messageOf(e)}`)}\n`;
}

/** Ends a failed command: writes its one line to stderr and returns its exit code. */
export function reportError(e: unknown, io: Pick<Io, 'stderr'>, opts: ReportOptions = {}): number {
  const line = errorLine(e, opts);
  if (line) io.stderr(line);
  return exitCode(e);
}

/** What a message says of V8's stack overflow ("Maximum call stack size exceeded"): the input (a JSON value or a
 *  layout of 100,000 levels) or the result is nested too deeply; V8's words are not passed on. */
export const NESTED_TOO_DEEPLY = 'nested too deeply';

/** Whether e is the runtime's stack overflow (a RangeError; the others say a string or array is too large). */
export const isStackOverflow = (e: unknown): e is RangeError => e instanceof RangeError && /call stack/i.test(e.message);

/** A message as one line (a multi-line message would break the one-line rule). */
const oneLine = (s: string): string => s.replace(/\s*\n\s*/g, ' ');
