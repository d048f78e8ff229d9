/**
 * Start-up of `--backend auto` (issue 14, "Quick auto"): wall time of the whole command
 * `layoutgpu check compact "(4,8):(1,4)"` as a user runs it (node bin/layoutgpu.js, a fresh
 * process each time) with --backend cpu, auto and gpu, interleaved so that the machine's load
 * falls on all alike; medians and the auto − cpu difference (the goal: ≤ 50 ms).
 * Builds dist/ first when it is missing. Run: npx tsx bench/cli-startup.ts [--runs N] [--no-gpu]
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const runsAt = argv.indexOf('--runs');
const RUNS = runsAt >= 0 ? Number(argv[runsAt + 1]) : 15;
const choices = argv.includes('--no-gpu') ? ['cpu', 'auto'] : ['cpu', 'auto', 'gpu'];

if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });

function once(backend: string): { ms: number; line: string } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'layoutgpu.js'), 'check', 'compact', '(4,8):(1,4)', '--backend', backend], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`--backend ${backend}: exit ${r.status}: ${r.stderr}`);
  return { ms, line: r.stdout.split('\n').find((l) => l.startsWith('backend')) ?? '' };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const times = new Map<string, number[]>(choices.map((c) => [c, []]));
const lines = new Map<string, string>();
for (const c of choices) once(c); // warm the file cache
for (let i = 0; i < RUNS; i++) {
  for (const c of choices) {
    const r = once(c);
    times.get(c)!.push(r.ms);
    lines.set(c, r.line);
  }
}
console.log(`layoutgpu check compact "(4,8):(1,4)": wall time of the whole process, median of ${RUNS} (min–max)`);
for (const c of choices) {
  const t = times.get(c)!;
  console.log(
    `  --backend ${c.padEnd(4)} ${median(t).toFixed(1).padStart(7)} ms  (${Math.min(...t).toFixed(1)}–${Math.max(...t).toFixed(1)})   ${lines.get(c)}`,
  );
}
const d = median(times.get('auto')!) - median(times.get('cpu')!);
console.log(`auto − cpu: ${d.toFixed(1)} ms (goal ≤ 50 ms): ${d <= 50 ? 'met' : 'NOT met'}`);
