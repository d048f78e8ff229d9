/**
 * Standard input as chunks of text. For a pipe or a file, fd 0 is read synchronously in large
 * blocks (much cheaper than the stream for `batch`, and a blocking read returns whatever a
 * client has written so far, so answers still come line by line). A terminal, or an fd that
 * turns out to be non-blocking, falls back to process.stdin as a stream.
 */
import { fstatSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

export async function* stdinChunks(): AsyncGenerator<string> {
  let direct = false;
  try {
    const st = fstatSync(0);
    direct = st.isFIFO() || st.isFile();
  } catch {
    direct = false;
  }
  if (direct) {
    const buf = Buffer.allocUnsafe(1 << 20);
    const decoder = new StringDecoder('utf8');
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
      if (n === 0) {
        const rest = decoder.end();
        if (rest) yield rest;
        return;
      }
      yield decoder.write(buf.subarray(0, n));
    }
  }
  for await (const chunk of process.stdin) yield typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
}
