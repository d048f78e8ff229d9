/**
 * Shard reports and their merge. A sharded `verify --json` report is the run's summary plus
 * what a merge needs: which shard (k of n, the candidates [first, end) it covered), which search
 * (a key over the property, the source and its options, the number of candidates and of
 * examples), its first matches (for the human report) and its `--out` file. `mergeReports`
 * checks that the reports belong to one search and cover it exactly once, and builds the
 * summary the unsharded run gives: counts are sums, examples and matches are the shards' in
 * shard order (so the first K of the whole run), seconds the sum of the shards' seconds.
 */
import { badRequestError } from '../algebra/errors.js';
import { propertyText, type Example, type Property, type VerifySummary } from './run.js';
import { hashText, shardRange, type Shard } from './shard-range.js';
import type { Source } from './sources.js';

/** A sharded verify --json report. */
export interface ShardReport extends VerifySummary {
  shard: { k: number; n: number; first: number; end: number };
  search: { key: string; candidates: number; examples: number; law: boolean };
  /** searches: the shard's first matches (at most 21), in order */
  matches: string[];
  /** the shard's --out file, as given, or null */
  out: string | null;
}

/**
 * The identity of a search: its property and the whole source (options, or the candidates of
 * a list), hashed. Two runs with the same key enumerate the same candidates in the same order.
 */
export function searchKey(p: Property, whole: Source): string {
  const spec = whole.spec;
  const what = spec === undefined ? null : spec.kind === 'list' ? spec.items : { kind: spec.kind, options: spec.options };
  return hashText(JSON.stringify({ property: propertyText(p), source: whole.describe, total: whole.total ?? null, arity: whole.arity, what }));
}

/** The sharded report of a run (see ShardReport). */
export function shardReport(
  summary: VerifySummary,
  o: { shard: Shard; range: [number, number]; total: number; key: string; examples: number; isLaw: boolean; matches: string[]; out: string | null },
): ShardReport {
  return {
    ...summary,
    shard: { k: o.shard.k, n: o.shard.n, first: o.range[0], end: o.range[1] },
    search: { key: o.key, candidates: o.total, examples: o.examples, law: o.isLaw },
    matches: o.matches.slice(0, 21),
    out: o.out,
  };
}

/** The merged run: the unsharded summary, the first matches of a search, the shards in order. */
export interface Merged {
  summary: VerifySummary;
  isLaw: boolean;
  /** searches: the first matches (at most 21) */
  shown: string[];
  /** the reports in shard order, with the names they were given under */
  shards: { name: string; report: ShardReport }[];
}

function asShardReport(name: string, v: unknown): ShardReport {
  const r = v as Partial<ShardReport> | null;
  const ok =
    r !== null &&
    typeof r === 'object' &&
    typeof r.shard === 'object' &&
    r.shard !== null &&
    typeof r.search === 'object' &&
    r.search !== null &&
    [r.shard.k, r.shard.n, r.shard.first, r.shard.end, r.search.candidates, r.search.examples, r.candidates, r.passed, r.skipped, r.seconds].every(
      (x) => typeof x === 'number',
    ) &&
    typeof r.search.key === 'string' &&
    Array.isArray(r.examples) &&
    Array.isArray(r.matches);
  if (!ok) throw badRequestError(`${name} is not a shard report (the output of layoutgpu verify … --shard k/n --json)`);
  const s = r as ShardReport;
  checkCounts(name, s);
  return s;
}

/**
 * The counts of a shard report add up: every count a non-negative integer, passed + failed =
 * candidates, skipped ≤ passed, a search lists min(passed, 21) first matches and a law at most
 * `failed` counterexamples. A report that breaks one was not written by verify (or was edited):
 * refused, naming the shard. Errors: `bad-request`.
 */
function checkCounts(name: string, r: ShardReport): void {
  const where = `${name} (shard ${r.shard.k}/${r.shard.n})`;
  const counts: [string, unknown][] = [
    ['candidates', r.candidates],
    ['passed', r.passed],
    ['failed', r.failed],
    ['skipped', r.skipped],
    ['fallbacks', r.fallbacks ?? 0],
    ['search.candidates', r.search.candidates],
    ['search.examples', r.search.examples],
    ['shard.first', r.shard.first],
    ['shard.end', r.shard.end],
  ];
  for (const [what, v] of counts) {
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
      throw badRequestError(`${where}: "${what}" must be a non-negative integer, got ${JSON.stringify(v)}`);
  }
  if (typeof r.seconds !== 'number' || !Number.isFinite(r.seconds) || r.seconds < 0)
    throw badRequestError(`${where}: "seconds" must be a non-negative number, got ${JSON.stringify(r.seconds)}`);
  if (r.passed + r.failed !== r.candidates)
    throw badRequestError(`${where}: the counts do not add up: passed ${r.passed} + failed ${r.failed} ≠ candidates ${r.candidates}`);
  if (r.skipped > r.passed) throw badRequestError(`${where}: the counts do not add up: skipped ${r.skipped} > passed ${r.passed}`);
  if (r.search.law) {
    if (r.matches.length !== 0) throw badRequestError(`${where}: a law's report lists no matches, this one lists ${r.matches.length}`);
    if (r.examples.length > r.failed)
      throw badRequestError(`${where}: the counts do not add up: ${r.examples.length} counterexamples listed, ${r.failed} failed`);
  } else {
    if (r.matches.length !== Math.min(r.passed, 21))
      throw badRequestError(`${where}: the counts do not add up: ${r.matches.length} first matches listed, passed ${r.passed}`);
    if (r.examples.length > r.passed) throw badRequestError(`${where}: the counts do not add up: ${r.examples.length} examples listed, passed ${r.passed}`);
  }
  if (r.matches.some((m) => typeof m !== 'string')) throw badRequestError(`${where}: "matches" must be a list of strings`);
  if (r.out !== null && typeof r.out !== 'string') throw badRequestError(`${where}: "out" must be a file name or null, got ${JSON.stringify(r.out)}`);
}

/**
 * The plain file name of a shard's match file: the last component of the `out` its report
 * names (a shard wrote it beside its report, or the report was moved with it). The file is
 * read beside the report, never where the name points: a report names no other file.
 * Null when the report names no --out file, or a name that is no file (`.`, `..`, empty).
 * Example: matchFileName('results/m1.txt') → 'm1.txt'; matchFileName('/tmp/x/../m.txt') → 'm.txt'.
 */
export function matchFileName(out: string | null): string | null {
  if (out === null) return null;
  const base = out.split(/[\\/]/).pop() ?? '';
  return base === '' || base === '.' || base === '..' || base.includes('\0') ? null : base;
}

/**
 * Merges shard reports (each with the name it came from, for messages). Errors (`bad-request`):
 * no report, a report that is not a shard report, reports of different searches or shard
 * counts, a shard given twice, a missing shard, a shard that covers other candidates than
 * k/n of the search. Example: mergeReports([{name: 'a.json', report: a}, {name: 'b.json', report: b}]).
 */
export function mergeReports(inputs: { name: string; report: unknown }[]): Merged {
  if (inputs.length === 0) throw badRequestError('merge needs at least one shard report');
  const list = inputs.map((x) => ({ name: x.name, report: asShardReport(x.name, x.report) }));
  const first = list[0]!;
  const s0 = first.report;
  const n = s0.shard.n;
  const byK = new Map<number, { name: string; report: ShardReport }>();
  for (const x of list) {
    const r = x.report;
    if (
      r.search.key !== s0.search.key ||
      r.property !== s0.property ||
      r.source !== s0.source ||
      r.search.candidates !== s0.search.candidates ||
      r.search.examples !== s0.search.examples
    ) {
      throw badRequestError(
        `${x.name} belongs to a different search than ${first.name} (${r.property} over ${r.source} vs ${s0.property} over ${s0.source}, or other options)`,
      );
    }
    if (r.shard.n !== n)
      throw badRequestError(`${x.name} is shard ${r.shard.k}/${r.shard.n}, ${first.name} is shard ${s0.shard.k}/${n}: one search, one number of shards`);
    const seen = byK.get(r.shard.k);
    if (seen) throw badRequestError(`shard ${r.shard.k}/${n} is given twice: ${seen.name} and ${x.name}`);
    const [lo, hi] = shardRange(s0.search.candidates, { k: r.shard.k, n });
    if (r.shard.first !== lo || r.shard.end !== hi || r.candidates !== hi - lo) {
      throw badRequestError(
        `${x.name}: shard ${r.shard.k}/${n} should cover the candidates [${lo}, ${hi}), it covers [${r.shard.first}, ${r.shard.end}) with ${r.candidates} candidates`,
      );
    }
    byK.set(r.shard.k, x);
  }
  const missing: string[] = [];
  for (let k = 1; k <= n; k++) {
    if (!byK.has(k)) {
      const [lo, hi] = shardRange(s0.search.candidates, { k, n });
      missing.push(`${k}/${n} (candidates [${lo}, ${hi}))`);
    }
  }
  if (missing.length) throw badRequestError(`missing shard${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
  const shards = Array.from({ length: n }, (_, i) => byK.get(i + 1)!);
  const isLaw = s0.search.law;
  const K = s0.search.examples;
  const examples: Example[] = [];
  const shown: string[] = [];
  let candidates = 0;
  let passed = 0;
  let skipped = 0;
  let fallbacks = 0;
  let seconds = 0;
  const backends = new Set<string>();
  const adapters = new Set<string>();
  for (const { report: r } of shards) {
    candidates += r.candidates;
    passed += r.passed;
    skipped += r.skipped;
    fallbacks += r.fallbacks ?? 0;
    seconds += r.seconds;
    backends.add(r.backend);
    adapters.add(r.adapter);
    for (const e of r.examples) if (examples.length < K) examples.push(e);
    for (const m of r.matches) if (shown.length < 21) shown.push(m);
  }
  const summary: VerifySummary = {
    property: s0.property,
    source: s0.source,
    candidates,
    passed,
    failed: candidates - passed,
    skipped,
    backend: [...backends].join('+'),
    adapter: [...adapters].join('; '),
    seconds,
    examples,
    fallbacks,
  };
  return { summary, isLaw, shown, shards };
}

// ---------------------------------------------------------------------------------------------
// verify conflict-free: its sharded --json reports (src/cli/conflict-search.ts) and their merge

/** One row of a conflict-free report's ranking. */
export interface ConflictRow {
  layout: string;
  vector: number[] | null;
  instructions: number | null;
  wavefronts: number | null;
  phases: number | null;
  conflictFree: boolean;
  kept: boolean;
  error?: string;
}

/** A sharded `verify conflict-free --json` report. */
export interface ConflictShardReport {
  candidates: number;
  shard: { k: number; n: number; first: number; end: number; of: number };
  search: { key: string; top: number; out: string | null };
  conflictFree: number;
  excluded: number;
  vector: number[];
  backend: string;
  seconds: number;
  ranked: ConflictRow[];
  timedOut?: boolean;
  completed?: number;
}

/** The merged conflict-free report: what the unsharded run prints with --json, and the shards in order. */
export interface ConflictMerged {
  summary: { candidates: number; conflictFree: number; excluded: number; vector: number[]; backend: string; seconds: number; ranked: ConflictRow[] };
  shards: { name: string; report: ConflictShardReport }[];
}

/** Whether a parsed report is one of verify conflict-free (it ranks its candidates). */
export const isConflictReport = (v: unknown): boolean => typeof v === 'object' && v !== null && 'ranked' in v && 'conflictFree' in v;

const count = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

function asConflictReport(name: string, v: unknown): ConflictShardReport {
  const r = v as Partial<ConflictShardReport>;
  const shaped =
    typeof r.shard === 'object' &&
    r.shard !== null &&
    typeof r.search === 'object' &&
    r.search !== null &&
    typeof r.search.key === 'string' &&
    Array.isArray(r.ranked) &&
    Array.isArray(r.vector) &&
    typeof r.backend === 'string' &&
    typeof r.seconds === 'number';
  if (!shaped)
    throw badRequestError(`${name} is not a shard report of verify conflict-free (the output of layoutgpu verify conflict-free … --shard k/n --json)`);
  const where = `${name} (shard ${r.shard!.k}/${r.shard!.n})`;
  const counts: [string, unknown][] = [
    ['candidates', r.candidates],
    ['conflictFree', r.conflictFree],
    ['excluded', r.excluded],
    ['shard.k', r.shard!.k],
    ['shard.n', r.shard!.n],
    ['shard.first', r.shard!.first],
    ['shard.end', r.shard!.end],
    ['shard.of', r.shard!.of],
    ['search.top', r.search!.top],
  ];
  for (const [what, x] of counts) if (!count(x)) throw badRequestError(`${where}: "${what}" must be a non-negative integer, got ${JSON.stringify(x)}`);
  if (r.timedOut) throw badRequestError(`${where} ran past its --timeout: it covers ${r.completed} of its ${r.candidates} candidates; run it again`);
  if (r.conflictFree! + r.excluded! > r.candidates!) {
    throw badRequestError(`${where}: the counts do not add up: ${r.conflictFree} conflict-free + ${r.excluded} excluded > ${r.candidates} candidates`);
  }
  if (r.ranked!.length !== Math.min(r.search!.top!, r.candidates!)) {
    throw badRequestError(`${where}: the counts do not add up: ${r.ranked!.length} ranked rows, ${r.candidates} candidates and --top ${r.search!.top}`);
  }
  return r as ConflictShardReport;
}

/** the ranking order of conflict-free rows (src/memory/search.ts compareRanked: wider vectors first, ties left to the
 *  caller's stable order) */
function compareRows(a: ConflictRow, b: ConflictRow): number {
  const ea = a.wavefronts === null ? 1 : 0;
  const eb = b.wavefronts === null ? 1 : 0;
  if (ea !== eb) return ea - eb;
  const va = a.vector ?? [];
  const vb = b.vector ?? [];
  for (let p = 0; p < Math.max(va.length, vb.length); p++) if ((va[p] ?? 0) !== (vb[p] ?? 0)) return (vb[p] ?? 0) - (va[p] ?? 0);
  return (a.instructions ?? 0) - (b.instructions ?? 0) || (a.wavefronts ?? 0) - (b.wavefronts ?? 0);
}

/**
 * Merges the sharded reports of one conflict-free search into the report its unsharded run
 * gives: counts summed, the best `--top` of the shards' best (each shard lists its best `--top`,
 * so the whole run's are among them; ties in candidate order, as the shards are). Errors
 * (`bad-request`, naming the report): another search, a repeated or missing shard, a shard that
 * covers other candidates than k/n of the search or timed out, counts that do not add up.
 */
export function mergeConflictReports(inputs: { name: string; report: unknown }[]): ConflictMerged {
  if (inputs.length === 0) throw badRequestError('merge needs at least one shard report');
  const list = inputs.map((x) => ({ name: x.name, report: asConflictReport(x.name, x.report) }));
  const first = list[0]!;
  const s0 = first.report;
  const { n, of } = s0.shard;
  const byK = new Map<number, { name: string; report: ConflictShardReport }>();
  for (const x of list) {
    const r = x.report;
    if (r.search.key !== s0.search.key || r.shard.of !== of || r.search.top !== s0.search.top) {
      throw badRequestError(`${x.name} belongs to a different search than ${first.name} (other options, another candidate file, or another --top)`);
    }
    if (r.shard.n !== n)
      throw badRequestError(`${x.name} is shard ${r.shard.k}/${r.shard.n}, ${first.name} is shard ${s0.shard.k}/${n}: one search, one number of shards`);
    const seen = byK.get(r.shard.k);
    if (seen) throw badRequestError(`shard ${r.shard.k}/${n} is given twice: ${seen.name} and ${x.name}`);
    const [lo, hi] = shardRange(of, { k: r.shard.k, n });
    if (r.shard.first !== lo || r.shard.end !== hi || r.candidates !== hi - lo) {
      throw badRequestError(
        `${x.name}: shard ${r.shard.k}/${n} should cover the candidates [${lo}, ${hi}), it covers [${r.shard.first}, ${r.shard.end}) with ${r.candidates} candidates`,
      );
    }
    byK.set(r.shard.k, x);
  }
  const missing = Array.from({ length: n }, (_, i) => i + 1).filter((k) => !byK.has(k));
  if (missing.length) throw badRequestError(`missing shard${missing.length > 1 ? 's' : ''} ${missing.map((k) => `${k}/${n}`).join(', ')}`);
  const shards = Array.from({ length: n }, (_, i) => byK.get(i + 1)!);
  // the widths kept are the widest any shard's candidates reach (each shard's are its own widest), and each row's kept with them
  const vector = s0.vector.map((_, p) => Math.max(...shards.map((x) => x.report.vector[p] ?? 1)));
  const keeps = (r: ConflictRow): boolean => r.vector !== null && r.vector.every((v, p) => v >= (vector[p] ?? 1));
  const rows = shards.flatMap((x) => x.report.ranked).map((r) => ({ ...r, kept: r.wavefronts !== null && keeps(r) }));
  const ranked = [...rows].sort(compareRows).slice(0, s0.search.top);
  const sum = (f: (r: ConflictShardReport) => number): number => shards.reduce((a, x) => a + f(x.report), 0);
  return {
    summary: {
      candidates: of,
      conflictFree: sum((r) => r.conflictFree),
      excluded: sum((r) => r.excluded),
      vector,
      backend: [...new Set(shards.map((x) => x.report.backend))].join('+'),
      seconds: sum((r) => r.seconds),
      ranked,
    },
    shards,
  };
}
