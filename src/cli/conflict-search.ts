/**
 * `layoutgpu verify conflict-free --tv <TV> --elem <e> [--vec v] [--tv2 <TV2> [--elem2 e2]
 * [--vec2 v2]] <source>`: candidate memory layouts ranked by total wavefronts (docs/semantics.md §9.2); a
 * candidate is conflict-free when every instruction of every access takes exactly its phases.
 * Sources: --swizzles <base> (every Sw<B,M,S> o base, 1 ≤ B ≤ 5, M ≤ 7, B ≤ |S| ≤ 10), --file
 * (one layout per line, plain or composed), --enumerate / --random (src/verify/source-enumerate.ts, src/verify/source-random.ts).
 */
import type { Io } from './io.js';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { LayoutError } from '../algebra/errors.js';
import type { Layout } from '../algebra/layout.js';
import { parseLayout } from '../algebra/notation.js';
import { formatLayoutFunction, parseLayoutFunction, type LayoutFunction } from '../cute/composed.js';
import { bankPattern, loadBankSides, type BankPatternForm } from '../ops/bank-sides.js';
import { copyObject, mmaObject } from './atoms.js';
import { acquireNodeDevice } from '../engine/node/device-node.js';
import { adapterLine } from '../engine/select.js';
import {
  checkPatterns,
  compareRanked,
  keepsVectors,
  keptVectors,
  rankResults,
  searchCpu,
  swizzleCandidates,
  widenVectors,
  type AccessPattern,
  type CandidateResult,
  type SearchPattern,
  type Ranked,
} from '../memory/search.js';
import { chunkItem, type Source } from '../verify/sources.js';
import { enumerateSource } from '../verify/source-enumerate.js';
import { randomSource } from '../verify/source-random.js';
import { sliceSource } from '../verify/shard.js';
import { hashText, shardOption, shardRange } from '../verify/shard-range.js';
import { parseDuration, parseOptions, Usage } from './args.js';
import { accessByName, machineByName, type BankTarget } from '../memory/machines.js';
import { progressBar } from './progress.js';
import { reportError } from './report.js';
import { isIntegerText } from '../algebra/int-text.js';

export const CONFLICT_HELP = `layoutgpu verify conflict-free --tv <TV> --elem <e> [--vec <v>] [--tv2 <TV2> [--elem2 <e>] [--vec2 <v>]] <source> [options]
layoutgpu verify conflict-free --copy <atom> --bits b (--thr L [--val L] | --mma <atom> … --operand X) [--side src|dst] … <source>
layoutgpu verify conflict-free --mma <atom> [--layout L] [--permutation P] --operand A|B|C [--elem <e>] [--vec <v>] … <source>
layoutgpu verify conflict-free --ll <R> [--shape 128x64 | tensor<128x64xf16>] [--elem <e>] [--vec <v>] … <source>

Ranks candidate memory layouts M (tile index → element offset) for the access TV (thread,
value) → tile index (and TV2, e.g. the write side): the wider vectors first (a candidate keeps the
vector width when it reaches the explicit --vec, else the widest any candidate of the search reaches:
one width per pattern, whatever the source), then by fewer instructions, then by fewer shared-memory
wavefronts; conflict-free: every instruction
takes exactly its phases (docs/semantics.md §9.2). A candidate that is not injective is no shared-memory
layout: it is excluded (and counted). The candidate count comes first, and a progress bar on a
terminal.

The access is a TV layout, or one of the side forms of layoutgpu conflicts (see conflicts --help) over the
tile of the --swizzles base or of the first layout of --file: a tiled copy (its shared-memory side, e and
the vector from the atom), an MMA operand, a register LL (an encoding over --shape).

Sources (exactly one):
  --swizzles <base>        every Sw<B,M,S> o base with 1 ≤ B ≤ 5, M ≤ 7, B ≤ |S| ≤ 10 (640)
  --file <file>            one layout per line (plain or Sw<B,M,S> o …; JSON strings too)
  --enumerate --size N [--max-rank R] [--max-stride D]   as for the other properties
  --random K --seed S [--max-…]                          as for the other properties
Options:
  --arch <machine>         sm80, sm90 (default), sm100, gfx942, gfx950: the bank model (docs/memory.md)
  --access read|write      the direction of --tv (AMD's 16-byte reads and writes differ); --access2 of --tv2
  --backend cpu|gpu|auto   gpu: shaders/conflicts.wgsl, many candidates per dispatch (auto: the GPU
                           when its adapter is hardware)
  --top K                  candidates listed (default 20)
  --out <file>             every conflict-free candidate, one per line, in candidate order
  --shard k/n              the k-th of n parts of the candidates (as LAYOUTGPU_SHARD=k/n);
                           the candidates are streamed: memory does not grow with their number
  --timeout <duration>     stop after this long (30s, 500ms) and report the candidates that
                           completed (exit code 2)
  --json                   {candidates, shard?, conflictFree, excluded, vector, backend, seconds,
                           ranked: [{layout, vector, instructions, wavefronts, phases, conflictFree, kept}]}
`;

function int(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  if (!isIntegerText(v.trim())) throw new Usage(`${name} must be a non-negative integer, got '${v}'`);
  return Number(v);
}

/** The candidates of a search as a stream: how many, their parts in order, and a slice (a shard). */
interface Candidates {
  readonly total: number;
  parts(size: number): Iterable<LayoutFunction[]>;
  slice(lo: number, hi: number): Candidates;
}

/** a list of candidates (--swizzles, --file): parts are slices of it */
function listCandidates(list: readonly LayoutFunction[], describe: string): Candidates {
  return {
    total: list.length,
    *parts(size) {
      for (let at = 0; at < list.length; at += size) yield list.slice(at, at + size);
    },
    slice: (lo, hi) => listCandidates(list.slice(lo, hi), describe),
  };
}

/** an enumeration or random source (src/verify/source-enumerate.ts, source-random.ts): parts drawn chunk by chunk, never all at once */
function sourceCandidates(src: Source): Candidates {
  return {
    total: src.total!,
    *parts(size) {
      for (const ch of src.chunks(size)) yield Array.from({ length: ch.count }, (_, i) => chunkItem(ch, i)[0]!);
    },
    slice: (lo, hi) => sourceCandidates(sliceSource(src, lo, hi)),
  };
}

/**
 * The running report of a search, part by part: the candidates completed, how many are
 * conflict-free and how many excluded, and the best `top` in ranking order (compareRanked,
 * ties by candidate number): its memory is independent of the number of candidates.
 */
class Tally {
  completed = 0;
  conflictFree = 0;
  excluded = 0;
  best: Ranked[] = [];
  /** per pattern, the widest vector an accessible candidate reached so far (widenVectors) */
  readonly widest: number[] = [];
  constructor(private readonly top: number) {}

  /** adds a part's results (the candidates after those completed); returns its conflict-free candidates, in order */
  add(cs: readonly LayoutFunction[], results: readonly CandidateResult[]): string[] {
    const first = this.completed;
    const free: Ranked[] = [];
    widenVectors(this.widest, results);
    for (const r of rankResults(cs, results)) {
      const g: Ranked = { ...r, index: first + r.index };
      if (g.conflictFree) free.push(g);
      if (g.excluded === 'not-injective') this.excluded++;
      if (this.top > 0 && (this.best.length < this.top || compareRanked(g, this.best[this.best.length - 1]!) < 0)) {
        let at = this.best.length;
        while (at > 0 && compareRanked(g, this.best[at - 1]!) < 0) at--;
        this.best.splice(at, 0, g);
        if (this.best.length > this.top) this.best.pop();
      }
    }
    this.completed += results.length;
    this.conflictFree += free.length;
    return free.sort((a, b) => a.index - b.index).map((r) => r.layout);
  }

  /** the best, each marked whether it keeps the widths kept (keptVectors: the explicit v, else the widest reached) */
  ranked(target: readonly number[]): Ranked[] {
    return this.best.map((r) => ({ ...r, kept: keepsVectors(r, target) }));
  }
}

/** why the target vector widths are what they are: the widest a candidate reaches, or --vec */
function vecWhy(patterns: readonly SearchPattern[], fromAtom: boolean): string {
  if (fromAtom) return patterns.length === 1 ? "the copy atom's" : "the copy atom's/--vec";
  const given = patterns.map((q) => q.v !== undefined);
  if (given.every((g) => !g)) return 'the widest any candidate reaches';
  if (given.every((g) => g)) return 'as --vec gives';
  return given.map((g) => (g ? '--vec' : 'widest')).join('/');
}

/** The options of the side forms (conflicts' --copy, --mma … --operand, --ll; ops/bank-sides.ts). */
const SIDE_OPTIONS = ['--copy', '--side', '--bits', '--thr', '--val', '--mma', '--layout', '--permutation', '--operand', '--ll', '--shape'];

/** The side form of --copy, --mma or --ll (with --elem and --vec where the form takes them), or null for --tv. */
function sideFormOf(p: ReturnType<typeof parseOptions>): BankPatternForm | null {
  const e = int(p.opt.get('--elem'), '--elem');
  const v = int(p.opt.get('--vec'), '--vec');
  const ev = { ...(e !== undefined ? { elem: e } : {}), ...(v !== undefined ? { vec: v } : {}) };
  const copy = p.opt.get('--copy');
  if (copy !== undefined) {
    if (e !== undefined || v !== undefined) throw new Usage('--copy takes the element size and the vector from the atom: no --elem or --vec');
    const sd = p.opt.get('--side');
    return { form: 'copy', copy: copyObject(copy, p), ...(sd !== undefined ? { side: sd } : {}) };
  }
  const mma = p.opt.get('--mma');
  if (mma !== undefined) {
    const operand = p.opt.get('--operand');
    if (operand === undefined) throw new Usage('--mma needs --operand A, B or C');
    return { form: 'mma', mma: mmaObject(mma, p), operand, ...ev };
  }
  const r = p.opt.get('--ll');
  if (r !== undefined) {
    const shape = p.opt.get('--shape');
    return { form: 'll', r, ...(shape !== undefined ? { shape } : {}), ...ev };
  }
  const stray = SIDE_OPTIONS.find((o) => p.opt.has(o));
  if (stray !== undefined) throw new Usage(`${stray} goes with --copy, --mma or --ll`);
  return null;
}

/** the options that define a search (its candidates, patterns and ranking), for a shard report's identity */
const SEARCH_OPTIONS = [
  '--tv',
  '--elem',
  '--vec',
  '--tv2',
  '--elem2',
  '--vec2',
  '--arch',
  '--access',
  '--access2',
  '--swizzles',
  '--size',
  '--max-rank',
  '--max-stride',
  '--random',
  '--seed',
  '--max-depth',
  '--max-shape',
  '--max-size',
  '--top',
  ...SIDE_OPTIONS,
];

/** The subcommand (see CONFLICT_HELP); bad input: one line on stderr, exit 2. */
export async function runConflictSearch(argv: readonly string[], io: Io): Promise<number> {
  try {
    return await search(argv, io);
  } catch (e) {
    return reportError(e, io, { prefix: 'layoutgpu verify' });
  }
}

async function search(argv: readonly string[], io: Io): Promise<number> {
  const p = parseOptions(
    argv,
    ['--help', '--json', '--enumerate'],
    ['--tv', '--elem', '--vec', '--tv2', '--elem2', '--vec2', '--swizzles', '--file', '--size', '--max-rank', '--max-stride', '--random', '--seed'].concat([
      '--arch',
      '--access',
      '--access2',
      '--max-depth',
      '--max-shape',
      '--max-size',
      '--backend',
      '--top',
      '--out',
      '--timeout',
      '--shard',
      ...SIDE_OPTIONS,
    ]),
    'verify conflict-free',
  );
  if (p.flags.has('--help')) {
    io.stdout(CONFLICT_HELP);
    return 0;
  }
  if (p.pos.length !== 1) throw new Usage(`verify conflict-free: unexpected argument '${p.pos[1]}'`);
  const tv = p.opt.get('--tv');
  const e = int(p.opt.get('--elem'), '--elem');
  // the first access: a TV layout, or a side form over the candidates' tile (ops/bank-sides.ts)
  const side = sideFormOf(p);
  if (side !== null && tv !== undefined) throw new Usage('give --tv or one of --copy, --mma, --ll, not both');
  if (side === null && (tv === undefined || e === undefined)) {
    throw new Usage('verify conflict-free needs --tv <TV> and --elem <bytes> (or --copy, --mma … --operand, --ll; see --help)');
  }
  const tvLayout = (text: string, name: string): Layout => {
    const l = parseLayoutFunction(text, name);
    if ('kind' in l) throw new LayoutError('domain', `${name}: the TV layout must be a plain layout; ${text.trim()} is a composed layout`);
    return l;
  };
  // the machine (--arch) and each pattern's direction (--access, --access2; docs/memory.md "Machines")
  const arch = p.opt.get('--arch');
  const targetOf = (access: string | undefined): BankTarget | undefined =>
    arch === undefined && access === undefined
      ? undefined
      : access === undefined
        ? { machine: machineByName(arch ?? 'sm90') }
        : { machine: machineByName(arch ?? 'sm90'), access: accessByName(access) };
  const pat = (t: string, name: string, el: number, v: number | undefined, access?: string): AccessPattern => {
    const target = targetOf(access);
    const base = v === undefined ? { tv: tvLayout(t, name), e: el } : { tv: tvLayout(t, name), e: el, v };
    return target === undefined ? base : { ...base, target };
  };
  const patterns: SearchPattern[] = side === null ? [pat(tv!, '--tv', e!, int(p.opt.get('--vec'), '--vec'), p.opt.get('--access'))] : [];
  const tv2 = p.opt.get('--tv2');
  if (tv2 !== undefined) {
    const e2 = int(p.opt.get('--elem2'), '--elem2') ?? e;
    if (e2 === undefined) throw new Usage('--tv2 needs --elem2 <bytes> (or --elem)');
    patterns.push(pat(tv2, '--tv2', e2, int(p.opt.get('--vec2'), '--vec2'), p.opt.get('--access2')));
  } else if (p.opt.has('--access2')) throw new Usage('--access2 goes with --tv2');
  else if (p.opt.has('--elem2') || p.opt.has('--vec2')) throw new Usage('--elem2 and --vec2 go with --tv2');
  // the source
  const kinds = ['--swizzles', '--file', '--random'].filter((k) => p.opt.has(k)).length + (p.flags.has('--enumerate') ? 1 : 0);
  if (kinds !== 1) throw new Usage('give exactly one source: --swizzles <base>, --file, --enumerate or --random');
  const sw = p.opt.get('--swizzles');
  const file = p.opt.get('--file');
  const timeoutText = p.opt.get('--timeout');
  const timeoutMs = timeoutText === undefined ? undefined : parseDuration(timeoutText, '--timeout');
  const swBase = sw === undefined ? undefined : parseLayout(sw, '--swizzles');
  // the candidates as a stream (memory independent of their number), and its shard
  let whole: Candidates;
  let fileText: string | undefined;
  let firstCandidate: LayoutFunction | undefined;
  if (swBase !== undefined) whole = listCandidates(swizzleCandidates(swBase), `every swizzle of ${sw!.trim()}`);
  else if (file !== undefined) {
    let text: string;
    try {
      text = fileText = readFileSync(file, 'utf8');
    } catch (err) {
      throw new Usage(`cannot read ${file}: ${(err as Error).message}`);
    }
    const list: LayoutFunction[] = [];
    text.split('\n').forEach((line, i) => {
      const t = line.trim();
      if (t === '' || t.startsWith('#')) return;
      const s = t.startsWith('"') ? (JSON.parse(t) as string) : t;
      list.push(parseLayoutFunction(s, `${file}:${i + 1}`));
    });
    whole = listCandidates(list, file);
    firstCandidate = list[0];
  } else if (p.flags.has('--enumerate')) {
    const size = int(p.opt.get('--size'), '--size');
    if (size === undefined) throw new Usage('--enumerate needs --size N');
    const o: { size: number; maxRank?: number; maxStride?: number } = { size };
    const r = int(p.opt.get('--max-rank'), '--max-rank');
    const d = int(p.opt.get('--max-stride'), '--max-stride');
    if (r !== undefined) o.maxRank = r;
    if (d !== undefined) o.maxStride = d;
    whole = sourceCandidates(enumerateSource(o));
  } else {
    const seed = int(p.opt.get('--seed'), '--seed');
    if (seed === undefined) throw new Usage('--random K needs --seed S');
    const o: Parameters<typeof randomSource>[0] = { count: int(p.opt.get('--random'), '--random')!, seed, arity: 1, composable: false };
    for (const [k, name] of [
      ['maxDepth', '--max-depth'],
      ['maxRank', '--max-rank'],
      ['maxShape', '--max-shape'],
      ['maxStride', '--max-stride'],
      ['maxSize', '--max-size'],
    ] as const) {
      const v = int(p.opt.get(name), name);
      if (v !== undefined) (o as unknown as Record<string, number>)[k] = v;
    }
    whole = sourceCandidates(randomSource(o));
  }
  // a side form prices the tile of the base (--swizzles) or of the first candidate (--file): its shape is the tile's
  let sideHeading: string | undefined;
  if (side !== null) {
    const tile = swBase ?? firstCandidate;
    if (tile === undefined) throw new Usage('--copy, --mma and --ll take the tile from --swizzles <base> or the first layout of --file');
    await loadBankSides();
    const { pattern, heading } = bankPattern(side, tile, targetOf(p.opt.get('--access')));
    patterns.unshift(pattern);
    sideHeading = `${heading} over the tile of ${formatLayoutFunction(tile)}`;
  }
  const shard = shardOption(p.opt.get('--shard'));
  const range: [number, number] = shard ? shardRange(whole.total, shard) : [0, whole.total];
  const cands = shard ? whole.slice(range[0], range[1]) : whole;
  const backend = p.opt.get('--backend') ?? 'auto';
  if (backend !== 'cpu' && backend !== 'gpu' && backend !== 'auto') throw new Usage(`--backend must be cpu, gpu or auto, got '${backend}'`);
  checkPatterns(patterns); // a bad pattern is refused before the search starts
  // the size of the search first, then a progress bar (on a terminal)
  if (io.isTTY) io.stderr(`verify conflict-free: ${cands.total} candidates${shard ? ` (shard ${shard.k}/${shard.n} of ${whole.total})` : ''}\n`);
  const bar = progressBar({ stderr: io.stderr, isTTY: io.isTTY }, 'conflict-free');
  const t0 = performance.now();
  const due = timeoutMs === undefined ? Infinity : t0 + timeoutMs;
  const top = int(p.opt.get('--top'), '--top') ?? 20;
  const out = p.opt.get('--out');
  if (out !== undefined) writeFileSync(out, '');
  const tally = new Tally(top);
  let used = 'cpu';
  /** the candidates in parts (progress, --timeout between parts): what completed is a prefix;
   *  each part is ranked into the tally and its conflict-free candidates written out, then dropped */
  const inParts = async (part: number, run: (cs: LayoutFunction[]) => CandidateResult[] | Promise<CandidateResult[]>): Promise<void> => {
    let first = true; // the first part always runs: a partial report has something in it
    for (const cs of cands.parts(part)) {
      if (!first && performance.now() > due) break;
      first = false;
      const free = tally.add(cs, await run(cs));
      if (out !== undefined && free.length > 0) appendFileSync(out, free.map((l) => l + '\n').join(''));
      bar.update(tally.completed, cands.total);
    }
    bar.end();
  };
  const cpu = (): Promise<void> => inParts(4096, (cs) => searchCpu(cs, patterns));
  if (backend === 'cpu') await cpu();
  else {
    let d: Awaited<ReturnType<typeof acquireNodeDevice>> | null = null;
    try {
      d = await acquireNodeDevice();
    } catch (err) {
      if (backend === 'gpu') throw err;
    }
    if (d && (backend === 'gpu' || !d.adapter.software)) {
      try {
        const { GpuConflictSearch } = await import('../engine/conflicts-gpu.js');
        const gpu = new GpuConflictSearch(d.device);
        await inParts(1 << 16, (cs) => gpu.search(cs, patterns));
        used = `gpu (${adapterLine(d.adapter)})`;
      } finally {
        d.release();
      }
    } else {
      d?.release();
      await cpu();
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  const partial = tally.completed < cands.total;
  const target = keptVectors(patterns, tally.widest);
  const ranked = tally.ranked(target);
  const results = { length: tally.completed };
  const free = { length: tally.conflictFree };
  const excluded = tally.excluded;
  // a shard's report says which search it belongs to (layoutgpu merge checks that the shards are of one search)
  const identity = {
    property: 'conflict-free',
    options: SEARCH_OPTIONS.map((o) => [o, p.opt.get(o) ?? null]),
    enumerate: p.flags.has('--enumerate'),
    file: fileText === undefined ? null : hashText(fileText),
  };
  const shardJson = shard
    ? {
        shard: { k: shard.k, n: shard.n, first: range[0], end: range[1], of: whole.total },
        search: { key: hashText(JSON.stringify(identity)), top, out: out ?? null },
      }
    : {};
  const vecText = (v: readonly number[] | undefined): string => (v === undefined ? '-' : v.join('/'));
  const timedOut = (): number => {
    const why = `ran past --timeout ${timeoutText}; the report covers the ${results.length} candidates that completed`;
    return reportError(new LayoutError('timeout', why), io, { prefix: 'layoutgpu verify' });
  };
  if (p.flags.has('--json')) {
    io.stdout(
      JSON.stringify({
        candidates: cands.total,
        ...shardJson,
        ...(partial ? { completed: results.length, timedOut: true } : {}),
        conflictFree: free.length,
        excluded,
        vector: target,
        backend: used,
        seconds,
        ranked: ranked.slice(0, top).map((r) => ({
          layout: r.layout,
          vector: r.vectors ?? null,
          instructions: r.instructions ?? null,
          wavefronts: r.wavefronts,
          phases: r.phases,
          conflictFree: r.conflictFree,
          kept: r.kept,
          ...(r.error ? { error: r.error } : {}),
        })),
      }) + '\n',
    );
    return partial ? timedOut() : 0;
  }
  const rows = ranked
    .slice(0, top)
    .map((r, i) => [
      String(i + 1),
      vecText(r.vectors),
      String(r.instructions ?? '-'),
      String(r.wavefronts ?? '-'),
      String(r.phases ?? '-'),
      `${r.layout}${r.conflictFree ? '  conflict-free' : r.error ? `  (${r.error})` : ''}${r.wavefronts !== null && !r.kept ? '  (narrows the vector)' : ''}`,
    ]);
  const head = ['rank', 'vector', 'instructions', 'wavefronts', 'phases', 'layout'];
  const width = head.map((h, k) => Math.max(h.length, ...rows.map((r) => (k === 5 ? 0 : r[k]!.length))));
  const fmt = (r: string[]): string => r.map((c, k) => (k === 5 ? c : c.padStart(width[k]!))).join('  ');
  const lines = [
    ...(partial ? [`partial report: --timeout ${timeoutText} fired after the first ${results.length} of ${cands.total} candidates`] : []),
    `conflict-free: ${free.length} of ${results.length} candidates (${patterns.length} access pattern${patterns.length > 1 ? 's' : ''}; ${used}; ${seconds.toFixed(2)} s)`,
    ...(sideHeading !== undefined ? [`access: ${sideHeading}`] : []),
    `vector width kept: ${vecText(target)} value${target.every((v) => v === 1) ? '' : 's'} per instruction (${vecWhy(patterns, side?.form === 'copy')})`,
    ...(excluded > 0 ? [`excluded: ${excluded} not injective (two tile indices share an element: no shared-memory layout)`] : []),
    '',
    fmt(head),
  ];
  rows.forEach((r) => lines.push(fmt(r)));
  if (tally.completed > ranked.length) lines.push(`  … ${tally.completed - ranked.length} more (--top K)`);
  if (shard) lines.push(`shard ${shard.k}/${shard.n}: candidates [${range[0]}, ${range[1]}) of ${whole.total}`);
  io.stdout(lines.join('\n') + '\n');
  return partial ? timedOut() : 0;
}
