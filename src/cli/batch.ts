/**
 * `layoutgpu batch`: the machine interface of BATCH-PROTOCOL.md. JSON Lines in, exactly one
 * response per request, in order; a bad line gets an ok:false answer and the batch goes on.
 * Requests are answered as soon as their line arrives (a client may wait for each answer).
 */
import { LayoutError } from '../algebra/errors.js';
import type { BackendChoice } from '../engine/backend.js';
import { runOpDirect, type Json, type OpContext } from '../ops.js';
import { makeContext } from './context.js';

export interface Response {
  id: Json;
  ok: boolean;
  result?: Json;
  error?: { kind: string; message: string };
}

export function errorResponse(id: Json, e: unknown): Response {
  if (e instanceof LayoutError) return { id, ok: false, error: { kind: e.kind, message: e.message } };
  if (e instanceof RangeError) return { id, ok: false, error: { kind: 'bad-request', message: `input too large: ${e.message}` } };
  const message = e instanceof Error ? e.message : String(e);
  return { id, ok: false, error: { kind: 'bad-request', message: `internal error: ${message}` } };
}

/** Answer one request line: synchronously for algebra ops, with a Promise for bulk checks. */
export function answerLine(line: string, ctx: OpContext): Response | Promise<Response> {
  let req: unknown;
  try {
    req = JSON.parse(line);
  } catch {
    return { id: null, ok: false, error: { kind: 'bad-request', message: 'line is not valid JSON' } };
  }
  if (req === null || typeof req !== 'object' || Array.isArray(req)) {
    return { id: null, ok: false, error: { kind: 'bad-request', message: 'a request must be a JSON object' } };
  }
  const r = req as { id?: Json; op?: unknown; args?: unknown };
  const id: Json = r.id === undefined ? null : r.id;
  if (typeof r.op !== 'string') return { id, ok: false, error: { kind: 'bad-request', message: "missing string field 'op'" } };
  const args = r.args === undefined ? [] : r.args;
  if (!Array.isArray(args)) return { id, ok: false, error: { kind: 'bad-request', message: "'args' must be an array" } };
  try {
    const result = runOpDirect(r.op, args, ctx);
    if (result instanceof Promise) {
      return result.then(
        (value): Response => ({ id, ok: true, result: value }),
        (e: unknown) => errorResponse(id, e),
      );
    }
    return { id, ok: true, result };
  } catch (e) {
    return errorResponse(id, e);
  }
}

/** Answers are written in blocks of this many lines (and at the end of each input block). */
const FLUSH_LINES = 256;

/** Run the batch loop over a readable stream of JSON Lines, writing to `write`. */
export async function runBatch(
  input: AsyncIterable<Buffer | string>,
  write: (chunk: string) => void,
  backendChoice: BackendChoice = 'cpu',
): Promise<void> {
  const ctx = makeContext(backendChoice);
  let pending = '';
  const out: string[] = [];
  const handle = (line: string): void | Promise<void> => {
    if (line.trim() === '') return;
    const r = answerLine(line, ctx);
    if (r instanceof Promise) return r.then((v) => void out.push(JSON.stringify(v)));
    out.push(JSON.stringify(r));
  };
  try {
    for await (const chunk of input) {
      pending += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      let nl: number;
      let start = 0;
      while ((nl = pending.indexOf('\n', start)) >= 0) {
        const p = handle(pending.slice(start, nl));
        if (p) await p;
        start = nl + 1;
        // write in blocks: answers go out early and few of them live long enough to be copied
        if (out.length >= FLUSH_LINES) {
          write(out.join('\n') + '\n');
          out.length = 0;
        }
      }
      pending = pending.slice(start);
      if (out.length) {
        write(out.join('\n') + '\n');
        out.length = 0;
      }
    }
    const last = handle(pending);
    if (last) await last;
    if (out.length) write(out.join('\n') + '\n');
  } finally {
    await ctx.dispose();
  }
}
