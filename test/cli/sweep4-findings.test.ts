/**
 * The fourth hostile sweep's reproducers (test/fixtures/repro/sweep4/, copies of the sweep's files; issue 25 items
 * 1, 2, 3 and 10), each line answered through `batch`'s own `answerLine` and held to what its id says it should answer.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { answerLine, runBatch, tooLong } from '../../src/cli/batch.js';
import { LINE_TOO_LONG, MAX_LINE_BYTES } from '../../src/cli/stdin.js';
import { makeContext } from '../../src/cli/context.js';
import { loadAllOps } from '../../src/ops/table.js';
import { supremum } from '../../src/linear/value.js';
import { FIXTURES } from '../helpers/fixtures.js';
import { parsePiece, phiPiece } from '../helpers/match.js';
import { BIN, cli } from './_build.js';

interface Answer {
  readonly id: string;
  readonly ok: boolean;
  readonly result?: unknown;
  readonly error?: { readonly kind: string; readonly message: string };
}

/** The lines of one reproducer file, by id. */
function lines(file: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const l of readFileSync(join(FIXTURES, 'repro', 'sweep4', file), 'utf8').split('\n')) {
    if (l.trim() !== '') out.set((JSON.parse(l) as { id: string }).id, l);
  }
  return out;
}

/** The answer of one batch line. */
async function answer(line: string): Promise<Answer> {
  return JSON.parse(await answerLine(line, makeContext('cpu'))) as Answer;
}

/** The answers of a reproducer file, in file order, with the file's ids. */
async function answers(file: string): Promise<Answer[]> {
  return Promise.all([...lines(file).values()].map(answer));
}

/** The answer to the line whose id starts with `prefix`. */
function byId(all: readonly Answer[], prefix: string): Answer {
  const a = all.find((x) => x.id.startsWith(prefix));
  if (a === undefined) throw new Error(`no line ${prefix}`);
  return a;
}

// the atoms' and linear layouts' ops load their rooms on first use (ops/lazy.ts)
beforeAll(loadAllOps);

describe('01: the SM80 int4 16x8x32 atoms follow CUTLASS aeba0d372 (B strides its threads by 64)', () => {
  it('the atom, its partitions and its tiled copies', async () => {
    const all = await answers('01-int4-atom-stale-b-layout.jsonl');
    const atom = byId(all, 'B of SM80_16x8x32');
    expect((atom.result as Record<string, string>).layoutB_TV).toBe('((4,8),(8)):((64,1),(8))');
    expect(byId(all, 'partition_b').result).toEqual({ offset: 390, layout: '(8,2,1):(16,8,0)' });
    expect(byId(all, 'partition_c').result).toEqual({ offset: 0, layout: 'Sw<2,3,2> o 162 o ((2,2),1,1):((128,8),0,0)' });
    expect(byId(all, 'partition_s').ok).toBe(true);
    // the layout the project shipped before is still what it was: not injective
    expect(byId(all, 'check_compact').result).toMatchObject({ compact: false, image: 160 });
  });
});

describe('05: a composed layout where a plain one is needed is domain, in atom arguments too', () => {
  it('each line of the reproducer: domain once the text parses, and the plain inner layout is accepted there', async () => {
    const all = await answers('05-composed-layout-in-atom-args.jsonl');
    for (const a of all) {
      if (a.id.startsWith('the same text parses')) expect(a.ok).toBe(true);
      else expect(a.error, a.id).toMatchObject({ kind: 'domain', message: expect.stringMatching(/plain layout.*is a composed layout/) });
    }
    // the same requests with the swizzle taken away answer
    for (const line of lines('05-composed-layout-in-atom-args.jsonl').values()) {
      const plain = line.replace(/Sw<\d+,\d+,\d+> o /g, '');
      const a = await answer(plain);
      expect(a.ok, plain).toBe(true);
    }
  });

  it('a composed text that does not parse stays parse; a by-mode tiler item is held the same way', async () => {
    const mma = (layout: string): string => JSON.stringify({ id: 'x', op: 'make_tiled_mma', args: [{ atom: 'SM80_16x8x16_F32F16F16F32_TN', layout }] });
    expect((await answer(mma('Sw<3,3,3> o (2,2,x)'))).error?.kind).toBe('parse');
    const divide = (tiler: string): string => JSON.stringify({ id: 'x', op: 'logical_divide', args: ['(16,64)', tiler] });
    expect((await answer(divide('<Sw<1,0,1> o 16:1,_>'))).error?.kind).toBe('domain');
    expect((await answer(divide('<_,(Sw<1,0,1> o 16:1)>'))).error?.kind).toBe('domain');
    // a syntax error anywhere in the tiler is parse before the item's domain
    expect((await answer(divide('<Sw<1,0,1> o 16:1,_'))).error?.kind).toBe('parse');
    expect((await answer(divide('<Sw<1,0,1> o 16:x,_>'))).error?.kind).toBe('parse');
    expect((await answer(divide('<16:1,_>'))).ok).toBe(true);
  });
});

describe('07: the order of checks (issue 25 item 2) and the kinds of the sweep', () => {
  it('each line answers the kind its id names', async () => {
    const all = await answers('07-error-kinds.jsonl');
    const kind = (prefix: string): string => {
      const a = byId(all, prefix);
      return a.ok ? 'ok' : a.error!.kind;
    };
    expect(kind('to_ll tv of a rank-3 layout')).toBe('domain');
    expect(kind('to_ll tv of a rank-3 non-power-of-two')).toBe('domain');
    expect(kind('from_ll: no CuTe form')).toBe('not-representable');
    expect(byId(all, 'check_linear needs no cosize').result).toEqual({ linear: false, reason: 'carry', witness: [1, 2] });
    expect(kind("operand 'D'")).toBe('bad-request');
    expect(kind('an empty atom layout')).toBe('parse');
    expect(kind('an empty permutation')).toBe('parse');
    expect(kind('a negative local_tile coordinate')).toBe('parse');
    expect(byId(all, 'composed layout without spaces').result).toBe('Sw<3,3,3> o 32 o (8,64):(64,1)');
  });

  it('an empty layout, permutation or value layout is parse even after the same atom was built with the default', async () => {
    const atom = 'SM80_16x8x16_F32F16F16F32_TN';
    const mma = (o: object): string => JSON.stringify({ id: 'x', op: 'make_tiled_mma', args: [{ atom, ...o }] });
    expect((await answer(mma({}))).ok).toBe(true);
    expect((await answer(mma({ layout: '' }))).error?.kind).toBe('parse');
    expect((await answer(mma({ permutation: '' }))).error?.kind).toBe('parse');
    const cp = { atom: 'UniversalCopy<uint16_t>', bits: 16, thr: '(32,8):(8,1)' };
    const copy = (o: object): string => JSON.stringify({ id: 'x', op: 'make_tiled_copy', args: [{ ...cp, ...o }] });
    expect((await answer(copy({}))).ok).toBe(true);
    expect((await answer(copy({ val: '' }))).error?.kind).toBe('parse');
  });

  it('to_ll: every shape rule before linearity (rank, tile, lanes, warps), on layouts that are not linear', async () => {
    const toLL = (args: unknown[]): string => JSON.stringify({ id: 'x', op: 'to_ll', args });
    const notLinear = '(3,3):(1,3)';
    expect((await answer(toLL([notLinear]))).error?.kind).toBe('not-linear');
    for (const args of [
      [notLinear, 'tv'],
      [notLinear, 'tv', [16, 3]],
      [notLinear, 'tv', [16, 16], 3],
      [notLinear, 'tv', [16, 16], 32, 3],
      [notLinear, 'function', [16]],
      [notLinear, 'shared', [4, 4]],
      ['(2,2,2):(1,1,1)', 'tv', [8]],
    ]) {
      expect((await answer(toLL(args))).error?.kind, JSON.stringify(args)).toBe('domain');
    }
  });

  it('from_ll past 2^53: not-representable exactly where the same map 44 bits lower has no CuTe form, else overflow', async () => {
    // the narrow map (out-dim of 2^12) against the same bases above two zero out-dims of 2^22 each; every basis at
    // least 2^9, so that every wide image passes 2^53
    let seed = 7;
    const next = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    const kinds = new Set<string>();
    for (let n = 0; n < 24; n++) {
      const bases = Array.from({ length: 2 + (next() % 4) }, () => [512 + (next() % 3584)]);
      const ll = (outDims: [string, number][], wide: boolean): object => ({
        bases: [['in', bases.map((b) => (wide ? [0, 0, ...b] : b))]],
        outDims,
      });
      const narrow = await answer(JSON.stringify({ id: 'n', op: 'from_ll', args: [ll([['out', 4096]], false), 'function'] }));
      const line = JSON.stringify({
        id: 'w',
        op: 'from_ll',
        args: [
          ll(
            [
              ['lo0', 2 ** 22],
              ['lo1', 2 ** 22],
              ['out', 4096],
            ],
            true,
          ),
          'function',
        ],
      });
      const wide = await answer(line);
      const want = narrow.ok ? 'overflow' : narrow.error!.kind;
      kinds.add(want);
      expect(wide.ok ? 'ok' : wide.error!.kind, line).toBe(want);
    }
    expect([...kinds].sort()).toEqual(['not-representable', 'overflow']);
  });
});

describe('06: a swizzle whose far field no offset reaches answers, by the definition, instead of overflow', () => {
  /** every Φ(x) of a composed text by the definition (test/helpers/match.ts), as decimal strings */
  const brute = (text: string, lo: number, hi: number): string[] => {
    const p = parsePiece(text);
    return Array.from({ length: hi - lo }, (_, i) => String(phiPiece(p, lo + i)));
  };
  const evalRange = async (text: string, lo: number, hi: number): Promise<Answer> =>
    answer(JSON.stringify({ id: 'x', op: 'eval_range', args: [text, lo, hi] }));

  it('the reproducer: both ranges answer, each value Φ by the definition', async () => {
    for (const line of lines('06-overflow-where-swizzle-is-identity.jsonl').values()) {
      const { args } = JSON.parse(line) as { args: [string, number, number] };
      const a = await answer(line);
      expect(a.ok, line).toBe(true);
      expect((a.result as (number | string)[]).map(String)).toEqual(brute(...args));
    }
  });

  it('on random swizzles moving their field past bit 52: overflow exactly where some Φ(x) passes 2^53 − 1', async () => {
    let seed = 11;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const seen = new Set<string>();
    for (let n = 0; n < 150; n++) {
      const modes = 1 + next(3);
      const shape = Array.from({ length: modes }, () => 1 + next(6));
      const stride = Array.from({ length: modes }, () => next(4) * 2 ** next(40));
      const k = next(2 ** 20) * 2 ** next(27);
      const b = 1 + next(4);
      const m = 30 + next(16);
      // the field [m, m + b) moved up to straddle bit 53, or to end just below it
      const s = -Math.max(b, 50 - m + next(6));
      const text = `Sw<${b},${m},${s}> o ${k} o (${shape.join(',')}):(${stride.join(',')})`;
      const size = shape.reduce((x, y) => x * y, 1);
      const want = brute(text, 0, size);
      const beyond = want.some((v) => BigInt(v) > BigInt(Number.MAX_SAFE_INTEGER));
      const a = await evalRange(text, 0, size);
      seen.add(beyond ? 'overflow' : 'ok');
      if (beyond) expect(a.error?.kind, text).toBe('overflow');
      else expect((a.result as (number | string)[] | undefined)?.map(String), text).toEqual(want);
    }
    expect([...seen].sort()).toEqual(['ok', 'overflow']);
  });
});

describe("09: a dim name with white space at either end is refused, never changed by Triton's print", () => {
  const ll = (inName: string, outName: string): object => ({ bases: [[inName, [[1]]]], outDims: [[outName, 2]] });
  const op = async (name: string, args: unknown[]): Promise<Answer> => answer(JSON.stringify({ id: 'x', op: name, args }));

  it('the reproducer: the print is refused (domain, naming the dim); the text itself reads as what it says', async () => {
    const all = await answers('09-ll-names-with-whitespace.jsonl');
    expect(all[0]!.error).toMatchObject({ kind: 'domain', message: expect.stringContaining('white space') });
    expect(all[1]!.result).toEqual({ bases: [['x', [[1]]]], outDims: [['y', 2]] });
  });

  it('every White_Space character at either end of an in- or out-dim name; inner white space is kept', async () => {
    for (const c of [0x09, 0x0a, 0x20, 0x85, 0xa0, 0x2000, 0x3000]) {
      const w = String.fromCharCode(c);
      for (const [i, o] of [
        [`x${w}`, 'y'],
        [`${w}x`, 'y'],
        ['x', `y${w}`],
        ['x', `${w}y`],
      ] as const) {
        expect((await op('ll_parse', [ll(i, o)])).error?.kind, `${JSON.stringify(i)} ${JSON.stringify(o)}`).toBe('domain');
      }
    }
    // a character that is not White_Space (the byte-order mark) is part of the name as before
    expect((await op('ll_parse', [ll('x\ufeff', 'y')])).ok).toBe(true);
    // inner white space is kept in the value; its Triton print does not read back as another layout (it is parse)
    const printed = await op('ll_format', [ll('lane x', 'dim 0'), 'triton']);
    expect(printed.ok).toBe(true);
    expect((await op('ll_parse', [printed.result])).error?.kind).toBe('parse');
  });
});

describe('10: messages quote the integers as written, never the rounded double', () => {
  it('the reproducer, and the alignment of ll_format', async () => {
    const all = await answers('10-messages-echo-rounded-numbers.jsonl');
    expect(all[0]!.error?.message).toContain('shape entry 1 is 9007199254740993,');
    expect(all[1]!.error?.message).toContain('(got 18446744073709551616)');
    for (const a of all) expect(a.error?.message).not.toMatch(/9007199254740992|18446744073709552000/);
    const shared = {
      bases: [
        ['offset', [[1]]],
        ['block', []],
      ],
      outDims: [['dim0', 2]],
    };
    const line = `{"id":"f","op":"ll_format","args":[${JSON.stringify(shared)},"ttgir",18446744073709551616]}`;
    expect((await answer(line)).error?.message).toContain('alignment = 18446744073709551616 ');
  });
});

describe('02: a line past MAX_LINE_BYTES is bad-request "line too long", in bounded memory, and the batch goes on', () => {
  const good = (id: number): string => `{"id":${id},"op":"size","args":["4:1"]}\n`;
  /** the answers of runBatch over the chunks, and the most array-buffer memory seen while they were read */
  async function run(chunks: () => Iterable<Buffer | string>): Promise<{ answers: Answer[]; peak: number }> {
    let text = '';
    let peak = 0;
    async function* input(): AsyncGenerator<Buffer | string> {
      for (const c of chunks()) {
        peak = Math.max(peak, process.memoryUsage().arrayBuffers);
        yield c;
      }
    }
    await runBatch(input(), (t) => void (text += t));
    return {
      answers: text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Answer),
      peak,
    };
  }
  const MiB = 1024 * 1024;
  const spaces = Buffer.alloc(MiB, 0x20);

  it('three good lines, a 200 MiB line (its id kept), a good line: five answers, memory bounded', async () => {
    const base = process.memoryUsage().arrayBuffers;
    const { answers, peak } = await run(function* () {
      yield good(0) + good(1) + good(2);
      yield '{"id":"big","op":"parse","args":["';
      for (let i = 0; i < 200; i++) yield spaces; // the same buffer each time: only a copy would hold memory
      yield '4:1"]}\n';
      yield good(3);
    });
    expect(answers.map((a) => a.id)).toEqual([0, 1, 2, 'big', 3]);
    expect(answers[3]!.error).toEqual({ kind: 'bad-request', message: LINE_TOO_LONG });
    expect(answers.filter((a) => a.ok)).toHaveLength(4);
    expect(peak - base).toBeLessThan(3 * MAX_LINE_BYTES);
  });

  it('the bound is exact: MAX_LINE_BYTES bytes are a line, one more is too long (in one chunk or many)', async () => {
    const line = good(7).trimEnd();
    const pad = (n: number): Buffer => Buffer.concat([Buffer.from(line), Buffer.alloc(n - line.length, 0x20)]);
    for (const split of [false, true]) {
      const chunks = (n: number) =>
        function* (): Generator<Buffer | string> {
          const b = pad(n);
          if (split) for (let i = 0; i < b.length; i += MiB) yield b.subarray(i, i + MiB);
          else yield b;
          yield `\n${good(8)}`;
        };
      const at = await run(chunks(MAX_LINE_BYTES));
      expect(at.answers.map((a) => [a.id, a.ok])).toEqual([
        [7, true],
        [8, true],
      ]);
      const past = await run(chunks(MAX_LINE_BYTES + 1));
      expect(past.answers.map((a) => [a.id, a.error?.message ?? 'ok'])).toEqual([
        [7, LINE_TOO_LONG],
        [8, 'ok'],
      ]);
    }
  });

  it('a line that never ends is answered once, at the bound (the id null when it does not begin the line)', async () => {
    const { answers } = await run(function* () {
      yield good(1);
      yield '{"op":"parse","id":5,"args":["';
      for (let i = 0; i < 70; i++) yield spaces;
    });
    expect(answers.map((a) => [a.id, a.error?.message ?? 'ok'])).toEqual([
      [1, 'ok'],
      [null, LINE_TOO_LONG],
    ]);
    expect(JSON.parse(tooLong('{ "id" : -1.5e3 , "op"')).id).toBe(-1500);
    expect(tooLong('{"id":"a\\"b","op"')).toContain('"id":"a\\"b"');
    expect(JSON.parse(tooLong('{"id":[1],"op"')).id).toBe(null);
  });

  it('`ll parse -` and `batch` on /dev/zero: the answer at once, exit 2 for the CLI', async () => {
    const zero = openSync('/dev/zero', 'r');
    try {
      const r = spawnSync(process.execPath, [BIN, 'll', 'parse', '-'], { stdio: [zero, 'pipe', 'pipe'], encoding: 'utf8', timeout: 60_000 });
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('line too long');
      expect(r.stdout).toBe('');
      const b = spawn(process.execPath, [BIN, 'batch'], { stdio: [zero, 'pipe', 'pipe'] });
      const first = await new Promise<string>((resolve) => {
        let out = '';
        b.stdout!.on('data', (d: Buffer) => {
          out += d.toString('utf8');
          if (out.includes('\n')) resolve(out);
        });
      });
      b.kill();
      expect(JSON.parse(first.split('\n')[0]!)).toEqual({ id: null, ok: false, error: { kind: 'bad-request', message: LINE_TOO_LONG } });
    } finally {
      closeSync(zero);
    }
  });
});

describe('04: mma, copy and show <atom> refuse a picture beyond the cell bound of show, at once', () => {
  const mma = 'SM80_16x8x16_F32F16F16F32_TN';
  it('the reproducer: each refused in well under a second of work, exit 2, one line on stderr', async () => {
    for (const args of [
      ['copy', 'UniversalCopy<uint32_t>', '--bits', '32', '--thr', '(4096,4096)', '--svg', '-'],
      ['mma', mma, '--layout', '(64,64,1)', '--svg', '-'],
      ['mma', mma, '--permutation', '(1048576,8,16)', '--ascii'],
      ['show', mma, '--layout', '(64,64,1)'],
      ['copy', 'SM75_U32x4_LDSM_N', '--bits', '16', '--mma', mma, '--layout', '(64,64,1)', '--operand', 'C', '--tikz', '-'],
    ]) {
      const r = await cli(args, undefined, 30_000);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^layoutgpu: bad-request: the picture has \d+ cells, too large to draw \(at most 65536\)/);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('the bound is the picture’s cells, all panels: 65536 drawn, one column more refused; the layouts still answer', async () => {
    const copy = (thr: string, pic: string[]): string[] => ['copy', 'UniversalCopy<uint32_t>', '--bits', '32', '--thr', thr, ...pic];
    const at = await cli(copy('(128,256)', ['--ascii']), undefined, 60_000);
    expect(at.code).toBe(0);
    expect(at.stdout).toContain('T32767V0');
    const past = await cli(copy('(128,257)', ['--ascii']), undefined, 30_000);
    expect(past.code).toBe(2);
    expect(past.stderr).toContain('65792 cells');
    expect((await cli(copy('(4096,4096)', ['--json']), undefined, 60_000)).code).not.toBe(2);
    // the 128×128×64 CTA of four warps (A and B 8192 cells each, C 16384) draws
    const cta = await cli(['mma', mma, '--layout', '(2,2,1)', '--permutation', '(128,128,64)', '--svg', '-'], undefined, 60_000);
    expect(cta.code).toBe(0);
    expect(cta.stdout).toContain('<svg');
  });
});

describe('03: the LL ops look dims up by name in constant time and check the deadline in every per-dim loop', () => {
  const N = 60_000;
  const ins = Array.from({ length: N }, (_, i) => [`r${i}`, []]);
  const outs = Array.from({ length: N }, (_, i) => [`o${i}`, 1]);
  const L = { bases: ins, outDims: outs };
  const Lr = { bases: [...ins].reverse(), outDims: [...outs].reverse() };
  const O = { bases: outs.map(([n]) => [n, []]).reverse(), outDims: Array.from({ length: N }, (_, i) => [`p${i}`, 1]) };
  const B = { bases: Array.from({ length: N }, (_, i) => [`x${N - 1 - i}`, []]), outDims: [...outs].reverse() };
  const requests: [string, unknown[]][] = [
    ['ll_product', [L, Lr]],
    ['ll_divide_right', [L, Lr]],
    ['ll_invert_and_compose', [L, B]],
    ['ll_sublayout', [L, Lr.bases.map(([n]) => n), Lr.outDims.map(([n]) => n)]],
    ['ll_apply', [L, Object.fromEntries(ins.map(([n]) => [n, 0]))]],
    ['ll_compose', [L, O]],
  ];
  const run = async (op: string, args: unknown[], ms: number): Promise<{ a: Answer; took: number }> => {
    const line = JSON.stringify({ id: op, op, args });
    const t0 = performance.now();
    const a = JSON.parse(await answerLine(line, makeContext('cpu'), { requestTimeoutMs: ms })) as Answer;
    return { a, took: performance.now() - t0 };
  };

  it('60,000 size-1 dims: each op answers (or times out) within its 2 s deadline', async () => {
    for (const [op, args] of requests) {
      const { a, took } = await run(op, args, 2000);
      expect(a.ok || a.error?.kind === 'timeout', `${op}: ${JSON.stringify(a.error)}`).toBe(true);
      expect(took, op).toBeLessThan(3500);
      if (!a.ok) continue;
      const r = a.result as { bases?: [string, unknown[]][]; outDims?: [string, number][] } & Record<string, number>;
      if (op === 'll_apply') expect(Object.values(r).every((v) => v === 0) && Object.keys(r).length === N).toBe(true);
      else
        expect(
          r.bases!.map(([n]) => n),
          op,
        ).toEqual(ins.map(([n]) => n));
    }
  });

  it('with a deadline of 1 ms each op is timeout: the loops check it', async () => {
    for (const [op, args] of requests) expect((await run(op, args, 1)).a.error?.kind, op).toBe('timeout');
  });

  it("supremum: the name order of Triton's definition (a linear search) on random lists", () => {
    /** Triton LayoutUtils supremum, as written there: the next place by a search of the other list */
    const reference = (x: readonly string[], y: readonly string[]): string[] => {
      const res: string[] = [];
      const seen = new Set<string>();
      let i = 0;
      let j = 0;
      for (;;) {
        while (i < x.length && seen.has(x[i]!)) i++;
        while (j < y.length && seen.has(y[j]!)) j++;
        if (i >= x.length && j >= y.length) return res;
        const take = (s: string): void => void (res.push(s), seen.add(s));
        if (i < x.length && j < y.length && x[i] === y[j]) {
          take(x[i]!);
          i++;
          j++;
          continue;
        }
        const px = i < x.length ? y.indexOf(x[i]!, j) : -1;
        const py = j < y.length ? x.indexOf(y[j]!, i) : -1;
        const cx = px < 0 ? Infinity : px;
        const cy = py < 0 ? Infinity : py;
        if (i < x.length && cx === Infinity) take(x[i++]!);
        else if (j < y.length && cy === Infinity) take(y[j++]!);
        else if (cx <= cy) take(x[i++]!);
        else take(y[j++]!);
      }
    };
    let seed = 5;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const pick = (): string[] => {
      const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].filter(() => next(3) > 0);
      for (let k = names.length - 1; k > 0; k--) {
        const r = next(k + 1);
        [names[k], names[r]] = [names[r]!, names[k]!];
      }
      return names;
    };
    for (let n = 0; n < 2000; n++) {
      const x = pick();
      const y = pick();
      expect(supremum(x, y), `${x} | ${y}`).toEqual(reference(x, y));
    }
  });
});
