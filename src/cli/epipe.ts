/**
 * A reader that goes away (`layoutgpu batch | head -1`) is not an error: output to a closed
 * pipe ends the command quietly with status 0 (no stack trace, nothing on stderr).
 */
import { writeSync } from 'node:fs';

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

/** `--out /dev/stdout` (or `-`) means fd 1 itself: opening the path fails when stdout is a
 *  socket (ENXIO), and fd 1 is what the user meant. Returns 1 for those, else undefined. */
export function stdoutFd(path: string): 1 | undefined {
  return path === '/dev/stdout' || path === '-' ? 1 : undefined;
}

const pause = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** writeSync of all of `data` to `fd`, waiting while a non-blocking fd is full (EAGAIN). A
 *  closed pipe throws EPIPE (see isBrokenPipe). */
export function writeAllSync(fd: number, data: Uint8Array): void {
  let off = 0;
  while (off < data.length) {
    try {
      off += writeSync(fd, data, off, data.length - off);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      pause(1);
    }
  }
}
