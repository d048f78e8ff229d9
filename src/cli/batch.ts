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
  /** the id's text exactly as the request wrote it, when JSON numbers cannot carry it (beyond
   *  2^53, or beyond the doubles) */
  rawId?: string;
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

/** The text of the last top-level "id" number of a request line (JSON.parse keeps the last). */
export function rawIdText(line: string): string | undefined {
  let depth = 0;
  let found: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < line.length && line[j] !== '"') j += line[j] === '\\' ? 2 : 1;
      const token = line.slice(i, j + 1);
      i = j;
      if (depth !== 1) continue;
      let k = j + 1;
      while (k < line.length && /\s/.test(line[k]!)) k++;
      if (line[k] !== ':') continue;
      let key: unknown;
      try {
        key = JSON.parse(token);
      } catch {
        continue;
      }
      if (key !== 'id') continue;
      k++;
      while (k < line.length && /\s/.test(line[k]!)) k++;
      const m = /^-?[0-9][0-9.eE+-]*/.exec(line.slice(k));
      found = m ? m[0] : undefined;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  return found;
}

/** One response as a JSON line, the id echoed exactly as the request wrote it. */
export function responseLine(r: Response): string {
  if (r.rawId === undefined) return JSON.stringify(r);
  const { rawId, ...rest } = r;
  const text = JSON.stringify({ ...rest, id: 0 });
  return `{"id":${rawId}${text.slice('{"id":0'.length)}`;
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
  if (typeof id === 'number' && !Number.isSafeInteger(id) && (!Number.isFinite(id) || !String(id).includes('.'))) {
    const raw = rawIdText(line);
    if (raw !== undefined) {
      const answer = answerParsed(id, r, ctx);
      return answer instanceof Promise ? answer.then((a) => ({ ...a, rawId: raw })) : { ...answer, rawId: raw };
    }
  }
  return answerParsed(id, r, ctx);
}

function answerParsed(id: Json, r: { op?: unknown; args?: unknown }, ctx: OpContext): Response | Promise<Response> {
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
  threads = 1,
): Promise<void> {
  const ctx = makeContext(backendChoice, threads);
  let pending = '';
  const out: string[] = [];
  const handle = (line: string): void | Promise<void> => {
    if (line.trim() === '') return;
    const r = answerLine(line, ctx);
    if (r instanceof Promise) return r.then((v) => void out.push(responseLine(v)));
    out.push(responseLine(r));
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
