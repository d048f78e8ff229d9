/**
 * `layoutgpu ll <op> …` (src/cli/linear.ts): any LL form as an argument or on stdin, the readable
 * default (Triton's print), --json (the batch protocol's result), --form, and bad input answered
 * with one line on stderr and exit 2.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { parseLL, tritonString } from '../../src/linear/forms.js';
import { compose } from '../../src/linear/operations.js';
import { cli, ensureBuilt } from '../cli/_build.js';

async function* noInput(): AsyncGenerator<string> {}

/** Runs the CLI in-process: exit code, stdout, stderr. */
async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { stdout: (s) => void (out += s), stderr: (s) => void (err += s), isTTY: false }, noInput);
  return { code, out, err };
}

const MMA = '#ttg.linear<{register = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [], block = []}>';
const T = '{"bases":[["dim0",[[0,1],[0,2],[0,4],[0,8]]],["dim1",[[1,0],[2,0],[4,0]]]],"outDims":[["dim0",8],["dim1",16]]}';

describe('layoutgpu ll', () => {
  it('compose prints the result as Triton prints it, --json the canonical object', async () => {
    const want = compose(parseLL(MMA), parseLL(T));
    const r = await run(['ll', 'compose', MMA, T]);
    expect(r.code).toBe(0);
    expect(r.out).toBe(`${tritonString(want).slice(1)}\n`);
    const j = await run(['ll', 'compose', MMA, T, '--json']);
    expect(parseLL(JSON.parse(j.out))).toEqual(want);
  });

  it('--form gluon and mlir, format with an alignment, apply with dim=value inputs, masks, predicates', async () => {
    expect((await run(['ll', 'parse', MMA, '--form', 'gluon'])).out).toMatch(/^DistributedLinearLayout\(reg_bases=\[\[0, 1\], \[8, 0\]\]/);
    const shared = 'SharedLinearLayout(offset_bases=[[0, 1], [1, 0]])';
    expect((await run(['ll', 'format', shared, 'mlir', '--alignment', '128'])).out).toBe('#ttg.shared_linear<{offset = [[0, 1], [1, 0]]}, alignment = 128>\n');
    expect((await run(['ll', 'apply', MMA, 'register=3,lane=5,warp=0,block=0'])).out).toBe('dim0=9, dim1=3\n');
    expect((await run(['ll', 'apply', MMA, '{"register": 3, "lane": 5, "warp": 0, "block": 0}', '--json'])).out).toBe('{"dim0":9,"dim1":3}\n');
    expect((await run(['ll', 'is-surjective', MMA])).out).toBe('true\n');
    expect(
      (await run(['ll', 'free-variable-masks', '{"bases":[["in1",[[1,1],[2,2],[0,0]]],["in2",[[1,0],[0,1],[2,0]]]],"outDims":["out1","out2"]}'])).out,
    ).toBe('in1: 0b100 (4)\nin2: 0b10 (2)\n');
    expect((await run(['ll', 'sublayout', MMA, 'lane', 'dim0', '--json'])).out).toBe('{"bases":[["lane",[[0],[0],[1],[2],[4]]]],"outDims":[["dim0",16]]}\n');
    expect(
      (await run(['ll', 'divide-left', '{"bases":[["in",[[2],[1],[4]]]],"outDims":[["out",8]]}', '{"bases":[["in",[[1],[2]]]],"outDims":[["out",4]]}'])).out,
    ).toBe('null (no such layout)\n');
  });

  it('bad input: one line on stderr, exit 2', async () => {
    for (const argv of [
      ['ll', 'invert', '{"bases":[["x",[[1],[1]]]],"outDims":[["o",4]]}'],
      ['ll', 'parse', 'nonsense'],
      ['ll', 'compose', MMA],
      ['ll', 'frobnicate', MMA],
      ['ll', 'parse', MMA, '--form', 'python'],
    ]) {
      const r = await run(argv);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err.trim().split('\n')).toHaveLength(1);
    }
  });
});

describe('layoutgpu ll, spawned', () => {
  beforeAll(() => ensureBuilt());
  it('reads a layout from stdin with -', async () => {
    const print = tritonString(parseLL(MMA));
    const r = await cli(['ll', 'invert', '-', '--json'], print);
    expect(r.code).toBe(0);
    const inv = parseLL(JSON.parse(r.stdout));
    expect(inv.outDims.map((o) => o.name)).toEqual(['register', 'lane', 'warp', 'block']);
    const r2 = await cli(['ll', 'is-invertible', '-'], 'DistributedLinearLayout(reg_bases=[[1]], lane_bases=[], warp_bases=[], block_bases=[], shape=[2])');
    expect(r2.stdout).toBe('true\n');
  });
});
