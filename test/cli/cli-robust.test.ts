/**
 * The command line under careless use (issue 9): options checked before a device is opened,
 * nothing of Dawn's on stderr, one stderr line per error, a timeout is kind `timeout` (exit 2),
 * absurd searches refused at once.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { StderrFilter, mayOpenDevice } from '../../src/cli/quiet-stderr.js';
import { parseDuration } from '../../src/cli/args.js';
import { enumerateCount, enumerateCountBig, factorisations } from '../../src/verify/source-enumerate.js';
import { cli, ensureBuilt } from './_build.js';

beforeAll(() => ensureBuilt());

const lines = (s: string): string[] => s.split('\n').filter((l) => l !== '');

describe('the CLI: stderr, options, timeouts', () => {
  it("bulk checks on the default and the GPU backend print nothing on stderr (Dawn's warnings are filtered)", async () => {
    for (const backend of [[], ['--backend', 'gpu']]) {
      const r = await cli(['check', 'compact', '(4,8):(1,4)', ...backend]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain('compact: yes');
    }
    const v = await cli(['verify', 'compact', '--enumerate', '--size', '8', '--json']);
    expect(v.code, v.stderr).toBe(0);
    expect(v.stderr).toBe('');
  });

  it('a bad --timeout is one line on stderr, exit 2, before any device is opened', async () => {
    const r = await cli(['check', 'compact', '(4,8):(1,4)', '--timeout', '-5']);
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual([expect.stringContaining('--timeout')]);
  });

  it('a run past --timeout is kind timeout, exit 2, one line naming what completed', async () => {
    const r = await cli(['check', 'compact', '(65536,65536):(1,65536)', '--backend', 'cpu', '--timeout', '300ms']);
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual([expect.stringMatching(/^layoutgpu: timeout: .*completed \d+ of \d+/)]);
  });

  it('an op subcommand takes --timeout too (a bulk op through the table)', async () => {
    const r = await cli(['check-compact', '(65536,65536):(1,65536)', '--backend', 'cpu', '--timeout', '0.3', '--json']);
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual([expect.stringMatching(/^layoutgpu: timeout: /)]);
  });

  it('verify --enumerate --size 99999999999 answers at once: the count is beyond the limit', async () => {
    const r = await cli(['verify', 'compact', '--enumerate', '--size', '99999999999'], '', 20_000);
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual([expect.stringMatching(/overflow: the enumeration has \d+ candidates, beyond the limit of 2\^40/)]);
  });

  it('a large size with narrow bounds still runs (its factorisations over the divisors)', async () => {
    const r = await cli(['verify', 'compact', '--enumerate', '--size', '99999999999', '--max-rank', '2', '--max-stride', '3', '--backend', 'cpu', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout) as { candidates: number; passed: number };
    expect(s.candidates).toBe(enumerateCount({ size: 99999999999, maxRank: 2, maxStride: 3 }));
  });
});

describe('enumeration counts', () => {
  it('factorisations over divisors equal the brute force; counts agree with the lists', () => {
    const brute = (n: number, r: number): number[][] => {
      if (r === 1) return n >= 2 ? [[n]] : [];
      const out: number[][] = [];
      for (let s = 2; s <= n; s++) if (n % s === 0) for (const rest of brute(n / s, r - 1)) out.push([s, ...rest]);
      return out;
    };
    for (const n of [1, 2, 12, 36, 64, 97, 360, 1024]) {
      for (let r = 1; r <= 5; r++) expect(factorisations(n, r), `${n} ${r}`).toEqual(brute(n, r));
      const d = 3;
      let want = 0n;
      for (let r = 1; r <= 4; r++) want += BigInt(brute(n, r).length) * BigInt(d + 1) ** BigInt(r);
      expect(enumerateCountBig({ size: n, maxRank: 4, maxStride: d })).toBe(want);
    }
  });
});

describe('pieces', () => {
  it('StderrFilter drops whole Dawn warning lines only, and passes partial lines at once', () => {
    let out = '';
    const f = new StderrFilter((s) => void (out += s));
    f.push('Warning: maxDynamicUniformBuffersPerPipelineLayout artificially reduced from 1000000 to 16 to fit dynamic offset allocation limit.\nWarn');
    f.push('ing: maxDynamicStorageBuffersPerPipelineLayout artificially reduced from 1000000 to 16 to fit dynamic offset allocation limit.\n');
    f.push('\r[####......] 40%');
    expect(out).toBe('\r[####......] 40%');
    f.push('\nlayoutgpu: Warning: x\nWarning: something else\n');
    f.end();
    expect(out).toBe('\r[####......] 40%\nlayoutgpu: Warning: x\nWarning: something else\n');
  });

  it('mayOpenDevice: only commands that can reach a backend', () => {
    const ops = new Set(['check_compact', 'verify']);
    expect(mayOpenDevice(['batch'], ops)).toBe(false);
    expect(mayOpenDevice(['batch', '--backend', 'gpu'], ops)).toBe(true);
    expect(mayOpenDevice(['compose', '4:1', '4:1'], ops)).toBe(false);
    expect(mayOpenDevice(['check', 'compact', '4:1'], ops)).toBe(true);
    expect(mayOpenDevice(['check', 'compact', '4:1', '--backend=cpu'], ops)).toBe(false);
    expect(mayOpenDevice(['check-compact', '4:1'], ops)).toBe(true);
    // auto without a GPU device node decides without Dawn; gpu always loads it
    expect(mayOpenDevice(['check-compact', '4:1'], ops, true)).toBe(false);
    expect(mayOpenDevice(['check', 'compact', '4:1', '--backend', 'gpu'], ops, true)).toBe(true);
    expect(mayOpenDevice(['verify', 'compact', '--enumerate', '--size', '8'], ops, true)).toBe(true);
    expect(mayOpenDevice(['gpu-info', '--help'], ops)).toBe(false);
  });

  it('parseDuration: seconds by default, ms, s, m; positive only', () => {
    expect([parseDuration('30', 't'), parseDuration('2.5s', 't'), parseDuration('500ms', 't'), parseDuration('2m', 't'), parseDuration('.5', 't')]).toEqual([
      30_000, 2500, 500, 120_000, 500,
    ]);
    for (const bad of ['0', '-5', '', 'soon', '1h', 'Infinity', '1e3']) expect(() => parseDuration(bad, '--timeout')).toThrow(/--timeout/);
  });
});
