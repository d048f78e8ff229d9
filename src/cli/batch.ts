/**
 * `layoutgpu batch`: the machine interface of docs/protocol.md. JSON Lines in, exactly one
 * response per request, in order; a bad line gets an ok:false answer and the batch goes on.
 * Requests are answered as soon as their line arrives (a client may wait for each answer).
 *
 * No line can take the batch down: every step of a request (decoding, parsing, running,
 * serialising its response) happens inside that request's own error handling. The id is
 * echoed as the exact text the request wrote (its span in the raw line, never re-serialised),
 * so deep, huge or exotic ids cost nothing and come back unchanged. With a request timeout,
 * each request runs under a deadline (algebra/deadline.ts; the bulk checks through the
 * backend's RunOptions.timeoutMs) and one that runs past it is answered `timeout`.
 */
import { isUtf8 } from 'node:buffer';
import { withDeadline } from '../algebra/deadline.js';
import { setRequestText } from '../algebra/int-text.js';
import { LayoutError } from '../algebra/errors.js';
import type { BackendChoice } from '../engine/backend.js';
import { loadOp, runOpDirect, type Json, type OpContext } from '../ops/table.js';
import { jsonSkipWs, jsonValueEnd, topLevelMember } from './json-span.js';
import { makeContext, withRequestDeadline } from './context.js';
import { isStackOverflow, NESTED_TOO_DEEPLY } from './report.js';
import { LINE_TOO_LONG, MAX_LINE_BYTES } from './stdin.js';

/** A response before serialisation; the id travels as text (see `responseLine`). */
export type Answer = { ok: true; result: Json } | { ok: false; error: { kind: string; message: string } };

const fail = (kind: string, message: string): Answer => ({ ok: false, error: { kind, message } });

/** The answer for an error thrown while running a request. */
export function errorAnswer(e: unknown): Answer {
  if (e instanceof LayoutError) return fail(e.kind, e.message);
  // a stack overflow or an allocation refused by V8: the request was too large or too deep
  if (isStackOverflow(e)) return fail('bad-request', `input ${NESTED_TOO_DEEPLY}`);
  if (e instanceof RangeError) return fail('bad-request', `input too large: ${e.message}`);
  return fail('bad-request', `internal error: ${e instanceof Error ? e.message : String(e)}`);
}

/**
 * One response as a JSON line: `{"id":<idText>,"ok":…}`. `idText` is the id's exact text from
 * the request (`null` when it has none). Serialising the result happens here, inside its own
 * error handling: a result that cannot be serialised (too deep, not JSON) becomes a
 * `bad-request` answer for the same id. Never throws.
 */
export function responseLine(idText: string, a: Answer): string {
  let body: string | undefined;
  try {
    // JSON.stringify answers undefined for a value that is not JSON (a function, undefined)
    const text: string | undefined = JSON.stringify(a.ok ? a.result : a.error);
    if (text !== undefined) body = a.ok ? `"ok":true,"result":${text}` : `"ok":false,"error":${text}`;
  } catch (e) {
    const message = `the response could not be serialised: ${isStackOverflow(e) ? NESTED_TOO_DEEPLY : e instanceof Error ? e.message : String(e)}`;
    body = `"ok":false,"error":${JSON.stringify({ kind: 'bad-request', message })}`;
  }
  body ??= `"ok":false,"error":${JSON.stringify({ kind: 'bad-request', message: 'internal error: the operation gave no result' })}`;
  return `{"id":${idText},${body}}`;
}

/** JSON's insignificant whitespace: a line of only these (or nothing) is blank, not a request. */
export function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}

/** The exact text of the top-level "id" of a request line that parsed as a JSON object `req`
 *  (the last one, as JSON.parse keeps the last), or `null` when it has none. */
export function idText(line: string, req: object): string {
  if (!Object.hasOwn(req, 'id')) return 'null';
  const span = soleIdSpan(line) ?? topLevelMember(line, 'id');
  return span ? line.slice(span[0], span[1]) : 'null';
}

/**
 * The accelerator of idText for the common line: in valid JSON without a backslash every `"id"` in the text is a whole
 * string token written as it reads, so when the object has a member "id" and the text holds `"id"` once, that once is
 * the top-level key, and its value follows the colon. Answers undefined when the line is not that simple (idText then
 * walks the whole object with topLevelMember). Pre-condition: `line` is a JSON object with a top-level member "id".
 */
function soleIdSpan(line: string): [number, number] | undefined {
  const k = line.indexOf('"id"');
  if (k < 0 || line.includes('"id"', k + 4) || line.includes('\\')) return undefined;
  const i = jsonSkipWs(line, k + 4);
  if (line.charCodeAt(i) !== 0x3a /* : */) return undefined;
  const v = jsonSkipWs(line, i + 1);
  return [v, jsonValueEnd(line, v)];
}

export interface BatchOptions {
  backend?: BackendChoice;
  /** each request's deadline in milliseconds (none when undefined) */
  requestTimeoutMs?: number;
  /** worker threads for the CPU's bulk checks (1: this thread) */
  threads?: number;
}

/**
 * Answer one request line (already decoded; `utf8Error` set when its bytes were not UTF-8):
 * the response line, synchronously for the algebra, with a Promise for the bulk checks. Never
 * throws and never rejects.
 */
export function answerLine(line: string, ctx: OpContext, opts: BatchOptions = {}, utf8Error?: string): string | Promise<string> {
  let id = 'null';
  try {
    let req: unknown;
    try {
      req = JSON.parse(line);
    } catch (e) {
      if (e instanceof SyntaxError) return responseLine('null', fail('bad-request', utf8Error ?? `line is not valid JSON: ${e.message}`));
      throw e;
    }
    if (req === null || typeof req !== 'object' || Array.isArray(req)) {
      return responseLine('null', fail('bad-request', utf8Error ?? 'a request must be a JSON object'));
    }
    id = idText(line, req);
    // an id that went through U+FFFD replacement is not the text the request wrote
    if (utf8Error !== undefined) {
      if (id.includes('\uFFFD')) id = 'null';
      return responseLine(id, fail('bad-request', utf8Error));
    }
    const r = req as { op?: unknown; args?: unknown };
    if (typeof r.op !== 'string') return responseLine(id, fail('bad-request', "missing string field 'op'"));
    const args = r.args === undefined ? [] : r.args;
    if (!Array.isArray(args)) return responseLine(id, fail('bad-request', "'args' must be an array"));
    const op = r.op;
    // an op whose room is loaded on first use (ops/lazy.ts): answered once it is, its deadline starting then
    const loading = loadOp(op);
    if (loading) {
      const idNow = id;
      return loading.then(
        () => answerLine(line, ctx, opts, utf8Error),
        (e: unknown) => responseLine(idNow, errorAnswer(e)),
      );
    }
    const at = opts.requestTimeoutMs === undefined ? undefined : performance.now() + opts.requestTimeoutMs;
    const reqCtx = at === undefined ? ctx : withRequestDeadline(ctx, at);
    // messages quote the request's integers beyond 2^53 − 1 as the line wrote them
    setRequestText(line);
    let result: Json | Promise<Json>;
    try {
      result = withDeadline(opts.requestTimeoutMs, () => runOpDirect(op, args, reqCtx));
    } finally {
      setRequestText(null);
    }
    if (result instanceof Promise) {
      const idNow = id;
      return result.then(
        (value) => responseLine(idNow, { ok: true, result: value }),
        (e: unknown) => responseLine(idNow, errorAnswer(e)),
      );
    }
    return responseLine(id, { ok: true, result });
  } catch (e) {
    return responseLine(id, errorAnswer(e));
  }
}

/** How much of a line too long to read is kept, to find its id. */
const ID_HEAD = 4096;

/**
 * The answer to a line beyond MAX_LINE_BYTES (`bad-request`, LINE_TOO_LONG), from its head: the id when the line
 * begins with it as `{"id": <number, string or literal>`, else null.
 */
export function tooLong(head: string): string {
  const m = /^[\t\n\r \ufeff]*\{[\t\n\r ]*"id"[\t\n\r ]*:[\t\n\r ]*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*"|true|false|null)[\t\n\r ]*[,}]/.exec(
    head,
  );
  let id = 'null';
  try {
    // the id's text as written, once it is valid JSON
    if (m && JSON.parse(m[1]!) !== undefined) id = m[1]!;
  } catch {
    // not a JSON value (a control character in a string): null
  }
  return responseLine(id, fail('bad-request', LINE_TOO_LONG));
}

/** Answers are written in blocks of this many lines (and at the end of each input block). */
const FLUSH_LINES = 256;

const NL = 0x0a;

/** The offset of the first byte of `bytes` that does not continue a valid UTF-8 character
 *  (for the message of a line that is not UTF-8), or -1 when all of it is valid. */
export function firstInvalidByte(bytes: Uint8Array): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    const n = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    if (n === 0 || i + n > bytes.length) return i;
    try {
      decoder.decode(bytes.subarray(i, i + n));
    } catch {
      return i;
    }
    i += n;
  }
  return -1;
}

/**
 * Run the batch loop over a readable stream of JSON Lines (bytes or text), writing to
 * `write`. Lines are split on the byte 0x0A (never inside a UTF-8 character); a UTF-8 BOM at
 * the start of the input is skipped; a line that is not UTF-8 gets a `bad-request` answer.
 */
export async function runBatch(
  input: AsyncIterable<Buffer | string>,
  write: (chunk: string) => void,
  backendOrOptions: BackendChoice | BatchOptions = 'cpu',
): Promise<void> {
  const opts: BatchOptions = typeof backendOrOptions === 'string' ? { backend: backendOrOptions } : backendOrOptions;
  const ctx = makeContext(opts.backend ?? 'cpu', opts.threads ?? 1);
  const out: string[] = [];
  let first = true;
  const flush = (): void => {
    if (out.length) {
      const text = out.join('\n') + '\n';
      out.length = 0;
      write(text);
    }
  };
  const handle = (line: string, utf8Error?: string): void | Promise<void> => {
    if (first) {
      first = false;
      if (line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    }
    if (isBlank(line)) return;
    const r = answerLine(line, ctx, opts, utf8Error);
    if (typeof r !== 'string') {
      // a bulk check may take a while: the answers before it go out first
      flush();
      return r.then((v) => void out.push(v));
    }
    out.push(r);
  };
  /** a line beyond MAX_LINE_BYTES, answered from its head */
  const pushTooLong = (head: string): void => {
    first = false;
    out.push(tooLong(head));
  };
  /** whole lines, as bytes: validated as UTF-8 at once (the common case), else line by line */
  const handleBlock = async (bytes: Buffer, last: boolean): Promise<void> => {
    if (isUtf8(bytes)) {
      await handleText(bytes.toString('utf8'), last);
      return;
    }
    let start = 0;
    for (;;) {
      const nl = bytes.indexOf(NL, start);
      const end = nl < 0 ? bytes.length : nl;
      if (nl < 0 && !last) break;
      const lineBytes = bytes.subarray(start, end);
      if (lineBytes.length > MAX_LINE_BYTES) {
        pushTooLong(lineBytes.subarray(0, ID_HEAD).toString('utf8'));
        if (nl < 0) break;
        start = nl + 1;
        continue;
      }
      const text = lineBytes.toString('utf8');
      const bad = isUtf8(lineBytes) ? -1 : firstInvalidByte(lineBytes);
      const p = handle(text, bad < 0 ? undefined : `line is not valid UTF-8 (byte ${bad} of the line)`);
      if (p) await p;
      if (out.length >= FLUSH_LINES) flush();
      if (nl < 0) break;
      start = nl + 1;
    }
  };
  /** text of whole lines (ending in \n, except the final line of the input) */
  const handleText = async (text: string, last: boolean): Promise<void> => {
    let start = 0;
    let nl: number;
    while ((nl = text.indexOf('\n', start)) >= 0) {
      // a line of one block (a block may hold more than MAX_LINE_BYTES): its UTF-8 length decides
      const p = nl - start > MAX_LINE_BYTES / 4 ? handleMaybeLong(text.slice(start, nl)) : handle(text.slice(start, nl));
      if (p) await p;
      start = nl + 1;
      // write in blocks: answers go out early and few of them live long enough to be copied
      if (out.length >= FLUSH_LINES) flush();
    }
    if (last && start < text.length) {
      const p = handleMaybeLong(text.slice(start));
      if (p) await p;
    }
  };
  /** a line that may pass MAX_LINE_BYTES in UTF-8 */
  const handleMaybeLong = (line: string): void | Promise<void> =>
    Buffer.byteLength(line, 'utf8') > MAX_LINE_BYTES ? pushTooLong(line.slice(0, ID_HEAD)) : handle(line);
  // the line being read: its bytes so far (at most MAX_LINE_BYTES); once past the bound it is answered at once (from
  // its head) and the rest skipped to its newline (`skipping`: bounded memory, and the batch goes on with the next line)
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false;
  try {
    for await (const chunk of input) {
      let bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      while (bytes.length > 0) {
        if (skipping) {
          const end = bytes.indexOf(NL);
          if (end < 0) break;
          skipping = false;
          bytes = bytes.subarray(end + 1);
          continue;
        }
        const first = bytes.indexOf(NL);
        const firstLength = first < 0 ? bytes.length : first;
        if (pendingBytes + firstLength > MAX_LINE_BYTES) {
          pushTooLong(
            Buffer.concat([...pending, bytes.subarray(0, Math.min(firstLength, ID_HEAD))])
              .subarray(0, ID_HEAD)
              .toString('utf8'),
          );
          flush();
          pending = [];
          pendingBytes = 0;
          skipping = true;
          continue;
        }
        if (first < 0) {
          pending.push(Buffer.from(bytes));
          pendingBytes += bytes.length;
          break;
        }
        // whole lines up to the last newline (a line inside them is at most one chunk long: handleText checks it)
        const nl = bytes.lastIndexOf(NL);
        const whole = pending.length ? Buffer.concat([...pending, bytes.subarray(0, nl + 1)]) : bytes.subarray(0, nl + 1);
        pending = [];
        pendingBytes = 0;
        await handleBlock(whole, false);
        flush();
        bytes = bytes.subarray(nl + 1);
      }
    }
    if (pending.length) await handleBlock(Buffer.concat(pending), true);
    flush();
  } finally {
    await ctx.dispose();
  }
}
