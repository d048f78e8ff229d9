/**
 * The task handlers of the worker pool, by kind, loaded on first use: the engine's bulk checks
 * (threaded-tasks.ts), or those of the module a task names (a room above the engine, e.g.
 * verify/parallel-task.ts, names its own: the engine never imports it). Both the worker threads
 * (pool-worker.ts) and the pool's own thread (pool.ts, when it takes a share of the tasks)
 * run tasks through it.
 */
/** A task handler: plain-data payload in, plain-data result out; `progress(done)` reports. */
export type TaskHandler = (payload: never, ctx: { deadline: number; progress(done: number): void }) => unknown;

/** the handler of a task kind, from `module` (a URL of a module exporting `handlers`) or the engine's own; an unknown kind is an Error */
export async function handlerFor(kind: string, module?: string): Promise<TaskHandler> {
  const mod = (module === undefined ? await import('./threaded-tasks.js') : await import(/* @vite-ignore */ module)) as {
    handlers: Record<string, TaskHandler>;
  };
  const table = mod.handlers;
  const h = table[kind];
  if (!h) throw new Error(`unknown task kind '${kind}'`);
  return h;
}
