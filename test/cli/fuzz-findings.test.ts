/**
 * Findings of the hostile-input fuzz of `layoutgpu batch` and the CLI, one regression each: integers beyond
 * 2^53 − 1 are quoted as the request line wrote them (never the rounded double); V8's stack overflow is said as
 * "nested too deeply" (kind bad-request, as before), never in V8's words; `layoutgpu check` without a check
 * prints its usage on stderr in one block, nothing on stdout, and exits 2.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { answerLine, errorAnswer, responseLine } from '../../src/cli/batch.js';
import { loadAllOps } from '../../src/ops/table.js';
import { makeContext } from '../../src/cli/context.js';
import { runCheck } from '../../src/cli/evaluator.js';
import { errorLine, exitCode } from '../../src/cli/report.js';
import { cli } from './_build.js';

const HUGE = '9007199254740993'; // 2^53 + 1: JSON.parse reads 9007199254740992
const BIG = '99999999999999999999999'; // JSON.parse reads 1e+23

/** The answer object of one batch line (the algebra answers synchronously). */
function answer(line: string): { id: unknown; ok: boolean; error?: { kind: string; message: string } } {
  const ctx = makeContext('cpu');
  const r = answerLine(line, ctx);
  if (typeof r !== 'string') throw new Error('expected a synchronous answer');
  return JSON.parse(r) as { id: unknown; ok: boolean; error?: { kind: string; message: string } };
}

/** A real stack overflow of the runtime (V8's RangeError). */
function stackOverflow(): unknown {
  const down = (n: number): number => down(n + 1) + 1;
  try {
    down(0);
  } catch (e) {
    return e;
  }
  throw new Error('the recursion ended');
}

// the atoms' and linear layouts' ops load their rooms on first use (ops/lazy.ts); these tests run them synchronously
beforeAll(loadAllOps);
describe('batch quotes integers beyond 2^53 − 1 as the request wrote them', () => {
  const mma = '{"atom":"SM80_16x8x16_F32F16F16F32_TN","layout":"(2,2,1)","permutation":"(32,32,16)"}';
  const copy = (bits: string): string => `{"atom":"SM75_U32x4_LDSM_N","bits":${bits},"mma":${mma},"operand":"A"}`;
  const cases: [string, string][] = [
    [`{"id":1,"op":"partition_a","args":[${mma},${HUGE},"(64,64):(64,1)"]}`, HUGE],
    [`{"id":2,"op":"ll_parse","args":["\\n - register=1 -> (${BIG})\\nwhere out dims are: [dim0 (size 16)]"]}`, BIG],
    [`{"id":3,"op":"ll_parse","args":[{"bases":[["register",[[${HUGE}]]]],"outDims":[["dim0",16]]}]}`, HUGE],
    [`{"id":4,"op":"ll_parse","args":[{"bases":[["register",[[1]]]],"outDims":[["dim0",${BIG}]]}]}`, BIG],
    [`{"id":5,"op":"make_tiled_copy","args":[${copy(HUGE)}]}`, HUGE],
    [`{"id":6,"op":"local_tile","args":["(128,64):(64,1)","(32,64)",${HUGE}]}`, HUGE],
    [`{"id":7,"op":"eval","args":["(8):(1)",${HUGE}]}`, HUGE],
    [`{"id":8,"op":"ll_apply","args":[{"bases":[["register",[[1]]]],"outDims":[["dim0",2]]},{"register":${HUGE}}]}`, HUGE],
    [`{"id":9,"op":"crd2idx","args":[${HUGE},"(4)"]}`, HUGE],
  ];
  for (const [line, text] of cases) {
    it(line.slice(0, 90), () => {
      const a = answer(line);
      expect(a.ok).toBe(false);
      expect(['domain', 'overflow']).toContain(a.error!.kind);
      expect(a.error!.message).toContain(text);
      expect(a.error!.message).not.toMatch(/9007199254740992|1e\+23/);
    });
  }
});

describe('a stack overflow is "nested too deeply", never V8’s words', () => {
  it('batch: the error answer, and a response too deep to serialise', () => {
    const e = stackOverflow();
    expect(e).toBeInstanceOf(RangeError);
    const a = errorAnswer(e);
    expect(a).toEqual({ ok: false, error: { kind: 'bad-request', message: 'input nested too deeply' } });
    let deep: unknown = [];
    for (let i = 0; i < 1_000_000; i++) deep = [deep];
    const line = responseLine('7', { ok: true, result: deep as never });
    const r = JSON.parse(line) as { id: number; ok: boolean; error: { kind: string; message: string } };
    expect(r).toEqual({ id: 7, ok: false, error: { kind: 'bad-request', message: 'the response could not be serialised: nested too deeply' } });
    // other RangeErrors keep their words (a string or array too large)
    expect(errorAnswer(new RangeError('Invalid string length'))).toEqual({
      ok: false,
      error: { kind: 'bad-request', message: 'input too large: Invalid string length' },
    });
  });

  it('the CLI: one line, exit 2', () => {
    const e = stackOverflow();
    expect(errorLine(e, { prefix: 'layoutgpu show' })).toBe('layoutgpu show: input nested too deeply\n');
    expect(exitCode(e)).toBe(2);
  });
});

describe('layoutgpu check without a check', () => {
  it('prints its usage on stderr in one block, nothing on stdout, exit 2 (in process)', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCheck([], { stdout: (s) => out.push(s), stderr: (s) => err.push(s), isTTY: false });
    expect(code).toBe(2);
    expect(out).toEqual([]);
    expect(err.length).toBe(1);
    expect(err[0]).toMatch(/^layoutgpu check compact <L>/);
    expect(err[0]).toContain('layoutgpu check compose <B> <A> [<C>]');
    // --help still prints it on stdout, exit 0
    const help: string[] = [];
    expect(await runCheck(['--help'], { stdout: (s) => help.push(s), stderr: () => {}, isTTY: false })).toBe(0);
    expect(help.join('')).toBe(err[0]);
  });

  it('the same through the built bin', async () => {
    const r = await cli(['check']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^layoutgpu check compact <L>/);
  });
});
