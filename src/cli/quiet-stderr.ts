/**
 * Dawn (the `webgpu` package) prints lines such as
 *   Warning: maxDynamicUniformBuffersPerPipelineLayout artificially reduced from 1000000 to 16 …
 * on the process's stderr from native code when it opens a Vulkan adapter (lavapipe does
 * this). JavaScript cannot intercept a native write to fd 2, so a command that may open a
 * device runs as a child process whose stderr passes through `StderrFilter`, which drops
 * exactly those lines and forwards everything else at once (progress bars included).
 */
import { spawn } from 'node:child_process';

/** A line of Dawn's start-up noise (never one of ours: ours start with `layoutgpu`). */
export const DAWN_NOISE = /^Warning: \w+ artificially reduced from \d+ to \d+/;

/** The environment variable that marks the child (so that it does not spawn again). */
export const FILTERED_ENV = 'LAYOUTGPU_STDERR_FILTERED';
/** Set in the child when the parent's stderr is a terminal (progress bars). */
export const TTY_ENV = 'LAYOUTGPU_STDERR_TTY';

/** Forwards text to `write`, dropping whole lines that match DAWN_NOISE. A partial line is
 *  held back only while it could still become such a line. */
export class StderrFilter {
  private held = '';
  constructor(private readonly write: (s: string) => void) {}

  push(chunk: string): void {
    let text = this.held + chunk;
    this.held = '';
    let out = '';
    for (;;) {
      const nl = text.indexOf('\n');
      if (nl < 0) break;
      const line = text.slice(0, nl + 1);
      if (!DAWN_NOISE.test(line)) out += line;
      text = text.slice(nl + 1);
    }
    // a partial line: hold it while it may be the start of a Dawn warning
    if (text !== '' && ('Warning: '.startsWith(text) || text.startsWith('Warning: '))) this.held = text;
    else out += text;
    if (out) this.write(out);
  }

  end(): void {
    if (this.held && !DAWN_NOISE.test(this.held)) this.write(this.held);
    this.held = '';
  }
}

/**
 * Whether the command line may load Dawn (and so needs the filter): gpu-info; verify and bench
 * unless `--backend cpu`; the evaluator's commands and the ops of `deviceOps` with `--backend
 * gpu`, or `auto` (the default) unless `softwareOnly` (auto then decides without Dawn, see
 * device-node.ts probeNodeAdapter); `batch` with `--backend gpu`, or `auto` unless
 * `softwareOnly`; `plan` likewise (its default is cpu). `--help` never loads it.
 * Example: mayOpenDevice(['check', 'compact', '4:1', '--backend', 'gpu'], ops, true) = true.
 */
export function mayOpenDevice(argv: readonly string[], deviceOps: ReadonlySet<string>, softwareOnly = false): boolean {
  const [cmd, ...rest] = argv;
  if (cmd === undefined || rest.includes('--help') || rest.includes('-h')) return false;
  const backend = optionValue(rest, '--backend');
  if (cmd === 'batch') return backend === 'gpu' || (backend === 'auto' && !softwareOnly);
  if (cmd === 'gpu-info') return true;
  if (cmd === 'verify' || cmd === 'bench') return backend !== 'cpu';
  if (cmd === 'plan') return backend === 'gpu' || (backend === 'auto' && !softwareOnly);
  const tools = new Set(['eval', 'digest', 'check', 'tiles']);
  if (tools.has(cmd) || deviceOps.has(cmd.replace(/-/g, '_'))) return backend === 'gpu' || (backend !== 'cpu' && !softwareOnly);
  return false;
}

function optionValue(args: readonly string[], name: string): string | undefined {
  let v: string | undefined;
  args.forEach((a, i) => {
    if (a === name) v = args[i + 1];
    else if (a.startsWith(`${name}=`)) v = a.slice(name.length + 1);
  });
  return v;
}

/**
 * Runs this same CLI (`process.argv[1]`) with `argv` as a child process: stdin and stdout
 * inherited, stderr through the filter. Resolves to the child's exit status; a child ended by
 * a signal ends this process with the same signal.
 */
export function runFiltered(argv: readonly string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...argv], {
      stdio: ['inherit', 'inherit', 'pipe'],
      env: { ...process.env, [FILTERED_ENV]: '1', [TTY_ENV]: process.stderr.isTTY ? '1' : '' },
    });
    const filter = new StderrFilter((s) => {
      try {
        process.stderr.write(s);
      } catch {
        /* stderr gone: nothing to tell */
      }
    });
    process.stderr.on('error', () => {});
    child.stderr!.setEncoding('utf8').on('data', (d: string) => filter.push(d));
    const forward = (sig: NodeJS.Signals) => () => child.kill(sig);
    for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, forward(sig));
    child.on('error', (e) => {
      filter.push(`layoutgpu: internal error: could not start: ${e.message}\n`);
      resolve(1);
    });
    child.on('close', (code, signal) => {
      filter.end();
      if (signal) {
        for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.removeAllListeners(sig);
        process.kill(process.pid, signal);
      }
      resolve(code ?? 1);
    });
  });
}
