/**
 * Rooms an op needs only when it runs, loaded on its first use: the atoms (their data is 400 entries over a dozen
 * files) and the linear layouts. Every `batch` and CLI call reads the ops table, so what the table imports at once is
 * start-up time for all of them; these rooms are imported by the first op that runs in them instead.
 *
 * An op whose implementation is such a room carries `load` (OpSpec.load): `runOpDirect` and `batch` await it before
 * they run the op, so `run` itself stays synchronous and reaches the room through `get()`.
 */
import type { OpSpec } from './spec.js';

/** A module imported on first use. */
export interface LazyModule<M> {
  /** the module; only once `load` has settled (runOpDirect sees to it): before, an internal error */
  get(): M;
  /** a Promise while the module is not loaded yet, undefined once it is */
  load(): Promise<void> | undefined;
}

/**
 * The module `importer` imports, loaded on first use.
 * @example const atoms = lazyModule(() => import('../atoms/atom.js')); await atoms.load(); atoms.get().mmaAtom(name)
 */
export function lazyModule<M>(importer: () => Promise<M>): LazyModule<M> {
  let mod: M | undefined;
  let pending: Promise<void> | undefined;
  return {
    get(): M {
      if (mod === undefined) throw new Error('an op ran before its module was loaded (OpSpec.load)');
      return mod;
    },
    load(): Promise<void> | undefined {
      if (mod !== undefined) return undefined;
      pending ??= importer().then((m) => {
        mod = m;
      });
      return pending;
    },
  };
}

/** The specs, each with `load` set to the module's (they run in it). */
export function runningIn(m: LazyModule<unknown>, specs: readonly OpSpec[]): OpSpec[] {
  return specs.map((s) => ({ ...s, load: m.load }));
}
