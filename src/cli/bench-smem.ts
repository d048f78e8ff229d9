/**
 * `layoutgpu bench --smem <M> --tv <TV> --elem <e> [--vec v] [--iters N] [--json]`: the tile
 * written to and read from workgroup memory through M, against the identity layout, with the
 * predicted wavefronts beside the measured time (src/throughput/smem.ts). Needs a WebGPU adapter.
 */
import type { Io } from './io.js';
import { formatLayoutFunction, parseLayoutFunction } from '../cute/composed.js';
import { acquireNodeDevice } from '../engine/node/device-node.js';
import { adapterLine } from '../engine/select.js';
import { formatSmem, runSmem } from '../throughput/smem.js';
import { parseOptions, Usage } from './args.js';
import { benchError } from './bench-error.js';
import { isIntegerText } from '../algebra/int-text.js';

const HELP = `layoutgpu bench --smem <M> --tv <TV> --elem <e> [--vec v] [--iters N] [--json]

Writes a tile into workgroup memory through the memory layout M (plain or Sw<B,M,S> o L) and
reads it back through M with the access pattern TV, verifies every read, and times it against
the same kernel through the identity layout; reports ns per warp instruction beside the
wavefronts bank_conflicts predicts (software adapters have no banks: report only).
`;

export async function runSmemCommand(argv: string[], io: Io): Promise<number> {
  let release: (() => void) | undefined;
  try {
    const a = parseOptions(argv, ['--help', '--json'], ['--smem', '--tv', '--elem', '--vec', '--iters'], 'bench --smem');
    if (a.flags.has('--help')) {
      io.stdout(HELP);
      return 0;
    }
    const mText = a.opt.get('--smem');
    const tvText = a.opt.get('--tv');
    const eText = a.opt.get('--elem');
    if (mText === undefined || tvText === undefined || eText === undefined) throw new Usage('bench --smem <M> needs --tv <TV> and --elem <bytes>');
    if (a.pos.length) throw new Usage(`bench --smem: unexpected argument '${a.pos[0]}'`);
    const num = (s: string | undefined, name: string): number | undefined => {
      if (s === undefined) return undefined;
      if (!isIntegerText(s)) throw new Usage(`${name} must be a non-negative integer, got '${s}'`);
      return Number(s);
    };
    const m = parseLayoutFunction(mText, 'M');
    const tv = parseLayoutFunction(tvText, 'TV');
    const d = await acquireNodeDevice();
    release = () => d.release();
    const r = await runSmem(
      d.device,
      { line: adapterLine(d.adapter), software: d.adapter.software },
      m,
      tv,
      num(eText, '--elem')!,
      num(a.opt.get('--vec'), '--vec'),
      num(a.opt.get('--iters'), '--iters') ?? 10,
    );
    io.stdout(a.flags.has('--json') ? JSON.stringify(r, null, 2) + '\n' : formatSmem(r, formatLayoutFunction(m)));
    return r.runs.every((x) => x.mismatches === 0) ? 0 : 1;
  } catch (e) {
    return benchError(e, io, 'bench --smem');
  } finally {
    release?.();
  }
}
