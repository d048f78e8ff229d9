/**
 * `layoutgpu bench` without the CLI's registration: npx tsx bench/gpu-bench.ts <L> … [options]
 * (same arguments as `layoutgpu bench`, see src/cli/bench.ts).
 */
import { benchCommand } from '../src/cli/bench.js';

const code = await benchCommand.run(process.argv.slice(2), {
  stdout: (s) => void process.stdout.write(s),
  stderr: (s) => void process.stderr.write(s),
  isTTY: Boolean(process.stderr.isTTY),
});
process.exitCode = code;
