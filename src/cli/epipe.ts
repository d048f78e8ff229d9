/**
 * A reader that goes away (`layoutgpu batch | head -1`) is not an error: output to a closed
 * pipe ends the command quietly with status 0 (no stack trace, nothing on stderr).
 */

/** Whether `e` is the error of a write to a pipe or socket whose reader has gone. */
export function isBrokenPipe(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED' || code === 'ECONNRESET';
}

/** Ends the process with status 0 when a write to `stream` finds its reader gone; any other
 *  stream error is reported in one line and ends it with status 1. */
export function exitQuietlyOnBrokenPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (e: unknown) => {
    if (isBrokenPipe(e)) process.exit(0);
    try {
      process.stderr.write(`layoutgpu: output error: ${e instanceof Error ? e.message : String(e)}\n`);
    } finally {
      process.exit(1);
    }
  });
}
