/** Command-line options shared by the subcommands: positional arguments, flags without a
 *  value, options with one (`--name value` or `--name=value`); anything else starting with
 *  `--` is a usage error. */
import { Usage } from './report.js';

export { Usage };

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

/**
 * A duration option in milliseconds: `30` (seconds), `30s`, `1.5s`, `500ms`, `2m`. It must be
 * positive and finite; anything else is a usage error naming the option.
 * Example: parseDuration('500ms', '--timeout') = 500.
 */
export function parseDuration(text: string, option: string): number {
  const m = /^(\d+(?:\.\d+)?|\.\d+)(ms|s|m)?$/.exec(text.trim());
  const v = m ? Number(m[1]) : NaN;
  const ms = m?.[2] === 'ms' ? v : m?.[2] === 'm' ? v * 60_000 : v * 1000;
  if (!m || !(ms > 0) || !Number.isFinite(ms) || ms > 2 ** 31 - 1) {
    throw new Usage(`${option} takes a positive duration such as 30, 30s, 500ms or 2m (at most 24 days), got '${text}'`);
  }
  return ms;
}
