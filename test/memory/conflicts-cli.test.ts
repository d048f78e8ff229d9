/**
 * `layoutgpu conflicts` prints its summary first and folds identical rows of the instruction
 * table (issue 18). The folded table is checked against the per-instruction rows it folds
 * (instructionTable), which bank_conflicts' totals check in turn.
 */
import { describe, expect, it } from 'vitest';
import { parseLayoutFunction } from '../../src/cute/composed.js';
import { conflictsCommand, foldRows } from '../../src/cli/conflicts.js';
import { bankConflicts, instructionTable } from '../../src/memory/banks.js';

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await conflictsCommand.run(argv, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s), isTTY: false });
  return { code, stdout, stderr };
}

const M = '(128,64):(64,1)';
const TV = '((8,4,4),(8,2,4)):((1,1024,8),(128,4096,32))';

describe('layoutgpu conflicts', () => {
  it('prints the summary first, then the instructions with identical rows folded', async () => {
    const r = await run([M, TV, '--elem', '2']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(`${M} accessed through ${TV}, 2-byte elements`);
    expect(lines[2]).toMatch(/^vector\s+8 values per instruction$/);
    const head = lines.findIndex((l) => /^instructions \(warp\.instr\)\s+count\s+phases\s+wavefronts$/.test(l));
    expect(head).toBeGreaterThan(lines.findIndex((l) => /^sectors/.test(l)));
    const rep = bankConflicts(parseLayoutFunction(M), parseLayoutFunction(TV), 2);
    // 32 instructions, every one alike: one row
    expect(lines.slice(head + 1).filter((l) => l.trim() !== '')).toEqual([`0.0 – 3.7${' '.repeat(16)}     32       4          32  (8.0×)`]);
    expect(rep.instructions).toBe(32);
  });
  it('folding keeps every instruction, in order, and merges only equal neighbours', () => {
    for (const [m, tv] of [
      [M, TV],
      ['Sw<3,3,3> o (128,64):(64,1)', TV],
      ['(64,8):(1,64)', '((8,8),8):((8,64),1)'],
      ['Sw<2,3,3> o (8,64):(64,1)', '((8,4),(8,2)):((1,64),(8,256))'],
    ] as const) {
      const rows = instructionTable(parseLayoutFunction(m), parseLayoutFunction(tv), 2);
      const folded = foldRows(rows);
      const expanded = folded.flatMap((f) => Array.from({ length: f.count }, () => ({ phases: f.first.phases, wavefronts: f.first.wavefronts })));
      expect(expanded).toEqual(rows.map((r) => ({ phases: r.phases, wavefronts: r.wavefronts })));
      for (let i = 1; i < folded.length; i++) {
        const [a, b] = [folded[i - 1]!.first, folded[i]!.first];
        expect(a.phases !== b.phases || a.wavefronts !== b.wavefronts).toBe(true);
      }
      expect(folded.reduce((a, f) => a + f.count, 0)).toBe(rows.length);
    }
  });
  it('--svg of the 128×64 tile draws its 8,192 cells; --label tv names thread and value; --tikz the same picture', async () => {
    const r = await run([M, TV, '--elem', '2', '--svg', '-', '--label', 'tv']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.match(/<use href="#b/g)!.length).toBe(8192);
    expect(r.stdout).toMatch(/>T5 V2</);
    const t = await run([M, TV, '--elem', '2', '--tikz', '-']);
    expect(t.stdout.split('\n')[0]).toBe(`% Banks: ${M}`);
    expect(t.stdout.match(/^\\node\[fill=bank/gm)!.length).toBe(8192);
  });
  it('a tile too large to draw is refused before the analysis', async () => {
    const t0 = performance.now();
    const r = await run(['16777216:1', '(524288,32):(32,1)', '--elem', '4', '--svg', '-']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/M has 16777216 cells, too many to draw \(at most 65536\); run without --svg\/--tikz for the analysis/);
    expect(performance.now() - t0).toBeLessThan(2000);
    expect((await run([M, TV, '--elem', '2', '--label', 'tv'])).stderr).toMatch(/--label goes with --svg or --tikz/);
  });
});
