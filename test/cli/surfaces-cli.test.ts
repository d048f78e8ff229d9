/**
 * The command line's consistency (issue 18): an op subcommand and the evaluator command of the
 * same meaning print the same; --version; an op without arguments prints its usage (exit 2);
 * an unknown command gets "did you mean"; the adapter is named briefly; composed layouts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { randomLayout } from '../helpers/arbitraries.js';
import { mulberry32, randInt, showL } from '../helpers/brute.js';

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { stdout: (s) => void out.push(s), stderr: (s) => void err.push(s), isTTY: false }, (async function* () {})());
  return { code, out: out.join(''), err: err.join('') };
}

/** the output without its clock */
const untimed = (s: string): string => s.replace(/, \d+(\.\d+)? ms$/m, ', … ms');

/** a two-mode layout of the kit, plain or swizzled */
function randomSurfaceLayout(rng: () => number): string {
  const plain = showL(randomLayout(rng, { minLen: 2, maxLen: 2, maxShape: 6, maxStride: 8, maxDepth: 1 }));
  return rng() < 0.5 ? plain : `Sw<${randInt(rng, 1, 2)},${randInt(rng, 0, 2)},${randInt(rng, 2, 3)}> o ${plain}`;
}

describe('one output per meaning', () => {
  it('check compact and check-compact print the same, as do eval --range and eval-range, digest and tiles', async () => {
    const rng = mulberry32(0xc11);
    for (let run = 0; run < 12; run++) {
      const l = randomSurfaceLayout(rng);
      const a = await cli(['check', 'compact', l, '--backend', 'cpu']);
      const b = await cli(['check-compact', l, '--backend', 'cpu']);
      expect(a.code, a.err).toBe(0);
      expect(untimed(b.out), l).toBe(untimed(a.out));
      expect(a.out).toMatch(/^backend cpu \(\d+ threads?\), /m);
      const n = (await cli(['size', l])).out.trim();
      const hi = String(Math.min(Number(n), 5));
      const e1 = await cli(['eval', l, '--range', `1:${hi}`, '--backend', 'cpu', '--json']);
      const e2 = await cli(['eval-range', l, '1', hi, '--backend', 'cpu', '--json']);
      expect(e1.code, e1.err).toBe(0);
      expect({ ...JSON.parse(e2.out), seconds: 0 }).toEqual({ ...JSON.parse(e1.out), seconds: 0 });
      const d1 = await cli(['digest', l, '--range', `0:${n}`, '--backend', 'cpu']);
      const d2 = await cli(['digest-range', l, '0', n, '--backend', 'cpu']);
      expect(untimed(d2.out)).toBe(untimed(d1.out));
    }
    const t1 = await cli(['tiles', 'Sw<3,3,3> o (8,64):(64,1)', '(2,2):(1,8)', '--backend', 'cpu']);
    const t2 = await cli(['tile-map', 'Sw<3,3,3> o (8,64):(64,1)', '(2,2):(1,8)', '--backend', 'cpu']);
    expect(t1.code, t1.err).toBe(0);
    expect(untimed(t2.out)).toBe(untimed(t1.out));
    const c1 = await cli(['check', 'compose', '(100):(7)', '(3,5):(10,2)', '--backend', 'cpu']);
    const c2 = await cli(['check-compose', '(100):(7)', '(3,5):(10,2)', '--backend', 'cpu']);
    expect(untimed(c2.out)).toBe(untimed(c1.out));
  });
});

describe('the command line itself', () => {
  it('--version prints the package version', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const r = await cli([flag]);
      expect(r.code).toBe(0);
      expect(r.out).toBe(`layoutgpu ${pkg.version}\n`);
    }
  });

  it('an op without its arguments prints its usage and exits 2 (no bad-request)', async () => {
    for (const op of ['compose', 'logical-divide', 'crd2idx', 'eval-range']) {
      const r = await cli([op]);
      expect(r.code, op).toBe(2);
      expect(r.out).toBe('');
      expect(r.err, op).toMatch(new RegExp(`^layoutgpu: usage: layoutgpu ${op} <.*needs its arguments`));
      expect(r.err).not.toContain('bad-request');
    }
    const wrong = await cli(['eval-range', '8:1', '0']);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toMatch(/usage: layoutgpu eval-range <L> <lo> <hi>/);
  });

  it('an unknown command gets "did you mean", kebab-case and snake_case alike; snake_case tool names work', async () => {
    const r = await cli(['logical_divde', '(4,8):(1,4)', '2:1']);
    expect(r.code).toBe(2);
    expect(r.err).toContain("unknown command 'logical_divde' (did you mean 'logical-divide'?)");
    expect((await cli(['zipped-divde'])).err).toContain("did you mean 'zipped-divide'?");
    expect((await cli(['frobnicate'])).err).not.toContain('did you mean');
    const tool = await cli(['gpu_info', '--help']);
    expect(tool.code).toBe(0);
    expect(tool.out).toContain('layoutgpu gpu-info');
    expect((await cli(['composition', '(12,(4,8)):(59,(13,1))', '(3,8)'])).out).toBe('(3,(4,2)):(59,(13,1))\n');
  });

  it('the evaluator commands take composed layouts (the README example)', async () => {
    const r = await cli(['wgsl', 'Sw<3,3,3> o (8,64):(64,1)']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('Sw<3,3,3>');
    const c = await cli(['check', 'compact', 'S<3,3,3> o 0 o (8,64):(64,1)', '--backend', 'cpu']);
    expect(c.out).toMatch(/^Sw<3,3,3> o \(8,64\):\(64,1\) compact: yes/);
  });
});
