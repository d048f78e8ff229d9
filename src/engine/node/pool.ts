/**
 * A pool of worker threads for the CPU's bulk work (Node only, like device-node.ts: the page
 * never imports it). Work is a list of tasks `{kind, payload}` (plain data, SharedArrayBuffers
 * shared); each worker runs one task at a time with the handler that `pool-worker.ts` names
 * for its kind, and the pool hands out the next task as soon as a worker is free.
 *
 * - Lazy: no thread starts before the first task; an idle worker does not keep the process
 *   alive (unref), a busy one does.
 * - Failures never hang: a task that throws fails the run with its LayoutError; a worker that
 *   dies (exit, uncaught error, out of memory) fails the run with a PoolError saying what
 *   completed; a deadline fails it with `timeout` even while workers are busy. In every case
 *   the busy workers are terminated (the pool starts fresh ones for the next run).
 * - Workers load in every way the code runs: the compiled entry next to this file (dist/), or,
 *   under vitest (TypeScript sources), the same entry through tsx (pool-boot.mjs).
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { LayoutError, type ErrorKind } from '../../algebra/errors.js';
import { handlerFor } from './pool-handlers.js';
import { isIntegerText } from '../../algebra/int-text.js';

/** One unit of work: the kind names the handler (pool-handlers.ts), in `module` (a URL) when the engine does not hold it. */
export interface PoolTask {
  kind: string;
  payload: unknown;
  module?: string;
}

/** The worker's messages to the pool. */
export type WorkerMessage =
  | { id: number; type: 'progress'; done: number }
  | { id: number; type: 'done'; result: unknown }
  | { id: number; type: 'error'; kind: ErrorKind | null; message: string };

/** A worker thread died: the message says which and what completed. */
export class PoolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PoolError';
  }
}

export interface RunTasksOptions<R> {
  /** each result as it arrives (tasks finish in any order) */
  onResult?: (index: number, result: R) => void;
  /** a task's progress message: its own count of work done so far */
  onProgress?: (index: number, done: number) => void;
  /** absolute deadline, Date.now() milliseconds (the same clock in every thread) */
  deadline?: number;
  /** what completed, for error messages: e.g. "completed 3 of 8 parts (1.2M of 4M indices)" */
  completed?: () => string;
  /** the timeout as the user gave it, for the timeout message */
  timeoutMs?: number;
  /** whether this thread takes a share of the tasks (default true): size − 1 workers then */
  inline?: boolean;
  /**
   * With `inline`: start the workers only once this thread has run two tasks or more (or one
   * that took 2·afterMs), for `afterMs` at least, and the tasks left would take it `minLeftMs`
   * more at the pace of its last task (the first ones run before the code is compiled). A job that ends
   * sooner runs on this thread alone, as booting and warming a thread (tens of milliseconds
   * of both cores on a small machine) would cost it more than sharing saves.
   */
  lazyWorkers?: { afterMs: number; minLeftMs: number } | null;
}

/**
 * When the workers of a job start (RunTasksOptions.lazyWorkers): once this thread has run
 * tasks for 50 ms and the tasks left would take it 400 ms more at the pace of its last one.
 * On 2 cores a thread costs ~150 ms of slowed progress to boot and compile its code (a search
 * of 400,000 random candidates, 0.13 s on one thread, took 0.2–0.28 s when a second thread
 * started with it), so shorter jobs stay on this thread; 20 million candidates: 6.2 s on one
 * thread, 3.3–3.7 s on two.
 */
export const LAZY_WORKERS = { afterMs: 50, minLeftMs: 400 };

/** The default number of threads: the cores available to this process. */
export function defaultThreads(): number {
  return Math.max(1, availableParallelism());
}

/**
 * The number of threads a pool runs for a request of `n`: at most the cores available to this
 * process (os.availableParallelism()); more threads only share those cores, each with its own
 * heap (about 5 MB) and start-up. Example: boundThreads(1000) → 2 on a two-core machine.
 */
export function boundThreads(n: number): number {
  return Math.max(1, Math.min(n, defaultThreads()));
}

/**
 * Parses a `--threads` value: a positive integer, lowered to the cores available
 * (boundThreads), and when it is lowered `note` is told so (by default a line on stderr:
 * the CLI and `batch` say it). Errors: `bad-request` naming the option.
 * Example: parseThreads('4') → 4 on a machine with 4 cores or more.
 */
export function parseThreads(text: string | undefined, what = '--threads', note: (line: string) => void = (l) => void process.stderr.write(l)): number {
  if (text === undefined) return defaultThreads();
  if (!isIntegerText(text.trim()) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
    throw new LayoutError('bad-request', `${what} takes a positive integer (1 = single-threaded), got '${text}'`);
  }
  const n = Number(text);
  const bounded = boundThreads(n);
  if (bounded < n) note(`layoutgpu: ${what} ${n} lowered to ${bounded}: the cores available to this process\n`);
  return bounded;
}

interface Slot {
  worker: Worker;
  /** the thread's id (worker.threadId is −1 once it has exited) */
  id: number;
  /** set when the worker is terminated on purpose */
  stopping: boolean;
}

function workerEntry(): { url: URL; workerData: Record<string, unknown> } {
  const here = import.meta.url;
  const compiled = new URL('./pool-worker.js', here);
  if (existsSync(fileURLToPath(compiled))) return { url: compiled, workerData: {} };
  // TypeScript sources (vitest, tsx): a plain-JS boot file registers tsx in the thread
  return { url: new URL('./pool-boot.mjs', here), workerData: { entry: new URL('./pool-worker.ts', here).href } };
}

export class WorkerPool {
  private slots: Slot[] = [];
  private nextId = 1;
  private running = false;

  /** the threads it runs: the size asked for, at most the cores available (boundThreads) */
  readonly size: number;

  /** `size` threads at most, and at most the cores available; none starts before the first task */
  constructor(size: number) {
    if (!Number.isSafeInteger(size) || size < 1) throw new LayoutError('bad-request', `a pool needs at least one thread, got ${size}`);
    this.size = boundThreads(size);
  }

  /** the worker threads running now (0 before the first job that needed one) */
  get threadsStarted(): number {
    return this.slots.length;
  }

  private spawn(): Slot {
    const { url, workerData } = workerEntry();
    const fault = process.env.LAYOUTGPU_POOL_FAULT;
    const worker = new Worker(url, { workerData: { ...workerData, ...(fault ? { fault } : {}) } });
    const slot: Slot = { worker, id: worker.threadId, stopping: false };
    worker.unref();
    this.slots.push(slot);
    return slot;
  }

  private drop(slot: Slot): void {
    if (slot.stopping) return;
    slot.stopping = true;
    this.slots = this.slots.filter((s) => s !== slot);
    void slot.worker.terminate();
  }

  /**
   * Runs every task and resolves with the results in task order. With `inline` (the default),
   * this thread takes tasks too, between which it yields to the event loop, and `size − 1`
   * workers run the rest; each worker holds up to two tasks so that it never waits for this
   * thread. Rejects with the first task's LayoutError, a PoolError when a worker dies, or
   * `timeout` at the deadline; the busy workers are terminated then.
   */
  runTasks<R>(tasks: readonly PoolTask[], o: RunTasksOptions<R> = {}): Promise<R[]> {
    if (this.running) return Promise.reject(new PoolError('the worker pool is already running a job'));
    this.running = true;
    const inline = o.inline ?? true;
    const depth = inline ? 2 : 1;
    const results: R[] = new Array(tasks.length);
    let next = 0;
    let finished = 0;
    let failed = false;
    const completed = (): string => o.completed?.() ?? `completed ${finished} of ${tasks.length} parts`;
    const timeoutError = (): LayoutError =>
      new LayoutError(
        'timeout',
        `ran past its deadline${o.timeoutMs !== undefined ? ` of ${o.timeoutMs} ms` : ''}: ${completed()} on the CPU (${this.size} threads)`,
      );
    return new Promise<R[]>((resolve, reject) => {
      const busy = new Map<Slot, number>();
      const cleanups: (() => void)[] = [];
      let timer: ReturnType<typeof setTimeout> | null = null;
      const finish = (err: unknown): void => {
        if (failed) return;
        failed = true;
        if (timer) clearTimeout(timer);
        for (const c of cleanups) c();
        // busy workers are stopped: their tasks no longer matter
        for (const s of busy.keys()) this.drop(s);
        for (const s of this.slots) s.worker.unref();
        this.running = false;
        if (err === null) resolve(results);
        else reject(err);
      };
      const done = (index: number, result: R): boolean => {
        results[index] = result;
        finished++;
        try {
          o.onResult?.(index, result);
        } catch (e) {
          finish(e);
          return false;
        }
        if (finished === tasks.length) finish(null);
        return true;
      };
      const release = (slot: Slot): void => {
        const n = (busy.get(slot) ?? 1) - 1;
        if (n > 0) busy.set(slot, n);
        else {
          busy.delete(slot);
          slot.worker.unref();
        }
      };
      const assign = (slot: Slot): void => {
        if (failed || next >= tasks.length) return;
        const index = next++;
        const id = this.nextId++;
        const t = tasks[index]!;
        busy.set(slot, (busy.get(slot) ?? 0) + 1);
        slot.worker.ref();
        const onMessage = (m: WorkerMessage): void => {
          if (m.id !== id || failed) return;
          if (m.type === 'progress') {
            o.onProgress?.(index, m.done);
            return;
          }
          off();
          release(slot);
          if (m.type === 'error') {
            if (m.kind === 'timeout') finish(timeoutError());
            else finish(m.kind ? new LayoutError(m.kind, m.message) : new PoolError(`a worker thread failed: ${m.message} (${completed()})`));
            return;
          }
          if (done(index, m.result as R)) assign(slot);
        };
        const died = (why: string): void => {
          off();
          this.slots = this.slots.filter((s) => s !== slot);
          busy.delete(slot);
          finish(new PoolError(`worker thread ${slot.id} died (${why}) during part ${index + 1} of ${tasks.length}: ${completed()}`));
        };
        const onExit = (code: number): void => {
          if (!slot.stopping) died(`exit code ${code}`);
          else off();
        };
        const onError = (e: Error): void => {
          slot.stopping = true;
          void slot.worker.terminate();
          died(e.message);
        };
        const off = (): void => {
          slot.worker.off('message', onMessage);
          slot.worker.off('exit', onExit);
          slot.worker.off('error', onError);
        };
        cleanups.push(off);
        slot.worker.on('message', onMessage);
        slot.worker.on('exit', onExit);
        slot.worker.on('error', onError);
        slot.worker.postMessage({ id, kind: t.kind, module: t.module, payload: t.payload, deadline: o.deadline ?? null });
      };
      let started = false;
      const startWorkers = (): void => {
        started = true;
        const workers = Math.min(this.size - (inline ? 1 : 0), tasks.length - next);
        while (this.slots.length < workers) this.spawn();
        for (const s of this.slots.slice(0, workers)) for (let d = 0; d < depth; d++) assign(s);
      };
      const t0 = performance.now();
      let localDone = 0;
      let lastTask = 0;
      // lazyWorkers: whether the tasks left are long at the pace of this thread's last task,
      // judged after two tasks, or one that was long (only short first tasks run uncompiled code
      // long enough to mislead)
      const joinNow = (lz: { afterMs: number; minLeftMs: number }): boolean => {
        if (localDone === 0 || (localDone === 1 && lastTask < 2 * lz.afterMs)) return false;
        return performance.now() - t0 >= lz.afterMs && lastTask * (tasks.length - next) >= lz.minLeftMs;
      };
      // this thread's share: one task at a time, yielding to the event loop in between
      const local = async (): Promise<void> => {
        while (!failed && next < tasks.length) {
          await new Promise<void>((r) => setImmediate(r));
          if (failed || next >= tasks.length) return;
          if (!started && o.lazyWorkers && joinNow(o.lazyWorkers)) {
            startWorkers();
            if (next >= tasks.length) return; // the workers took the rest
          }
          const index = next++;
          const tTask = performance.now();
          const t = tasks[index]!;
          try {
            const h = await handlerFor(t.kind, t.module);
            const r = (await h(t.payload as never, { deadline: o.deadline ?? Infinity, progress: (d) => o.onProgress?.(index, d) })) as R;
            if (failed) return;
            localDone++;
            lastTask = performance.now() - tTask;
            if (!done(index, r)) return;
          } catch (e) {
            if (e instanceof LayoutError && e.kind === 'timeout') finish(timeoutError());
            else finish(e instanceof LayoutError ? e : new PoolError(`a task failed: ${e instanceof Error ? e.message : String(e)} (${completed()})`));
            return;
          }
        }
      };
      if (o.deadline !== undefined && Number.isFinite(o.deadline)) {
        timer = setTimeout(() => finish(timeoutError()), Math.max(0, o.deadline - Date.now()));
      }
      if (tasks.length === 0) {
        finish(null);
        return;
      }
      // the fault hook (tests of a dying worker) needs its workers whatever the job's length
      if (!(inline && o.lazyWorkers) || process.env.LAYOUTGPU_POOL_FAULT) startWorkers();
      if (inline) void local();
    });
  }

  /** stops every thread */
  close(): void {
    for (const s of [...this.slots]) this.drop(s);
  }
}

let shared: WorkerPool | null = null;

/** The process's pool of `size` threads (created on first use; replaced when the size changes). */
export function sharedPool(size: number): WorkerPool {
  if (shared && shared.size !== boundThreads(size)) {
    shared.close();
    shared = null;
  }
  return (shared ??= new WorkerPool(size));
}

/** Splits [lo, hi) into about `parts` ranges of at least `min` (the last ones may be shorter). */
export function splitRange(lo: number, hi: number, parts: number, min: number): [number, number][] {
  const n = hi - lo;
  if (n <= 0) return [];
  const step = Math.max(min, Math.ceil(n / Math.max(1, parts)));
  const out: [number, number][] = [];
  for (let a = lo; a < hi; a += step) out.push([a, Math.min(hi, a + step)]);
  return out;
}
