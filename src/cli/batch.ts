/**
 * `layoutgpu batch`: the machine interface of BATCH-PROTOCOL.md. JSON Lines in, exactly one
 * response per request, in order; a bad line gets an ok:false answer and the batch goes on.
 * Requests are answered as soon as their line arrives (a client may wait for each answer).
 */
import { LayoutError } from '../algebra/errors.js';
import type { BackendChoice } from '../engine/backend.js';
import { runOp, type Json, type OpContext } from '../ops.js';
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

/** Answer one request line. */
export async function answerLine(line: string, ctx: OpContext): Promise<Response> {
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
    return { id, ok: true, result: await runOp(r.op, args, ctx) };
  } catch (e) {
    return errorResponse(id, e);
  }
}

/** Run the batch loop over a readable stream of JSON Lines, writing to `write`. */
export async function runBatch(
  input: AsyncIterable<Buffer | string>,
  write: (chunk: string) => void,
  backendChoice: BackendChoice = 'cpu',
): Promise<void> {
  const ctx = makeContext(backendChoice);
  let pending = '';
  const out: string[] = [];
  const handle = async (line: string): Promise<void> => {
    if (line.trim() === '') return;
    out.push(JSON.stringify(await answerLine(line, ctx)));
  };
  try {
    for await (const chunk of input) {
      pending += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      let nl: number;
      let start = 0;
      while ((nl = pending.indexOf('\n', start)) >= 0) {
        await handle(pending.slice(start, nl));
        start = nl + 1;
      }
      pending = pending.slice(start);
      if (out.length) {
        write(out.join('\n') + '\n');
        out.length = 0;
      }
    }
    await handle(pending);
    if (out.length) write(out.join('\n') + '\n');
  } finally {
    await ctx.dispose();
  }
}
