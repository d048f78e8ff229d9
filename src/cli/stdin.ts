/**
 * Standard input as chunks of bytes. For a pipe or a file, fd 0 is read synchronously in large
 * blocks (much cheaper than the stream for `batch`, and a blocking read returns whatever a
 * client has written so far, so answers still come line by line). A terminal, or an fd that
 * turns out to be non-blocking, falls back to process.stdin as a stream. Bytes, not text:
 * `batch` splits lines on 0x0A and checks each line's UTF-8 itself.
 */
import { fstatSync, readSync } from 'node:fs';

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
      let n: number;
      try {
        n = readSync(0, buf, 0, buf.length, null);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN') break; // non-blocking fd: use the stream below
        if (code === 'EOF') return;
        throw e;
      }
      if (n === 0) return;
      // a copy: the consumer may keep a part of it while the next block is read
      yield Buffer.from(buf.subarray(0, n));
    }
  }
  for await (const chunk of process.stdin) yield typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : (chunk as Buffer);
}
