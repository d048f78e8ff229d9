/**
 * `layoutgpu ll <op> <args…> [--json] [--form triton|gluon|mlir] [--alignment N]`: Triton's
 * linear-layout operations (docs/linear.md, "Operations") from the command line. Each LL argument
 * is any form of docs/linear.md, "Forms" (JSON, Triton's print, a Gluon repr, a #ttg.linear
 * attribute), or `-` to read it from stdin. Results print as Triton prints a layout (or `--form`),
 * `--json` gives the batch protocol's result.
 */
import { stdinTextBounded } from './stdin.js';
import { LayoutError } from '../algebra/errors.js';
import type { Json, OpContext } from '../ops/spec.js';
import { formatLL, parseLL } from '../linear/forms.js';
import { linearOps } from '../ops/linear.js';
import { withDeadline } from '../algebra/deadline.js';
import { parseDuration, parseOptions, Usage } from './args.js';
import type { Command } from './report.js';
import { reportError } from './report.js';
import { isIntegerText } from '../algebra/int-text.js';

/** The ops, their CLI arguments (L: a layout; other: a value), in --help order. */
const OPS: Record<string, readonly string[]> = {
  parse: ['L'],
  format: ['L', 'form'],
  apply: ['L', 'inputs'],
  compose: ['L', 'O'],
  product: ['I', 'O'],
  invert: ['L'],
  pseudoinvert: ['L'],
  'invert-and-compose': ['A', 'B'],
  'is-injective': ['L'],
  'is-surjective': ['L'],
  'is-invertible': ['L'],
  'divide-left': ['A', 'B'],
  'divide-right': ['A', 'B'],
  sublayout: ['L', 'inDims', 'outDims'],
  'free-variable-masks': ['L'],
};

const HELP = `layoutgpu ll <op> <args…> [--json] [--form triton|gluon|mlir] [--alignment N] [--timeout DURATION]

Triton's linear-layout operations, receiver first as Triton calls them (docs/linear.md):
${Object.entries(OPS)
  .map(([op, args]) => `  ll ${op} ${args.map((a) => `<${a}>`).join(' ')}`)
  .join('\n')}

A layout <L> is any form: the JSON object {"bases": …, "outDims": …}, Triton's print, a Gluon
DistributedLinearLayout(…) / SharedLinearLayout(…) repr, a #ttg.linear / #ttg.shared_linear
attribute; "-" reads it from stdin. <inputs> is {"register": 3, …} or register=3,lane=5;
<inDims>/<outDims> are JSON arrays or comma-separated names; <form> is triton, gluon or mlir.

  --json          the batch protocol's result (canonical JSON for layouts)
  --form F        print layout results as triton (default), gluon or mlir
  --alignment N   the alignment of a shared layout (format, --form gluon|mlir)
  --timeout D     bound the op (30s, 500ms, 2m): past it, error kind timeout
`;

/** Reads stdin once, for the one argument written `-`. */
function stdinText(): string {
  try {
    return stdinTextBounded();
  } catch (e) {
    if (e instanceof LayoutError) throw e;
    throw new Usage(`cannot read stdin: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** An LL argument: text as written (any form), `-` from stdin. */
const layoutArg = (text: string, stdin: () => string): string => (text === '-' ? stdin() : text);

/** `{"register": 3}` or `register=3,lane=5` → an object (values left for the op to check). */
function inputsArg(text: string): unknown {
  if (text.trim().startsWith('{')) return text;
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const part of text.split(',').filter((p) => p.trim() !== '')) {
    const m = /^\s*([^=\s]+)\s*=\s*(-?\d+)\s*$/.exec(part);
    if (!m) throw new Usage(`ll apply: inputs must be {"dim": value, …} or dim=value,…; got '${part.trim()}'`);
    out[m[1]!] = Number(m[2]);
  }
  return out;
}

/** `["a","b"]` or `a,b` (or empty) → an array of names. */
const namesArg = (text: string): unknown =>
  text.trim().startsWith('[')
    ? text
    : text
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');

/** The human rendering of a result. */
function human(op: string, r: Json, form: string, alignment: number | undefined): string {
  if (r === null) return 'null (no such layout)';
  if (typeof r === 'boolean' || typeof r === 'string') return typeof r === 'string' ? r.replace(/^\n/, '') : String(r);
  if (typeof r === 'object' && !Array.isArray(r) && 'bases' in r) return printed(op, r, form, alignment);
  const o = r as Record<string, number>;
  if (op === 'free-variable-masks')
    return Object.entries(o)
      .map(([k, v]) => `${k}: 0b${v.toString(2)} (${v})`)
      .join('\n');
  return Object.entries(o)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
}

/** An LL result printed in `form`; a refusal of --alignment names this op and its options, not ll_format. */
function printed(op: string, r: Json, form: string, alignment: number | undefined): string {
  try {
    return formatLL(parseLL(r), form, alignment).replace(/^\n/, '');
  } catch (e) {
    if (!(e instanceof LayoutError) || op === 'format') throw e;
    throw new LayoutError(e.kind, e.message.replace(/^ll_format \w+/, `ll ${op} --form ${form} --alignment`));
  }
}

/** No backend is needed by these ops. */
const context: OpContext = {
  backendChoice: 'cpu',
  backend: () => Promise.reject(new LayoutError('bad-request', 'll ops need no backend')),
};

export const linearCommand: Command = {
  summary: "Triton's linear-layout operations: ll parse|format|apply|compose|product|invert|… (any LL form; - for stdin)",
  async run(argv, io) {
    try {
      const p = parseOptions(argv, ['--help', '--json'], ['--form', '--alignment', '--timeout'], 'll');
      if (p.flags.has('--help')) {
        io.stdout(HELP);
        return 0;
      }
      // no op: a usage error, one line on stderr like every other subcommand's
      if (p.pos.length === 0) throw new Usage(`ll needs an op: ll <op> <args…>, op one of ${Object.keys(OPS).join(', ')} (see layoutgpu ll --help)`);
      const op = p.pos[0]!.replace(/_/g, '-');
      const names = OPS[op];
      if (!names) throw new Usage(`ll: unknown op '${p.pos[0]}' (one of ${Object.keys(OPS).join(', ')})`);
      const rest = p.pos.slice(1);
      if (rest.length !== names.length) throw new Usage(`ll ${op} takes ${names.map((a) => `<${a}>`).join(' ')}, got ${rest.length} argument(s)`);
      if (rest.filter((a) => a === '-').length > 1) throw new Usage('ll: only one argument may be read from stdin (-)');
      const form = p.opt.get('--form') ?? 'triton';
      if (!['triton', 'gluon', 'mlir'].includes(form)) throw new Usage(`--form must be triton, gluon or mlir, got '${form}'`);
      const al = p.opt.get('--alignment');
      if (al !== undefined && !isIntegerText(al.trim())) throw new Usage(`--alignment must be a positive integer, got '${al}'`);
      const alignment = al === undefined ? undefined : Number(al);
      // Triton's print has no alignment: say so for this op before running it
      if (alignment !== undefined && op !== 'format' && form === 'triton') {
        throw new Usage(`ll ${op}: --alignment goes with --form gluon or mlir (the alignment of a shared layout's form); Triton's print has none`);
      }
      const t = p.opt.get('--timeout');
      const timeoutMs = t === undefined ? undefined : parseDuration(t, '--timeout');
      let cached: string | undefined;
      const stdin = (): string => (cached ??= stdinText());
      const args: unknown[] = rest.map((text, i) => {
        const kind = names[i]!;
        if (kind === 'inputs') return inputsArg(text);
        if (kind === 'inDims' || kind === 'outDims') return namesArg(text);
        if (kind === 'form') return text;
        return layoutArg(text, stdin);
      });
      if (op === 'format' && alignment !== undefined) args.push(alignment);
      const spec = linearOps.find((o) => o.name === `ll_${op.replace(/-/g, '_')}`)!;
      await spec.load?.(); // the linear layouts' room, loaded on first use (ops/lazy.ts)
      const r = await withDeadline(timeoutMs, () => spec.run(args, context));
      io.stdout(`${p.flags.has('--json') ? JSON.stringify(r) : human(op, r, op === 'format' ? 'triton' : form, alignment)}\n`);
      return 0;
    } catch (err) {
      return reportError(err, io);
    }
  },
};
