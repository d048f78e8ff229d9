/**
 * The file outputs of a command (`--svg <file>`, `--tikz <file>`, `-` for stdout), checked once
 * before anything is computed or written: a name is never empty, at most one output goes to
 * stdout (the text of a command is one document there, never two concatenated), and no two
 * outputs name the same file (the second would silently replace the first).
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Usage } from './report.js';

/** An output option as given: its name (`--svg`) and its value (undefined when absent). */
export type OutputOption = readonly [name: string, file: string | undefined];

/**
 * Checks a command's outputs; `alsoStdout` names an output that writes to stdout without a file
 * (`--ascii`). Errors: `Usage` naming the option(s).
 * @example checkOutputs([['--svg', '-'], ['--tikz', '-']]) // throws: only one … stdout
 */
export function checkOutputs(outputs: readonly OutputOption[], alsoStdout?: string): void {
  for (const [name, file] of outputs) if (file !== undefined && file.trim() === '') throw new Usage(`${name} needs a file name`);
  const toStdout = [...(alsoStdout === undefined ? [] : [alsoStdout]), ...outputs.filter(([, f]) => f === '-').map(([n]) => `${n} -`)];
  if (toStdout.length > 1) throw new Usage(`only one output can go to stdout: ${toStdout.join(' and ')} (give the others a file name)`);
  const seen = new Map<string, string>();
  for (const [name, file] of outputs) {
    if (file === undefined || file === '-') continue;
    const at = resolve(file);
    const other = seen.get(at);
    if (other !== undefined) throw new Usage(`${other} and ${name} name the same file '${file}': give each its own`);
    seen.set(at, name);
  }
}

/** Writes `text` to `file`, or to stdout for `-`; a file that cannot be written is a `Usage` naming it. */
export function writeOutput(stdout: (s: string) => void, file: string, text: string): void {
  if (file === '-') {
    stdout(text);
    return;
  }
  try {
    writeFileSync(file, text);
  } catch (err) {
    throw new Usage(`cannot write ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}
