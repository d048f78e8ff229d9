/**
 * Deadlines in tests (docs/protocol.md: error kind `timeout`): how long work ran and how it ended, and the check
 * that work under a deadline stops with `timeout` soon after it instead of answering later.
 */
import { expect } from 'vitest';
import { withDeadline } from '../../src/algebra/deadline.js';
import { LayoutError } from '../../src/algebra/errors.js';

/** The kind of error f throws (or resolves to), null when it answers, and the milliseconds it took. */
async function timed(f: () => unknown): Promise<{ kind: string | null; ms: number }> {
  const t0 = performance.now();
  let kind: string | null = null;
  try {
    await f();
  } catch (e) {
    if (!(e instanceof LayoutError)) throw e;
    kind = e.kind;
  }
  return { kind, ms: performance.now() - t0 };
}

/** f, run under a deadline of `deadline` ms, stops with `timeout` in under `bound` ms. */
export async function expectTimeout(deadline: number, bound: number, f: () => unknown): Promise<void> {
  const r = await timed(() => withDeadline(deadline, f));
  expect(r.kind).toBe('timeout');
  expect(r.ms).toBeLessThan(bound);
}
