/** The evaluator's subcommands, called as main.ts calls them (exit codes, --json, --out). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluatorCommands, runCheck, runDigest, runEval, runTiles, runWgsl } from '../../src/cli/evaluator.js';
import { progressBar } from '../../src/cli/progress.js';
import { scratchDir } from '../helpers/tmp.js';

function io(isTTY = false) {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (s: string) => void out.push(s), stderr: (s: string) => void err.push(s), isTTY } };
}

const dir = scratchDir('layoutgpu-cli-');

describe('evaluator CLI', () => {
  it('lists its commands, each with --help', async () => {
    expect(Object.keys(evaluatorCommands).sort()).toEqual(['check', 'digest', 'eval', 'gpu-info', 'tiles', 'wgsl']);
    for (const [name, c] of Object.entries(evaluatorCommands)) {
      const t = io();
      expect(await c.run(['--help'], t.io), name).toBe(0);
      expect(t.out.join(''), name).toContain('layoutgpu');
    }
  });

  it('eval prints, writes u32/u64 little-endian files, and reports backend, adapter and time', async () => {
    const t = io();
    expect(await runEval(['(4,8):(1,4)', '--range', '3:9', '--backend', 'cpu', '--json'], t.io)).toBe(0);
    const j = JSON.parse(t.out.join(''));
    expect(j.values).toEqual([3, 4, 5, 6, 7, 8]);
    expect(j.backend).toBe('cpu');
    expect(typeof j.adapter).toBe('string');
    expect(typeof j.seconds).toBe('number');
    const f32 = join(dir, 'a.bin');
    expect(await runEval(['(3,5):(5,1)', '--out', f32, '--backend', 'cpu'], io().io)).toBe(0);
    expect(Array.from(new Uint32Array(Uint8Array.from(readFileSync(f32)).buffer))).toEqual([0, 5, 10, 1, 6, 11, 2, 7, 12, 3, 8, 13, 4, 9, 14]);
    const f64 = join(dir, 'b.bin');
    expect(await runEval(['(2,2):(1,8589934592)', '--out', f64, '--backend', 'cpu'], io().io)).toBe(0);
    expect(Array.from(new BigUint64Array(Uint8Array.from(readFileSync(f64)).buffer))).toEqual([0n, 1n, 8589934592n, 8589934593n]);
  });

  it('wgsl prints the walk of either adapter, and the generic kernels (interpreter, swizzle search)', async () => {
    const c = '(11,13,15,17,19,21):(315,58905,1,3465,765765,15)';
    const soft = io();
    expect(await runWgsl([c, '--adapter', 'software'], soft.io)).toBe(0);
    expect(soft.out.join('')).toContain('Φ per index (the walk for a software adapter)');
    expect(soft.out.join('')).not.toContain('select(');
    const hard = io();
    expect(await runWgsl([c, '--adapter', 'hardware'], hard.io)).toBe(0);
    expect(hard.out.join('')).toContain('a carry moves the offset by');
    // the generic kernels as shaders/ holds them (through the generated table)
    for (const k of ['interpret', 'conflicts'] as const) {
      const src = readFileSync(new URL(`../../shaders/${k}.wgsl`, import.meta.url), 'utf8');
      const t = io();
      expect(await runWgsl(['--kernel', k], t.io), k).toBe(0);
      expect(t.out.join('').trimEnd(), k).toBe(src.trimEnd());
    }
    for (const argv of [
      [c, '--adapter', 'tpu'],
      ['4:1', '--kernel', 'interpret'],
      ['4:1', '--kernel', 'bogus'],
    ]) {
      const t = io();
      expect(await runWgsl(argv, t.io), argv.join(' ')).toBe(2);
      expect(t.err.join('').trim().split('\n'), argv.join(' ')).toHaveLength(1);
    }
  });

  it('bad input exits 2 with one line on stderr', async () => {
    for (const argv of [['(4,8):(1,4)', '--range', '3:99'], ['(4,8'], ['(4,8):(1,4)', '--bogus'], ['(4,8):(1,4)', '--backend', 'tpu'], []]) {
      const t = io();
      expect(await runEval([...argv], t.io), argv.join(' ')).toBe(2);
      expect(t.err.join('').trim().split('\n')).toHaveLength(1);
    }
    const t = io();
    expect(await runCheck(['compose', '(4):(1)', '(8):(1)', '--backend', 'cpu'], t.io)).toBe(2);
  });

  it('digest, checks and tiles answer in text and JSON', async () => {
    let t = io();
    expect(await runDigest(['(4,8):(1,4)', '--range', '3:30', '--json', '--backend', 'cpu'], t.io)).toBe(0);
    expect(JSON.parse(t.out.join(''))).toMatchObject({ count: 27, sum: '432', min: 3, max: 29 });
    t = io();
    expect(await runCheck(['compact', '(2,3):(0,2)', '--json', '--backend', 'cpu'], t.io)).toBe(0);
    expect(JSON.parse(t.out.join(''))).toMatchObject({ compact: false, image: 3, outOfRange: 0, collisions: 3, witness: [0, 1] });
    t = io();
    expect(await runCheck(['complement', '(4):(2)', '(2):(1)', '--backend', 'cpu'], t.io)).toBe(0);
    expect(t.out.join('')).toContain('complements');
    t = io();
    expect(await runCheck(['compose', '(2,2):(1,10)', '(2,2):(1,1)', '(2,2):(1,1)', '--json', '--backend', 'cpu'], t.io)).toBe(0);
    expect(JSON.parse(t.out.join(''))).toMatchObject({ equal: false, mismatches: 1, witness: 3 });
    t = io();
    expect(await runTiles(['(4,8):(1,4)', '(2,2):(1,4)', '--backend', 'cpu'], t.io)).toBe(0);
    expect(t.out.join('')).toContain('tile 1: 2 3 6 7');
    expect(t.out.join('')).toContain('exactly as A does: yes');
    t = io();
    expect(await runWgsl(['(4,8):(1,4)', '(2,2):(1,4)', '--kernel', 'tiles'], t.io)).toBe(0);
    expect(t.out.join('')).toContain('A ⊘ B = ((2,2),(2,4)):((1,4),(2,8))');
  });

  it('the progress bar draws only on a terminal, after its delay, and erases itself', () => {
    const tty = io(true);
    const bar = progressBar(tty.io, 'eval', 0);
    bar.update(50, 100);
    bar.end();
    expect(tty.err.join('')).toContain('50.0%');
    expect(tty.err.at(-1)).toBe('\r\x1b[K');
    const pipe = io(false);
    const quiet = progressBar(pipe.io, 'eval', 0);
    quiet.update(50, 100);
    quiet.end();
    expect(pipe.err).toEqual([]);
  });
});
