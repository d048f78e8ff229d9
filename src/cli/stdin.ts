/**
 * Standard input as chunks of bytes. For a pipe or a file, fd 0 is read synchronously in large
 * blocks (much cheaper than the stream for `batch`, and a blocking read returns whatever a
 * client has written so far, so answers still come line by line). A terminal, or an fd that
 * turns out to be non-blocking, falls back to process.stdin as a stream. Bytes, not text:
 * `batch` splits lines on 0x0A and checks each line's UTF-8 itself.
 */
import { fstatSync, readSync } from 'node:fs';
import { LayoutError } from '../algebra/errors.js';

/** The longest line `batch` reads, and the most `-` reads from stdin: 64 MiB (a request of 60,000 LL dims is 2 MB).
 *  Beyond, the line is answered `bad-request` "line too long" and skipped to its newline, in bounded memory. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** The message of a line beyond MAX_LINE_BYTES. */
export const LINE_TOO_LONG = `line too long: more than ${MAX_LINE_BYTES / (1024 * 1024)} MiB (${MAX_LINE_BYTES} bytes)`;

/** Sleep briefly (a non-blocking stdin with nothing to read yet). */
const pause = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** One synchronous read of fd 0 into `buf`: the bytes read (0 at the end), or 'again' where the fd is non-blocking and
 *  has nothing yet (EAGAIN); EOF (Windows' end of a pipe) is the end. The one read loop step of both readers below. */
function readStdin(buf: Buffer): number | 'again' {
  try {
    return readSync(0, buf, 0, buf.length, null);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EAGAIN') return 'again';
    if (code === 'EOF') return 0;
    throw e;
  }
}

/**
 * All of stdin as UTF-8 text, read synchronously, at most MAX_LINE_BYTES: more is `bad-request` "line too long",
 * answered as soon as the bound is passed (`ll parse - < /dev/zero` stops at once, in bounded memory).
 */
export function stdinTextBounded(): string {
  const parts: Buffer[] = [];
  let total = 0;
  const buf = Buffer.allocUnsafe(1 << 20);
  for (;;) {
    const n = readStdin(buf);
    if (n === 'again') {
      pause(5);
      continue;
    }
    if (n === 0) break;
    total += n;
    if (total > MAX_LINE_BYTES) throw new LayoutError('bad-request', `stdin: ${LINE_TOO_LONG}`);
    parts.push(Buffer.from(buf.subarray(0, n)));
  }
  return Buffer.concat(parts).toString('utf8');
}

export async function* stdinChunks(): AsyncGenerator<Buffer> {
  let direct = false;
  try {
    const st = fstatSync(0);
    direct = st.isFIFO() || st.isFile();
  } catch {
    direct = false;
  }
  if (direct) {
    const buf = Buffer.allocUnsafe(1 << 20);
    for (;;) {
      const n = readStdin(buf);
      if (n === 'again') break; // non-blocking fd: use the stream below
      if (n === 0) return;
      // a copy: the consumer may keep a part of it while the next block is read
      yield Buffer.from(buf.subarray(0, n));
    }
  }
  for await (const chunk of process.stdin) yield typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : (chunk as Buffer);
}
