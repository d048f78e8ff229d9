/**
 * The entry of a pool worker thread (pool.ts): receives `{id, kind, payload, deadline}`, runs
 * the handler of that kind, and answers `progress` messages and one `done` or `error`.
 * Tasks run in the order they arrive; handlers (pool-handlers.ts) load on first use.
 * `workerData.fault` is a test hook: `exit-on-task:N` ends the thread at its N-th task.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { LayoutError } from '../../algebra/errors.js';
import type { WorkerMessage } from './pool.js';
import { handlerFor } from './pool-handlers.js';

const port = parentPort!;
const fault = typeof workerData?.fault === 'string' ? /^exit-on-task:(\d+)$/.exec(workerData.fault) : null;
let tasks = 0;

// tasks run one after the other (the pool may send the next before this one ends)
let chain: Promise<void> = Promise.resolve();
port.on('message', (m: { id: number; kind: string; module?: string; payload: unknown; deadline: number | null }) => {
  chain = chain.then(() => handle(m));
});

async function handle(m: { id: number; kind: string; module?: string; payload: unknown; deadline: number | null }): Promise<void> {
  const post = (msg: WorkerMessage): void => port.postMessage(msg);
  tasks++;
  if (fault && tasks >= Number(fault[1])) process.exit(3);
  try {
    const h = await handlerFor(m.kind, m.module);
    const result = await h(m.payload as never, { deadline: m.deadline ?? Infinity, progress: (done) => post({ id: m.id, type: 'progress', done }) });
    post({ id: m.id, type: 'done', result });
  } catch (e) {
    post({ id: m.id, type: 'error', kind: e instanceof LayoutError ? e.kind : null, message: e instanceof Error ? e.message : String(e) });
  }
}
