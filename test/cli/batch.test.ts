/**
 * `layoutgpu batch` (docs/protocol.md) as a client sees it: a spawned process, JSON Lines in,
 * exactly one response per request, in order, the right kinds, exit code 0.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { expectExamplePairs } from './_examples.js';
import { cli, ensureBuilt } from './_build.js';

beforeAll(() => ensureBuilt());

type Resp = { id: unknown; ok: boolean; result?: unknown; error?: { kind: string; message: string } };

function parseLines(stdout: string): Resp[] {
  const lines = stdout.split('\n').filter((l) => l !== '');
  return lines.map((l) => JSON.parse(l) as Resp);
}

describe('batch', () => {
  it('answers every line, good or bad, once and in order', async () => {
    const bomb = '('.repeat(100000);
    const reqs: Array<[string, (r: Resp) => void]> = [
      ['{"id":1,"op":"size","args":["(4,8):(1,4)"]}', (r) => expect(r).toEqual({ id: 1, ok: true, result: 32 })],
      ['{not json', (r) => expect([r.id, r.ok, r.error?.kind]).toEqual([null, false, 'bad-request'])],
      ['{"id":"u","op":"frobnicate","args":[]}', (r) => expect([r.id, r.ok, r.error?.kind]).toEqual(['u', false, 'bad-request'])],
      ['{"id":"c","op":"compose","args":["4:1"]}', (r) => expect([r.id, r.error?.kind]).toEqual(['c', 'bad-request'])],
      ['{"id":"c3","op":"compose","args":["4:1","2:1","2:1"]}', (r) => expect([r.id, r.error?.kind]).toEqual(['c3', 'bad-request'])],
      ['{"id":"n","op":"size","args":[4]}', (r) => expect([r.id, r.error?.kind]).toEqual(['n', 'bad-request'])],
      ['{"id":"s","op":"mode","args":["(4,8):(1,4)","1"]}', (r) => expect([r.id, r.error?.kind]).toEqual(['s', 'bad-request'])],
      ['{"id":"f","op":"mode","args":["(4,8):(1,4)",1.5]}', (r) => expect([r.id, r.error?.kind]).toEqual(['f', 'bad-request'])],
      ['{"op":"rank","args":["(4,8):(1,4)"]}', (r) => expect(r).toEqual({ id: null, ok: true, result: 2 })],
      [
        '{"id":"p","op":"parse","args":["(4,8):(1,4"]}',
        (r) => {
          expect([r.id, r.error?.kind]).toEqual(['p', 'parse']);
          expect(r.error?.message).toContain('offset 10');
        },
      ],
      ['[1,2]', (r) => expect([r.id, r.error?.kind]).toEqual([null, 'bad-request'])],
      ['{"id":"m","args":[]}', (r) => expect([r.id, r.error?.kind]).toEqual(['m', 'bad-request'])],
      ['{"id":"a","op":"size","args":"4:1"}', (r) => expect([r.id, r.error?.kind]).toEqual(['a', 'bad-request'])],
      ['{"id":{"x":[1,"y"]},"op":"size","args":["3:1"]}', (r) => expect(r).toEqual({ id: { x: [1, 'y'] }, ok: true, result: 3 })],
      ['{"id":"nc","op":"compose","args":["(2,2):(1,10)","(2,2):(1,1)"]}', (r) => expect([r.id, r.error?.kind]).toEqual(['nc', 'not-composable'])],
      ['{"id":"ncomp","op":"complement","args":["(4,8):(1,4)",24]}', (r) => expect([r.id, r.error?.kind]).toEqual(['ncomp', 'not-complementable'])],
      ['{"id":"o","op":"parse","args":["9007199254740992:1"]}', (r) => expect([r.id, r.error?.kind]).toEqual(['o', 'overflow'])],
      ['{"id":"o2","op":"mode","args":["(4,8):(1,4)",9007199254740993]}', (r) => expect([r.id, r.error?.kind]).toEqual(['o2', 'domain'])],
      ['{"id":"d","op":"eval","args":["(4,8):(1,4)",32]}', (r) => expect([r.id, r.error?.kind]).toEqual(['d', 'domain'])],
      [
        `{"id":"bomb","op":"parse","args":["${bomb}"]}`,
        (r) => {
          expect(r.id).toBe('bomb');
          expect(r.ok).toBe(false);
        },
      ],
      ['{"id":"crlf","op":"depth","args":["((1)):((0))"]}\r', (r) => expect(r).toEqual({ id: 'crlf', ok: true, result: 2 })],
      [
        '{"id":"div","op":"logical_divide","args":["(4,8):(1,4)","(2,2):(1,4)"]}',
        (r) => expect(r).toEqual({ id: 'div', ok: true, result: '((2,2),(2,4)):((1,4),(2,8))' }),
      ],
      ['{"id":"b","op":"is_compact","args":["(4,8):(8,1)"]}', (r) => expect(r).toEqual({ id: 'b', ok: true, result: true })],
      ['{"id":"last","op":"cosize","args":["((2,2),2):((3,0),10)"]}', (r) => expect(r).toEqual({ id: 'last', ok: true, result: 14 })],
    ];
    // the last line has no newline at the end
    const input = reqs.map(([l]) => l).join('\n');
    const run = await cli(['batch'], input);
    expect(run.code, run.stderr).toBe(0);
    const resps = parseLines(run.stdout);
    expect(resps.length).toBe(reqs.length);
    resps.forEach((r, i) => {
      reqs[i]![1](r);
      if (r.ok) expect(Object.keys(r).sort()).toEqual(['id', 'ok', 'result']);
      else {
        expect(Object.keys(r).sort()).toEqual(['error', 'id', 'ok']);
        expect(typeof r.error!.message).toBe('string');
        expect(r.error!.message.length).toBeGreaterThan(0);
      }
    });
  });

  it('echoes every id exactly as written, even where JSON numbers cannot carry it', async () => {
    const ids = ['12345678901234567890', '-99999999999999999999', '1e400', '1.5', '"x"', '{"id":5}', '[1,2]', 'null'];
    const input = ids.map((id) => `{"op":"size","id":${id},"args":["4:1"]}`).join('\n') + '\n';
    const run = await cli(['batch'], input);
    expect(run.code).toBe(0);
    const out = run.stdout.trim().split('\n');
    expect(out.length).toBe(ids.length);
    out.forEach((line, i) => {
      expect(line.startsWith(`{"id":${ids[i]},`), line).toBe(true);
      expect(line.endsWith('"ok":true,"result":4}'), line).toBe(true);
    });
  });

  it('many requests: all answered, in order', async () => {
    const n = 3000;
    const lines: string[] = [];
    for (let i = 0; i < n; i++) lines.push(JSON.stringify({ id: i, op: 'eval', args: ['(7,11,13):(1,7,77)', i % 1001] }));
    const run = await cli(['batch'], lines.join('\n') + '\n');
    expect(run.code).toBe(0);
    const resps = parseLines(run.stdout);
    expect(resps.length).toBe(n);
    resps.forEach((r, i) => {
      expect(r.id).toBe(i);
      // compact column-major: Φ is the identity
      expect(r.result).toBe(i % 1001);
    });
  });

  it('--backend gpu answers the algebra ops exactly as --backend cpu (they run on the CPU)', async () => {
    const lines = [
      ['compose', '(100):(7)', '(3,5):(10,2)'],
      ['logical_product', '(2,2):(5,10)', '(3,5):(5,1)'],
      ['is_compact', '(4,(2,3)):(6,(1,2))'],
      ['is_tractable', '(2,2):(2,3)'],
      ['complement', '(8,4):(1,2)'],
      ['parse', '(4,8):(1,4'],
    ].map((a, i) => JSON.stringify({ id: i, op: a[0], args: a.slice(1) }));
    const input = lines.join('\n') + '\n';
    const [cpu, gpu] = [await cli(['batch', '--backend', 'cpu'], input), await cli(['batch', '--backend', 'gpu'], input)];
    expect(cpu.code).toBe(0);
    expect(gpu.code, gpu.stderr).toBe(0);
    const strip = (rs: Resp[]): unknown[] => rs.map((r) => [r.id, r.ok, r.result, r.error?.kind]);
    expect(strip(parseLines(gpu.stdout))).toEqual(strip(parseLines(cpu.stdout)));
    expect(parseLines(cpu.stdout).length).toBe(lines.length);
  });

  it('exits 0 on empty input and when every line is bad', async () => {
    const empty = await cli(['batch'], '');
    expect(empty.code).toBe(0);
    expect(empty.stdout).toBe('');
    const bad = await cli(['batch'], 'x\ny\n{"id":3}\n');
    expect(bad.code).toBe(0);
    expect(parseLines(bad.stdout).map((r) => [r.id, r.ok, r.error?.kind])).toEqual([
      [null, false, 'bad-request'],
      [null, false, 'bad-request'],
      [3, false, 'bad-request'],
    ]);
  });

  it('every pair of test/fixtures/batch-examples.jsonl: ok, result and kind match exactly', async () => {
    await expectExamplePairs('batch-examples.jsonl', 11);
  });
});
