/**
 * The memory system on the command line: `conflicts` (table, --json, --svg, bad input),
 * `show` of a composed layout, `verify conflict-free`, and `bench --smem` on the real adapter
 * (verified; its times are reported, not asserted: a software adapter has no banks).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, ensureBuilt } from '../cli/_build.js';
import { scratchDir } from '../helpers/tmp.js';

beforeAll(() => ensureBuilt());
const TV = '((8,4),(8,2)):((1,64),(8,256))';

describe('layoutgpu conflicts', () => {
  it('prints the per-instruction table, the worst phase and the sectors', async () => {
    const r = await cli(['conflicts', '(8,64):(64,1)', TV, '--elem', '2']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/instructions \(warp\.instr\)\s+count\s+phases\s+wavefronts/);
    expect(r.stdout).toMatch(/worst phase\s+warp 0, instruction 0, phase 0: 8 wavefronts in bank 0/);
    expect(r.stdout).toMatch(/sectors\s+32 \(least possible 32\)/);
  });
  it('--json is the protocol object; --svg draws the tile by bank with the conflicted cells marked', async () => {
    const dir = scratchDir('lg-mem-');
    const r = await cli(['conflicts', 'Sw<3,3,3> o (8,64):(64,1)', TV, '--elem', '2', '--json', '--svg', join(dir, 'b.svg')]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ vector: 8, wavefronts: 8, conflicts: 0, worst: null });
    const svg = readFileSync(join(dir, 'b.svg'), 'utf8');
    // one <use> of its (bank, ways) face per cell (render/banks.ts); a conflicted cell's face is b<bank>w<ways>
    expect(svg.match(/<use href="#b\d+(?:w\d+)?"/g)!.length).toBe(512);
    expect(svg).not.toMatch(/<use href="#b\d+w\d+"/);
    const plain = await cli(['conflicts', '(8,64):(64,1)', TV, '--elem', '2', '--svg', '-']);
    expect(plain.stdout.match(/<use href="#b\d+w8"/g)!.length).toBe(512); // every cell is read, each in an 8-way phase
    expect(plain.stdout).toMatch(/<g id="b0w8" class="cell conflict">/);
  });
  it('bad input: exit 2 and one line naming the culprit', async () => {
    const r = await cli(['conflicts', '(8,64):(64,1)', TV, '--elem', '3']);
    expect([r.code, r.stderr]).toEqual([2, 'layoutgpu: domain: element size must be 1, 2, 4, 8 or 16 bytes (got 3)\n']);
    const m = await cli(['conflicts', '512:1', '(32,2):(3,1)', '--elem', '2', '--vec', '2']);
    expect(m.code).toBe(2);
    expect(m.stderr).toMatch(/thread 1\b/);
  });
});

describe('show and verify of composed layouts', () => {
  it('show labels the cells with the swizzled offsets', async () => {
    const r = await cli(['show', 'Sw<1,1,1> o (4,4):(4,1)']);
    expect(r.stdout.split('\n')[0]).toBe('Sw<1,1,1> o (4,4):(4,1)');
    expect(r.stdout).toMatch(/1 \|\s+6 \|\s+7 \|\s+4 \|\s+5 \|/);
  });
  it('verify conflict-free --swizzles ranks Sw<5,0,5> first for the column read of a 32×32 fp32 tile', async () => {
    const r = await cli([
      'verify',
      'conflict-free',
      '--tv',
      '(32,32):(1,32)',
      '--elem',
      '4',
      '--vec',
      '1',
      '--swizzles',
      '(32,32):(32,1)',
      '--backend',
      'cpu',
      '--json',
      '--top',
      '1',
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      candidates: 640,
      conflictFree: 1,
      ranked: [{ layout: 'Sw<5,0,5> o (32,32):(32,1)', wavefronts: 32, phases: 32 }],
    });
  });
});

describe('layoutgpu bench --smem (real adapter)', () => {
  it('writes and reads the tile through M and its unswizzled layout, verified', async () => {
    const r = await cli(['bench', '--smem', 'Sw<3,3,3> o (8,64):(64,1)', '--tv', TV, '--elem', '2', '--json', '--iters', '2'], undefined, 120_000);
    expect(r.code, r.stderr).toBe(0);
    const rep = JSON.parse(r.stdout) as { runs: { layout: string; mismatches: number; report: { wavefronts: number } }[] };
    expect(rep.runs.map((x) => [x.layout, x.mismatches, x.report.wavefronts])).toEqual([
      ['M', 0, 8],
      ['unswizzled', 0, 64],
    ]);
  }, 120_000);
});
