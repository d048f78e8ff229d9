/**
 * `verify` on every core (Node only): the source's candidate order is cut into consecutive
 * parts (Source.slice), each part runs in a pool worker (parallel-task.ts) on the CPU engine,
 * and the parts are committed in candidate order, so counts, matches (onMatch, `--out`),
 * examples and counterexamples are those of runVerify whatever the number of threads.
 * Falls back to runVerify (one thread) for a GPU engine, a custom law implementation, a source
 * or property that cannot cross to a worker, or fewer candidates than a few parts' worth.
 */
import { formatLayout } from '../algebra/notation.js';
import { LAZY_WORKERS, sharedPool, splitRange, type PoolTask, type WorkerPool } from '../engine/node/pool.js';
import type { VerifyPart, VerifyPartInput } from './parallel-task.js';
import { candidateArity, propertyText, runVerify, type Example, type Property, type VerifyRunOptions, type VerifySummary } from './run.js';

/** the module of the verify parts' task handlers, loaded by the pool's threads (the engine does not import verify/) */
export const VERIFY_TASKS = new URL('./parallel-task.js', import.meta.url).href;

/** The property as the JSON that propertyFromJson reads back, or null for a kind it does not know. */
export function propertyJson(p: Property): unknown {
  switch (p.kind) {
    case 'compact':
    case 'injective':
      return p.kind;
    case 'complement-of':
      return ['complement-of', formatLayout(p.a)];
    case 'compose-equals':
      return ['compose-equals', formatLayout(p.c), formatLayout(p.outer)];
    case 'law':
      return p.with ? [`law:${p.law}`, formatLayout(p.with)] : `law:${p.law}`;
    default:
      return null;
  }
}

export interface ThreadedVerifyOptions extends VerifyRunOptions {
  /** worker threads (1: runVerify on this thread) */
  threads: number;
  /** the pool (default: the process's shared pool of `threads` threads) */
  pool?: WorkerPool;
  /** fewer candidates than this run on one thread (default 20,000) */
  minParallel?: number;
  /** candidates per part at least (default 1,024 for laws, 16,384 for searches) */
  minPart?: number;
  /** when the workers start (default LAZY_WORKERS; null: at once; see RunTasksOptions.lazyWorkers) */
  lazyWorkers?: { afterMs: number; minLeftMs: number } | null;
}

/**
 * runVerify over `threads` worker threads, with the same summary (but `seconds`). Parts of at
 * least 1,024 (laws) or 16,384 (searches) candidates, about 8 per thread, at most 2^18.
 * Example: runVerifyThreaded({ property: {kind: 'compact'}, source, engine, threads: 4 }).
 */
export async function runVerifyThreaded(o: ThreadedVerifyOptions): Promise<VerifySummary> {
  const total = o.source.total;
  const pj = propertyJson(o.property);
  if (o.threads <= 1 || o.engine.backend !== 'cpu' || o.impl || pj === null || total === undefined || !o.source.slice || total < (o.minParallel ?? 20_000)) {
    return runVerify(o);
  }
  const probe = o.source.slice(0, 0);
  if (!probe.spec) return runVerify(o);
  const now = o.now ?? (() => performance.now());
  const t0 = now();
  const isLaw = o.property.kind === 'law';
  const maxExamples = o.maxExamples ?? 10;
  const min = o.minPart ?? (isLaw ? 1024 : 16_384);
  const ranges = splitRange(0, total, o.threads * 8, min).flatMap(([a, b]) => splitRange(a, b, Math.ceil((b - a) / 2 ** 18), 1));
  const src = o.source;
  const tasks: PoolTask[] = ranges.map(([a, b]) => {
    const payload: VerifyPartInput = { property: pj, spec: src.slice!(a, b).spec!, maxExamples, all: !isLaw && o.onMatch !== undefined };
    return { kind: 'verify', module: VERIFY_TASKS, payload };
  });
  // a candidate of the wrong arity: runVerify's own error, on this thread
  if (src.arity !== candidateArity(o.property)) return runVerify(o);

  let candidates = 0;
  let passed = 0;
  let skipped = 0;
  let fallbacks = 0;
  const examples: Example[] = [];
  const waiting = new Map<number, VerifyPart>();
  let next = 0;
  const commit = (r: VerifyPart): void => {
    candidates += r.candidates;
    passed += r.passed;
    skipped += r.skipped;
    fallbacks += r.fallbacks;
    if (r.matches) {
      for (const t of r.matches) {
        o.onMatch?.(t);
        if (examples.length < maxExamples) examples.push({ candidate: [t] });
      }
    } else for (const e of r.examples) if (examples.length < maxExamples) examples.push(e);
    o.onProgress?.(candidates, total);
  };
  const pool = o.pool ?? sharedPool(o.threads);
  await pool.runTasks<VerifyPart>(tasks, {
    onResult: (i, r) => {
      waiting.set(i, r);
      while (waiting.has(next)) {
        const x = waiting.get(next)!;
        waiting.delete(next++);
        commit(x);
      }
    },
    completed: () => `completed ${candidates} of ${total} candidates`,
    // threads join only a run that would still take this one a while (see LAZY_WORKERS)
    lazyWorkers: o.lazyWorkers === undefined ? LAZY_WORKERS : o.lazyWorkers,
  });
  return {
    property: propertyText(o.property),
    source: o.source.describe,
    candidates,
    passed,
    failed: candidates - passed,
    skipped,
    backend: o.engine.backend,
    adapter: o.engine.adapter,
    seconds: (now() - t0) / 1000,
    examples,
    fallbacks: fallbacks + o.engine.fallbacks,
  };
}
