/**
 * The entry of a pool worker thread (pool.ts): receives `{id, kind, payload, deadline}`, runs
 * the handler of that kind, and answers `progress` messages and one `done` or `error`.
 * Handlers load on first use: bulk checks (threaded-tasks.ts) and verify parts
 * (verify/parallel-task.ts). `workerData.fault` is a test hook: `exit-on-task:N` ends the
 * thread at its N-th task (a worker that dies).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { LayoutError } from '../algebra/errors.js';
import type { WorkerMessage } from './pool.js';

/** A task handler: plain-data payload in, plain-data result out; `progress(done)` reports. */
export type TaskHandler = (payload: never, ctx: { deadline: number; progress(done: number): void }) => unknown;

async function handler(kind: string): Promise<TaskHandler> {
  if (kind.startsWith('verify')) return ((await import('../verify/parallel-task.js')).handlers as Record<string, TaskHandler>)[kind]!;
  const h = ((await import('./threaded-tasks.js')).handlers as Record<string, TaskHandler>)[kind];
  if (!h) throw new Error(`unknown task kind '${kind}'`);
  return h;
}

const port = parentPort!;
const fault = typeof workerData?.fault === 'string' ? /^exit-on-task:(\d+)$/.exec(workerData.fault) : null;
let tasks = 0;

port.on('message', async (m: { id: number; kind: string; payload: unknown; deadline: number | null }) => {
  const post = (msg: WorkerMessage): void => port.postMessage(msg);
  tasks++;
  if (fault && tasks >= Number(fault[1])) process.exit(3);
  try {
    const h = await handler(m.kind);
    const result = await h(m.payload as never, { deadline: m.deadline ?? Infinity, progress: (done) => post({ id: m.id, type: 'progress', done }) });
    post({ id: m.id, type: 'done', result });
  } catch (e) {
    post({ id: m.id, type: 'error', kind: e instanceof LayoutError ? e.kind : null, message: e instanceof Error ? e.message : String(e) });
  }
});
