/**
 * Linear-layout throughput (issue 21, "Speed"): for each op of bench/corpus/linear.jsonl
 * (bench/gen-linear-corpus.ts), its requests' layouts are parsed once, then the operation alone is
 * timed with its result in canonical form (docs/linear.md, "Forms"), single thread, in-process:
 * the best of several rounds. Targets: ll_compose, ll_product, ll_invert, ll_invert_and_compose
 * ≥ 200k/s. Errors (Triton's aborts, answered as `domain`) are timed like answers.
 * bench/triton-compare.py times Triton's own C++ on the same corpus.
 *
 * Run: npx tsx bench/linear.ts [corpus.jsonl] [rounds]
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseLL, toCanonicalJson } from '../src/linear/forms.js';
import { apply, compose, invert, invertAndCompose, isInjective, isSurjective, product, pseudoinvert } from '../src/linear/operations.js';
import type { LinearLayout } from '../src/linear/value.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const corpusPath = process.argv[2] ?? join(root, 'bench', 'corpus', 'linear.jsonl');
const ROUNDS = Number(process.argv[3] ?? 30); // steady state: the first rounds of each op run before V8 has optimised it
const requests = readFileSync(corpusPath, 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { op: string; args: unknown[] });

type Run = (args: readonly unknown[]) => unknown;
const L = (x: unknown): LinearLayout => x as LinearLayout;
const runs: Record<string, Run> = {
  ll_compose: ([a, b]) => toCanonicalJson(compose(L(a), L(b))),
  ll_product: ([a, b]) => toCanonicalJson(product(L(a), L(b))),
  ll_invert: ([a]) => toCanonicalJson(invert(L(a))),
  ll_invert_and_compose: ([a, b]) => toCanonicalJson(invertAndCompose(L(a), L(b))),
  ll_pseudoinvert: ([a]) => toCanonicalJson(pseudoinvert(L(a))),
  ll_is_surjective: ([a]) => isSurjective(L(a)),
  ll_is_injective: ([a]) => isInjective(L(a)),
  ll_apply: ([a, x]) => apply(L(a), x as Record<string, number>),
};
const targets: Record<string, number> = { ll_compose: 200e3, ll_product: 200e3, ll_invert: 200e3, ll_invert_and_compose: 200e3 };

const byOp = new Map<string, unknown[][]>();
for (const r of requests) {
  if (!runs[r.op]) continue;
  const args = r.args.map((a) => (typeof a === 'object' && a !== null && 'bases' in a ? parseLL(a) : a));
  byOp.set(r.op, [...(byOp.get(r.op) ?? []), args]);
}

const timeOnce = (run: Run, all: readonly unknown[][]): number => {
  const t0 = performance.now();
  for (const args of all) {
    try {
      run(args);
    } catch {
      // an error answer is an answer: timed like one
    }
  }
  return performance.now() - t0;
};

console.log(`linear-layout ops, ${requests.length} requests of ${corpusPath}, single thread, best of ${ROUNDS} rounds`);
for (const [op, all] of byOp) {
  const run = runs[op]!;
  let best = Infinity;
  for (let i = 0; i < ROUNDS; i++) best = Math.min(best, timeOnce(run, all));
  const rate = (all.length / best) * 1000;
  const target = targets[op];
  const verdict = target === undefined ? '' : rate >= target ? `  (target ${target / 1000}k/s: met)` : `  (target ${target / 1000}k/s: MISSED)`;
  console.log(`${op.padEnd(24)} ${Math.round(rate).toLocaleString('en-US').padStart(12)} /s${verdict}`);
}
