/** The OpContext of the CLI and batch: the backend is created on first use and shared. */
import { carryDeadline, withDeadline } from '../algebra/deadline.js';
import { LayoutError } from '../algebra/errors.js';
import type { Backend, BackendChoice, RunOptions } from '../engine/backend.js';
import type { OpContext } from '../ops/spec.js';
import { createNodeBackend } from './node-backend.js';

export interface CliContext extends OpContext {
  dispose(): Promise<void>;
}

/** `threads`: worker threads of the CPU backend's bulk checks (1: this thread) */
export function makeContext(backendChoice: BackendChoice, threads = 1): CliContext {
  let made: Promise<Backend> | null = null;
  return {
    backendChoice,
    threads,
    planThreaded: (req, n) => {
      const due = carryDeadline('the planner'); // the request's deadline, across the module's load
      return import('../planner/parallel.js').then((m) => due.within(() => m.planSmemThreaded(req, { threads: n })));
    },
    backend: () => (made ??= createNodeBackend(backendChoice, threads)),
    async dispose() {
      if (made) {
        const b = await made.catch(() => null);
        b?.dispose();
      }
    },
  };
}

/** The position of the RunOptions argument of each Backend method that runs Φ in bulk. */
const RUN_OPTIONS_AT: Readonly<Record<string, number>> = {
  evalRange: 3,
  evalChunks: 4,
  digestRange: 3,
  checkCompact: 1,
  checkCompose: 3,
  tileMap: 2,
};

/**
 * The backend `b` bounded by the absolute deadline `at` (performance.now() time): each bulk
 * run gets `RunOptions.timeoutMs` = the time left (the engine stops between blocks or
 * dispatches and answers `timeout` with what completed) and runs its synchronous part under
 * `withDeadline`. A run that would start past the deadline is refused with `timeout`.
 * Everything else (info, device, dispose) is `b`'s own.
 * Example: bindDeadline(cpuBackend, performance.now() + 1000).checkCompact(L).
 */
export function bindDeadline(b: Backend, at: number): Backend {
  return new Proxy(b, {
    get(target, key) {
      const v: unknown = Reflect.get(target, key, target);
      if (typeof v !== 'function') return v;
      const at_ = typeof key === 'string' ? RUN_OPTIONS_AT[key] : undefined;
      if (at_ === undefined) return (v as (...a: unknown[]) => unknown).bind(target);
      return (...args: unknown[]): Promise<unknown> => {
        const left = at - performance.now();
        if (left <= 0) return Promise.reject(new LayoutError('timeout', 'the request ran past its deadline before its bulk check started'));
        const given = args[at_] as RunOptions | undefined;
        const a = [...args];
        while (a.length < at_) a.push(undefined);
        a[at_] = { ...given, timeoutMs: Math.min(given?.timeoutMs ?? Infinity, Math.max(1, Math.round(left))) };
        return withDeadline(left, () => (v as (...x: unknown[]) => Promise<unknown>).apply(target, a));
      };
    },
  });
}

/** The context `ctx` for one request with the absolute deadline `at`: its backend is bounded
 *  by `bindDeadline`. */
export function withRequestDeadline(ctx: OpContext, at: number): OpContext {
  return { ...ctx, backendChoice: ctx.backendChoice, backend: () => ctx.backend().then((b) => bindDeadline(b, at)) };
}
