/** The error kinds of the batch protocol (BATCH-PROTOCOL.md). */
export type ErrorKind =
  | 'bad-request'
  | 'parse'
  | 'domain'
  | 'not-composable'
  | 'not-complementable'
  | 'overflow'
  | 'gpu'
  | 'timeout'
  | 'not-linear'
  | 'not-representable';

/** Every failure of the library travels as a LayoutError: a protocol kind and a sentence
 *  that names the culprit. Only the outermost layer (CLI, batch, page) turns it into text. */
export class LayoutError extends Error {
  /** the protocol kind (BATCH-PROTOCOL.md): bad-request, parse, domain, not-composable, not-complementable, overflow, gpu, timeout */
  readonly kind: ErrorKind;
  constructor(kind: ErrorKind, message: string) {
    // No stack trace: these are answers, not bugs, and batch makes many of them.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.kind = kind;
    this.name = 'LayoutError';
  }
}

/**
 * A LayoutError of kind `domain`: an argument outside the domain of the operation.
 * @example throw domainError('mode index 3 out of range 1..2')
 */
export const domainError = (message: string): LayoutError => new LayoutError('domain', message);

/**
 * Whether e is a LayoutError (a protocol answer rather than a bug).
 * @example isLayoutError(new LayoutError('parse', 'x')) // true
 */
export function isLayoutError(e: unknown): e is LayoutError {
  return e instanceof LayoutError;
}
