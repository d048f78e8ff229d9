/**
 * The one error-kind reader of the tests: what a call answers as the protocol sees it. A LayoutError gives its kind,
 * an answer gives 'ok', and anything else is thrown on (an unexpected crash fails the test with its own message).
 */
import { LayoutError } from '../../src/algebra/errors.js';

/** The kind of the LayoutError f throws, or 'ok' when it answers. */
export function kindOf(f: () => unknown): string {
  try {
    f();
    return 'ok';
  } catch (e) {
    if (e instanceof LayoutError) return e.kind;
    throw e;
  }
}

/** The kind of the LayoutError a Promise (or a value) rejects with, or 'ok' when it resolves. */
export async function kindOfAsync(p: unknown): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    if (e instanceof LayoutError) return e.kind;
    throw e;
  }
}
