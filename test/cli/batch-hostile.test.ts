/**
 * `batch` under hostile input (issue 9): no line takes the batch down or stalls it. Every
 * reproducer of the issue is a test here (outcomes asserted, never wall time), and a fuzz
 * test feeds a few thousand hostile lines: exactly one response per request, in order, each a
 * JSON line whose id is the exact text the request wrote, and a clean exit.
 */
import { spawn } from 'node:child_process';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { answerLine, errorAnswer, firstInvalidByte, isBlank, responseLine, runBatch } from '../../src/cli/batch.js';
import { makeContext } from '../../src/cli/context.js';
import { BIN, cli, ensureBuilt, ROOT } from './_build.js';

beforeAll(() => ensureBuilt());

const KINDS = ['bad-request', 'parse', 'domain', 'not-composable', 'not-complementable', 'overflow', 'gpu', 'timeout'];

/** Run `batch` with raw bytes on stdin. */
function batchBytes(input: Buffer, args: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [BIN, 'batch', ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      p.kill('SIGKILL');
      reject(new Error('batch did not end'));
    }, 120_000);
    p.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    p.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    p.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    p.stdin.on('error', () => {});
    p.stdin.end(input);
  });
}

/** Run a shell pipeline from the project root: the exit status of the first command. */
function pipeline(cmd: string): Promise<{ status: string; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn('bash', ['-c', `${cmd}; echo "status=\${PIPESTATUS[0]}" >&2`], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    p.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    p.on('close', () => {
      const m = /status=(\d+)\n$/.exec(stderr);
      resolve({ status: m ? m[1]! : '?', stdout, stderr: stderr.replace(/status=\d+\n$/, '') });
    });
  });
}

const req = (id: string, op = 'size', args = '["4:1"]'): string => `{"id":${id},"op":"${op}","args":${args}}`;

describe('batch: the reproducers of issue 9', () => {
  it('a 5,000-deep id in a 10 KB line is answered, and every answer around it is kept', async () => {
    const deep = '['.repeat(5000) + '1' + ']'.repeat(5000);
    const lines = [...Array.from({ length: 100 }, (_, i) => req(String(i))), req(deep), req('"last"')];
    const run = await cli(['batch'], lines.join('\n') + '\n');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    const out = run.stdout.split('\n').filter((l) => l !== '');
    expect(out.length).toBe(102);
    expect(out[100]).toBe(`{"id":${deep},"ok":true,"result":4}`);
    expect(out[101]).toBe('{"id":"last","ok":true,"result":4}');
  });

  it('ids of any type and nesting come back as the exact text written', async () => {
    const ids = [
      '123456789012345678901234567890',
      '[9007199254740993]',
      '{"id":9007199254740993}',
      '2e-400',
      '[ 1 ,\t{"a" : -0.0e0} ]',
      '"\\u00e9\\ud800"',
      'true',
    ];
    const run = await cli(['batch'], ids.map((id) => req(id)).join('\n') + '\n');
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n').filter((l) => l !== '')).toEqual(ids.map((id) => `{"id":${id},"ok":true,"result":4}`));
  });

  it('a UTF-8 BOM at the start of the input is not an error', async () => {
    const run = await batchBytes(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${req('1')}\n${req('2')}\n`)]));
    expect(run.stdout).toBe('{"id":1,"ok":true,"result":4}\n{"id":2,"ok":true,"result":4}\n');
  });

  it('concat of 200,000 layouts answers', async () => {
    const args = JSON.stringify(Array.from({ length: 200_000 }, () => '2:1'));
    const run = await cli(['batch'], req('"c"', 'concat', args) + '\n' + req('"next"') + '\n');
    const [a, b] = run.stdout.split('\n');
    const r = JSON.parse(a!) as { ok: boolean; result: string };
    expect(r.ok).toBe(true);
    expect(r.result).toBe(`(${Array(200_000).fill('2').join(',')}):(${Array(200_000).fill('1').join(',')})`);
    expect(b).toBe('{"id":"next","ok":true,"result":4}');
  });

  it('--request-timeout: a request past its deadline is answered `timeout` (with what completed) and the next line as usual', async () => {
    const big = '(65536,65536):(1,65536)'; // 2^32 indices: minutes on the CPU
    const lines = [req('1', 'check_compact', `["${big}"]`), req('2'), req('3', 'check_compose', `["${big}","${big}"]`), req('4', 'rank', '["(2,2):(1,2)"]')];
    const run = await cli(['batch', '--request-timeout', '0.5', '--backend', 'cpu'], lines.join('\n') + '\n');
    expect(run.code, run.stderr).toBe(0);
    const out = run.stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { id: number; ok: boolean; result?: unknown; error?: { kind: string; message: string } });
    expect(out.map((r) => r.id)).toEqual([1, 2, 3, 4]);
    expect(out[0]!.error?.kind).toBe('timeout');
    expect(out[0]!.error?.message).toMatch(/completed \d+ of \d+/);
    expect(out[1]).toEqual({ id: 2, ok: true, result: 4 });
    expect(['timeout', 'overflow']).toContain(out[2]!.error?.kind);
    expect(out[3]).toEqual({ id: 4, ok: true, result: 2 });
  });

  it('--request-timeout bounds verify on the CPU too (its walks check the clock)', async () => {
    // injective (Φ = 2a + 3b: the parity tells b) but not superincreasing: a walk of 2^27 indices
    const lines = [req('1', 'verify', '["injective",["(67108864,2):(2,3)"]]'), req('2')];
    const run = await cli(['batch', '--request-timeout', '50ms', '--backend', 'cpu'], lines.join('\n') + '\n');
    const out = run.stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { id: number; ok: boolean; error?: { kind: string } });
    expect(out.map((r) => [r.id, r.ok, r.error?.kind])).toEqual([
      [1, false, 'timeout'],
      [2, true, undefined],
    ]);
  });

  it('--request-timeout and --timeout refuse a non-positive or malformed duration: one line, exit 2', async () => {
    for (const args of [
      ['batch', '--request-timeout', '0'],
      ['batch', '--request-timeout', '-5'],
      ['size', '4:1', '--timeout', 'soon'],
    ]) {
      const r = await cli(args, '');
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.split('\n').filter((l) => l !== '').length, r.stderr).toBe(1);
    }
  });

  it('a closed stdout ends batch, eval, show and verify --out /dev/stdout quietly with status 0', async () => {
    const reqs = `for i in $(seq 1 30000); do echo '${req('1')}'; done`;
    const cmds = [
      `${reqs} | node bin/layoutgpu.js batch | head -1`,
      `node bin/layoutgpu.js eval "(256,256):(1,256)" --backend cpu | head -c 10`,
      `node bin/layoutgpu.js eval "(1024,1024):(1,1024)" --backend cpu --out /dev/stdout | head -c 10`,
      `node bin/layoutgpu.js show "(256,256):(1,256)" | head -1`,
      `node bin/layoutgpu.js verify compact --enumerate --size 256 --max-rank 3 --backend cpu --out /dev/stdout | head -1`,
    ];
    for (const c of cmds) {
      const r = await pipeline(c);
      expect(r.status, `${c}: ${r.stderr}`).toBe('0');
      expect(r.stderr, c).toBe('');
      expect(r.stdout.length, c).toBeGreaterThan(0);
    }
  });
});

describe('batch in-process: decoding, serialising', () => {
  const ctx = makeContext('cpu');

  async function runIn(chunks: (Buffer | string)[]): Promise<string[]> {
    let out = '';
    async function* input(): AsyncGenerator<Buffer | string> {
      yield* chunks;
    }
    await runBatch(input(), (s) => void (out += s), 'cpu');
    return out.split('\n').filter((l) => l !== '');
  }

  it('a response that cannot be serialised becomes a bad-request line for the same id', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const line = responseLine('"x"', { ok: true, result: deep as never });
    expect(JSON.parse(line)).toMatchObject({ id: 'x', ok: false, error: { kind: 'bad-request' } });
    expect(JSON.parse(responseLine('7', { ok: true, result: undefined as never }))).toMatchObject({ id: 7, ok: false });
  });

  it('errors thrown while running become answers (stack overflow: bad-request)', () => {
    expect(errorAnswer(new RangeError('Maximum call stack size exceeded'))).toMatchObject({ ok: false, error: { kind: 'bad-request' } });
    expect(answerLine('{"id":[[1]],"op":"size","args":["4:1"]}', ctx)).toBe('{"id":[[1]],"ok":true,"result":4}');
  });

  it('lines split on 0x0A even inside a chunk boundary that cuts a UTF-8 character', async () => {
    const text = Buffer.from(`${req('"é"', 'size', '["(2,\u00a03):(1,2)"]')}\n${req('"ü"')}\n`);
    const cut = text.indexOf(0xc3) + 1; // between the two bytes of é
    const out = await runIn([text.subarray(0, cut), text.subarray(cut)]);
    expect(out).toEqual(['{"id":"é","ok":true,"result":6}', '{"id":"ü","ok":true,"result":4}']);
  });

  it('invalid UTF-8, NUL, blank lines and wrong types, as the protocol says', async () => {
    const bytes = Buffer.concat([
      Buffer.from(`${req('1', 'size', '["4:1')}`),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(`"]}\n\n   \r\n\t\n${req('2', 'si\u0000ze')}\n${req('3', 'size', '"4:1"')}\n{"id":4,"op":5}\n[1]\n"str"\n${req('5')}`),
    ]);
    const out = (await runIn([bytes])).map((l) => JSON.parse(l) as { id: unknown; ok: boolean; error?: { kind: string; message: string } });
    expect(out.map((r) => r.id)).toEqual([1, null, 3, 4, null, null, 5]);
    expect(out[0]!.error).toMatchObject({ kind: 'bad-request' });
    expect(out[0]!.error!.message).toContain(`not valid UTF-8 (byte ${req('1', 'size', '["4:1').length} `);
    for (const r of out.slice(1, 6)) expect(r.error?.kind).toBe('bad-request');
    expect(out[6]).toEqual({ id: 5, ok: true, result: 4 });
  });

  it('blank means JSON whitespace only; firstInvalidByte finds the first bad byte', () => {
    expect([isBlank(''), isBlank(' \t\r'), isBlank('\u00a0'), isBlank('\ufeff')]).toEqual([true, true, false, false]);
    expect(firstInvalidByte(Buffer.from('aé'))).toBe(-1);
    expect(firstInvalidByte(Buffer.from([0x61, 0xe2, 0x82]))).toBe(1);
    expect(firstInvalidByte(Buffer.from([0x61, 0xed, 0xa0, 0x80]))).toBe(1); // a surrogate
    expect(firstInvalidByte(Buffer.from([0xc0, 0x80]))).toBe(0); // overlong
  });
});

describe('batch fuzz: a few thousand hostile lines', () => {
  it('exactly one response per request, in order, ids echoed exactly, a clean exit', async () => {
    const rnd = fc.sample(fc.integer({ min: 0, max: 2 ** 31 - 1 }), { numRuns: 1, seed: 4242 })[0]!;
    let seed = rnd;
    const next = (): number => {
      // mulberry32
      seed = (seed + 0x6d2b79f5) | 0;
      let t = seed;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
    const jsonIds = fc.sample(fc.json({ depthSize: 'medium' }), { numRuns: 400, seed: 77 });
    const specialIds = [
      '123456789012345678901234567890',
      '-99999999999999999999',
      '1e400',
      '2e-400',
      '9007199254740993',
      '[9007199254740993]',
      '{"id":9007199254740993}',
      '"\\u0000"',
      '"\\ud800"',
      'null',
      'false',
      '-0',
      '['.repeat(3000) + ']'.repeat(3000),
      '{"a":'.repeat(2000) + '1' + '}'.repeat(2000),
      `"${'x'.repeat(10_000)}"`,
    ];
    const layouts = ['4:1', '(4,8):(1,4)', '((2,2),2):((3,0),10)', '9007199254740993:1', '(99999999999,99999999999):(1,0)', '(((((', '', '\u0000', '4:1\u00a0'];
    const ops = ['size', 'cosize', 'rank', 'eval', 'coalesce', 'complement', 'compose', 'is_tractable', 'frobnicate', 'parse'];
    const argsOf = (): string =>
      pick([
        () => JSON.stringify([pick(layouts)]),
        () => JSON.stringify([pick(layouts), pick(layouts)]),
        () => `[${JSON.stringify(pick(layouts))},${pick(['1', '1e400', '-1', '9007199254740993', '"3"', '[[[]]]', 'null', '1.5'])}]`,
        () => '[' + '['.repeat(2000) + ']'.repeat(2000) + ']',
        () => pick(['"4:1"', '{}', 'null', '5', '[]']),
      ])();

    /** each line: its bytes and the id text its response must carry, or undefined for no response */
    const cases: { bytes: Buffer; id: string | undefined }[] = [];
    const N = 3000;
    for (let i = 0; i < N; i++) {
      const id = next() < 0.2 ? pick(specialIds) : next() < 0.5 ? String(i) : pick(jsonIds);
      const kind = next();
      if (kind < 0.55) {
        cases.push({ bytes: Buffer.from(`{"id":${id},"op":"${pick(ops)}","args":${argsOf()}}`), id });
      } else if (kind < 0.62) {
        // members in another order, op of a wrong type, no args
        cases.push({ bytes: Buffer.from(`{ "args" : ${argsOf()} , "op" : ${pick(['5', 'null', '["size"]', '"size"'])}, "id" : ${id} }`), id });
      } else if (kind < 0.7) {
        // invalid UTF-8 inside a string of args: the id is still echoed
        cases.push({
          bytes: Buffer.concat([Buffer.from(`{"id":${id},"op":"size","args":["4:`), Buffer.from([pick([0xff, 0xc0, 0xed, 0xf8, 0x80])]), Buffer.from('1"]}')]),
          id,
        });
      } else if (kind < 0.76) {
        // a NUL byte (raw, not escaped): not JSON
        cases.push({ bytes: Buffer.from(`{"id":${id},"op":"si\u0000ze","args":["4:1"]}`), id: 'null' });
      } else if (kind < 0.82) {
        cases.push({ bytes: Buffer.from(pick(['[1,2]', '"x"', '42', 'null', '{"id":1', '}{', '{"id":1}}', '\u00a0', '\ufeff{"id":1}'])), id: 'null' });
      } else if (kind < 0.88) {
        cases.push({ bytes: Buffer.from(pick(['', ' ', '\t', '\r', '  \r'])), id: undefined });
      } else if (kind < 0.94) {
        // a number id beyond the doubles, and a CR line end
        cases.push({ bytes: Buffer.from(`{"id":${'9'.repeat(40)},"op":"eval","args":["(3,3):(1,3)",4]}\r`), id: '9'.repeat(40) });
      } else {
        // a 10 KB layout string
        cases.push({ bytes: Buffer.from(`{"id":${id},"op":"size","args":["(${Array(2500).fill('2').join(',')}):(${Array(2500).fill('0').join(',')})"]}`), id });
      }
    }
    const input = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), ...cases.flatMap((c) => [c.bytes, Buffer.from('\n')])]);
    const run = await batchBytes(input, ['--backend', 'cpu']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    const expected = cases.filter((c) => c.id !== undefined);
    const out = run.stdout.split('\n');
    expect(out.pop()).toBe('');
    expect(out.length).toBe(expected.length);
    out.forEach((line, i) => {
      const want = expected[i]!.id!;
      expect(line.startsWith(`{"id":${want},"ok":`), `response ${i}: ${line.slice(0, 200)} (want id ${want.slice(0, 80)})`).toBe(true);
      const rest = JSON.parse(`{${line.slice(`{"id":${want},`.length)}`) as { ok: boolean; error?: { kind: string; message: string } };
      if (!rest.ok) {
        expect(KINDS).toContain(rest.error!.kind);
        expect(rest.error!.message.length).toBeGreaterThan(0);
      }
    });
  }, 180_000);
});
