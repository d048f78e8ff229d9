/** Command-line options shared by the subcommands: positional arguments, flags without a
 *  value, options with one (`--name value` or `--name=value`); anything else starting with
 *  `--` is a usage error. */
export class Usage extends Error {}

export interface Parsed {
  pos: string[];
  flags: Set<string>;
  opt: Map<string, string>;
}

export function parseOptions(argv: readonly string[], flags: readonly string[], options: readonly string[], command = ''): Parsed {
  const out: Parsed = { pos: [], flags: new Set(), opt: new Map() };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) {
      out.pos.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq >= 0 ? a.slice(0, eq) : a;
    if (flags.includes(name)) {
      if (eq >= 0) throw new Usage(`${name} takes no value`);
      out.flags.add(name);
    } else if (options.includes(name)) {
      const v = eq >= 0 ? a.slice(eq + 1) : argv[++i];
      if (v === undefined) throw new Usage(`${name} needs a value`);
      out.opt.set(name, v);
    } else {
      throw new Usage(command ? `${command}: unknown option ${name} (see layoutgpu ${command} --help)` : `unknown option ${name}`);
    }
  }
  return out;
}
