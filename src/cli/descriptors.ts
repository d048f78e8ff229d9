/**
 * `layoutgpu tma --gmem G --smem S --dtype D [--tiler T] [--json]` and `layoutgpu gmma-desc S --dtype D --major K|MN
 * [--arch sm90|sm100] [--json]`: the descriptors of docs/descriptors.md (docs/descriptors.md) from the command line, through the
 * table's `tma_desc` and `gmma_desc` (one answer for the CLI, `batch` and the page). A readable table by default, the
 * protocol's result object with --json; failures through the one error policy (report.ts).
 */
import type { Json, OpContext } from '../ops/spec.js';
import { LayoutError } from '../algebra/errors.js';
import { descriptorOps } from '../ops/descriptors.js';
import { withDeadline } from '../algebra/deadline.js';
import { parseDuration, parseOptions, Usage } from './args.js';
import type { Command } from './report.js';
import { reportError } from './report.js';

const TMA_HELP = `layoutgpu tma --gmem G --smem S --dtype D [--tiler T] [--json] [--timeout DURATION] [--ascii | --svg F | --tikz F]

The TMA tensor map CuTe's make_tma_copy builds for a global tensor of layout G and a CTA tile S in
shared memory (both in elements; S plain or Sw<B,M,S> o L), every CuTe assert and every clause of
the driver's cuTensorMapEncodeTiled contract checked (docs/descriptors.md §2).

  --gmem G     the global tensor's layout, e.g. (4096,4096):(4096,1)
  --smem S     the shared-memory tile, e.g. Sw<3,3,3> o ((8,16),(64,1)):((64,512),(1,0))
  --dtype D    a CuTe type name: half_t, bfloat16_t, float, tfloat32_t, double, int8_t, uint8_t,
               float_e4m3_t, float_e5m2_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t
  --tiler T    the CTA tile over G (default: the sizes of S's modes), e.g. (128,64)
  --json       the batch protocol's result object
  --ascii      the boxes drawn as text over the smem and the global tile, in place of the table
  --svg F      also draw them as SVG to F, --tikz F as TikZ (--tikz-body: the tikzpicture alone);
               a file named - goes to stdout in place of the table (layoutgpu show tma --help)

Example: layoutgpu tma --gmem '(4096,4096):(4096,1)' --smem 'Sw<3,3,3> o ((8,16),(64,1)):((64,512),(1,0))' --dtype bfloat16_t
`;

const GMMA_HELP = `layoutgpu gmma-desc S --dtype D --major K|MN [--arch sm90|sm100] [--json] [--timeout DURATION]

The shared-memory matrix descriptor CuTe's GMMA::make_gmma_desc (sm90, wgmma; the default) or
UMMA::make_umma_desc (sm100, tcgen05) builds for the operand tile S of one MMA k-block: a rank-2
(MN, K) layout in elements, plain or Sw<B,M,S> o L, checked against CuTe's canonical forms
(docs/descriptors.md §3). The fields LBO and SBO are in 16-byte units.

  --dtype D    a CuTe type name (see layoutgpu tma --help)
  --major M    K or MN: the operand's contiguous direction
  --arch A     sm90 (default) or sm100
  --json       the batch protocol's result object
  S may also be the protocol's JSON object {"smem": …, "dtype": …, "major": …}.

Example: layoutgpu gmma-desc 'Sw<3,3,3> o ((8,8),16):((64,512),1)' --dtype bfloat16_t --major K
`;

/** No backend is needed by these ops. */
const context: OpContext = {
  backendChoice: 'cpu',
  backend: () => Promise.reject(new LayoutError('bad-request', 'the descriptor ops need no backend')),
};

/** Runs one descriptor op of the table on its object and prints the table or the JSON. */
async function runDescriptor(
  name: string,
  object: Record<string, unknown>,
  p: ReturnType<typeof parseOptions>,
  io: Parameters<Command['run']>[1],
): Promise<number> {
  const spec = descriptorOps.find((o) => o.name === name)!;
  const t = p.opt.get('--timeout');
  await spec.load?.(); // the descriptors' room loads on first use (ops/lazy.ts)
  const r = (await withDeadline(t === undefined ? undefined : parseDuration(t, '--timeout'), () => spec.run([object], context))) as Json;
  const json = p.flags.has('--json');
  io.stdout(`${json ? JSON.stringify(r) : spec.human!(r)}\n`);
  return 0;
}

/** the value of a required option, else a usage error naming it */
function required(p: ReturnType<typeof parseOptions>, name: string, command: string): string {
  const v = p.opt.get(name);
  if (v === undefined) throw new Usage(`${command} needs ${name} (see layoutgpu ${command} --help)`);
  return v;
}

/** `layoutgpu tma`: options to the table's tma_desc. */
export const tmaCommand: Command = {
  summary: "the TMA tensor map CuTe's make_tma_copy builds for --gmem G --smem S --dtype D [--tiler T], every rule checked",
  async run(argv, io) {
    try {
      const p = parseOptions(
        argv,
        ['--help', '--json', '--ascii', '--tikz-body'],
        ['--gmem', '--smem', '--dtype', '--tiler', '--timeout', '--svg', '--tikz'],
        'tma',
      );
      if (p.flags.has('--help')) {
        io.stdout(TMA_HELP);
        return 0;
      }
      if (p.pos.length > 0)
        throw new Usage(`tma takes options only (--gmem, --smem, --dtype, --tiler), got '${p.pos[0]!.slice(0, 40)}' (see layoutgpu tma --help)`);
      const object: Record<string, unknown> = { gmem: required(p, '--gmem', 'tma'), smem: required(p, '--smem', 'tma'), dtype: required(p, '--dtype', 'tma') };
      const tiler = p.opt.get('--tiler');
      if (tiler !== undefined) object.tiler = tiler;
      // the boxes' pictures (src/cli/show-tma.ts, loaded only for them): --ascii or a `-` file takes stdout
      const pictures = p.flags.has('--ascii') || p.opt.has('--svg') || p.opt.has('--tikz') ? await import('./show-tma.js') : null;
      if (pictures?.writeTmaPictures(p, io, false)) return 0;
      return await runDescriptor('tma_desc', object, p, io);
    } catch (err) {
      return reportError(err, io);
    }
  },
};

/** `layoutgpu gmma-desc`: S and options (or the protocol's object) to the table's gmma_desc. */
export const gmmaDescCommand: Command = {
  summary: 'the wgmma (sm90) or UMMA (sm100) smem matrix descriptor of one k-block: gmma-desc S --dtype D --major K|MN [--arch]',
  async run(argv, io) {
    try {
      const p = parseOptions(argv, ['--help', '--json'], ['--dtype', '--major', '--arch', '--timeout'], 'gmma-desc');
      if (p.flags.has('--help')) {
        io.stdout(GMMA_HELP);
        return 0;
      }
      if (p.pos.length !== 1) throw new Usage(`gmma-desc takes one smem layout S, got ${p.pos.length} argument(s) (see layoutgpu gmma-desc --help)`);
      const s = p.pos[0]!;
      if (s.trim().startsWith('{')) {
        let o: unknown;
        try {
          o = JSON.parse(s);
        } catch {
          throw new LayoutError('bad-request', `gmma_desc: the argument must be a JSON object, got '${s.slice(0, 40)}'`);
        }
        return await runDescriptor('gmma_desc', o as Record<string, unknown>, p, io);
      }
      const object: Record<string, unknown> = { smem: s, dtype: required(p, '--dtype', 'gmma-desc'), major: required(p, '--major', 'gmma-desc') };
      const arch = p.opt.get('--arch');
      if (arch !== undefined) object.arch = arch;
      return await runDescriptor('gmma_desc', object, p, io);
    } catch (err) {
      return reportError(err, io);
    }
  },
};
