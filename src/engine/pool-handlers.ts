/**
 * The task handlers of the worker pool, by kind, loaded on first use: bulk checks
 * (threaded-tasks.ts) and verify parts (verify/parallel-task.ts). Both the worker threads
 * (pool-worker.ts) and the pool's own thread (pool.ts, when it takes a share of the tasks)
 * run tasks through it.
 */
/** A task handler: plain-data payload in, plain-data result out; `progress(done)` reports. */
export type TaskHandler = (payload: never, ctx: { deadline: number; progress(done: number): void }) => unknown;

/** the handler of a task kind; an unknown kind is an Error */
export async function handlerFor(kind: string): Promise<TaskHandler> {
  const table = (kind.startsWith('verify') ? (await import('../verify/parallel-task.js')).handlers : (await import('./threaded-tasks.js')).handlers) as Record<string, TaskHandler>;
  const h = table[kind];
  if (!h) throw new Error(`unknown task kind '${kind}'`);
  return h;
}
