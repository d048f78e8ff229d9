/**
 * `verify conflict-free` and `verify --timeout` as a kernel engineer reads them (issue 18): the
 * table shows each candidate's vector width and instructions, a candidate that narrows the
 * vector ranks below one that keeps it, non-injective memory layouts are excluded and counted,
 * the candidate count comes first on a terminal, and `--timeout` prints the partial report of
 * what completed. The commands run in this process (their `run` with captured output).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flat, phi, size } from '../../src/algebra/layout.js';
import { verifyCommand } from '../../src/cli/verify.js';
import { chunkItem } from '../../src/verify/sources.js';
import { enumerateSource } from '../../src/verify/source-enumerate.js';

async function run(argv: string[], isTTY = false): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await verifyCommand.run(argv, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s), isTTY });
  return { code, stdout, stderr };
}

const WRITE = '((8,8),8):((64,1),8)';

describe('verify conflict-free: one vector width per pattern, whatever the source (issue 25)', () => {
  const TV = '((8,4),(2,2)):((1,64),(8,256))';
  /** the header's width and each row's (width, narrows) */
  const table = (out: string): { kept: string; rows: [string, string, boolean][] } => {
    const lines = out.split('\n');
    const head = lines.findIndex((l) => /^rank\s+vector/.test(l));
    const rows = lines
      .slice(head + 1)
      .map((l) => /^\s*\d+\s+(\S+)\s+\S+\s+\S+\s+\S+\s+(.*?)(?: {2}.*)?$/.exec(l))
      .filter((m) => m !== null)
      .map((m) => [m[2]!, m[1]!, /narrows the vector/.test(m[0])] as [string, string, boolean]);
    return { kept: /^vector width kept: (\S+)/m.exec(out)![1]!, rows };
  };

  it('the width kept is the widest a candidate reaches: a row narrows it only when it is narrower', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lg-cf-'));
    const file = join(dir, 'c.txt');
    writeFileSync(file, '(8,64):(64,1)\nSw<3,3,3> o (8,64):(64,1)\n(8,64):(1,8)\n');
    const f = table((await run(['conflict-free', '--tv', TV, '--elem', '2', '--file', file, '--backend', 'cpu'])).stdout);
    const w = table((await run(['conflict-free', '--tv', TV, '--elem', '2', '--swizzles', '(8,64):(64,1)', '--backend', 'cpu', '--top', '640'])).stdout);
    // before: 4 from the file (every row narrowing it), 2 from the swizzles of the same TV
    expect([f.kept, w.kept]).toEqual(['2', '2']);
    for (const t of [f, w]) {
      for (const [layout, v, narrows] of t.rows) expect(narrows, `${layout} at vector ${v}`).toBe(Number(v) < Number(t.kept));
      expect(t.rows.some(([, , n]) => !n)).toBe(true);
    }
    expect(f.rows.find(([l]) => l === '(8,64):(1,8)')).toEqual(['(8,64):(1,8)', '1', true]);
  });
});

describe('verify conflict-free: the ranking a kernel can use', () => {
  it('shows vector width and instructions; Sw<4,2,4> (vector 4) ranks below Sw<3,3,3> (vector 8)', async () => {
    const r = await run(['conflict-free', '--tv', WRITE, '--elem', '2', '--swizzles', '(8,64):(64,1)', '--backend', 'cpu', '--top', '640']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[1]).toBe('vector width kept: 8 values per instruction (the widest any candidate reaches)');
    const head = lines.findIndex((l) => /rank\s+vector\s+instructions\s+wavefronts\s+phases\s+layout/.test(l));
    expect(head).toBeGreaterThan(0);
    const row = (t: string): { at: number; cols: string[] } => {
      const at = lines.findIndex((l) => l.includes(` ${t} `) || l.endsWith(` ${t}`));
      return { at, cols: lines[at]!.trim().split(/\s+/) };
    };
    const a = row('Sw<3,3,3> o (8,64):(64,1)');
    const b = row('Sw<4,2,4> o (8,64):(64,1)');
    expect(a.cols.slice(1, 5)).toEqual(['8', '2', '8', '8']);
    expect(b.cols.slice(1, 5)).toEqual(['4', '4', '8', '8']);
    expect(lines[b.at]).toMatch(/narrows the vector/);
    expect(a.at).toBeLessThan(b.at);
  });
  it('--json carries vector, instructions, kept and the target', async () => {
    const r = await run(['conflict-free', '--tv', WRITE, '--elem', '2', '--swizzles', '(8,64):(64,1)', '--backend', 'cpu', '--json', '--top', '640']);
    const j = JSON.parse(r.stdout) as {
      vector: number[];
      excluded: number;
      ranked: { layout: string; vector: number[]; instructions: number; kept: boolean }[];
    };
    expect(j.vector).toEqual([8]);
    expect(j.excluded).toBe(0);
    const s424 = j.ranked.findIndex((x) => x.layout === 'Sw<4,2,4> o (8,64):(64,1)');
    expect(j.ranked[s424]).toMatchObject({ vector: [4], instructions: 4, kept: false });
    // every candidate that keeps the vector comes before every one that narrows it
    const firstNarrow = j.ranked.findIndex((x) => !x.kept);
    expect(j.ranked.slice(firstNarrow).every((x) => !x.kept)).toBe(true);
  });
  it('excludes and counts the memory layouts that are not injective', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lg-cf-'));
    const file = join(dir, 'c.txt');
    writeFileSync(file, ['(8,64):(0,1)', '(8,64):(1,0)', 'Sw<3,3,3> o (8,64):(64,1)', '(8,64):(64,1)', 'Sw<3,3,3> o (8,64):(0,1)'].join('\n') + '\n');
    const r = await run(['conflict-free', '--tv', WRITE, '--elem', '2', '--file', file, '--backend', 'cpu']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^conflict-free: 2 of 5 candidates/);
    expect(r.stdout).toMatch(/excluded: 3 not injective/);
    const j = JSON.parse((await run(['conflict-free', '--tv', WRITE, '--elem', '2', '--file', file, '--backend', 'cpu', '--json'])).stdout) as {
      conflictFree: number;
      excluded: number;
      ranked: { layout: string; conflictFree: boolean }[];
    };
    expect([j.conflictFree, j.excluded]).toEqual([2, 3]);
    expect(
      j.ranked
        .filter((x) => x.conflictFree)
        .map((x) => x.layout)
        .sort(),
    ).toEqual(['(8,64):(64,1)', 'Sw<3,3,3> o (8,64):(64,1)']);
  });
  it('on a terminal the candidate count comes first (stderr), before the report', async () => {
    const r = await run(['conflict-free', '--tv', WRITE, '--elem', '2', '--swizzles', '(8,64):(64,1)', '--backend', 'cpu', '--top', '1'], true);
    expect(r.stderr.split('\n')[0]).toBe('verify conflict-free: 640 candidates');
  });
  it('--timeout prints the partial report of the candidates that completed, exit 2', async () => {
    const r = await run([
      'conflict-free',
      '--tv',
      '(32,2):(1,32)',
      '--elem',
      '4',
      '--enumerate',
      '--size',
      '64',
      '--max-rank',
      '2',
      '--max-stride',
      '100',
      '--backend',
      'cpu',
      '--timeout',
      '1ms',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(2); // a timeout is exit 2 (docs/cli.md, "Conventions of every command")
    expect(r.stderr).toMatch(/timeout: ran past --timeout 1ms/);
    const j = JSON.parse(r.stdout) as { candidates: number; completed: number; timedOut: boolean };
    expect(j.timedOut).toBe(true);
    expect(j.completed).toBeGreaterThan(0);
    expect(j.completed).toBeLessThan(j.candidates);
  }, 60_000);
});

describe('verify --timeout: the partial report', () => {
  it('covers a prefix of the candidates, counted exactly (brute-force injectivity)', async () => {
    const o = { size: 64, maxRank: 3, maxStride: 63 };
    const r = await run([
      'injective',
      '--enumerate',
      '--size',
      '64',
      '--max-rank',
      '3',
      '--max-stride',
      '63',
      '--backend',
      'cpu',
      '--timeout',
      '20ms',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(2); // a timeout is exit 2 (docs/cli.md, "Conventions of every command")
    const j = JSON.parse(r.stdout) as { candidates: number; passed: number; failed: number; timedOut: boolean; total: number };
    expect(j.timedOut).toBe(true);
    expect(j.candidates).toBeLessThan(j.total);
    // the oracle: the first `candidates` of the same enumeration, injective by definition
    let n = 0;
    let injective = 0;
    for (const ch of enumerateSource(o).chunks(4096)) {
      for (let i = 0; i < ch.count && n < j.candidates; i++, n++) {
        const l = chunkItem(ch, i)[0]!;
        const seen = new Set<number>();
        let ok = true;
        for (let x = 0; x < size(l) && ok; x++) {
          const v = phi(l, x);
          if (seen.has(v)) ok = false;
          seen.add(v);
        }
        if (ok) injective++;
        expect(flat(l).shapes.reduce((a, b) => a * b, 1)).toBe(64);
      }
      if (n >= j.candidates) break;
    }
    expect(n).toBe(j.candidates);
    expect([j.passed, j.failed]).toEqual([injective, j.candidates - injective]);
  }, 60_000);
  it('a malformed --timeout is a usage error', async () => {
    const r = await run(['injective', '--enumerate', '--size', '8', '--timeout', 'soon']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--timeout takes a positive duration/);
  });
});
