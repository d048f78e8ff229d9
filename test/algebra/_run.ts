/** Test-side access to the op table (src/ops/table.ts): every call as a client sees it. */
import { runOpDirect, type Json, type OpContext } from '../../src/ops/table.js';
import { LayoutError } from '../../src/algebra/errors.js';

const ctx: OpContext = {
  backendChoice: 'cpu',
  backend: () => Promise.reject(new Error('no backend in algebra tests')),
};

export type Outcome = { ok: true; result: Json } | { ok: false; kind: string; message: string };

/** Run op `name` on raw (JSON-like) arguments; errors become { ok: false, kind, message }. */
export function op(name: string, ...args: unknown[]): Outcome {
  try {
    const r = runOpDirect(name, args, ctx);
    if (r instanceof Promise) throw new Error(`op ${name} answered asynchronously`);
    return { ok: true, result: r };
  } catch (e) {
    if (e instanceof LayoutError) return { ok: false, kind: e.kind, message: e.message };
    throw e;
  }
}

/** The result of an op that must succeed. */
export function ok(name: string, ...args: unknown[]): Json {
  const r = op(name, ...args);
  if (!r.ok) throw new Error(`${name}(${args.map((a) => JSON.stringify(a)).join(', ')}) failed: ${r.kind}: ${r.message}`);
  return r.result;
}

/** The error of an op that must fail. */
export function err(name: string, ...args: unknown[]): { kind: string; message: string } {
  const r = op(name, ...args);
  if (r.ok) throw new Error(`${name}(${args.map((a) => JSON.stringify(a)).join(', ')}) succeeded with ${JSON.stringify(r.result)}`);
  return { kind: r.kind, message: r.message };
}
