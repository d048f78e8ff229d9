/**
 * `layoutgpu merge <report.json>… [--out FILE] [--json]`: the report of a whole search from the
 * `--json` reports of its shards (`verify … --shard k/n --json`), as the unsharded run prints
 * it (verify/merge.ts checks that the shards are of one search and cover it exactly once).
 * `--out FILE`: a search's matches, the shards' own --out files concatenated in shard order
 * (each found where its report names it, else beside the report under the same file name);
 * a law's counterexamples (JSON Lines), from the reports. Exit codes as verify's: 0, 1 when a
 * law has counterexamples, 2 for bad input (a missing or repeated shard, another search).
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { LayoutError } from '../algebra/errors.js';
import { mergeReports } from '../verify/merge.js';
import type { Io } from './main.js';
import { summaryLines } from './verify.js';

const HELP = `layoutgpu merge <report.json>… [--out FILE] [--json]

Merges the --json reports of the shards of one search (layoutgpu verify … --shard k/n --json,
or LAYOUTGPU_SHARD=k/n) and prints the report the unsharded run prints: the same counts, the
same examples and matches in the same order. Fails, naming them, on a missing or repeated
shard or a report of another search.
  --out FILE   searches: every match, the shards' --out files concatenated in shard order
               (each where its report names it, else next to the report); laws: the
               counterexamples as JSON Lines
  --json       the merged report as one JSON object, as verify --json prints it
`;

class Usage extends Error {}

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
      const m = mergeReports(inputs);
      if (out !== undefined) {
        writeFileSync(out, '');
        if (m.isLaw) {
          const text = m.summary.examples.map((e) => JSON.stringify(e) + '\n').join('');
          if (text) appendFileSync(out, text);
        } else {
          for (const { name, report } of m.shards) {
            if (report.out === null) throw new Usage(`${name}: shard ${report.shard.k}/${report.shard.n} wrote no --out file`);
            const here = existsSync(report.out) ? report.out : join(dirname(name), basename(report.out));
            if (!existsSync(here)) throw new Usage(`${name}: the --out file of shard ${report.shard.k}/${report.shard.n} is neither at ${report.out} nor at ${here}`);
            appendFileSync(out, readFileSync(here));
          }
        }
      }
      if (json) io.stdout(JSON.stringify(m.summary) + '\n');
      else io.stdout(summaryLines(m.summary, { isLaw: m.isLaw, out: out ?? null, matches: m.summary.passed, shown: m.shown }).join('\n') + '\n');
      return m.isLaw && m.summary.failed > 0 ? 1 : 0;
    } catch (e) {
      if (e instanceof Usage) {
        io.stderr(`layoutgpu merge: ${e.message}\n`);
        return 2;
      }
      if (e instanceof LayoutError) {
        io.stderr(`layoutgpu merge: ${e.kind}: ${e.message}\n`);
        return 2;
      }
      io.stderr(`layoutgpu merge: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
      return 1;
    }
  },
};
