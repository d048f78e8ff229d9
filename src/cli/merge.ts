/**
 * `layoutgpu merge <report.json>… [--out FILE] [--json]`: the report of a whole search from the
 * `--json` reports of its shards (`verify … --shard k/n --json`, `verify conflict-free … --shard
 * k/n --json`, `plan … --shard k/n --json`), as the unsharded run prints it (a plan's: exactly
 * `plan --json`'s object, planner/shard.ts) (verify/merge.ts checks that the shards are of
 * one search and cover it exactly once).
 * `--out FILE`: a search's matches, the shards' own --out files concatenated in shard order
 * (each read beside its report, by the plain file name the report gives, never where the name
 * points, and holding exactly the shard's number of matches); a law's counterexamples (JSON
 * Lines), from the reports. Every input is read before the output is written, and an output that
 * is one of the inputs is refused. Exit codes as verify's: 0, 1 when a law has counterexamples,
 * 2 for bad input (a missing or repeated shard, another search, a missing or short match file).
 */
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { formatPlan, isPlanShard, loadPlanner, mergePlanArgs } from '../ops/planner.js';
import { isConflictReport, matchFileName, mergeConflictReports, mergeReports } from '../verify/merge.js';
import type { Io } from './io.js';
import { reportError, Usage } from './report.js';
import { summaryLines } from './verify.js';

const HELP = `layoutgpu merge <report.json>… [--out FILE] [--json]

Merges the --json reports of the shards of one search (layoutgpu verify … --shard k/n --json,
or LAYOUTGPU_SHARD=k/n; verify conflict-free and plan too) and prints the report the unsharded run
prints: the same counts, the same examples, matches and ranking in the same order. Fails, naming them, on a missing or repeated
shard or a report of another search.
  --out FILE   searches: every match, the shards' --out files concatenated in shard order
               (each read next to its report, by the file name the report gives; it must
               hold the shard's matches, one a line); laws: the counterexamples as JSON
               Lines. FILE must not be one of the inputs.
  --json       the merged report as one JSON object, as verify --json prints it
`;

/** a path as the file system resolves it (links followed where the file exists), to compare two names of one file */
function canonical(f: string): string {
  const abs = resolve(f);
  try {
    return realpathSync(abs);
  } catch {
    try {
      return join(realpathSync(dirname(abs)), basename(abs));
    } catch {
      return abs;
    }
  }
}

/** where a shard's match file is read: beside its report, by the plain name the report gives */
function matchPath(reportName: string, out: string | null): string {
  const base = matchFileName(out);
  if (base === null)
    throw new Usage(`${reportName}: the shard wrote no --out file${out === null ? '' : ` (its report names '${out}')`}: run it with --out FILE`);
  return join(dirname(reportName), base);
}

/** refuses an --out that names one of the inputs (it would be truncated before it is read) */
function refuseInput(out: string, inputs: readonly string[]): void {
  const target = canonical(out);
  const same = inputs.find((f) => canonical(f) === target);
  if (same !== undefined) throw new Usage(`--out ${out} is one of the inputs (${same}): it would be overwritten before it is read; choose another file`);
}

/**
 * The merge of verify conflict-free shards (verify/merge.ts mergeConflictReports): the report
 * the unsharded run prints (--json: the same object), and with --out every conflict-free
 * candidate, the shards' --out files concatenated in shard order (each beside its report,
 * holding the shard's conflict-free count of lines).
 */
function conflictMerge(files: readonly string[], inputs: { name: string; report: unknown }[], out: string | undefined, json: boolean, io: Io): number {
  const m = mergeConflictReports(inputs);
  const asMatches = m.shards.map((x) => ({ name: x.name, report: { out: x.report.search.out, passed: x.report.conflictFree, shard: x.report.shard } }));
  if (out !== undefined) {
    const parts = asMatches.map(readMatches);
    refuseInput(out, [...files, ...asMatches.map((x) => matchPath(x.name, x.report.out))]);
    writeFileSync(out, Buffer.concat(parts));
  }
  const s = m.summary;
  if (json) {
    io.stdout(JSON.stringify(s) + '\n');
    return 0;
  }
  const head = ['rank', 'vector', 'instructions', 'wavefronts', 'phases', 'layout'];
  const rows = s.ranked.map((r, i) => [
    String(i + 1),
    r.vector === null ? '-' : r.vector.join('/'),
    String(r.instructions ?? '-'),
    String(r.wavefronts ?? '-'),
    String(r.phases ?? '-'),
    `${r.layout}${r.conflictFree ? '  conflict-free' : r.error ? `  (${r.error})` : ''}${r.wavefronts !== null && !r.kept ? '  (narrows the vector)' : ''}`,
  ]);
  const width = head.map((h, k) => Math.max(h.length, ...rows.map((r) => (k === 5 ? 0 : r[k]!.length))));
  const fmt = (r: string[]): string => r.map((c, k) => (k === 5 ? c : c.padStart(width[k]!))).join('  ');
  const lines = [
    `conflict-free: ${s.conflictFree} of ${s.candidates} candidates (merged from ${m.shards.length} shards; ${s.backend}; ${s.seconds.toFixed(2)} s)`,
    `vector width kept: ${s.vector.join('/')} value${s.vector.every((v) => v === 1) ? '' : 's'} per instruction`,
    ...(s.excluded > 0 ? [`excluded: ${s.excluded} not injective (two tile indices share an element: no shared-memory layout)`] : []),
    ...(out !== undefined ? [`${s.conflictFree} conflict-free layouts written to ${out}`] : []),
    '',
    fmt(head),
    ...rows.map(fmt),
    ...(s.candidates > rows.length ? [`  … ${s.candidates - rows.length} more (--top K)`] : []),
  ];
  io.stdout(lines.join('\n') + '\n');
  return 0;
}

/** a count of lines: the newline characters, and a last line without one */
function lineCount(b: Buffer): number {
  let n = 0;
  for (let i = b.indexOf(10); i !== -1; i = b.indexOf(10, i + 1)) n++;
  return b.length > 0 && b[b.length - 1] !== 10 ? n + 1 : n;
}

/** a shard's match file, checked to hold the shard's matches, one a line (a missing, unreadable or short file is named) */
function readMatches(x: { name: string; report: { out: string | null; passed: number; shard: { k: number; n: number } } }): Buffer {
  const path = matchPath(x.name, x.report.out);
  const shard = `shard ${x.report.shard.k}/${x.report.shard.n}`;
  let b: Buffer;
  try {
    b = readFileSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new Usage(
      `${path}: the match file of ${shard} (${x.name}) ${code === 'ENOENT' ? 'is missing: it is read beside its report' : `cannot be read: ${(e as Error).message}`}`,
    );
  }
  const lines = lineCount(b);
  if (lines !== x.report.passed)
    throw new Usage(`${path}: the match file of ${shard} (${x.name}) has ${lines} lines, its report counts ${x.report.passed} matches`);
  if (b.length > 0 && b[b.length - 1] !== 10) return Buffer.concat([b, Buffer.from('\n')]);
  return b;
}

export const mergeCommand = {
  summary: 'the report of a whole search from the --json reports of its shards (verify --shard k/n)',
  async run(argv: string[], io: Io): Promise<number> {
    try {
      const files: string[] = [];
      let out: string | undefined;
      let json = false;
      for (let i = 0; i < argv.length; i++) {
        const a = argv[i]!;
        if (a === '--help' || a === '-h') {
          io.stdout(HELP);
          return 0;
        } else if (a === '--json') json = true;
        else if (a === '--out' || a.startsWith('--out=')) {
          out = a === '--out' ? argv[++i] : a.slice(6);
          if (out === undefined) throw new Usage('--out needs a value');
        } else if (a.startsWith('--')) throw new Usage(`unknown option '${a}' (see layoutgpu merge --help)`);
        else files.push(a);
      }
      if (files.length === 0) throw new Usage('merge needs the shard reports: layoutgpu merge shard-1.json shard-2.json …');
      const inputs = files.map((f) => {
        let text: string;
        try {
          text = readFileSync(f, 'utf8');
        } catch (e) {
          throw new Usage(`cannot read ${f}: ${(e as Error).message}`);
        }
        let report: unknown;
        try {
          // a report is one JSON object; a progress line or a blank line around it is tolerated
          const line = text.split('\n').find((l) => l.trim().startsWith('{')) ?? text;
          report = JSON.parse(line);
        } catch {
          throw new Usage(`${f} is not JSON (a shard report is what verify --json --shard k/n prints)`);
        }
        return { name: f, report };
      });
      if (isConflictReport(inputs[0]!.report)) return conflictMerge(files, inputs, out, json, io);
      const head = inputs[0]!.report;
      if (typeof head === 'object' && head !== null && 'plan' in head && (await loadPlanner(), isPlanShard(head))) {
        if (out !== undefined) throw new Usage('--out is for searches and laws; a plan has no match file');
        const r = mergePlanArgs(
          inputs.map((x) => x.report),
          inputs.map((x) => x.name),
        );
        io.stdout(`${json ? JSON.stringify(r) : formatPlan(r)}\n`);
        return 0;
      }
      const m = mergeReports(inputs);
      let written = m.summary.passed;
      if (out !== undefined) {
        const parts = m.isLaw ? [Buffer.from(m.summary.examples.map((e) => JSON.stringify(e) + '\n').join(''))] : m.shards.map(readMatches);
        if (m.isLaw) written = m.summary.examples.length;
        const inputPaths = [...files, ...(m.isLaw ? [] : m.shards.map((x) => matchPath(x.name, x.report.out)))];
        refuseInput(out, inputPaths);
        writeFileSync(out, Buffer.concat(parts));
      }
      if (json) io.stdout(JSON.stringify(m.summary) + '\n');
      else io.stdout(summaryLines(m.summary, { isLaw: m.isLaw, out: out ?? null, matches: written, shown: m.shown }).join('\n') + '\n');
      return m.isLaw && m.summary.failed > 0 ? 1 : 0;
    } catch (e) {
      return reportError(e, io, { prefix: 'layoutgpu merge' });
    }
  },
};
