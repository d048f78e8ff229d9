/**
 * `layoutgpu verify`: bulk verification of candidate layouts (src/verify). Registered by the
 * CLI as a subcommand; bad input is one line on stderr and exit code 2.
 */
import type { Io } from './io.js';
import { readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { LayoutError } from '../algebra/errors.js';
import { acquireNodeDevice } from '../engine/node/device-node.js';
import { adapterLine } from '../engine/select.js';
import { CpuVerifyEngine } from '../verify/cpu.js';
import type { VerifyEngine } from '../verify/engine.js';
import { GpuVerifyEngine } from '../verify/gpu.js';
import { LAWS, type LawName } from '../verify/laws.js';
import { candidateArity, makeProperty, type Property, type VerifySummary } from '../verify/run.js';
import type { Source } from '../verify/sources.js';
import { enumerateSource } from '../verify/source-enumerate.js';
import { randomSource } from '../verify/source-random.js';
import { textSource } from '../verify/source-text.js';
import { stdoutFd, writeAllSync } from './epipe.js';
import { parseThreads } from '../engine/node/pool.js';
import { runVerifyThreaded } from '../verify/parallel.js';
import { shardSource } from '../verify/shard.js';
import { shardOption, type Shard } from '../verify/shard-range.js';
import { searchKey, shardReport } from '../verify/merge.js';
import { parseDuration } from './args.js';
import { reportError, Usage } from './report.js';
import { isIntegerText } from '../algebra/int-text.js';

const HELP = `layoutgpu verify <property> [operand] <source> [options]

Checks thousands of candidate layouts per dispatch (GPU: one generic WGSL interpreter; CPU:
structural checks and odometer walks).

Properties (searches: the matching candidates are listed):
  compact                     Φ is a bijection [0, size) → [0, size)
  injective                   Φ is injective on [0, size)
  complement-of <A>           candidates B with (A, B) compact
  compose-equals <C> --outer <B>
                              candidates A with Φ_B∘Φ_A = Φ_C (size(A) = size(C), cosize(A) ≤ size(B))
  conflict-free --tv <TV> --elem <e> …
                              memory layouts ranked by shared-memory wavefronts (see
                              layoutgpu verify conflict-free --help)
Laws (fuzzing the algebra; counterexamples are shrunk to minimal ones on the CPU):
  law:coalesce  law:complement            single layouts
  law:compose   (pairs [B, A]: B∘A)       every not-composable answer is confirmed by an
  law:divide    (pairs [A, B]: A ⊘ B)     exhaustive search when size(A) ≤ 4096
  law:product   (pairs [A, B]: A ⊗ B)
  Pair laws take pairs from the source, or single candidates L with --with <W>:
  compose: W∘L, divide: L ⊘ W, product: L ⊗ W.

Sources (exactly one):
  --file <candidates.jsonl>   one candidate per line: "L", ["B","A"], or bare notation
  --enumerate --size N [--max-rank R] [--max-stride D]
                              every flat layout (s1..sr):(d1..dr), 1 ≤ r ≤ R (default 4),
                              si ≥ 2, s1·…·sr = N, 0 ≤ di ≤ D (default N−1); in order of rank,
                              then shape tuple, then stride tuple (lexicographic, dr fastest)
  --random K --seed S [--max-depth 2] [--max-rank 4] [--max-shape 8] [--max-stride 64]
                      [--max-size 4096]
                              K seeded random layouts (pairs for pair laws) within the bounds

Options:
  --backend cpu|gpu|auto      auto (default): the GPU when its adapter is hardware, else the CPU
  --out <file>                searches: every matching candidate, one per line;
                              laws: every counterexample (JSON Lines)
  --examples K                examples to keep in the report (default 10)
  --json                      one JSON object: candidates, passed, failed, skipped, backend,
                              adapter, seconds, examples, …
  --threads N                 CPU worker threads (default: the available cores; 1: this thread)
  --timeout <duration>        stop after this long (30s, 500ms, 2m) and print the report of the
                              candidates that completed (exit code 2); the run takes this thread
  --shard k/n                 only the k-th of n equal parts of the candidate order (1 ≤ k ≤ n;
                              also from the environment: LAYOUTGPU_SHARD=k/n); the --json
                              report carries what \`layoutgpu merge\` needs to print the
                              report of the whole search
  --help

Without --out, matches are printed when there are at most 20. A progress bar (candidates/s,
ETA) goes to stderr when it is a terminal. Exit code: 0, or 1 when a law has counterexamples;
2 for bad input.
`;

interface Parsed {
  positional: string[];
  opts: Map<string, string>;
  flags: Set<string>;
}

const FLAGS = new Set(['--json', '--help', '-h', '--enumerate', '--quiet']);
const OPTIONS = new Set([
  '--file',
  '--size',
  '--max-rank',
  '--max-stride',
  '--random',
  '--seed',
  '--max-depth',
  '--max-shape',
  '--max-size',
  '--backend',
  '--out',
  '--examples',
  '--outer',
  '--with',
  '--threads',
  '--shard',
  '--timeout',
]);

function parseArgv(argv: readonly string[]): Parsed {
  const positional: string[] = [];
  const opts = new Map<string, string>();
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith('--') || a === '-h') {
      const eq = a.indexOf('=');
      const name = eq >= 0 ? a.slice(0, eq) : a;
      if (FLAGS.has(name)) {
        if (eq >= 0) throw new Usage(`${name} takes no value`);
        flags.add(name);
      } else if (OPTIONS.has(name)) {
        const v = eq >= 0 ? a.slice(eq + 1) : argv[++i];
        if (v === undefined) throw new Usage(`${name} needs a value`);
        if (opts.has(name)) throw new Usage(`${name} given twice`);
        opts.set(name, v);
      } else throw new Usage(`unknown option '${name}' (see layoutgpu verify --help)`);
    } else positional.push(a);
  }
  return { positional, opts, flags };
}

function intOpt(p: Parsed, name: string): number | undefined {
  const v = p.opts.get(name);
  if (v === undefined) return undefined;
  if (!isIntegerText(v.trim(), true)) throw new Usage(`${name} must be an integer, got '${v}'`);
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw new Usage(`${name} is too large`);
  return n;
}

function property(p: Parsed): Property {
  const [name, ...rest] = p.positional;
  if (name === undefined) throw new Usage('verify needs a property (see layoutgpu verify --help)');
  const outer = p.opts.get('--outer');
  const w = p.opts.get('--with');
  if (name === 'compose-equals') {
    if (outer === undefined) throw new Usage('compose-equals <C> needs --outer <B>');
    return makeProperty(name, [...rest, outer]);
  }
  if (outer !== undefined) throw new Usage('--outer belongs to compose-equals');
  if (w !== undefined) {
    if (!name.startsWith('law:') || candidateArity(makeProperty(name, [])) !== 2) throw new Usage('--with belongs to law:compose, law:divide and law:product');
    return makeProperty(name, [...rest, w]);
  }
  return makeProperty(name, rest);
}

function source(p: Parsed, prop: Property): Source {
  const file = p.opts.get('--file');
  const en = p.flags.has('--enumerate');
  const rnd = intOpt(p, '--random');
  const n = (file !== undefined ? 1 : 0) + (en ? 1 : 0) + (rnd !== undefined ? 1 : 0);
  if (n !== 1) throw new Usage('give exactly one source: --file, --enumerate or --random');
  const only = (allowed: string[]): void => {
    for (const k of ['--size', '--max-rank', '--max-stride', '--seed', '--max-depth', '--max-shape', '--max-size']) {
      if (p.opts.has(k) && !allowed.includes(k)) throw new Usage(`${k} does not apply to this source`);
    }
  };
  if (file !== undefined) {
    only([]);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new Usage(`cannot read ${file}: ${(e as Error).message}`);
    }
    return textSource(text, file);
  }
  if (en) {
    only(['--size', '--max-rank', '--max-stride']);
    const size = intOpt(p, '--size');
    if (size === undefined) throw new Usage('--enumerate needs --size N');
    const o: { size: number; maxRank?: number; maxStride?: number } = { size };
    const r = intOpt(p, '--max-rank');
    const d = intOpt(p, '--max-stride');
    if (r !== undefined) o.maxRank = r;
    if (d !== undefined) o.maxStride = d;
    return enumerateSource(o);
  }
  only(['--seed', '--max-depth', '--max-rank', '--max-shape', '--max-stride', '--max-size']);
  const seed = intOpt(p, '--seed');
  if (seed === undefined) throw new Usage('--random K needs --seed S');
  const arity = candidateArity(prop);
  const law = prop.kind === 'law' ? (prop.law as LawName) : null;
  const o: Parameters<typeof randomSource>[0] = { count: rnd!, seed, arity, composable: law === 'compose' && arity === 2 };
  const set = (k: keyof typeof o, name: string): void => {
    const v = intOpt(p, name);
    if (v !== undefined) (o as unknown as Record<string, number>)[k] = v;
  };
  set('maxDepth', '--max-depth');
  set('maxRank', '--max-rank');
  set('maxShape', '--max-shape');
  set('maxStride', '--max-stride');
  set('maxSize', '--max-size');
  return randomSource(o);
}

async function makeEngine(choice: string): Promise<VerifyEngine> {
  if (choice === 'cpu') return new CpuVerifyEngine();
  if (choice === 'gpu') {
    const d = await acquireNodeDevice();
    return new GpuVerifyEngine(d.device, { adapter: adapterLine(d.adapter), software: d.adapter.software, onDispose: () => d.release() });
  }
  let d: Awaited<ReturnType<typeof acquireNodeDevice>>;
  try {
    d = await acquireNodeDevice();
  } catch {
    return new CpuVerifyEngine();
  }
  if (!d.adapter.software)
    return new GpuVerifyEngine(d.device, { adapter: adapterLine(d.adapter), software: d.adapter.software, onDispose: () => d.release() });
  const line = adapterLine(d.adapter);
  d.release();
  return new CpuVerifyEngine(`cpu (structural checks in JavaScript; passed over the software adapter ${line})`);
}

function rate(n: number, s: number): string {
  const r = s > 0 ? n / s : 0;
  return r >= 1e6 ? `${(r / 1e6).toFixed(1)}M` : r >= 1e3 ? `${(r / 1e3).toFixed(1)}k` : r.toFixed(0);
}

function progressBar(io: Io): { update(done: number, total: number | undefined): void; end(): void } {
  const t0 = performance.now();
  let last = 0;
  let shown = false;
  return {
    update(done, total) {
      const t = performance.now();
      if (t - last < 100) return;
      last = t;
      const s = (t - t0) / 1000;
      const width = 30;
      let line: string;
      if (total) {
        const f = Math.min(1, done / total);
        const eta = f > 0 ? (s / f) * (1 - f) : 0;
        line = `[${'#'.repeat(Math.round(f * width)).padEnd(width, '.')}] ${(f * 100).toFixed(1)}% ${done}/${total} ${rate(done, s)} candidates/s ETA ${eta.toFixed(1)} s`;
      } else line = `${done} candidates ${rate(done, s)} candidates/s`;
      io.stderr(`\r${line}\x1b[K`);
      shown = true;
    },
    end() {
      if (shown) io.stderr('\r\x1b[K');
    },
  };
}

/** What a `--timeout` left of a run: whether it fired, and when. */
export interface TimeoutState {
  fired: boolean;
  readonly at: number;
}

/**
 * The source cut at a deadline: its chunks (and fused scan blocks) up to the first that would
 * start after `state.at` (performance.now() time), which marks `state.fired`; the first always
 * runs, so that a report has something in it. Without `slice`
 * the run takes this thread, so that what completed is a prefix of the candidate order.
 */
export function untilDeadline(src: Source, state: TimeoutState): Source {
  function* cut<T>(it: Iterable<T>): Iterable<T> {
    let first = true;
    for (const x of it) {
      if (!first && performance.now() > state.at) {
        state.fired = true;
        return;
      }
      first = false;
      yield x;
    }
  }
  const out: Source = { arity: src.arity, describe: src.describe, chunks: (n) => cut(src.chunks(Math.min(n, 4096))) };
  if (src.total !== undefined) out.total = src.total;
  if (src.scanCompact) {
    const scan = src.scanCompact.bind(src);
    out.scanCompact = (n) => cut(scan(Math.min(n, 1 << 16)));
  }
  return out;
}

/** The human report of a verify run (also what \`layoutgpu merge\` prints for merged shards):
 *  `matches` is the number of matches of a search, `shown` its first ones (up to 21). */
export function summaryLines(summary: VerifySummary, o: { isLaw: boolean; out: string | null; matches: number; shown: readonly string[] }): string[] {
  const { isLaw, matches } = o;
  const out = o.out ?? undefined;
  const shownMatches = o.shown;
  const L: string[] = [];
  L.push(`${summary.property} over ${summary.source}`);
  L.push(
    isLaw
      ? `${summary.candidates} candidates: ${summary.passed} passed (${summary.skipped} unconfirmed refusals), ${summary.failed} counterexamples`
      : `${summary.candidates} candidates: ${summary.passed} match, ${summary.failed} do not`,
  );
  L.push(
    `${summary.seconds.toFixed(3)} s, ${rate(summary.candidates, summary.seconds)} candidates/s, backend ${summary.backend} (${summary.adapter})${summary.fallbacks ? `, ${summary.fallbacks} answered on the CPU` : ''}`,
  );
  if (isLaw) {
    for (const e of summary.examples) {
      L.push(`counterexample ${e.candidate.join(' ')}`);
      L.push(`  minimal: ${e.shrunk!.join(' ')}: ${e.reason}`);
    }
    if (summary.failed > summary.examples.length) L.push(`  … ${summary.failed - summary.examples.length} more${out ? '' : ' (raise --examples)'}`);
  } else if (out === undefined) {
    for (const m of shownMatches.slice(0, 20)) L.push(m);
    if (matches > 20) L.push(`… ${matches - 20} more (use --out <file> for all)`);
  } else L.push(`${matches} matches written to ${out}`);
  return L;
}

export const verifyCommand = {
  summary: 'bulk verification of candidate layouts: searches (compact, complement-of, compose-equals) and the laws as fuzzing',
  async run(argv: string[], io: Io): Promise<number> {
    let engine: VerifyEngine | null = null;
    try {
      // the memory system's search has its own options (src/cli/conflict-search.ts)
      if (argv[0] === 'conflict-free') return await (await import('./conflict-search.js')).runConflictSearch(argv, io);
      const p = parseArgv(argv);
      if (p.flags.has('--help') || p.flags.has('-h')) {
        io.stdout(HELP);
        return 0;
      }
      const prop = property(p);
      const whole = source(p, prop);
      const shard: Shard | null = shardOption(p.opts.get('--shard'));
      const part = shard ? shardSource(whole, shard) : null;
      const src = part ? part.source : whole;
      const threads = parseThreads(p.opts.get('--threads'));
      const timeoutText = p.opts.get('--timeout');
      let timeoutMs: number | undefined;
      try {
        if (timeoutText !== undefined) timeoutMs = parseDuration(timeoutText, '--timeout');
      } catch (e) {
        throw new Usage((e as Error).message);
      }
      const backend = p.opts.get('--backend') ?? 'auto';
      if (backend !== 'cpu' && backend !== 'gpu' && backend !== 'auto') throw new Usage(`--backend must be cpu, gpu or auto, got '${backend}'`);
      const examples = intOpt(p, '--examples') ?? 10;
      if (examples < 0) throw new Usage('--examples must be ≥ 0');
      const out = p.opts.get('--out');
      const json = p.flags.has('--json');
      const isLaw = prop.kind === 'law';
      const outFd = out === undefined ? undefined : stdoutFd(out);
      if (out !== undefined && outFd === undefined) writeFileSync(out, '');
      let pending: string[] = [];
      let pendingBytes = 0;
      const flush = (): void => {
        if (out !== undefined && pending.length) {
          if (outFd !== undefined) writeAllSync(outFd, Buffer.from(pending.join('')));
          else appendFileSync(out, pending.join(''));
        }
        pending = [];
        pendingBytes = 0;
      };
      engine = await makeEngine(backend);
      const timer: TimeoutState | null = timeoutMs === undefined ? null : { fired: false, at: performance.now() + timeoutMs };
      const bar = io.isTTY && !p.flags.has('--quiet') ? progressBar(io) : null;
      // the size of the search before it starts (an enumeration beyond its limit was refused)
      if (bar && src.total !== undefined) io.stderr(`verify: ${src.total} candidates (${src.describe})\n`);
      let summary: VerifySummary;
      try {
        summary = await runVerifyThreaded({
          threads,
          property: prop,
          source: timer ? untilDeadline(src, timer) : src,
          engine,
          maxExamples: isLaw ? examples : Math.max(examples, 21),
          // every match only when they are written out: otherwise the count and the first 21
          // (the examples) are all that is printed, and workers need not send the rest
          onMatch:
            isLaw || out === undefined
              ? undefined
              : (text) => {
                  pending.push(text + '\n');
                  pendingBytes += text.length + 1;
                  if (pendingBytes > 1 << 16) flush();
                },
          onProgress: bar ? (d, t) => bar.update(d, t) : undefined,
        });
      } finally {
        bar?.end();
      }
      if (isLaw && out !== undefined) for (const e of summary.examples) pending.push(JSON.stringify(e) + '\n');
      flush();
      const firstMatches = isLaw ? [] : summary.examples.slice(0, 21).map((e) => e.candidate.join(' '));
      if (!isLaw) summary.examples = summary.examples.slice(0, examples);
      const partial = timer?.fired === true;
      if (json) {
        const extra =
          shard && part
            ? shardReport(summary, {
                shard,
                range: part.range,
                total: whole.total!,
                key: searchKey(prop, whole),
                examples,
                isLaw,
                matches: firstMatches,
                out: out ?? null,
              })
            : summary;
        io.stdout(JSON.stringify(partial ? { ...extra, timedOut: true, total: src.total ?? null } : extra) + '\n');
      } else {
        const L = summaryLines(summary, { isLaw, out: out ?? null, matches: summary.passed, shown: firstMatches });
        if (shard && part) L.push(`shard ${shard.k}/${shard.n}: candidates [${part.range[0]}, ${part.range[1]}) of ${whole.total}`);
        if (partial)
          L.unshift(
            `partial report: --timeout ${timeoutText} fired after the first ${summary.candidates}${src.total !== undefined ? ` of ${src.total}` : ''} candidates`,
          );
        io.stdout(L.join('\n') + '\n');
      }
      if (partial) {
        const why = `ran past --timeout ${timeoutText}; the report covers the ${summary.candidates} candidates that completed`;
        return reportError(new LayoutError('timeout', why), io, { prefix: 'layoutgpu verify' });
      }
      return isLaw && summary.failed > 0 ? 1 : 0;
    } catch (e) {
      // a reader that has gone (stdout or --out /dev/stdout) ends it quietly (status 0)
      return reportError(e, io, { prefix: 'layoutgpu verify' });
    } finally {
      engine?.dispose();
    }
  },
};

export { LAWS };
