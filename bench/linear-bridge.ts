/**
 * Throughput of the bridge between CuTe and Triton (issue 21, "Speed": to_ll, from_ll and
 * ll_from_encoding ≥ 100k/s each): for each op of bench/corpus/linear-bridge.jsonl
 * (bench/gen-linear-bridge-corpus.ts), single thread, in-process, the best of several rounds.
 * to_ll takes its CuTe layout parsed once and answers the canonical JSON object; from_ll takes
 * its LL parsed once and answers the printed CuTe layout; ll_from_encoding takes the attribute
 * text (its parsing is part of the op) and answers the canonical object. Errors (not-linear,
 * not-representable, refused encodings) are timed like answers.
 *
 * Run: npx tsx bench/linear-bridge.ts [corpus.jsonl] [rounds] [requests per op]
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatLayoutFunction, parseLayoutFunction, type LayoutFunction } from '../src/cute/composed.js';
import { fromLL, toLL, type BridgeKind } from '../src/linear/bridge.js';
import { llFromEncoding } from '../src/linear/encodings.js';
import { parseLL, toCanonicalJson } from '../src/linear/forms.js';
import type { LinearLayout } from '../src/linear/value.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const corpusPath = process.argv[2] ?? join(root, 'bench', 'corpus', 'linear-bridge.jsonl');
const ROUNDS = Number(process.argv[3] ?? 20);
const LIMIT = Number(process.argv[4] ?? Infinity);
const requests = readFileSync(corpusPath, 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { op: string; args: unknown[] });

type Run = (args: readonly unknown[]) => unknown;
/** Parses what the op takes parsed (layouts once, as the table's argument parsing does); null when it does not parse. */
const prepare: Record<string, (args: readonly unknown[]) => unknown[] | null> = {
  to_ll: ([c, ...rest]) => {
    try {
      return [parseLayoutFunction(c as string), ...rest];
    } catch {
      return null;
    }
  },
  from_ll: ([l]) => [parseLL(l)],
  ll_from_encoding: (args) => [...args],
};
const runs: Record<string, Run> = {
  to_ll: ([c, kind, tile]) =>
    toCanonicalJson(toLL(c as LayoutFunction, (kind as BridgeKind | undefined) ?? 'function', tile === undefined ? {} : { tile: tile as number[] })),
  from_ll: ([l]) => formatLayoutFunction(fromLL(l as LinearLayout)),
  ll_from_encoding: ([a, s]) => toCanonicalJson(llFromEncoding(a as string, s as number[])),
};
const target = 100e3;

const byOp = new Map<string, unknown[][]>();
for (const r of requests) {
  const prep = prepare[r.op];
  if (!prep || (byOp.get(r.op)?.length ?? 0) >= LIMIT) continue;
  const args = prep(r.args);
  if (args !== null) byOp.set(r.op, [...(byOp.get(r.op) ?? []), args]);
}

const timeOnce = (run: Run, all: readonly unknown[][]): { ms: number; errors: number } => {
  let errors = 0;
  const t0 = performance.now();
  for (const args of all) {
    try {
      run(args);
    } catch {
      errors++; // an error answer is an answer: timed like one
    }
  }
  return { ms: performance.now() - t0, errors };
};

console.log(`the CuTe <-> Triton bridge, ${requests.length} requests of ${corpusPath}, single thread, best of ${ROUNDS} rounds`);
for (const [op, all] of byOp) {
  const run = runs[op]!;
  let best = Infinity;
  let errors = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const t = timeOnce(run, all);
    best = Math.min(best, t.ms);
    errors = t.errors;
  }
  const rate = (all.length / best) * 1000;
  const verdict = rate >= target ? `(target ${target / 1000}k/s: met)` : `(target ${target / 1000}k/s: MISSED)`;
  const shown = Math.round(rate).toLocaleString('en-US').padStart(12);
  console.log(`${op.padEnd(18)} ${shown} /s  ${verdict}  ${all.length} requests, ${errors} answered with an error`);
}
