/**
 * The evaluator's subcommands: `wgsl`, `gpu-info`, `eval`, `digest`, `check compact|complement|
 * compose`, `tiles`. Each takes --help and --json, runs on --backend cpu|gpu|auto (auto: the GPU
 * when the adapter is hardware), is bounded by --timeout, shows a progress bar on stderr for
 * runs over a second when stderr is a terminal, and reports backend, adapter and time.
 * Exit codes: 0 ok, 2 bad input (one line on stderr), 1 internal or GPU failure.
 */
import type { Io } from './io.js';
import { parseDuration, parseOptions, Usage, type Parsed } from './args.js';
import { withDeadline } from '../algebra/deadline.js';
import { stdoutFd, writeAllSync } from './epipe.js';
import { openSync, closeSync } from 'node:fs';
import { LayoutError } from '../algebra/errors.js';
import { concat, size, type Layout } from '../algebra/layout.js';
import { formatLayout } from '../algebra/notation.js';
import type { Backend, BackendChoice, BackendInfo, CompactReport, RunOptions } from '../engine/backend.js';
import { algebraComposite, compactJson, digestJson } from '../ops/bulk.js';
import { tileDivision } from '../engine/common.js';
import { cosizeLayoutFunction, formatLayoutFunction, innerLayout, isComposed, parseLayoutFunction, type LayoutFunction } from '../cute/composed.js';
import { plainNeeded } from '../ops/args.js';
import { topBit } from '../cute/swizzle.js';
import { KERNELS, wgslFor, type KernelName } from '../engine/codegen.js';
import { autoMayOpenDevice } from '../engine/node/gpu-nodes.js';
import { acquireNodeDevice } from '../engine/node/device-node.js';
import { adapterLine } from '../engine/select.js';
import type { Json } from '../ops/spec.js';
import { createNodeBackend } from './node-backend.js';
import { progressBar } from './progress.js';
import { parseThreads } from '../engine/node/pool.js';
import { reportError } from './report.js';

export type EvaluatorRun = (argv: string[], io: Io) => Promise<number>;

/** eval prints at most this many offsets; beyond, --out is needed */
const PRINT_LIMIT = 65_536;

function report(e: unknown, io: Io): number {
  // the reader of stdout (or of --out /dev/stdout) has gone: end quietly
  return reportError(e, io);
}

/** flags without value, options with one; anything else starting with -- is a usage error */
const parse = (argv: string[], flags: string[], options: string[]): Parsed => parseOptions(argv, flags, options);

const COMMON_FLAGS = ['--help', '--json'];
const RUN_OPTIONS = ['--backend', '--timeout', '--threads'];

function backendChoice(p: Parsed): BackendChoice {
  const b = p.opt.get('--backend') ?? 'auto';
  if (b !== 'cpu' && b !== 'gpu' && b !== 'auto') throw new Usage(`--backend must be cpu, gpu or auto, got '${b}'`);
  return b;
}

/** --timeout 30 | 30s | 500ms | 2m → milliseconds */
function timeoutMs(p: Parsed): number | undefined {
  const t = p.opt.get('--timeout');
  return t === undefined ? undefined : parseDuration(t, '--timeout');
}

/** the algebra part of a command (compose, divide) under the --timeout of the run */
function bounded<T>(p: Parsed, f: () => T): T {
  return withDeadline(timeoutMs(p), f);
}

/** A layout function argument: a plain layout or a composed Sw<B,M,S> o K o L (docs/semantics.md §9.1:
 *  every bulk check takes either). */
function layoutArg(p: Parsed, i: number, name: string): LayoutFunction {
  const s = p.pos[i];
  if (s === undefined) throw new Usage(`missing layout ${name}`);
  return parseLayoutFunction(s, name);
}

/** A plain layout argument (complement and the divisor of a tile map need one): a composed layout
 *  is `domain`, as in the ops table. */
function plainArg(p: Parsed, i: number, name: string, command: string): Layout {
  const l = layoutArg(p, i, name);
  if (isComposed(l)) throw plainNeeded(command, name, l);
  return l;
}

/** The size of a layout function: its inner layout's. */
const sizeOf = (l: LayoutFunction): number => size(innerLayout(l));

/** Whether Φ of a layout function can reach 2^32, so that its offsets need u64 in a file:
 *  cosize(L) > 2^32 for a plain layout; for a composed one its exact cosize, or where that is too
 *  long to enumerate the bound 2^max(bitlength(K + cosize(L) − 1), top bit of Sw). */
function needsU64(l: LayoutFunction): boolean {
  try {
    return cosizeLayoutFunction(l) > 2n ** 32n;
  } catch (e) {
    if (!(e instanceof LayoutError) || !isComposed(l)) throw e;
    return topBit(l.swizzle) > 32 || cosizeLayoutFunction(l.inner) + BigInt(l.offset) > 2n ** 32n;
  }
}

/** The adapter in a few words for the human line (the --json report keeps the whole description):
 *  on the GPU the driver's name before its version (`llvmpipe`) and whether it is software; on the
 *  CPU its thread count. Example: briefAdapter({ backend: 'gpu', adapter: 'mesa / software / llvmpipe: Mesa 25 (software)' })
 *  = 'llvmpipe, software'. */
export function briefAdapter(info: BackendInfo): string {
  const a = info.adapter;
  if (info.backend === 'cpu') {
    const threads = /(\d+) threads?/.exec(a);
    return threads ? `${threads[1]} thread${threads[1] === '1' ? '' : 's'}` : 'JavaScript';
  }
  const software = a.endsWith('(software)');
  const parts = a.replace(/ \(software\)$/, '').split(' / ');
  const name = (parts[parts.length - 1] ?? '').split(/[:(]/)[0]!.trim() || a;
  return software ? `${name}, software` : name;
}

function expectArgs(p: Parsed, min: number, max: number, usage: string): void {
  if (p.pos.length < min || p.pos.length > max) throw new Usage(`usage: ${usage}`);
}

function parseRange(p: Parsed, n: number): [number, number] {
  const r = p.opt.get('--range');
  if (r === undefined) return [0, n];
  const m = /^\s*(\d*)\s*:\s*(\d*)\s*$/.exec(r);
  if (!m) throw new Usage(`--range takes lo:hi (integers, either may be omitted), got '${r}'`);
  const lo = m[1] === '' ? 0 : Number(m[1]);
  const hi = m[2] === '' ? n : Number(m[2]);
  if (!Number.isSafeInteger(lo) || !Number.isSafeInteger(hi) || lo > hi || hi > n) {
    throw new LayoutError('domain', `range ${r} is not within 0 ≤ lo ≤ hi ≤ size = ${n}`);
  }
  return [lo, hi];
}

interface RunContext {
  backend: Backend;
  opts: RunOptions;
  seconds(): number;
  /** the report fields: backend, adapter, seconds */
  meta(): { backend: string; adapter: string; seconds: number };
  /** one line: backend, adapter and time */
  line(): string;
  close(): void;
}

/** Creates the backend, the progress bar and the clock of one run. */
async function start(p: Parsed, io: Io, label: string): Promise<RunContext> {
  // every option is checked before a device is opened
  const choice = backendChoice(p);
  const ms = timeoutMs(p);
  const threads = parseThreads(p.opt.get('--threads'));
  const backend = await createNodeBackend(choice, threads);
  const bar = progressBar(io, label);
  const t0 = performance.now();
  let t1: number | null = null;
  const seconds = () => ((t1 ?? performance.now()) - t0) / 1000;
  return {
    backend,
    opts: { ...(ms !== undefined ? { timeoutMs: ms } : {}), onProgress: (d, t) => bar.update(d, t) },
    seconds,
    meta: () => ({ backend: backend.info.backend, adapter: backend.info.adapter, seconds: Number(seconds().toFixed(6)) }),
    line: () => `backend ${backend.info.backend} (${briefAdapter(backend.info)}), ${(seconds() * 1000).toFixed(1)} ms`,
    close() {
      t1 ??= performance.now();
      bar.end();
      backend.dispose();
    },
  };
}

/** runs `body` with a started backend; stops the clock before printing */
async function withRun(p: Parsed, io: Io, label: string, body: (rc: RunContext) => Promise<number>): Promise<number> {
  const rc = await start(p, io, label);
  try {
    return await body(rc);
  } finally {
    rc.close();
  }
}

function help(io: Io, text: string): number {
  io.stdout(text.trimStart() + '\n');
  return 0;
}

/** A command called without what it needs: its usage on stderr, in one block, and exit 2 (stdout stays empty). */
function usage(io: Io, text: string): number {
  io.stderr(text.trimStart() + '\n');
  return 2;
}

const RUN_HELP = `
  --backend cpu|gpu|auto  where to run (default auto: the GPU when the adapter is hardware)
  --timeout DURATION      give up after 30, 30s, 500ms, 2m (reports what completed)
  --threads N             CPU worker threads (default: the available cores; 1: this thread)
  --json                  one JSON object on stdout, with backend, adapter and seconds`;

// ---------------------------------------------------------------------------------------------

export const runWgsl: EvaluatorRun = async (argv, io) => {
  try {
    const p = parse(argv, COMMON_FLAGS, ['--kernel', '--adapter']);
    if (p.flags.has('--help')) {
      return help(
        io,
        `
layoutgpu wgsl <L> [--kernel eval|digest|compact|compose|tiles] [--adapter software|hardware] [--json]
layoutgpu wgsl --kernel interpret|conflicts [--json]

Prints the generated WGSL compute shader of layout L, with L in its header comment; shape and
stride are folded in as constants.
  --kernel compose   layoutgpu wgsl <B> <A> [<C>] --kernel compose: certifies C = B∘A
                     (C from the algebra when omitted; with B alone, A is the identity)
  --kernel tiles     layoutgpu wgsl <A> <B> --kernel tiles: the tile map of A ⊘ B
  --kernel interpret the verify interpreter (one kernel for thousands of packed candidates;
                     no layout argument)
  --kernel conflicts the swizzle search of verify conflict-free (no layout argument)
  --adapter A        the shader for a software adapter (Φ per index: what llvmpipe runs
                     fastest) or a hardware GPU (coordinates carried by the grid's stride in
                     the mixed radix); default: this machine's (software without a GPU
                     device node), as the GPU backend would generate it here`,
      );
    }
    const k = (p.opt.get('--kernel') ?? 'eval') as KernelName | 'interpret' | 'conflicts';
    // the generic kernels: one source for every layout (the verify interpreter, the swizzle search)
    if (k === 'interpret' || k === 'conflicts') {
      expectArgs(p, 0, 0, `layoutgpu wgsl --kernel ${k}`);
      const generic = (await import('../engine/shaders.generated.js')).SHADERS[k];
      io.stdout(p.flags.has('--json') ? JSON.stringify({ kernel: k, source: generic }) + '\n' : generic.endsWith('\n') ? generic : generic + '\n');
      return 0;
    }
    const adapter = p.opt.get('--adapter') ?? (autoMayOpenDevice() ? 'hardware' : 'software');
    if (adapter !== 'software' && adapter !== 'hardware') throw new Usage(`--adapter must be software or hardware, got '${adapter}'`);
    const software = adapter === 'software';
    if (!KERNELS.includes(k)) throw new Usage(`--kernel must be one of ${[...KERNELS, 'interpret', 'conflicts'].join(', ')}, got '${k}'`);
    let source: string;
    if (k === 'compose') {
      expectArgs(p, 1, 3, 'layoutgpu wgsl <B> [<A> [<C>]] --kernel compose');
      const b = layoutArg(p, 0, 'B');
      const a = p.pos[1] !== undefined ? layoutArg(p, 1, 'A') : undefined;
      const c = p.pos[2] !== undefined ? layoutArg(p, 2, 'C') : a ? algebraComposite(b, a) : b;
      source = wgslFor(b, 'compose', { b, ...(a ? { a } : {}), c }, software);
    } else if (k === 'tiles') {
      expectArgs(p, 2, 2, 'layoutgpu wgsl <A> <B> --kernel tiles');
      const a = layoutArg(p, 0, 'A');
      const b = plainArg(p, 1, 'B', 'wgsl --kernel tiles');
      source = wgslFor(a, 'tiles', { b, divided: tileDivision(a, b).divided }, software);
    } else {
      expectArgs(p, 1, 1, `layoutgpu wgsl <L> --kernel ${k}`);
      source = wgslFor(layoutArg(p, 0, 'L'), k, undefined, software);
    }
    io.stdout(p.flags.has('--json') ? JSON.stringify({ kernel: k, source }) + '\n' : source.endsWith('\n') ? source : source + '\n');
    return 0;
  } catch (e) {
    return report(e, io);
  }
};

export const runGpuInfo: EvaluatorRun = async (argv, io) => {
  try {
    const p = parse(argv, COMMON_FLAGS, ['--dawn']);
    if (p.flags.has('--help')) {
      return help(
        io,
        `
layoutgpu gpu-info [--json] [--dawn TOGGLE,...]

Prints the WebGPU adapter: vendor, architecture, description, whether it is a software
rasteriser (then --backend auto runs on the CPU), the Vulkan ICD chosen, and the limits the
evaluator uses. --dawn passes options to Dawn, e.g. disable-dawn-features=timestamp_quantization.`,
      );
    }
    expectArgs(p, 0, 0, 'layoutgpu gpu-info [--json]');
    const dawn =
      p.opt
        .get('--dawn')
        ?.split(',')
        .filter((s) => s) ?? [];
    const t0 = performance.now();
    const d = await acquireNodeDevice({ dawn });
    const ms = performance.now() - t0;
    try {
      const a = d.adapter;
      const info = {
        vendor: a.vendor,
        architecture: a.architecture,
        device: a.device,
        description: a.description,
        software: a.software,
        icd: a.icd ?? null,
        limits: a.limits,
        autoBackend: a.software ? 'cpu' : 'gpu',
        adapter: adapterLine(a),
        seconds: Number((ms / 1000).toFixed(6)),
      };
      if (p.flags.has('--json')) io.stdout(JSON.stringify(info) + '\n');
      else {
        io.stdout(
          [
            `adapter       ${info.adapter}`,
            `vendor        ${a.vendor || '-'}`,
            `architecture  ${a.architecture || '-'}`,
            `device        ${a.device || '-'}`,
            `description   ${a.description || '-'}`,
            `software      ${a.software ? 'yes (--backend auto uses the CPU)' : 'no (--backend auto uses the GPU)'}`,
            `vulkan icd    ${a.icd ?? '(default)'}`,
            `limits        maxStorageBufferBindingSize ${a.limits.maxStorageBufferBindingSize}, maxBufferSize ${a.limits.maxBufferSize}, maxComputeWorkgroupsPerDimension ${a.limits.maxComputeWorkgroupsPerDimension}`,
            `acquired in   ${ms.toFixed(1)} ms`,
          ].join('\n') + '\n',
        );
      }
    } finally {
      d.release();
    }
    return 0;
  } catch (e) {
    return report(e, io);
  }
};

/** writes offsets little-endian: u32 while cosize ≤ 2^32, else u64 */
class OffsetFile {
  private fd: number;
  bytes = 0;
  constructor(
    path: string,
    readonly width: 4 | 8,
  ) {
    try {
      this.fd = stdoutFd(path) ?? openSync(path, 'w');
    } catch (e) {
      throw new Usage(`cannot write ${path}: ${(e as Error).message}`);
    }
  }
  write(v: Uint32Array | Float64Array): void {
    let buf: Uint8Array;
    if (this.width === 4) {
      const u = v instanceof Uint32Array ? v : Uint32Array.from(v);
      buf = new Uint8Array(u.buffer, u.byteOffset, u.byteLength);
    } else {
      const u = new BigUint64Array(v.length);
      for (let i = 0; i < v.length; i++) u[i] = BigInt(v[i]!);
      buf = new Uint8Array(u.buffer);
    }
    // typed arrays are little-endian on every platform Node runs on
    writeAllSync(this.fd, buf);
    this.bytes += buf.length;
  }
  close(): void {
    if (this.fd !== 1) closeSync(this.fd);
  }
}

export const runEval: EvaluatorRun = async (argv, io) => {
  try {
    const p = parse(argv, COMMON_FLAGS, [...RUN_OPTIONS, '--range', '--out']);
    if (p.flags.has('--help')) {
      return help(
        io,
        `
layoutgpu eval <L> [--range lo:hi] [--out FILE]

Φ_L over [lo, hi) (default: the whole layout). With --out, written to FILE as little-endian
u32 (u64 when cosize(L) > 2^32), any length; without, printed (at most ${PRINT_LIMIT} offsets).` + RUN_HELP,
      );
    }
    expectArgs(p, 1, 1, 'layoutgpu eval <L> [--range lo:hi] [--out FILE]');
    const l = layoutArg(p, 0, 'L');
    const [lo, hi] = parseRange(p, sizeOf(l));
    const out = p.opt.get('--out');
    if (out === undefined && hi - lo > PRINT_LIMIT) {
      throw new LayoutError('domain', `eval prints at most ${PRINT_LIMIT} offsets (asked for ${hi - lo}); write them with --out FILE`);
    }
    const width: 4 | 8 = needsU64(l) ? 8 : 4;
    return await withRun(p, io, 'eval', async (rc) => {
      let values: number[] | null = null;
      let file: OffsetFile | null = null;
      if (out !== undefined) {
        file = new OffsetFile(out, width);
        try {
          await rc.backend.evalChunks(l, lo, hi, (_s, v) => file!.write(v), rc.opts);
        } finally {
          file.close();
        }
      } else values = Array.from(await rc.backend.evalRange(l, lo, hi, rc.opts));
      rc.close();
      const base = { layout: formatLayoutFunction(l), range: [lo, hi] as Json };
      if (p.flags.has('--json')) {
        const body: Record<string, Json> = file
          ? { ...base, out: out!, format: width === 4 ? 'u32le' : 'u64le', bytes: file.bytes }
          : { ...base, values: values! };
        io.stdout(JSON.stringify({ ...body, ...rc.meta() }) + '\n');
      } else if (file) {
        io.stdout(
          `wrote ${hi - lo} offsets of ${formatLayoutFunction(l)} [${lo}, ${hi}) to ${out} as ${width === 4 ? 'u32' : 'u64'} little-endian (${file.bytes} bytes)\n${rc.line()}\n`,
        );
      } else {
        io.stdout(`${values!.join(' ')}\n${rc.line()}\n`);
      }
      return 0;
    });
  } catch (e) {
    return report(e, io);
  }
};

export const runDigest: EvaluatorRun = async (argv, io) => {
  try {
    const p = parse(argv, COMMON_FLAGS, [...RUN_OPTIONS, '--range']);
    if (p.flags.has('--help')) {
      return help(
        io,
        `
layoutgpu digest <L> [--range lo:hi]

Count, exact sum, min and max of Φ_L over [lo, hi) (default: the whole layout), any length
(beyond 2^36 indices by the closed form).` + RUN_HELP,
      );
    }
    expectArgs(p, 1, 1, 'layoutgpu digest <L> [--range lo:hi]');
    const l = layoutArg(p, 0, 'L');
    const [lo, hi] = parseRange(p, sizeOf(l));
    return await withRun(p, io, 'digest', async (rc) => {
      const d = await rc.backend.digestRange(l, lo, hi, rc.opts);
      rc.close();
      if (p.flags.has('--json')) {
        io.stdout(JSON.stringify({ layout: formatLayoutFunction(l), range: [lo, hi], ...(digestJson(d) as Record<string, Json>), ...rc.meta() }) + '\n');
      } else {
        io.stdout(`count ${d.count}\nsum   ${d.sum}\nmin   ${d.min ?? '-'}\nmax   ${d.max ?? '-'}\n${rc.line()}\n`);
      }
      return 0;
    });
  } catch (e) {
    return report(e, io);
  }
};

function compactText(r: CompactReport, what: string): string {
  const w =
    r.witness === null ? '' : r.witness.length === 2 ? `\nwitness      Φ(${r.witness[0]}) = Φ(${r.witness[1]})` : `\nwitness      Φ(${r.witness[0]}) ≥ size`;
  return `${what}: ${r.compact ? 'yes' : 'no'}\nimage        ${r.image}\nout of range ${r.outOfRange}\ncollisions   ${r.collisions}${w}`;
}

export const runCheck: EvaluatorRun = async (argv, io) => {
  try {
    const p = parse(argv, COMMON_FLAGS, RUN_OPTIONS);
    const sub = p.pos.shift();
    if (p.flags.has('--help') || sub === undefined) {
      // --help: the help on stdout (0); no check named: the same usage, on stderr in one block (2), nothing on stdout
      return (p.flags.has('--help') ? help : usage)(
        io,
        `
layoutgpu check compact <L>          whether Φ_L is a bijection of [0, size): image size,
                                     out-of-range and collision counts, a witness
layoutgpu check complement <A> <B>   whether (A, B) is compact (B a complement of A), with
                                     witnesses indexing the concatenation: x = a + size(A)·b
layoutgpu check compose <B> <A> [<C>]
                                     certifies C = B∘A (from the algebra unless given):
                                     Φ_C(x) = Φ_B(Φ_A(x)) for every x < size(A), no array
                                     materialised; the first mismatching x` + RUN_HELP,
      );
    }
    const json = p.flags.has('--json');
    if (sub === 'compact' || sub === 'complement') {
      let l: LayoutFunction;
      let base: Record<string, Json>;
      if (sub === 'compact') {
        expectArgs(p, 1, 1, 'layoutgpu check compact <L>');
        l = layoutArg(p, 0, 'L');
        base = { check: 'compact', layout: formatLayoutFunction(l) };
      } else {
        expectArgs(p, 2, 2, 'layoutgpu check complement <A> <B>');
        const a = plainArg(p, 0, 'A', 'check complement');
        const b = plainArg(p, 1, 'B', 'check complement');
        l = concat(a, b);
        base = { check: 'complement', A: formatLayout(a), B: formatLayout(b) };
      }
      return await withRun(p, io, `check ${sub}`, async (rc) => {
        const r = await rc.backend.checkCompact(l, rc.opts);
        rc.close();
        if (json) io.stdout(JSON.stringify({ ...base, ...(compactJson(r) as Record<string, Json>), ...rc.meta() }) + '\n');
        else io.stdout(`${compactText(r, sub === 'compact' ? `${base.layout} compact` : `${base.B} complements ${base.A}`)}\n${rc.line()}\n`);
        return 0;
      });
    }
    if (sub === 'compose') {
      expectArgs(p, 2, 3, 'layoutgpu check compose <B> <A> [<C>]');
      const b = layoutArg(p, 0, 'B');
      const a = layoutArg(p, 1, 'A');
      const given = p.pos[2] !== undefined;
      const c = given ? layoutArg(p, 2, 'C') : bounded(p, () => algebraComposite(b, a));
      return await withRun(p, io, 'check compose', async (rc) => {
        const r = await rc.backend.checkCompose(b, a, c, rc.opts);
        rc.close();
        const res = { equal: r.equal, mismatches: r.mismatches, witness: r.witness, composite: formatLayoutFunction(c) };
        if (json) io.stdout(JSON.stringify({ check: 'compose', B: formatLayoutFunction(b), A: formatLayoutFunction(a), given, ...res, ...rc.meta() }) + '\n');
        else {
          io.stdout(
            `C = ${res.composite}${given ? '' : ' (B∘A by the algebra)'}\n` +
              `Φ_C = Φ_B∘Φ_A on all ${sizeOf(a)} indices: ${r.equal ? 'yes' : 'no'}\n` +
              `mismatches ${r.mismatches}${r.witness !== null ? `\nwitness    x = ${r.witness}` : ''}\n${rc.line()}\n`,
          );
        }
        return 0;
      });
    }
    throw new Usage(`check takes compact, complement or compose, got '${sub}'`);
  } catch (e) {
    return report(e, io);
  }
};

export const runTiles: EvaluatorRun = async (argv, io) => {
  try {
    const p = parse(argv, COMMON_FLAGS, [...RUN_OPTIONS, '--out']);
    if (p.flags.has('--help')) {
      return help(
        io,
        `
layoutgpu tiles <A> <B> [--out FILE]

The tile address map of A ⊘ B: offset[tile][element] = Φ_{A⊘B}(element + size(B)·tile), one
tile per line (or to FILE as little-endian u32, u64 when cosize > 2^32, tile-major), with the
check that the tiles together hit A's image exactly as often as A does.` + RUN_HELP,
      );
    }
    expectArgs(p, 2, 2, 'layoutgpu tiles <A> <B> [--out FILE]');
    const a = layoutArg(p, 0, 'A');
    const b = plainArg(p, 1, 'B', 'tiles');
    const out = p.opt.get('--out');
    const divided = bounded(p, () => tileDivision(a, b).divided);
    return await withRun(p, io, 'tiles', async (rc) => {
      const t = await rc.backend.tileMap(a, b, rc.opts);
      rc.close();
      let bytes = 0;
      if (out !== undefined) {
        const f = new OffsetFile(out, needsU64(divided) ? 8 : 4);
        try {
          for (const row of t.offsets) f.write(Float64Array.from(row));
        } finally {
          f.close();
        }
        bytes = f.bytes;
      }
      const covers = t.covers ?? null;
      if (p.flags.has('--json')) {
        const body: Record<string, Json> = {
          A: formatLayoutFunction(a),
          B: formatLayout(b),
          divided: formatLayoutFunction(divided),
          tileSize: t.tileSize,
          tiles: t.tiles,
          covers,
        };
        if (out !== undefined) Object.assign(body, { out, bytes });
        else body.offsets = t.offsets;
        io.stdout(JSON.stringify({ ...body, ...rc.meta() }) + '\n');
      } else {
        const head = `A ⊘ B = ${formatLayoutFunction(divided)}: ${t.tiles} tiles of ${t.tileSize}`;
        const rows =
          out !== undefined
            ? `wrote ${t.tiles}×${t.tileSize} offsets to ${out} (${bytes} bytes)`
            : t.offsets.map((r, k) => `tile ${k}: ${r.join(' ')}`).join('\n');
        io.stdout(`${head}\n${rows}\ntiles cover A's image exactly as A does: ${covers === null ? 'not checked' : covers ? 'yes' : 'NO'}\n${rc.line()}\n`);
      }
      return covers === false ? 1 : 0;
    });
  } catch (e) {
    return report(e, io);
  }
};

export const evaluatorCommands: Record<string, { summary: string; run: EvaluatorRun }> = {
  wgsl: { summary: 'the generated WGSL shader of a layout (--kernel eval|digest|compact|compose|tiles)', run: runWgsl },
  'gpu-info': { summary: 'the WebGPU adapter: vendor, architecture, software or not, limits used', run: runGpuInfo },
  eval: { summary: 'Φ over a range, printed or to a file (--out) as u32/u64 little-endian', run: runEval },
  digest: { summary: 'count, exact sum, min and max of Φ over a range', run: runDigest },
  check: { summary: 'check compact <L> | complement <A> <B> | compose <B> <A> [<C>], in bulk', run: runCheck },
  tiles: { summary: 'the tile address map of A ⊘ B, with the check that the tiles cover A', run: runTiles },
};
