/**
 * `layoutgpu ll-from-encoding '<#ttg.… attribute>' <shape> [--json]`: the op ll_from_encoding
 * (docs/linear.md, "Encodings") with the shape written as on the command line, `128x64`, or as a
 * JSON array `[128,64]`. Prints Triton's print of the LL, or the canonical JSON object with --json.
 */
import { LayoutError } from '../algebra/errors.js';
import { parseShapeText } from '../linear/attr.js';
import { opsByName, runOpDirect, type Json } from '../ops/table.js';
import type { Command } from './commands.js';
import { makeContext } from './context.js';

const HELP = `layoutgpu ll-from-encoding <attr> <shape> [--json]

Triton's toLinearLayout(shape, attr): the linear layout of a #ttg encoding (blocked, slice,
nvidia_mma, dot_op, amd_mfma, swizzled_shared, nvmma_shared, linear, shared_linear) over a
shape such as 128x64 (or [128,64], or tensor<128x64xf16> as a TTGIR dump prints it). Prints Triton's print of the layout; --json the canonical
JSON object of the batch protocol.
`;

/** The shape in the one shape syntax (`128x64`, `[128,64]`, `tensor<128x64xf16>`: linear/attr.ts) as [128, 64]. */
export const shapeFromText = (text: string): number[] => parseShapeText(text, 'll-from-encoding: the shape').shape;

export const llEncodingCommand: Command = {
  summary: "Triton's toLinearLayout of a #ttg encoding over a shape such as 128x64 (--json: the canonical object)",
  async run(argv, io) {
    const args = [...argv];
    if (args.includes('--help')) {
      io.stdout(HELP);
      return 0;
    }
    const json = args.includes('--json');
    const rest = args.filter((a) => a !== '--json');
    const unknown = rest.find((a) => a.startsWith('--'));
    if (unknown !== undefined) throw new LayoutError('bad-request', `ll-from-encoding: unknown option ${unknown}`);
    if (rest.length !== 2) throw new LayoutError('bad-request', `ll_from_encoding takes 2 argument(s), got ${rest.length}`);
    const ctx = makeContext('cpu');
    try {
      const r = (await runOpDirect('ll_from_encoding', [rest[0], shapeFromText(rest[1]!)], ctx)) as Json;
      const spec = opsByName.get('ll_from_encoding')!;
      io.stdout((json || !spec.human ? JSON.stringify(r) : spec.human(r)) + '\n');
    } finally {
      await ctx.dispose();
    }
    return 0;
  },
};
