/**
 * Cooperative deadlines (docs/protocol.md: error kind `timeout`). The algebra is synchronous,
 * so a request is bounded by its own long loops: they call `checkDeadline()` every few thousand
 * steps, which throws `LayoutError('timeout')` once the deadline set by `withDeadline` has
 * passed. Outside `withDeadline` there is no deadline and the check costs one comparison.
 */
import { LayoutError } from './errors.js';

let deadlineAt = Number.POSITIVE_INFINITY;
let deadlineMs = 0;

/** Run `f` with a deadline `ms` milliseconds from now (none when ms is undefined or ≤ 0 is
 *  not allowed: callers validate). Nested calls keep the earlier deadline. */
export function withDeadline<T>(ms: number | undefined, f: () => T): T {
  if (ms === undefined || !Number.isFinite(ms)) return f();
  return under(performance.now() + ms, ms, f);
}

/** `f` under the deadline `at` (of `ms` as the user gave it) unless an earlier one is in force */
function under<T>(at: number, ms: number, f: () => T): T {
  const saved = deadlineAt;
  const savedMs = deadlineMs;
  if (at < deadlineAt) {
    deadlineAt = at;
    deadlineMs = ms;
  }
  try {
    return f();
  } finally {
    deadlineAt = saved;
    deadlineMs = savedMs;
  }
}

/** The absolute deadline (performance.now() time) in force, or Infinity. For async code that
 *  must carry the deadline across awaits (the GPU between dispatches). */
export function currentDeadline(): number {
  return deadlineAt;
}

/** Throws `timeout` when the deadline in force has passed. `what` names the work. */
export function checkDeadline(what = 'the request'): void {
  if (deadlineAt !== Number.POSITIVE_INFINITY && performance.now() > deadlineAt) {
    throw new LayoutError('timeout', `${what} ran past its deadline of ${formatMs(deadlineMs)}`);
  }
}

/** A deadline carried across awaits: call it to check, `within` to run synchronous code
 *  (whose loops call checkDeadline) under it again. */
export interface CarriedDeadline {
  (): void;
  within<T>(f: () => T): T;
}

/**
 * The deadline in force, carried into async code: returns a check that throws `timeout` (as
 * checkDeadline, naming `what`) once that deadline has passed, whatever deadline is in force
 * when it is called (after an await, withDeadline's scope has ended). Example: at the start of
 * an async bulk run `const due = carryDeadline('verify on the GPU')`, then `due()` between
 * its dispatches and `due.within(() => cpuFallback())` around synchronous work.
 */
export function carryDeadline(what = 'the request'): CarriedDeadline {
  const at = deadlineAt;
  const ms = deadlineMs;
  const due = (): void => {
    if (at !== Number.POSITIVE_INFINITY && performance.now() > at) {
      throw new LayoutError('timeout', `${what} ran past its deadline of ${formatMs(ms)}`);
    }
  };
  due.within = <T>(f: () => T): T => under(at, ms, f);
  return due;
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${+(ms / 1000).toFixed(3)} s` : `${+ms.toFixed(1)} ms`;
}
