/**
 * `--arch` and `--access` on the command line (docs/memory.md "Machines"): `layoutgpu conflicts` answers
 * bank_conflicts on the machine, `verify conflict-free` the search on it; an unknown machine is one line naming the set.
 */
import { describe, expect, it } from 'vitest';
import { parseLayout } from '../../src/algebra/notation.js';
import { parseLayoutFunction } from '../../src/cute/composed.js';
import { conflictsCommand } from '../../src/cli/conflicts.js';
import { runConflictSearch } from '../../src/cli/conflict-search.js';
import { bankConflicts } from '../../src/memory/banks.js';
import { makeTiledCopy } from '../../src/atoms/tiled-copy.js';
import { copyBankConflicts } from '../../src/atoms/conflicts.js';
import { MACHINES } from '../../src/memory/machines.js';
import { rankResults, searchCpu, swizzleCandidates } from '../../src/memory/search.js';

type Run = (argv: string[], io: { stdout: (s: string) => void; stderr: (s: string) => void; isTTY: boolean }) => Promise<number>;
async function run(f: Run, argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await f(argv, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s), isTTY: false });
  return { code, stdout, stderr };
}
const conflicts: Run = (a, io) => conflictsCommand.run(a, io);
const search: Run = (a, io) => runConflictSearch(a, io);

const M = '(128,64):(72,1)';
const TV = '((8,16),(8,8)):((1024,1),(128,16))';

describe('--arch and --access', () => {
  it('conflicts --json is bank_conflicts on the machine; read and write differ on gfx942', async () => {
    for (const access of ['read', 'write'] as const) {
      const r = await run(conflicts, [M, TV, '--elem', '2', '--arch', 'gfx942', '--access', access, '--json']);
      expect(r.code, r.stderr).toBe(0);
      const want = bankConflicts(parseLayoutFunction(M), parseLayoutFunction(TV), 2, undefined, { machine: MACHINES.get('gfx942')!, access });
      expect(JSON.parse(r.stdout)).toEqual(want);
    }
    const text = await run(conflicts, [M, TV, '--elem', '2', '--arch', 'gfx942', '--access', 'read']);
    expect(text.stdout).toMatch(/wavefronts\s+256/);
    const bad = await run(conflicts, [M, TV, '--elem', '2', '--arch', 'mi300']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/bad-request: unknown arch 'mi300': the machines are sm80, sm90, sm100, gfx942, gfx950/);
    const none = await run(conflicts, [M, TV, '--elem', '2', '--arch', 'gfx950']);
    expect(none.stderr).toMatch(/domain: gfx950: ds_read_b128 and ds_write_b128 serve different lanes/);
  });
  it('conflicts --copy --arch is copy_bank_conflicts on the machine', async () => {
    const r = await run(conflicts, [
      '--copy',
      'UniversalCopy<uint128_t>',
      '--bits',
      '16',
      '--thr',
      '(16,8):(8,1)',
      '--val',
      '(1,8)',
      M,
      '--side',
      'src',
      '--arch',
      'gfx942',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const copy = makeTiledCopy({ atom: 'UniversalCopy<uint128_t>', bits: 16, thr: parseLayout('(16,8):(8,1)'), val: parseLayout('(1,8)') });
    expect(JSON.parse(r.stdout)).toEqual(copyBankConflicts(copy, parseLayoutFunction(M), 'src', MACHINES.get('gfx942')!));
    expect(JSON.parse(r.stdout).wavefronts).toBe(256);
  });
  it('verify conflict-free --arch ranks as the search on the machine, per pattern direction', async () => {
    const TV2 = '((8,4,4),(8,2,4)):((1,1024,8),(128,4096,32))';
    const r = await run(search, [
      'conflict-free',
      '--swizzles',
      '(128,64):(64,1)',
      '--elem',
      '2',
      '--tv',
      TV,
      '--tv2',
      TV2,
      '--arch',
      'gfx950',
      '--access',
      'write',
      '--access2',
      'read',
      '--json',
      '--top',
      '5',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const got = JSON.parse(r.stdout) as { conflictFree: number; ranked: { layout: string; wavefronts: number; instructions: number }[] };
    const machine = MACHINES.get('gfx950')!;
    const cands = swizzleCandidates(parseLayout('(128,64):(64,1)'));
    const patterns = [
      { tv: parseLayout(TV), e: 2, target: { machine, access: 'write' } },
      { tv: parseLayout(TV2), e: 2, target: { machine, access: 'read' } },
    ];
    const results = searchCpu(cands, patterns);
    expect(got.conflictFree).toBe(results.filter((x) => x.conflictFree).length);
    const best = rankResults(cands, results, [8, 8]).slice(0, 5);
    expect(got.ranked.map((x) => [x.layout, x.wavefronts, x.instructions])).toEqual(best.map((x) => [x.layout, x.wavefronts, x.instructions]));
  });
});
