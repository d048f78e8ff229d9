/**
 * The `layoutgpu` command line: results on stdout, --help everywhere, bad input → exit 2 with
 * ONE line on stderr and no stack trace.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { algebraOps } from '../../src/ops/table.js';
import { main } from '../../src/cli/main.js';
import { parseL, phiB, sizeB } from '../helpers/brute.js';
import { cli, ensureBuilt } from './_build.js';

beforeAll(() => ensureBuilt());

async function* noInput(): AsyncGenerator<string> {}

/** Run jobs with at most k at a time (two cores are shared). */
async function pool<T, R>(xs: readonly T[], k: number, f: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(xs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(k, xs.length) }, async () => {
      while (next < xs.length) {
        const i = next++;
        out[i] = await f(xs[i]!);
      }
    }),
  );
  return out;
}

/** The grid of `show`: rows of cell values, by the row label. */
function gridCells(out: string): Map<number, number[]> {
  const rows = new Map<number, number[]>();
  for (const line of out.split('\n')) {
    const m = /^\s*(\d+) \|(.*)\|\s*$/.exec(line);
    if (!m) continue;
    rows.set(
      Number(m[1]),
      m[2]!.split('|').map((c) => Number(c.trim())),
    );
  }
  return rows;
}

describe('results', () => {
  it('compose "(100):(7)" "(3,5):(10,2)" prints (3,5):(70,14)', async () => {
    const r = await cli(['compose', '(100):(7)', '(3,5):(10,2)']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('(3,5):(70,14)\n');
  });

  it('dashed and underscored names, --json', async () => {
    const [a, b, c] = await Promise.all([
      cli(['logical-divide', '(4,8):(1,4)', '(2,2):(1,4)']),
      cli(['logical_divide', '(4,8):(1,4)', '(2,2):(1,4)']),
      cli(['size', '(4,8):(1,4)', '--json']),
    ]);
    expect(a.stdout).toBe('((2,2),(2,4)):((1,4),(2,8))\n');
    expect(b.stdout).toBe(a.stdout);
    expect(c.stdout).toBe('32\n');
    const d = await cli(['complement', '((4,2),(2,2)):((3,24),(192,96))', '768']);
    expect(d.stdout).toBe('(3,2,2,2):(1,12,48,384)\n');
  });

  for (const L of ['(4,8):(1,4)', '(4,8):(8,1)', '((2,2),(2,4)):((1,4),(2,8))', '(2,3,2):(1,2,6)', '(8):(2)', '6:3']) {
    it(`show "${L}": every offset in its cell`, async () => {
      const r = await cli(['show', L]);
      expect(r.code, r.stderr).toBe(0);
      const l = parseL(L);
      const rows = gridCells(r.stdout);
      const rank = typeof l.shape === 'number' ? 1 : l.shape.length;
      const nrows = rank <= 1 ? 1 : sizeB({ shape: (l.shape as never[])[0]!, stride: (l.stride as never[])[0]! });
      const ncols = sizeB(l) / nrows;
      expect([...rows.keys()]).toEqual(Array.from({ length: nrows }, (_, i) => i));
      for (let i = 0; i < nrows; i++) {
        // cell (i, j) holds Φ at the colexicographic index i + rows·j
        expect(rows.get(i), `row ${i}`).toEqual(Array.from({ length: ncols }, (_, j) => phiB(l, i + nrows * j)));
      }
      expect(r.stdout.split('\n')[0]).toBe(L);
    });
  }
});

describe('--help', () => {
  const names = [...algebraOps.map((o) => o.name.replace(/_/g, '-')), 'show', 'batch'];

  it('layoutgpu --help lists every subcommand and exits 0', async () => {
    const top = await cli(['--help']);
    expect(top.code).toBe(0);
    for (const n of names) expect(top.stdout, `--help lists ${n}`).toContain(n);
  });

  it('every subcommand --help exits 0 with a usage on stdout (in process, through main())', async () => {
    for (const n of names) {
      let out = '';
      let errText = '';
      const code = await main([n, '--help'], { stdout: (s) => void (out += s), stderr: (s) => void (errText += s), isTTY: false }, noInput());
      expect(code, `${n} --help: ${errText}`).toBe(0);
      expect(out, n).toMatch(new RegExp(n === 'batch' || n === 'show' ? n : `layoutgpu ${n}`));
      expect(errText, n).toBe('');
    }
  });

  it('subcommand --help as a process (a sample)', async () => {
    const sample = ['compose', 'logical-product', 'show', 'batch', 'is-coalesced'];
    const runs = await pool(sample, 3, (n) => cli([n, '--help']));
    runs.forEach((r, i) => {
      expect(r.code, `${sample[i]} --help: ${r.stderr}`).toBe(0);
      expect(r.stdout.length, sample[i]).toBeGreaterThan(0);
      expect(r.stderr, sample[i]).toBe('');
    });
  });
});

describe('bad input: exit 2, one line on stderr, no stack trace', () => {
  const cases: Array<[string[], RegExp]> = [
    [['compose', '(4,8):(1,4', '2:1'], /parse.*offset 10/],
    [['compose', '(2,2):(1,10)', '(2,2):(1,1)'], /not-composable/],
    [['complement', '(4,8):(1,4)', '24'], /not-complementable/],
    [['size', '(4,8):(1,4,2)'], /domain/],
    [['size'], /bad-request|argument/],
    [['mode', '(4,8):(1,4)', 'x'], /bad-request|integer/],
    [['mode', '(4,8):(1,4)', '3'], /domain/],
    [['mode', '(4,8):(1,4)', '1.5'], /bad-request|integer/],
    [['complement', '(4,8):(1,4)', '0'], /domain/],
    [['mode', '(4,8):(1,4)', '99999999999999999999'], /domain: .*out of range/],
    [['complement', '(4,8):(1,4)', '99999999999999999999'], /overflow/],
    [['parse', '9007199254740992:1'], /overflow/],
    [['frobnicate'], /unknown command/],
    [['show', '(65536,2):(1,0)'], /too large|size/],
    [['show'], /show/],
    [['show', '(4,8):(1,4'], /parse/],
    [['batch', '--backend', 'tpu'], /backend/],
    [['parse', '('.repeat(100000)], /parse|nest/],
  ];
  it('each case', async () => {
    const runs = await pool(cases, 3, ([args]) => cli(args));
    runs.forEach((r, i) => {
      const [args, re] = cases[i]!;
      const tag = `layoutgpu ${args.map((a) => (a.length > 40 ? a.slice(0, 40) + '…' : a)).join(' ')}`;
      expect(r.code, `${tag}: ${r.stderr}`).toBe(2);
      expect(r.stdout, tag).toBe('');
      const lines = r.stderr.split('\n').filter((l) => l !== '');
      expect(lines.length, `${tag}: ${r.stderr}`).toBe(1);
      expect(r.stderr.endsWith('\n'), tag).toBe(true);
      expect(lines[0], tag).toMatch(re);
      expect(r.stderr, tag).not.toMatch(/\n\s+at |Error:|node:internal/);
    });
  });

  it('no arguments prints the help and exits 2', async () => {
    const r = await cli([]);
    expect(r.code).toBe(2);
  });
});
