/**
 * Hostile and random input for the atoms ops (docs/atoms.md), the linear-layout ops
 * (docs/linear.md) and CuTe's names (composition, get, crd2idx, idx2crd), through the built
 * `batch` and the CLI as an outside client meets them.
 *
 * - A seeded fuzzer mutates valid requests of every op (wrong arity, wrong JSON types, huge,
 *   negative and fractional numbers, broken and pathological strings, objects with unknown or
 *   missing keys) and adds valid-but-extreme ones; each chunk goes through ONE `batch` process
 *   with `--request-timeout 2s`, one request at a time so that each answer's latency is measured.
 *   Every line: one response, in order, with the request's id; an error has a protocol kind and
 *   a one-line message without a stack trace or a JavaScript artefact; the process exits 0.
 * - Random valid linear layouts are checked against brute-force oracles (test/cli/_hostile-oracles.ts):
 *   ll_apply, ll_compose pointwise, ll_product, ll_invert, ll_pseudoinvert,
 *   ll_invert_and_compose, the predicates, ll_divide_left/right of a product, ll_free_variable_masks,
 *   ll_format/ll_parse, to_ll/from_ll round trips on every index and check_linear.
 * - Tiled MMAs and copies of random atoms: every TV value inside its tile, and partitions' and
 *   tiles' offsets inside the tensor's image.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, cli, ensureBuilt, ROOT } from './_build.js';
import { allInputs, flatten, inSizes, type LL, layoutFn, llApply, randomInvertible, randomLL, rank, rng } from './_hostile-oracles.js';

beforeAll(() => ensureBuilt());

const KINDS = new Set(['bad-request', 'parse', 'domain', 'not-composable', 'not-complementable', 'overflow', 'timeout', 'not-linear', 'not-representable']);
const ARTEFACTS = [
  'at Object.',
  '    at ',
  'TypeError',
  'ReferenceError',
  'undefined',
  'NaN',
  '[object Object]',
  'Infinity',
  'RangeError',
  'Maximum call stack',
];
const DEADLINE_MS = 2000;
/** HOSTILE_DUMP=file: every request and its answer, for reading by eye */
const DUMP = process.env.HOSTILE_DUMP;
const SLACK_MS = 4000;

interface Response {
  line: string;
  ms: number;
}

/** One `batch --request-timeout 2s` process, fed one request at a time. */
class Batch {
  private readonly p: ChildProcessWithoutNullStreams;
  private buf = '';
  private waiting: ((l: string) => void) | undefined;
  private readonly lines: string[] = [];
  private stderr = '';
  private readonly closed: Promise<number | null>;

  constructor() {
    this.p = spawn(process.execPath, [BIN, 'batch', '--request-timeout', `${DEADLINE_MS / 1000}s`], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    this.p.stdout.setEncoding('utf8').on('data', (d: string) => {
      this.buf += d;
      for (let i = this.buf.indexOf('\n'); i >= 0; i = this.buf.indexOf('\n')) {
        this.lines.push(this.buf.slice(0, i));
        this.buf = this.buf.slice(i + 1);
      }
      this.wake();
    });
    this.p.stderr.setEncoding('utf8').on('data', (d: string) => (this.stderr += d));
    this.p.stdin.on('error', () => {});
    this.closed = new Promise((resolve) => this.p.on('close', (code) => (this.wake(), resolve(code))));
  }

  private wake(): void {
    const w = this.waiting;
    this.waiting = undefined;
    w?.('');
  }

  async ask(line: string): Promise<Response> {
    const t0 = performance.now();
    this.p.stdin.write(line + '\n');
    const kill = setTimeout(() => this.p.kill('SIGKILL'), DEADLINE_MS + 20_000);
    while (this.lines.length === 0 && this.p.exitCode === null && this.p.signalCode === null) await new Promise((r) => (this.waiting = r));
    clearTimeout(kill);
    const got = this.lines.shift();
    return { line: got ?? '<no response: the process ended>', ms: performance.now() - t0 };
  }

  async end(): Promise<{ code: number | null; stderr: string; extra: string[] }> {
    this.p.stdin.end();
    const code = await this.closed;
    return { code, stderr: this.stderr, extra: [...this.lines, ...(this.buf ? [this.buf] : [])] };
  }
}

/** The problems of one response to a request with id `id`: [] when it is well-formed. */
function problems(id: string, r: Response): string[] {
  const out: string[] = [];
  if (r.ms > DEADLINE_MS + SLACK_MS) out.push(`answered after ${Math.round(r.ms)} ms`);
  let v: { id?: unknown; ok?: unknown; result?: unknown; error?: { kind?: unknown; message?: unknown } };
  try {
    v = JSON.parse(r.line) as typeof v;
  } catch {
    return [...out, `not JSON: ${r.line.slice(0, 200)}`];
  }
  if (JSON.stringify(v.id) !== id) out.push(`id ${JSON.stringify(v.id)}`);
  if (v.ok === true) {
    const text = JSON.stringify(v.result);
    if (text === undefined || /NaN|Infinity|undefined|\[object Object\]/.test(text)) out.push(`result ${String(text).slice(0, 200)}`);
  } else if (v.ok === false) {
    const { kind, message } = v.error ?? {};
    if (typeof kind !== 'string' || !KINDS.has(kind)) out.push(`kind ${String(kind)}`);
    if (typeof message !== 'string' || message === '') out.push('no message');
    else {
      if (/[\n\r]/.test(message)) out.push(`message of several lines: ${JSON.stringify(message.slice(0, 300))}`);
      for (const a of ARTEFACTS) if (message.includes(a)) out.push(`message has ${JSON.stringify(a)}: ${message.slice(0, 300)}`);
      if (message.length > 2000) out.push(`message of ${message.length} characters`);
    }
  } else out.push(`no ok: ${r.line.slice(0, 200)}`);
  return out;
}

/** Run raw requests (op, raw JSON args text) through one batch; the list of problems, each naming its request. */
async function fuzzChunk(reqs: readonly { op: string; args: string }[]): Promise<string[]> {
  const b = new Batch();
  const found: string[] = [];
  for (let i = 0; i < reqs.length; i++) {
    const { op, args } = reqs[i]!;
    const id = JSON.stringify(`h${i}`);
    const r = await b.ask(`{"id":${id},"op":${JSON.stringify(op)},"args":${args}}`);
    if (DUMP) appendFileSync(DUMP, `${op} ${args.slice(0, 400)}\n  => ${Math.round(r.ms)}ms ${r.line.slice(0, 600)}\n`);
    for (const p of problems(id, r)) found.push(`${op} ${args.length > 300 ? args.slice(0, 300) + '…' : args} -> ${p}`);
  }
  const end = await b.end();
  if (end.code !== 0) found.push(`batch exited ${end.code}: ${end.stderr.slice(0, 500)}`);
  if (end.extra.length > 0) found.push(`extra output: ${end.extra.join('\n').slice(0, 300)}`);
  return found;
}

// ---------------------------------------------------------------------------------------------
// The corpus

const MMA = '{"atom":"SM80_16x8x16_F32F16F16F32_TN","layout":"(2,2,1)","permutation":"(32,32,16)"}';
const COPY_THR = '{"atom":"SM80_CP_ASYNC_CACHEALWAYS<uint128_t>","bits":16,"thr":"(32,8):(8,1)","val":"(1,8)"}';
const COPY_MMA = `{"atom":"SM75_U32x4_LDSM_N","bits":16,"mma":${MMA},"operand":"A"}`;
const LLV = '{"bases":[["register",[[0,1],[8,0]]],["lane",[[0,2],[0,4],[1,0],[2,0],[4,0]]],["warp",[]],["block",[]]],"outDims":[["dim0",16],["dim1",8]]}';
const LLS = '{"bases":[["offset",[[0,1],[0,2],[0,4],[0,8],[0,16],[0,32],[1,8],[2,16],[4,32]]],["block",[]]],"outDims":[["dim0",8],["dim1",64]]}';
const LLS16 = '{"bases":[["offset",[[0,1],[0,2],[0,4],[1,0],[2,0],[4,0],[8,0]]],["block",[]]],"outDims":[["dim0",16],["dim1",8]]}';
const LLI = '{"bases":[["in",[[1],[2]]]],"outDims":[["out1",4]]}';
const LLO = '{"bases":[["in",[[1],[2],[4]]]],"outDims":[["out2",8]]}';
const LLC = '{"bases":[["dim0",[[0,1],[0,2],[0,4],[0,8]]],["dim1",[[1,0],[2,0],[4,0]]]],"outDims":[["dim0",8],["dim1",16]]}';
const q = (s: string): string => JSON.stringify(s);

/** Valid requests of every op under test (raw JSON args). */
const TEMPLATES: Record<string, string[][]> = {
  atoms: [[], [q('mma')], [q('copy')]],
  mma_atom: [[q('SM80_16x8x16_F32F16F16F32_TN')], [q('SM90_64x128x16_F32F16F16_SS')], [q('SM70_8x8x4_F32F16F16F32_NT')]],
  copy_atom: [[q('SM75_U32x4_LDSM_N')], [q('SM75_U32x4_LDSM_N'), '16'], [q('UniversalCopy<uint32_t>'), '64']],
  make_tiled_mma: [
    [MMA],
    ['{"atom":"UniversalFMA","layout":"(16,16,1)"}'],
    ['{"atom":"SM80_16x8x16_F32F16F16F32_TN","permutation":"<32,(8,2,2):(1,16,8),16>","layout":"(2,2,1)"}'],
  ],
  make_tiled_copy: [[COPY_THR], [COPY_MMA]],
  partition_a: [[MMA, '37', q('(64,32):(32,1)')]],
  partition_b: [[MMA, '5', q('(64,32):(32,1)')]],
  partition_c: [[MMA, '5', q('(128,128):(1,128)')]],
  partition_s: [
    [COPY_MMA, '37', q('Sw<3,3,3> o (32,64):(64,1)')],
    [COPY_THR, '9', q('(64,64):(64,1)')],
  ],
  partition_d: [[COPY_THR, '9', q('Sw<3,3,3> o (64,64):(64,1)')]],
  local_tile: [
    [q('(256,128):(128,1)'), q('(64,32)'), q('(1,_)')],
    [q('(128,64):(64,1)'), q('(32,64,16)'), q('(1,0,_)'), q('(1,X,1)')],
    [q('(64,64)'), q('(8,8)'), '5'],
  ],
  local_partition: [
    [q('(16,64)'), q('(2,16)'), '5'],
    [q('(32,16):(16,1)'), q('(2,16,1):(16,1,0)'), '21', q('(1,X,1)')],
  ],
  copy_bank_conflicts: [
    [COPY_MMA, q('(32,64):(64,1)')],
    [COPY_THR, q('(32,64):(64,1)'), q('dst')],
  ],
  ll_parse: [
    [LLV],
    [q('#ttg.linear<{register = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [], block = []}>')],
    [q('DistributedLinearLayout(reg_bases=[[0, 1]], lane_bases=[[1, 0]], warp_bases=[], block_bases=[], shape=[2, 2])')],
    [q(LLI)],
  ],
  ll_format: [
    [LLV, q('triton')],
    [LLS, q('gluon'), '1024'],
    [LLV, q('mlir')],
  ],
  ll_apply: [[LLV, '{"register":3,"lane":5,"warp":0,"block":0}']],
  ll_compose: [[LLV, LLC]],
  ll_product: [[LLI, LLO]],
  ll_invert: [[LLV]],
  ll_pseudoinvert: [[LLV]],
  ll_invert_and_compose: [[LLV, LLS16]],
  ll_is_injective: [[LLV]],
  ll_is_surjective: [[LLS]],
  ll_is_invertible: [[LLV]],
  ll_divide_left: [[LLO, LLI]],
  ll_divide_right: [[LLO, LLI]],
  ll_sublayout: [[LLV, '["lane"]', '["dim0"]']],
  ll_free_variable_masks: [[LLV]],
  ll_from_encoding: [
    [q('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>'), '[32,32]'],
    [q('#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>'), '[16,8]'],
    [q('#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>'), '[8,64]'],
    [q('#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>'), '[64,64]'],
    [q('#ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>}>'), '[32]'],
    [
      q('#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>'),
      '[64,64]',
    ],
  ],
  check_linear: [[q('Sw<3,3,3> o (8,64):(64,1)')], [q('(3,4):(1,3)')]],
  to_ll: [
    [q('((4,8),(2,2)):((32,1),(16,8))'), q('tv'), '[16,8]'],
    [q('Sw<3,3,3> o (8,64):(64,1)'), q('shared')],
    [q('(2,2):(3,4)')],
    [q('(8,8)'), q('tv'), '[8,8]', '4', '2'],
  ],
  from_ll: [[LLV], [LLS, q('shared')], [LLI, q('function')]],
  ll_bank_conflicts: [
    [LLV, LLS16, '2'],
    [LLV, LLS16, '2', '1'],
  ],
  composition: [
    [q('(4,8):(8,1)'), q('<2,4>')],
    [q('(4,8)'), q('2:2')],
  ],
  get: [
    [q('((4,8),2):((1,4),32)'), '0', '1'],
    [q('(4,8)'), '1'],
  ],
  crd2idx: [
    [q('(1,2)'), q('(4,8)')],
    ['3', q('(4,8):(1,4)')],
    [q('(1,2)'), q('(4,8)'), q('(1,4)')],
  ],
  idx2crd: [
    ['5', q('(4,8)')],
    ['31', q('((2,2),8)')],
  ],
};

const bits65 = Array.from({ length: 65 }, (_, i) => `[${2 ** (i % 30)}]`).join(',');
const LL65 = `{"bases":[["in",[${bits65}]]],"outDims":[["out",1073741824]]}`;
const LL_BIG_OUT = '{"bases":[["in",[[1]]]],"outDims":[["out",2147483648]]}';
const LL_OUT3 = '{"bases":[["in",[[1]]]],"outDims":[["out",3]]}';
const LL_OVER = '{"bases":[["in",[[8]]]],"outDims":[["out",4]]}';
const LL_NEG = '{"bases":[["in",[[-1]]]],"outDims":[["out",4]]}';
const LL_FRAC = '{"bases":[["in",[[1.5]]]],"outDims":[["out",4]]}';
const LL_HUGE = '{"bases":[["in",[[9007199254740993]]]],"outDims":[["out",4]]}';
const LL_DUP = '{"bases":[["in",[[1]]],["in",[[2]]]],"outDims":[["out",4]]}';
const LL_WIDE = '{"bases":[["in",[[1,0]]]],"outDims":[["out",4]]}';
const LL_NAMELESS = '{"bases":[["",[[1]]]],"outDims":[["",2]]}';
const deepParen = '('.repeat(3000) + '1' + ')'.repeat(3000);
const deepArr = '['.repeat(3000) + ']'.repeat(3000);
/** nested deeper than any recursion over it can go */
const deeperArr = '['.repeat(100_000) + ']'.repeat(100_000);
const deeperObj = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);

/** Hostile JSON values (raw text). */
const HOSTILE: string[] = [
  '0',
  '-1',
  '-8',
  '0.5',
  '-0',
  '1e400',
  '-1e400',
  '9007199254740993',
  '9007199254740992',
  '2147483648',
  '4294967296',
  '1e21',
  '3',
  '1000',
  '1e-7',
  '18446744073709551617',
  'null',
  'true',
  'false',
  '[]',
  '[[]]',
  '[[[[[[1]]]]]]',
  '{}',
  '{"a":1}',
  '[1,2,3]',
  '["a"]',
  '[null]',
  '[0.5]',
  '[-1]',
  '[9007199254740993]',
  deepArr,
  deeperArr,
  deeperObj,
  q(''),
  q(' '),
  q('abc'),
  q('1'),
  q('16'),
  q('_'),
  q('X'),
  q('('.repeat(3000)),
  q(deepParen),
  q('x'.repeat(100_000)),
  q('é中😀\u0000\u202e'),
  '"\\ud800"',
  q('Sw<1000000,1000000,1000000> o (8,64):(64,1)'),
  q('Sw<64,64,64> o (8,64):(64,1)'),
  q('Sw<3,3,-3> o (8,64):(64,1)'),
  q('Sw<3,3,3> o 9007199254740993 o (8,64):(64,1)'),
  q('Sw<-1,3,3> o (8,64):(64,1)'),
  q('Sw<3,3,3> o Sw<3,3,3> o (8,64):(64,1)'),
  q('(1073741824,1073741824):(1,1073741824)'),
  q('2147483648:1'),
  q('(4294967296,4294967296,4294967296):(1,4294967296,1)'),
  q('9007199254740993:1'),
  q(`(${Array(64).fill('2').join(',')})`),
  q(`(${Array(70).fill('2').join(',')})`),
  q('(0,4):(1,0)'),
  q('(4,8):(-1,4)'),
  q('(4,8):(1,4):(1,4)'),
  q('<2,<3,4>>'),
  q('(_,_,_,_)'),
  q('((((((((1))))))))'),
  q('(4,8) '),
  q(' (4,8)'),
  q('4:1\n'),
  q('#ttg.blocked<{sizePerThread = [1, 4]'),
  q('#ttg.blocked<{sizePerThread = [1073741824, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>'),
  q('#ttg.blocked<{sizePerThread = [3, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 1]}>'),
  q('#ttg.linear<{register = [[1073741824, 0]], lane = [], warp = [], block = []}>'),
  q('#ttg.linear<{register = [[2147483648]], lane = [], warp = [], block = []}>'),
  q('#ttg.unknown<{}>'),
  q('#ttg.blocked<>'),
  q('#ttg.blocked<{order = [1, 0], order = [1, 0]}>'),
  q(`DistributedLinearLayout(reg_bases=[${Array(70).fill('[1]').join(', ')}], lane_bases=[], warp_bases=[], block_bases=[], shape=[2])`),
  q('SharedLinearLayout(offset_bases=[], block_bases=[], alignment=3)'),
  q('SharedLinearLayout(offset_bases=[[1]], alignment=0)'),
  q('\n - in=1 -> (1)\nwhere out dims are: [out (size 99999999999)]'),
  q('\n - in=1 -> (1)\n   in=4 -> (2)\nwhere out dims are: [out (size 4)]'),
  q('(empty layout with out-dims [a (size 3)])'),
  LL65,
  q(LL65),
  LL_BIG_OUT,
  LL_OUT3,
  LL_OVER,
  LL_NEG,
  LL_FRAC,
  LL_HUGE,
  LL_DUP,
  LL_WIDE,
  LL_NAMELESS,
  q(LL_OVER),
  q('{"bases":'),
  '{"bases":[],"outDims":[]}',
  '{"bases":[["in",[]]],"outDims":[["out",1]]}',
  '{"bases":[["in",[[1]]]],"outDims":[["out",2]],"extra":1}',
  '{"bases":[["in",[[1]]]]}',
  '{"bases":[["in",[[1]]]],"outDims":["out","out"]}',
  '{"bases":[["in",[[1]]]],"outDims":[["out",2,3]]}',
  '{"bases":{"in":[[1]]},"outDims":[["out",2]]}',
  '{"atom":"SM80_16x8x16_F32F16F16F32_TN","layout":"(1024,1024,1024)"}',
  '{"atom":"sm80_16x8x16_f32f16f16f32_tn"}',
  '{"atom":null}',
  '{"atom":"UniversalFMA","layout":"(2,2,2,2)"}',
  '{"atom":"UniversalFMA","permutation":"<4,<2,2>>"}',
  '{"atom":"SM75_U32x4_LDSM_N","bits":16,"thr":"(32,1)","mma":' + MMA + ',"operand":"A"}',
  '{"atom":"SM75_U32x4_LDSM_N","bits":16,"mma":' + MMA + ',"operand":"D"}',
  '{"atom":"SM75_U32x4_LDSM_N","bits":16,"mma":' + MMA + '}',
  '{"atom":"UniversalCopy<uint32_t>","bits":1000,"thr":"(32,8)"}',
  '{"atom":"UniversalCopy<uint32_t>","bits":32,"thr":"(2147483648,2)"}',
  '{"__proto__":{"atom":"x"}}',
  '{"constructor":1}',
  '{"atom":"toString","bits":8,"thr":"32"}',
];

/** Valid but extreme requests (raw args). */
const EXTREME: { op: string; args: string }[] = [
  ...['-1', '128', '2147483648', '9007199254740993', '1e400', '0.5', '127'].flatMap((t) =>
    ['partition_a', 'partition_b', 'partition_c'].map((op) => ({ op, args: `[${MMA},${t},"(64,32):(32,1)"]` })),
  ),
  ...['-1', '256', '2147483648', '9007199254740993'].flatMap((t) =>
    ['partition_s', 'partition_d'].map((op) => ({ op, args: `[${COPY_THR},${t},"(64,64):(64,1)"]` })),
  ),
  ...[
    'sm80_16x8x16_f32f16f16f32_tn',
    'SM80_16X8X16_F32F16F16F32_TN',
    ' SM80_16x8x16_F32F16F16F32_TN',
    'UniversalFMA<float>',
    'SM80_16x8x16_F32F16F16F32_TN\u0000',
    'SM90_64x8x16_F32F16F16_SS_TN',
    'hasOwnProperty',
    '__proto__',
    'constructor',
  ].map((n) => ({
    op: 'mma_atom',
    args: `[${q(n)}]`,
  })),
  ...['universalcopy<uint32_t>', 'UniversalCopy<uint32>', 'UniversalCopy<uint256_t>', 'SM75_U32x4_LDSM_n', '__proto__'].map((n) => ({
    op: 'copy_atom',
    args: `[${q(n)},16]`,
  })),
  ...['0', '3', '1000', '-8', '1', '6', '2147483648', '9007199254740993', '1.5', '"16"', '1e400'].map((b) => ({
    op: 'copy_atom',
    args: `["SM75_U32x4_LDSM_N",${b}]`,
  })),
  ...['0', '3', '1000', '-8', '2147483648', '9007199254740993', '1.5'].map((b) => ({
    op: 'make_tiled_copy',
    args: `[{"atom":"SM80_CP_ASYNC_CACHEALWAYS<uint128_t>","bits":${b},"thr":"(32,8):(8,1)","val":"(1,8)"}]`,
  })),
  ...[
    '(1024,1024,1024)',
    '(65536,65536,1)',
    '(1,1,1048576)',
    '(3,5,7)',
    '(4,4):(4,1)',
    '(2,2,1):(0,0,0)',
    '(2,2,1):(2,1,0)',
    '(2,2,1):(1,4,0)',
    '((2,2),2,1)',
    '0:0',
    '(0,1,1)',
  ].map((l) => ({
    op: 'make_tiled_mma',
    args: `[{"atom":"SM80_16x8x16_F32F16F16F32_TN","layout":${q(l)}}]`,
  })),
  ...[
    '(1048576,1048576,16)',
    '(16,8,16,2)',
    '<16,8,16,2>',
    '(17,8,16)',
    '(16:2,8,16)',
    '<(8,2):(2,1),8,16>',
    '<(8,2):(1,8),8,16>',
    '<<4,4>,8,16>',
    '1073741824',
  ].map((p) => ({
    op: 'make_tiled_mma',
    args: `[{"atom":"SM80_16x8x16_F32F16F16F32_TN","permutation":${q(p)}}]`,
  })),
  ...['(1048576,1024)', '(2147483648,1)', '(32,8):(1,32)', '(32,8):(8,2)', '(32,8):(0,1)', '(0,8)'].map((t) => ({
    op: 'make_tiled_copy',
    args: `[{"atom":"SM80_CP_ASYNC_CACHEALWAYS<uint128_t>","bits":16,"thr":${q(t)},"val":"(1,8)"}]`,
  })),
  { op: 'make_tiled_copy', args: `[{"atom":"SM80_CP_ASYNC_CACHEALWAYS<uint128_t>","bits":16,"thr":"(32,8):(8,1)","val":"(1,1073741824)"}]` },
  { op: 'copy_bank_conflicts', args: `[${COPY_THR},"(65536,65536):(65536,1)"]` },
  { op: 'copy_bank_conflicts', args: `[${COPY_THR},"(32,64):(64,1)","both"]` },
  { op: 'copy_bank_conflicts', args: `[${COPY_THR},"(32,64):(1,32)","src"]` },
  { op: 'copy_bank_conflicts', args: `[${COPY_MMA},"Sw<3,3,3> o 9007199254740000 o (32,64):(64,1)"]` },
  { op: 'local_tile', args: '["(1073741824,1073741824):(1,1073741824)","(2,2)","(536870911,536870911)"]' },
  { op: 'local_tile', args: '["(1073741824,1073741824):(1,1073741824)","(2,2)",9007199254740993]' },
  { op: 'local_tile', args: '["(64,64)","(8,8)",64]' },
  { op: 'local_tile', args: '["(64,64)","(8,8)","(9,0)"]' },
  { op: 'local_tile', args: '["(64,64)","(8,8)","(1,1,1)"]' },
  { op: 'local_tile', args: '["(64,64)","(8,8)","(1,1)","(1,1,1)"]' },
  { op: 'local_tile', args: '["(64,64)","(8,8)","(1,1)","(Y,1)"]' },
  { op: 'local_tile', args: '["(64,64)","(7,8)","(1,1)"]' },
  { op: 'local_tile', args: '["(64,64)","(0,8)","(1,1)"]' },
  { op: 'local_tile', args: '["Sw<3,3,3> o 5 o (64,64):(64,1)","(8,8)","(1,2)"]' },
  { op: 'local_partition', args: '["(64,64)","(8,8)",64]' },
  { op: 'local_partition', args: '["(64,64)","(8,8):(8,1)",63]' },
  { op: 'local_partition', args: '["(64,64)","(8,8):(16,1)",3]' },
  { op: 'local_partition', args: '["(64,64)","(1073741824,8)",3]' },
  { op: 'local_partition', args: '["(1073741824,1073741824)","(2,2)",3]' },
  { op: 'local_partition', args: '["(64,64)","(8,8)",-1]' },
  { op: 'to_ll', args: `[${q(`(${Array(64).fill('2').join(',')})`)}]` },
  { op: 'to_ll', args: `[${q(`(${Array(31).fill('2').join(',')})`)}]` },
  { op: 'to_ll', args: '["1073741824:1"]' },
  { op: 'to_ll', args: '["2147483648:1"]' },
  { op: 'to_ll', args: '["(2147483648,2):(1,2147483648)"]' },
  { op: 'to_ll', args: '["(65536,65536):(65536,1)","shared"]' },
  { op: 'to_ll', args: '["(65536,65536):(1,65536)","tv",[65536,65536]]' },
  { op: 'to_ll', args: '["(32,4):(4,1)","tv",[128],33]' },
  { op: 'to_ll', args: '["(32,4):(4,1)","tv",[128],0]' },
  { op: 'to_ll', args: '["(32,4):(4,1)","tv",[128],32,-2]' },
  { op: 'to_ll', args: '["(32,4):(4,1)","tv",[127]]' },
  { op: 'to_ll', args: '["(32,4):(4,1)","tv",[64]]' },
  { op: 'to_ll', args: '["(32,4):(4,1)","tv"]' },
  { op: 'to_ll', args: '["(32,4):(4,1)","shared",[64,2]]' },
  { op: 'to_ll', args: '["(32,4):(4,1)","shared",[3]]' },
  { op: 'to_ll', args: '["(32,4):(4,1)","function",[128]]' },
  { op: 'to_ll', args: '["(32,4):(4,1)","TV",[128]]' },
  { op: 'to_ll', args: '["Sw<3,4,3> o (8,64):(64,1)"]' },
  { op: 'to_ll', args: '["Sw<3,3,3> o (8,64):(64,1)","tv",[512]]' },
  { op: 'to_ll', args: '["Sw<20,3,20> o (8,64):(64,1)"]' },
  { op: 'to_ll', args: '["Sw<30,30,30> o 2:1"]' },
  { op: 'check_linear', args: '["Sw<30,30,30> o 2:1"]' },
  { op: 'check_linear', args: `[${q(`(${Array(64).fill('2').join(',')})`)}]` },
  { op: 'check_linear', args: '["(1073741824,1073741824):(1073741824,1)"]' },
  { op: 'check_linear', args: '["(2,2):(1,1)"]' },
  { op: 'check_linear', args: '["Sw<3,3,3> o 1 o (8,64):(64,1)"]' },
  { op: 'from_ll', args: `[${LL65}]` },
  { op: 'from_ll', args: `[${LLV},"shared"]` },
  { op: 'from_ll', args: `[${LLS},"tv"]` },
  { op: 'from_ll', args: `[${LLS},"bogus"]` },
  {
    op: 'from_ll',
    args: `[{"bases":[["in",[${Array.from({ length: 30 }, (_, k) => `[${2 ** k}]`).join(',')}]],["in2",[[1],[2]]]],"outDims":[["out",1073741824]]}]`,
  },
  { op: 'from_ll', args: '[{"bases":[["offset",[[3],[5],[6],[9],[10],[12],[17],[18],[20],[24]]],["block",[]]],"outDims":[["dim0",1024]]}]' },
  { op: 'll_apply', args: `[${LLV},{"register":4,"lane":0,"warp":0,"block":0}]` },
  { op: 'll_apply', args: `[${LLV},{"register":2147483648,"lane":0,"warp":0,"block":0}]` },
  { op: 'll_apply', args: `[${LLV},{"register":-1,"lane":0,"warp":0,"block":0}]` },
  { op: 'll_apply', args: `[${LLV},{"register":0.5,"lane":0,"warp":0,"block":0}]` },
  { op: 'll_apply', args: `[${LLV},{"register":1,"lane":0,"warp":0}]` },
  { op: 'll_apply', args: `[${LLV},{"register":1,"lane":0,"warp":0,"block":0,"x":0}]` },
  { op: 'll_apply', args: `[${LLV},{"register":1,"lane":0,"warp":0,"block":0,"__proto__":0}]` },
  { op: 'll_apply', args: `[${LLV},[1,2,3,4]]` },
  { op: 'll_product', args: `[${LL65},${LL65}]` },
  { op: 'll_product', args: `[${LLS},${LLS}]` },
  { op: 'll_product', args: '[{"bases":[["in",[]]],"outDims":[["out",1073741824]]},{"bases":[["in",[]]],"outDims":[["out",1073741824]]}]' },
  { op: 'll_compose', args: `[${LLV},${LLV}]` },
  { op: 'll_compose', args: `[${LLV},${LLS}]` },
  { op: 'll_invert', args: `[${LLS}]` },
  { op: 'll_invert', args: '[{"bases":[],"outDims":[]}]' },
  { op: 'll_pseudoinvert', args: '[{"bases":[],"outDims":[]}]' },
  { op: 'll_pseudoinvert', args: '[{"bases":[["in",[[1]]]],"outDims":[]}]' },
  { op: 'll_invert_and_compose', args: '[{"bases":[],"outDims":[]},{"bases":[],"outDims":[]}]' },
  { op: 'll_divide_left', args: '[{"bases":[],"outDims":[]},{"bases":[],"outDims":[]}]' },
  { op: 'll_divide_right', args: `[${LLI},${LLO}]` },
  { op: 'll_sublayout', args: `[${LLV},["lane","lane"],["dim0"]]` },
  { op: 'll_sublayout', args: `[${LLV},["nope"],["dim0"]]` },
  { op: 'll_sublayout', args: `[${LLV},"lane","dim0"]` },
  { op: 'll_sublayout', args: `[${LLV},[1],[2]]` },
  { op: 'll_format', args: `[${LLV},"gluon",16]` },
  { op: 'll_format', args: `[${LLV},"triton",16]` },
  { op: 'll_format', args: `[${LLS},"mlir",3]` },
  { op: 'll_format', args: `[${LLS},"mlir",0]` },
  { op: 'll_format', args: `[${LLS},"mlir",2147483648]` },
  { op: 'll_format', args: `[${LLS},"Triton"]` },
  { op: 'll_format', args: `[${LL65},"triton"]` },
  { op: 'll_bank_conflicts', args: `[${LLV},${LLS16},3]` },
  { op: 'll_bank_conflicts', args: `[${LLV},${LLS16},32]` },
  { op: 'll_bank_conflicts', args: `[${LLV},${LLS16},2,3]` },
  { op: 'll_bank_conflicts', args: `[${LLV},${LLS},2]` },
  { op: 'll_bank_conflicts', args: `[${LLS16},${LLV},2]` },
  ...[
    '[2147483648,2147483648]',
    '[0]',
    '[3,4]',
    '[1,1,1]',
    '[]',
    '[-4,4]',
    '[4.0,4]',
    '["32","32"]',
    '[1073741824,1073741824]',
    '[9007199254740993,2]',
    '{"0":32,"1":32}',
  ].map((s) => ({
    op: 'll_from_encoding',
    args: `["#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>",${s}]`,
  })),
  ...[
    '#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [0, 0]}>',
    '#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1]}>',
    '#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], bogus = 1}>',
    '#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1073741824, 1073741824], warpsPerCTA = [1073741824, 1], order = [1, 0]}>',
    '#ttg.blocked<{sizePerThread = [-1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>',
    '#ttg.blocked<{sizePerThread = [0, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>',
    '#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[9999999, 0]]}>',
    '#ttg.slice<{dim = 5, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>}>',
    '#ttg.slice<{dim = -1, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>}>',
    `${'#ttg.slice<{dim = 0, parent = '.repeat(200)}#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>${'}>'.repeat(
      200,
    )}`,
    '#ttg.nvidia_mma<{versionMajor = 4, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>',
    '#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 1048576, 16]}>',
    '#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 24, 16]}>',
    '#ttg.nvmma_shared<{swizzlingByteWidth = 96, transposed = false, elementBitWidth = 16}>',
    '#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 0}>',
    '#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16, rank = 9}>',
    '#ttg.swizzled_shared<{vec = 0, perPhase = 0, maxPhase = 0, order = [1, 0]}>',
    '#ttg.swizzled_shared<{vec = 3, perPhase = 5, maxPhase = 7, order = [1, 0]}>',
    '#ttg.swizzled_shared<{vec = 2147483647, perPhase = 2147483647, maxPhase = 2147483647, order = [1, 0]}>',
    '#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>',
    '#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [7, 7, 8], isTransposed = true}>',
    '#ttg.dot_op<{opIdx = 2, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>',
    '#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 1073741824}>',
    '#ttg.dot_op<{opIdx = 0, parent = #ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], ' +
      'instrShape = [16, 8]}>, kWidth = 2}>, kWidth = 2}>',
    '#ttg.linear<{register = [[1, 1]], lane = [], warp = [], block = []}>',
    '#ttg.linear<{register = [[0, 1], [0, 1]], lane = [], warp = [], block = []}>',
    '#ttg.shared_linear<{offset = [[1]]}, alignment = 3>',
    '#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}> trailing',
    '#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]',
  ].map((a) => ({ op: 'll_from_encoding', args: `[${q(a)},[64,64]]` })),
  { op: 'composition', args: '["(1073741824,1073741824):(1073741824,1)","<1073741824,1073741824>"]' },
  { op: 'composition', args: '["(4,8):(8,1)","<2,4,8>"]' },
  { op: 'composition', args: '["(4,8):(8,1)","(3,5):(7,11)"]' },
  { op: 'get', args: '["(4,8)",2]' },
  { op: 'get', args: '["(4,8)",-1]' },
  { op: 'get', args: '["(4,8)",0,0,0,0]' },
  { op: 'get', args: '["(4,8)",9007199254740993]' },
  { op: 'get', args: '["(4,8)"]' },
  { op: 'get', args: `[${q(`(${Array(70).fill('2').join(',')})`)},69]` },
  { op: 'crd2idx', args: '["(4,0)","(4,8)"]' },
  { op: 'crd2idx', args: '["(1,2,3)","(4,8)"]' },
  { op: 'crd2idx', args: '[32,"(4,8)"]' },
  { op: 'crd2idx', args: '[-1,"(4,8)"]' },
  { op: 'crd2idx', args: '[9007199254740993,"(9007199254740993,2)"]' },
  { op: 'crd2idx', args: '["(1,2)","(4,8):(1,4)","(1,4)"]' },
  { op: 'crd2idx', args: '["(1,2)","(4,8)","(1,4,5)"]' },
  { op: 'crd2idx', args: '["(1,2)","Sw<3,3,3> o (8,64):(64,1)","(1,4)"]' },
  { op: 'crd2idx', args: '["(1,2)","Sw<3,3,3> o (8,64):(64,1)"]' },
  { op: 'crd2idx', args: '["(1,(2,3))","(4,8)"]' },
  { op: 'crd2idx', args: '["((1,2),3)","(4,8)"]' },
  { op: 'crd2idx', args: '["(_,2)","(4,8)"]' },
  { op: 'crd2idx', args: '[[1,2],"(4,8)"]' },
  { op: 'crd2idx', args: '["(1,2)",[4,8]]' },
  { op: 'idx2crd', args: '[32,"(4,8)"]' },
  { op: 'idx2crd', args: '[-1,"(4,8)"]' },
  { op: 'idx2crd', args: '[9007199254740993,"(4,8)"]' },
  { op: 'idx2crd', args: '[5,"(4,8):(1,4)"]' },
  { op: 'idx2crd', args: '[5,"Sw<3,3,3> o (8,64):(64,1)"]' },
  { op: 'idx2crd', args: '[5,"(0,8)"]' },
  { op: 'idx2crd', args: '[5,"()"]' },
  { op: 'idx2crd', args: '[0,"()"]' },
  { op: 'idx2crd', args: '[1,"(1073741824,1073741824,1073741824)"]' },
];

/** Split raw JSON text of an array or object into the raw texts of its members (top level). */
function members(raw: string): string[] {
  const body = raw.trim().slice(1, -1);
  const out: string[] = [];
  let depth = 0;
  let inStr = false;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (inStr) {
      if (c === '\\') i++;
      else if (c === '"') inStr = false;
    } else if (c === '"') inStr = true;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      out.push(body.slice(start, i));
      start = i + 1;
    }
  }
  if (body.trim() !== '') out.push(body.slice(start));
  return out;
}

type Gen = ReturnType<typeof rng>;

/** A hostile version of a string's text. */
function mutateString(g: Gen, s: string): string {
  switch (g.int(9)) {
    case 0:
      return s.slice(0, g.int(s.length + 1));
    case 1: {
      const i = g.int(s.length + 1);
      return (
        s.slice(0, i) +
        g.pick(['(', ')', ',', ':', '<', '>', '_', '-', ' ', '\u00a0', '\t', 'é', '😀', '#', '=', '[', ']', '{', '}', '"', '\\', 'o', 'Sw']) +
        s.slice(i)
      );
    }
    case 2:
      return s.replace(/\d+/g, (d) =>
        g.chance(0.4) ? g.pick(['0', '3', '1000', '2147483648', '9007199254740993', '18446744073709551616', '-8', '1.5', '1e3']) : d,
      );
    case 3:
      return g.chance(0.5) ? s.toLowerCase() : s.toUpperCase();
    case 4:
      return s + s;
    case 5:
      return '('.repeat(200) + s + ')'.repeat(200);
    case 6:
      return s.replace(/\d+/, '1073741824');
    case 7:
      return s.split('').reverse().join('');
    default:
      return `Sw<${g.int(40)},${g.int(40)},${g.int(80) - 40}> o ${s}`;
  }
}

/** A hostile version of one raw JSON value. */
function mutateValue(g: Gen, raw: string, depth = 0): string {
  const t = raw.trim();
  if (t.startsWith('{') && depth < 2 && g.chance(0.7)) {
    const ms = members(t);
    const kv = ms.map((m) => {
      const i = m.indexOf(':');
      return [m.slice(0, i), m.slice(i + 1)] as [string, string];
    });
    const k = g.int(kv.length + 1);
    switch (g.int(4)) {
      case 0:
        kv.splice(Math.min(k, kv.length - 1), 1); // a missing key
        break;
      case 1:
        kv.push([q(g.pick(['threads', 'Atom', 'bits ', '', 'layoutTV', '__proto__', 'extra'])), g.pick(HOSTILE)]); // an unknown key
        break;
      case 2:
        if (kv.length > 0) kv[Math.min(k, kv.length - 1)]![1] = g.pick(HOSTILE);
        break;
      default:
        if (kv.length > 0) {
          const e = kv[Math.min(k, kv.length - 1)]!;
          e[1] = mutateValue(g, e[1], depth + 1);
        }
    }
    return `{${kv.map(([a, b]) => `${a}:${b}`).join(',')}}`;
  }
  if (t.startsWith('[') && depth < 3 && g.chance(0.6)) {
    const ms = members(t);
    if (ms.length > 0 && g.chance(0.7)) {
      const i = g.int(ms.length);
      ms[i] = mutateValue(g, ms[i]!, depth + 1);
    } else ms.push(g.pick(HOSTILE));
    return `[${ms.join(',')}]`;
  }
  if (t.startsWith('"') && g.chance(0.6)) return q(mutateString(g, JSON.parse(t) as string));
  return g.pick(HOSTILE);
}

/** `n` hostile requests for `op`, seeded. */
function hostileFor(op: string, seed: number, n: number): { op: string; args: string }[] {
  const g = rng(seed);
  const ts = TEMPLATES[op]!;
  const out: { op: string; args: string }[] = [];
  for (let i = 0; i < n; i++) {
    const base = [...g.pick(ts)];
    let args: string;
    switch (g.int(8)) {
      case 0:
        args = `[${base.slice(0, Math.max(0, base.length - 1 - g.int(2))).join(',')}]`;
        break;
      case 1:
        args = `[${[...base, g.pick(HOSTILE), ...(g.chance(0.3) ? [g.pick(HOSTILE)] : [])].join(',')}]`;
        break;
      case 2:
        args = g.pick(['"x"', '{}', 'null', '5', `{"0":${base[0] ?? '1'}}`, '[[]]']);
        break;
      default: {
        const times = 1 + g.int(2);
        for (let k = 0; k < times && base.length > 0; k++) {
          const j = g.int(base.length);
          base[j] = mutateValue(g, base[j]!);
        }
        args = `[${base.join(',')}]`;
      }
    }
    out.push({ op, args });
  }
  return out;
}

const ATOM_OPS = [
  'atoms',
  'mma_atom',
  'copy_atom',
  'make_tiled_mma',
  'make_tiled_copy',
  'partition_a',
  'partition_b',
  'partition_c',
  'partition_s',
  'partition_d',
];
const ATOM_OPS2 = ['local_tile', 'local_partition', 'copy_bank_conflicts', 'composition', 'get', 'crd2idx', 'idx2crd'];
const LL_OPS = Object.keys(TEMPLATES).filter((o) => o.startsWith('ll_') && o !== 'll_from_encoding');
const BRIDGE_OPS = ['ll_from_encoding', 'check_linear', 'to_ll', 'from_ll', 'll_bank_conflicts'];
const PER_OP = Number(process.env.HOSTILE_PER_OP ?? 30);
/** HOSTILE_SEED=n: another corpus of the same shape (the default, 0, is what CI runs) */
const SEED = Number(process.env.HOSTILE_SEED ?? 0);

describe('batch: hostile requests to the new ops (seeded), one batch process per chunk', () => {
  const chunks: [string, string[], number][] = [
    ['atoms, MMAs, copies, partitions', ATOM_OPS, 1],
    ['tiles, bank conflicts, CuTe names', ATOM_OPS2, 2],
    ['linear-layout ops', LL_OPS, 3],
    ['encodings and the CuTe bridge', BRIDGE_OPS, 4],
  ];
  for (const [name, opsOfChunk, seed] of chunks) {
    it(`${name}: one well-formed answer per request, a protocol kind, no crash`, async () => {
      const reqs = opsOfChunk.flatMap((op, k) => hostileFor(op, SEED * 100_000 + seed * 1000 + k, PER_OP));
      const found = await fuzzChunk(reqs);
      expect(found).toEqual([]);
    });
  }
  it('valid-but-extreme requests: a result or a protocol kind, in time', async () => {
    const found = await fuzzChunk(EXTREME);
    expect(found).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Random valid input, checked against brute force

/** A session of requests whose answers the test reads (one batch process). */
class Session {
  private readonly b = new Batch();
  private n = 0;
  readonly found: string[] = [];

  /** The result of [op, ...args] (args as JS values), or the error object. */
  async call(op: string, args: readonly unknown[], raw?: string): Promise<{ ok: true; result: unknown } | { ok: false; kind: string; message: string }> {
    const id = JSON.stringify(`v${this.n++}`);
    const text = raw ?? JSON.stringify(args);
    const r = await this.b.ask(`{"id":${id},"op":${JSON.stringify(op)},"args":${text}}`);
    if (DUMP) appendFileSync(DUMP, `${op} ${text.slice(0, 400)}\n  => ${r.line.slice(0, 600)}\n`);
    for (const p of problems(id, r)) this.found.push(`${op} ${text.slice(0, 300)} -> ${p}`);
    const v = JSON.parse(r.line) as { ok: boolean; result?: unknown; error?: { kind: string; message: string } };
    return v.ok ? { ok: true, result: v.result } : { ok: false, kind: v.error!.kind, message: v.error!.message };
  }

  /** The result, or a finding (and undefined) when the op refused. */
  async ok<T>(op: string, args: readonly unknown[]): Promise<T | undefined> {
    const r = await this.call(op, args);
    if (!r.ok) {
      this.found.push(`${op} ${JSON.stringify(args).slice(0, 300)} -> unexpected ${r.kind}: ${r.message}`);
      return undefined;
    }
    return r.result as T;
  }

  check(cond: boolean, what: string): void {
    if (!cond) this.found.push(what);
  }

  async end(): Promise<string[]> {
    const e = await this.b.end();
    if (e.code !== 0) this.found.push(`batch exited ${e.code}`);
    return this.found;
  }
}

const ev = (l: LL, x: readonly number[]): number[] => llApply(l, x);
const outSizes = (l: LL): number[] => l.outDims.map(([, s]) => s);
const str = (v: unknown): string => JSON.stringify(v);

function pickNames(g: Gen, pool: readonly string[], n: number): string[] {
  const p = [...pool];
  const out: string[] = [];
  for (let i = 0; i < n && p.length > 0; i++) out.push(p.splice(g.int(p.length), 1)[0]!);
  return out;
}

function randomDims(g: Gen, pool: readonly string[], n: number, maxBits: number): [string, number][] {
  return pickNames(g, pool, n).map((name) => [name, g.int(maxBits + 1)]);
}

const IN_POOL = ['register', 'lane', 'warp', 'block', 'in', 'x'];
const OUT_POOL = ['dim0', 'dim1', 'out', 'y'];

function randomPlain(g: Gen): LL {
  const ins = randomDims(g, IN_POOL, 1 + g.int(3), 3);
  const outs = randomDims(g, OUT_POOL, 1 + g.int(3), 3).map(([n, b]) => [n, 2 ** b] as [string, number]);
  return randomLL(g, ins, outs);
}

/** Whether every out value is reached (by the F2 rank of the flattened images). */
function llRank(l: LL): number {
  const os = outSizes(l);
  return rank(l.bases.flatMap(([, bs]) => bs.map((b) => flatten(b, os))));
}
const outBits = (l: LL): number => Math.log2(outSizes(l).reduce((a, b) => a * b, 1));
const inBits = (l: LL): number => l.bases.reduce((a, [, bs]) => a + bs.length, 0);

describe('batch: random valid linear layouts against brute force', () => {
  it('ll_parse, ll_apply, ll_compose, ll_product, the predicates, free-variable masks, ll_format round trip', async () => {
    const s = new Session();
    const g = rng(20261201);
    for (let it = 0; it < 60; it++) {
      const l = randomPlain(g);
      const parsed = await s.ok<LL>('ll_parse', [l]);
      s.check(parsed === undefined || str(parsed) === str(l), `ll_parse ${str(l)} -> ${str(parsed!)}`);
      const xs = allInputs(inSizes(l));
      const x = g.pick(xs);
      const applied = await s.ok<Record<string, number>>('ll_apply', [l, Object.fromEntries(l.bases.map(([n], i) => [n, x[i]]))]);
      const want = ev(l, x);
      s.check(
        applied === undefined || l.outDims.every(([n], j) => applied[n] === want[j]),
        `ll_apply ${str(l)} at ${x} -> ${JSON.stringify(applied)}, want ${want}`,
      );
      // predicates
      const r = llRank(l);
      const inj = await s.ok<boolean>('ll_is_injective', [l]);
      const sur = await s.ok<boolean>('ll_is_surjective', [l]);
      const inv = await s.ok<boolean>('ll_is_invertible', [l]);
      s.check(inj === (r === inBits(l)), `ll_is_injective ${str(l)} -> ${inj}`);
      s.check(sur === (r === outBits(l)), `ll_is_surjective ${str(l)} -> ${sur}`);
      s.check(inv === (r === outBits(l) && inBits(l) === outBits(l)), `ll_is_invertible ${str(l)} -> ${inv}`);
      // free-variable masks
      const masks = await s.ok<Record<string, number>>('ll_free_variable_masks', [l]);
      const os = outSizes(l);
      const seen: number[] = [];
      for (const [n, bs] of l.bases) {
        let m = 0;
        bs.forEach((b, i) => {
          const v = flatten(b, os);
          if (rank([...seen, v]) === rank(seen)) m |= 1 << i;
          seen.push(v);
        });
        s.check(masks === undefined || masks[n] === m, `ll_free_variable_masks ${str(l)}: ${n} -> ${masks?.[n]}, want ${m}`);
      }
      // format / parse round trip
      const t = await s.ok<string>('ll_format', [l, 'triton']);
      if (t !== undefined) {
        const back = await s.ok<LL>('ll_parse', [t]);
        s.check(back === undefined || str(back) === str(l), `ll_parse(ll_format(${str(l)}, triton)) -> ${str(back!)}`);
      }
      // compose: O's in-dims are l's out-dims (shuffled), sizes at least l's
      const oIns = pickNames(
        g,
        l.outDims.map(([n]) => n),
        l.outDims.length,
      ).map((n) => {
        const sz = l.outDims.find(([m]) => m === n)![1];
        return [n, Math.log2(sz) + g.int(2)] as [string, number];
      });
      const o = randomLL(
        g,
        oIns,
        randomDims(g, ['p', 'q', 'dim0'], 1 + g.int(2), 3).map(([n, b]) => [n, 2 ** b] as [string, number]),
      );
      const c = await s.ok<LL>('ll_compose', [l, o]);
      if (c !== undefined) {
        s.check(
          str(c.outDims) === str(o.outDims) && str(c.bases.map(([n, bs]) => [n, bs.length])) === str(l.bases.map(([n, bs]) => [n, bs.length])),
          `ll_compose dims ${str(l)} ${str(o)} -> ${str(c)}`,
        );
        for (const xx of xs) {
          const mid = ev(l, xx);
          const oin = o.bases.map(([n]) => mid[l.outDims.findIndex(([m]) => m === n)]!);
          if (str(ev(c, xx)) !== str(ev(o, oin))) {
            s.found.push(`ll_compose ${str(l)} ${str(o)} -> ${str(c)} differs at ${xx}`);
            break;
          }
        }
      }
      // product
      const p = randomPlain(g);
      const pr = await s.ok<LL>('ll_product', [l, p]);
      if (pr !== undefined) {
        const size = (ll: LL, n: string, isIn: boolean): number =>
          isIn ? 2 ** (ll.bases.find(([m]) => m === n)?.[1].length ?? 0) : (ll.outDims.find(([m]) => m === n)?.[1] ?? 1);
        const ok1 =
          pr.bases.every(([n, bs]) => 2 ** bs.length === size(l, n, true) * size(p, n, true)) &&
          pr.outDims.every(([n, sz]) => sz === size(l, n, false) * size(p, n, false)) &&
          new Set([...l.bases, ...p.bases].map(([n]) => n)).size === pr.bases.length &&
          new Set([...l.outDims, ...p.outDims].map(([n]) => n)).size === pr.outDims.length;
        s.check(ok1, `ll_product dims ${str(l)} ${str(p)} -> ${str(pr)}`);
        if (ok1 && inBits(pr) <= 12) {
          for (const xx of allInputs(inSizes(pr))) {
            const xi = pr.bases.map(([n], d) => xx[d]! % size(l, n, true));
            const xo = pr.bases.map(([n], d) => Math.floor(xx[d]! / size(l, n, true)));
            const vi = ev(
              l,
              l.bases.map(([n]) => xi[pr.bases.findIndex(([m]) => m === n)]!),
            );
            const vo = ev(
              p,
              p.bases.map(([n]) => xo[pr.bases.findIndex(([m]) => m === n)]!),
            );
            const want2 = pr.outDims.map(([n]) => {
              const i = l.outDims.findIndex(([m]) => m === n);
              const j = p.outDims.findIndex(([m]) => m === n);
              return (i >= 0 ? vi[i]! : 0) ^ (j >= 0 ? vo[j]! * size(l, n, false) : 0);
            });
            if (str(ev(pr, xx)) !== str(want2)) {
              s.found.push(`ll_product ${str(l)} ${str(p)} -> ${str(pr)} differs at ${xx}`);
              break;
            }
          }
        }
        // divide: l = (l * p) / p on the right, p on the left of (p * l)
        const dr = await s.ok<LL | null>('ll_divide_right', [pr, p]);
        if (dr) {
          const back = await s.ok<LL>('ll_product', [dr, p]);
          s.check(back === undefined || str(back) === str(pr), `ll_divide_right(${str(pr)}, ${str(p)}) = ${str(dr)}, but C*B = ${str(back!)}`);
        }
        const pl = await s.ok<LL>('ll_product', [p, l]);
        if (pl) {
          const dl = await s.ok<LL | null>('ll_divide_left', [pl, p]);
          s.check(dl !== null, `ll_divide_left(${str(pl)}, ${str(p)}) = null, but ${str(l)} divides it`);
          if (dl) {
            const back = await s.ok<LL>('ll_product', [p, dl]);
            s.check(back === undefined || str(back) === str(pl), `ll_divide_left(${str(pl)}, ${str(p)}) = ${str(dl)}, but B*C = ${str(back!)}`);
          }
        }
      }
    }
    expect(await s.end()).toEqual([]);
  });

  it('ll_invert, ll_pseudoinvert (the smallest preimage), ll_invert_and_compose (B(C(x)) = A(x), smallest solution)', async () => {
    const s = new Session();
    const g = rng(7);
    for (let it = 0; it < 40; it++) {
      const outs = randomDims(g, OUT_POOL, 1 + g.int(2), 3).map(([n, b]) => [n, 2 ** b] as [string, number]);
      const nb = outs.reduce((a, [, sz]) => a + Math.log2(sz), 0);
      // invertible: split the bits over one to three in-dims
      const names = pickNames(g, IN_POOL, 1 + g.int(3));
      const cuts = names.map(() => 0);
      for (let i = 0; i < nb; i++) {
        const j = g.int(cuts.length);
        cuts[j] = cuts[j]! + 1;
      }
      const l = randomInvertible(
        g,
        names.map((n, i) => [n, cuts[i]!]),
        outs,
      );
      const inv = await s.ok<LL>('ll_invert', [l]);
      const ys = allInputs(outSizes(l));
      if (inv) {
        for (const x of allInputs(inSizes(l))) {
          const y = ev(l, x);
          if (
            str(
              ev(
                inv,
                inv.bases.map(([n]) => y[l.outDims.findIndex(([m]) => m === n)]!),
              ),
            ) !== str(x)
          ) {
            s.found.push(`ll_invert ${str(l)} -> ${str(inv)}: not the inverse at ${x}`);
            break;
          }
        }
      }
      // a surjective l2 with extra (broadcast or redundant) bits: pseudo-inverse = smallest preimage
      const extra = randomLL(g, [['lane', 1 + g.int(2)]], outs);
      const l2: LL = { bases: [...l.bases.filter(([n]) => n !== 'lane'), ...extra.bases], outDims: l.outDims };
      if (llRank(l2) === outBits(l2) && inBits(l2) <= 12) {
        const pinv = await s.ok<LL>('ll_pseudoinvert', [l2]);
        if (pinv) {
          const sizes = inSizes(l2);
          const best = new Map<string, number>();
          for (const x of allInputs(sizes)) {
            const k = str(ev(l2, x));
            const f = flatten(x, sizes);
            if (!best.has(k) || best.get(k)! > f) best.set(k, f);
          }
          for (const y of ys) {
            const got = ev(
              pinv,
              pinv.bases.map(([n]) => y[l2.outDims.findIndex(([m]) => m === n)]!),
            );
            const gotX = l2.bases.map(([n]) => got[pinv.outDims.findIndex(([m]) => m === n)]!);
            if (flatten(gotX, sizes) !== best.get(str(y))) {
              s.found.push(`ll_pseudoinvert ${str(l2)} -> ${str(pinv)}: at ${y} gives ${gotX}, the smallest preimage is ${best.get(str(y))}`);
              break;
            }
          }
        }
        // invert_and_compose: A with the same out-dims (sizes at most B's) and disjoint in-dim names
        const a = randomLL(
          g,
          [
            ['p', g.int(4)],
            ['q', g.int(3)],
          ],
          outs,
        );
        const c = await s.ok<LL>('ll_invert_and_compose', [a, l2]);
        if (c) {
          const sizes2 = inSizes(l2);
          for (const x of allInputs(inSizes(a))) {
            const cx = ev(c, x);
            const y = l2.bases.map(([n]) => cx[c.outDims.findIndex(([m]) => m === n)]!);
            if (str(ev(l2, y)) !== str(ev(a, x))) {
              s.found.push(`ll_invert_and_compose ${str(a)} ${str(l2)} -> ${str(c)}: B(C(x)) != A(x) at ${x}`);
              break;
            }
          }
          // per in-bit of A: the smallest solution
          a.bases.forEach(([, bs], d) =>
            bs.forEach((b, i) => {
              const x = a.bases.map((_, e) => (e === d ? 1 << i : 0));
              const cx = ev(c, x);
              const y = l2.bases.map(([n]) => cx[c.outDims.findIndex(([m]) => m === n)]!);
              let smallest = -1;
              for (const z of allInputs(sizes2)) {
                if (str(ev(l2, z)) === str(b.map((v) => v))) {
                  const f = flatten(z, sizes2);
                  if (smallest < 0 || f < smallest) smallest = f;
                }
              }
              s.check(flatten(y, sizes2) === smallest, `ll_invert_and_compose ${str(a)} ${str(l2)}: in-bit ${d}/${i} -> ${y}, smallest ${smallest}`);
            }),
          );
        }
      }
    }
    expect(await s.end()).toEqual([]);
  });

  it('ll_format gluon and mlir read back by ll_parse, for distributed and shared layouts', async () => {
    const s = new Session();
    const g = rng(8080);
    let n = 0;
    for (let it = 0; it < 40; it++) {
      const k = 1 + g.int(3);
      const outs: [string, number][] = Array.from({ length: k }, (_, i) => [`dim${i}`, 2 ** g.int(4)]);
      const nb = outs.reduce((a, [, sz]) => a + Math.log2(sz), 0);
      const shared = g.chance(0.5);
      const ins: [string, number][] = shared
        ? [
            ['offset', nb],
            ['block', 0],
          ]
        : [
            ['register', g.int(nb + 1)],
            ['lane', 0],
            ['warp', 0],
            ['block', 0],
          ];
      if (!shared) {
        const rest = nb - ins[0]![1];
        ins[1]![1] = g.int(rest + 1);
        ins[2]![1] = rest - ins[1]![1];
      }
      // surjective, with sizes the bases infer: every out-dim reaches its top bit
      const l = randomInvertible(g, ins, outs, 0.2);
      if (shared && nb === 0) continue;
      // a broadcast basis on top, sometimes
      if (g.chance(0.3)) l.bases[1]![1].push(outs.map(() => 0));
      // the MLIR form infers the rank from the length of a basis: without any basis it reads back rank 0 (as in Triton)
      for (const form of inBits(l) === 0 ? ['gluon'] : ['gluon', 'mlir']) {
        const text = await s.ok<string>('ll_format', shared ? [l, form, 2 ** g.int(11)] : [l, form]);
        if (text === undefined) continue;
        n++;
        const back = await s.ok<LL>('ll_parse', [text]);
        s.check(back === undefined || str(back) === str(l), `ll_parse(ll_format(${str(l)}, ${form}) = ${text}) = ${str(back)}`);
      }
    }
    expect(n).toBeGreaterThan(40);
    expect(await s.end()).toEqual([]);
  });

  it('to_ll / from_ll round trips on every index, check_linear against a brute-force decision', async () => {
    const s = new Session();
    const g = rng(99);
    for (let it = 0; it < 60; it++) {
      // a random CuTe layout, often linear
      const k = 1 + g.int(3);
      const shape = Array.from({ length: k }, () => 2 ** g.int(3) * (g.chance(0.1) ? 3 : 1));
      const stride = shape.map(() => g.pick([0, 1, 2, 4, 8, 16, 32, 3, 5, 6, 12, 64]));
      let text = `(${shape.join(',')}):(${stride.join(',')})`;
      if (g.chance(0.3)) text = `Sw<${1 + g.int(2)},${g.int(3)},${g.pick([1, 2, 3, -1, -2, -3])}> o ${g.chance(0.2) ? `${g.int(8)} o ` : ''}${text}`;
      const swz = /^Sw<(\d+),(\d+),(-?\d+)>/.exec(text);
      if (swz && Math.abs(Number(swz[3])) < Number(swz[1])) continue;
      const f = layoutFn(text);
      const pow2 = (f.size & (f.size - 1)) === 0;
      let linear = pow2;
      for (let x = 0; x < f.size && linear; x++)
        for (let y = 0; y < f.size && linear; y++) if ((x ^ y) < f.size && f.phi(x ^ y) !== (f.phi(x) ^ f.phi(y))) linear = false;
      const cl = await s.ok<{ linear: boolean; reason: string | null; witness: number[] | null }>('check_linear', [text]);
      if (cl) {
        s.check(cl.linear === linear, `check_linear ${text} -> ${JSON.stringify(cl)}, brute force says ${linear}`);
        if (!cl.linear && cl.reason === 'size') s.check(!pow2, `check_linear ${text}: reason size for a power-of-two size`);
        if (!cl.linear && cl.witness) {
          const [x, y] = cl.witness as [number, number];
          s.check(cl.reason === 'offset' ? f.phi(0) !== 0 : f.phi(x ^ y) !== (f.phi(x) ^ f.phi(y)), `check_linear ${text}: witness ${x}, ${y} is no witness`);
        }
      }
      const ll = await s.call('to_ll', [text]);
      if (linear) {
        if (!ll.ok) s.found.push(`to_ll ${text} -> ${ll.kind}: ${ll.message}, but it is linear`);
        else {
          const l = ll.result as LL;
          for (let x = 0; x < f.size; x++) {
            if (ev(l, [x])[0] !== f.phi(x)) {
              s.found.push(`to_ll ${text} -> ${str(l)} differs at ${x}`);
              break;
            }
          }
          const back = await s.ok<string>('from_ll', [l]);
          if (back !== undefined) {
            const fb = layoutFn(back);
            s.check(fb.size === f.size, `from_ll(to_ll(${text})) = ${back}: size ${fb.size}`);
            for (let x = 0; x < f.size; x++) {
              if (fb.phi(x) !== f.phi(x)) {
                s.found.push(`from_ll(to_ll(${text})) = ${back} differs at ${x}`);
                break;
              }
            }
          }
        }
      } else s.check(!ll.ok && (ll.kind === 'not-linear' || ll.kind === 'overflow'), `to_ll ${text} (not linear) -> ${JSON.stringify(ll)}`);
    }
    // random LLs: from_ll on every index, and to_ll(from_ll(L)) = L for the canonical tv and shared ones
    for (let it = 0; it < 60; it++) {
      const kind = g.pick(['function', 'tv', 'shared'] as const);
      let l: LL;
      let extraArgs: unknown[] = [];
      if (kind === 'function') l = randomLL(g, [['in', 1 + g.int(5)]], [['out', 2 ** g.int(7)]]);
      else if (kind === 'tv') {
        const outs: [string, number][] = Array.from({ length: 1 + g.int(2) }, (_, i) => [`dim${i}`, 2 ** g.int(4)]);
        const ins: [string, number][] = [
          ['register', g.int(3)],
          ['lane', g.int(3)],
          ['warp', g.int(2)],
          ['block', g.int(2)],
        ];
        l = randomLL(g, ins, outs);
        extraArgs = [outs.map(([, sz]) => sz), 2 ** ins[1]![1], 2 ** ins[2]![1]];
      } else {
        const outs: [string, number][] = Array.from({ length: 1 + g.int(2) }, (_, i) => [`dim${i}`, 2 ** g.int(4)]);
        const nb = outs.reduce((a, [, sz]) => a + Math.log2(sz), 0);
        l = randomInvertible(
          g,
          [
            ['offset', nb],
            ['block', 0],
          ],
          outs,
        );
        extraArgs = [outs.map(([, sz]) => sz)];
      }
      const r = await s.call('from_ll', [l]);
      if (!r.ok) {
        s.check(r.kind === 'not-representable', `from_ll ${str(l)} -> ${r.kind}: ${r.message}`);
        continue;
      }
      const text = r.result as string;
      const f = layoutFn(text);
      const sizes = inSizes(l);
      const os = outSizes(l);
      if (kind === 'shared') {
        const smallest = new Map<number, number>();
        for (const x of allInputs(sizes)) {
          const c = flatten(ev(l, x), os);
          if (!smallest.has(c)) smallest.set(c, flatten(x, sizes));
        }
        for (const [c, o] of smallest) {
          if (f.phi(c) !== o) {
            s.found.push(`from_ll ${str(l)} = ${text}: at tile index ${c} gives ${f.phi(c)}, want ${o}`);
            break;
          }
        }
      } else {
        for (const x of allInputs(sizes)) {
          const idx =
            kind === 'tv'
              ? (() => {
                  const t = x[1]! + sizes[1]! * (x[2]! + sizes[2]! * x[3]!);
                  return t + sizes[1]! * sizes[2]! * sizes[3]! * x[0]!;
                })()
              : flatten(x, sizes);
          if (f.phi(idx) !== flatten(ev(l, x), os)) {
            s.found.push(`from_ll ${str(l)} = ${text}: differs at ${x}`);
            break;
          }
        }
      }
      if (kind !== 'function') {
        const back = await s.ok<LL>('to_ll', [text, kind, ...extraArgs]);
        s.check(back === undefined || str(back) === str(l), `to_ll(from_ll(${str(l)}) = ${text}, ${kind}) = ${str(back!)}`);
      }
    }
    expect(await s.end()).toEqual([]);
  });
});

/** The set of offsets of a tensor result {offset, layout} (a composed layout prints its own offset). */
function tensorOffsets(r: { offset: number; layout: string }): number[] {
  const f = layoutFn(r.layout);
  return Array.from({ length: f.size }, (_, x) => r.offset + f.phi(x));
}

function image(text: string): Set<number> {
  const f = layoutFn(text);
  const s = new Set<number>();
  for (let x = 0; x < f.size; x++) s.add(f.phi(x));
  return s;
}

describe('batch: tiled MMAs, copies and partitions of random atoms, sanity invariants', () => {
  it('every TV value inside its tile and every tile element held; partitions and tiles inside the tensor', async () => {
    const s = new Session();
    const g = rng(4242);
    const list = await s.ok<{ mma: string[]; copy: string[] }>('atoms', []);
    const mmas = (list?.mma ?? []).filter((n) => !/^SM90_64x(192|256)/.test(n));
    for (let it = 0; it < 30 && mmas.length > 0; it++) {
      const atom = g.pick(mmas);
      const layout = g.pick(['1', '(2,1,1)', '(1,2,1)', '(2,2,1)', '(1,1,2)', '(2,1,1):(1,0,0)', '(1,2,2)']);
      const mma = { atom, layout };
      const t = await s.ok<Record<string, string | number>>('make_tiled_mma', [mma]);
      const at = await s.ok<Record<string, string>>('mma_atom', [atom]);
      if (!t || !at) continue;
      // the atom's own layouts: a tiled operand covers its tile when the atom's covers the atom's tile
      // (every atom's does since CUTLASS aeba0d372 corrected SM80_16x8x32_S32S4S4S32_TN's B to stride 64)
      const [am, an, ak] = at.shapeMNK!.slice(1, -1).split(',').map(Number) as [number, number, number];
      const covers = (key: string, size: number): boolean => image(at[key]!).size === size;
      const atomCovers: Record<string, boolean> = {
        layoutA_TV: covers('layoutA_TV', am * ak),
        layoutB_TV: covers('layoutB_TV', an * ak),
        layoutC_TV: covers('layoutC_TV', am * an),
      };
      const [tm, tn, tk] = (t.tileShape as string).slice(1, -1).split(',').map(Number) as [number, number, number];
      const tiles: Record<string, [number, number]> = { layoutA_TV: [tm, tk], layoutB_TV: [tn, tk], layoutC_TV: [tm, tn] };
      for (const [key, [p, qq]] of Object.entries(tiles)) {
        const f = layoutFn(t[key] as string);
        if (f.size > 1 << 18) continue;
        const seen = new Set<number>();
        let bad = -1;
        for (let x = 0; x < f.size; x++) {
          const v = f.phi(x);
          if (v < 0 || v >= p * qq) bad = x;
          seen.add(v);
        }
        s.check(bad < 0, `make_tiled_mma ${JSON.stringify(mma)}: ${key} ${t[key]} leaves the ${p}x${qq} tile at ${bad}`);
        s.check(
          !atomCovers[key] || seen.size === p * qq,
          `make_tiled_mma ${JSON.stringify(mma)}: ${key} ${t[key]} holds ${seen.size} of the ${p * qq} tile elements`,
        );
        s.check(f.modes.length === 2 && f.modes[0]! >= (t.threads as number), `make_tiled_mma ${JSON.stringify(mma)}: ${key} ${t[key]} has modes ${f.modes}`);
      }
      // a partition of a tensor two tiles by three, row- or column-major, maybe padded
      const which = g.pick(['a', 'b', 'c'] as const);
      const [ti, tj] = which === 'a' ? [tm, tk] : which === 'b' ? [tn, tk] : [tm, tn];
      if (ti * tj * 6 > 1 << 16) continue;
      const [ni, nj] = [ti * (1 + g.int(2)), tj * (1 + g.int(3))];
      const tensor = g.pick([`(${ni},${nj}):(1,${ni})`, `(${ni},${nj}):(${nj},1)`, `(${ni},${nj}):(${nj + 1},1)`]);
      const thr = g.int(t.threads as number);
      const part = await s.ok<{ offset: number; layout: string }>(`partition_${which}`, [mma, thr, tensor]);
      if (part) {
        const img = image(tensor);
        const outside = tensorOffsets(part).filter((o) => !img.has(o));
        s.check(
          outside.length === 0,
          `partition_${which} ${JSON.stringify(mma)} ${thr} ${tensor} -> ${JSON.stringify(part)}: offsets ${outside.slice(0, 5)} outside the tensor`,
        );
      }
    }
    // tiled copies from thr/val, their partitions
    for (let it = 0; it < 20; it++) {
      const thr = g.pick(['(32,8):(8,1)', '(32,8)', '(16,8):(8,1)', '(8,4)']);
      const val = g.pick(['(1,8)', '(8,1)', '(2,4)', '1']);
      const copy = {
        atom: g.pick(['SM80_CP_ASYNC_CACHEALWAYS<uint128_t>', 'UniversalCopy<uint128_t>', 'UniversalCopy<uint32_t>', 'DefaultCopy']),
        bits: 16,
        thr,
        val,
      };
      const c = await s.call('make_tiled_copy', [copy]);
      if (!c.ok) {
        s.check(c.kind === 'domain', `make_tiled_copy ${JSON.stringify(copy)} -> ${c.kind}: ${c.message}`);
        continue;
      }
      const r = c.result as Record<string, string | number>;
      const tiler = (r.tiler as string).slice(1, -1).split(',').map(Number);
      const tileSize = tiler.reduce((a, b) => a * b, 1);
      for (const key of ['layoutTV', 'layoutS_TV', 'layoutD_TV']) {
        const f = layoutFn(r[key] as string);
        let bad = -1;
        for (let x = 0; x < f.size; x++) if (f.phi(x) < 0 || f.phi(x) >= tileSize) bad = x;
        s.check(bad < 0, `make_tiled_copy ${JSON.stringify(copy)}: ${key} ${r[key]} leaves the tile ${r.tiler} at ${bad}`);
      }
      const tensor = `(${tiler[0]! * 2},${tiler[1]! * 2}):(${tiler[1]! * 2},1)`;
      const tid = g.int(r.threads as number);
      for (const op of ['partition_s', 'partition_d']) {
        const part = await s.ok<{ offset: number; layout: string }>(op, [copy, tid, tensor]);
        if (part) {
          const img = image(tensor);
          s.check(
            tensorOffsets(part).every((o) => img.has(o)),
            `${op} ${JSON.stringify(copy)} ${tid} ${tensor} -> ${JSON.stringify(part)} leaves the tensor`,
          );
        }
      }
    }
    // local_partition: the threads' pieces partition the tensor; local_tile: every tile inside it
    for (let it = 0; it < 20; it++) {
      const [a, b] = [2 ** (1 + g.int(3)), 2 ** (1 + g.int(3))];
      const [m, n] = [a * 2 ** g.int(3), b * 2 ** g.int(3)];
      const tensor = g.pick([`(${m},${n})`, `(${m},${n}):(${n},1)`, `(${m},${n}):(${n + 3},1)`, `Sw<1,1,2> o (${m},${n}):(${n},1)`]);
      const thr = g.pick([`(${a},${b})`, `(${a},${b}):(${b},1)`]);
      const img = image(tensor);
      const all: number[] = [];
      for (let i = 0; i < a * b; i++) {
        const p = await s.ok<{ offset: number; layout: string }>('local_partition', [tensor, thr, i]);
        if (p) all.push(...tensorOffsets(p));
      }
      s.check(
        all.length === img.size && new Set(all).size === img.size && all.every((o) => img.has(o)),
        `local_partition ${tensor} ${thr}: the pieces do not partition the tensor`,
      );
      const tiles: number[] = [];
      for (let i = 0; i < (m / a) * (n / b); i++) {
        const p = await s.ok<{ offset: number; layout: string }>('local_tile', [tensor, `(${a},${b})`, i]);
        if (p) tiles.push(...tensorOffsets(p));
      }
      s.check(
        tiles.length === img.size && new Set(tiles).size === img.size && tiles.every((o) => img.has(o)),
        `local_tile ${tensor} (${a},${b}): the tiles do not cover the tensor once`,
      );
    }
    expect(await s.end()).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Regressions (each found by the fuzzer above) and the CLI forms

describe('regressions found by the fuzzer', () => {
  it('a message quoting input is one line of bounded length; crd2idx of 1e400 or 0.5 is bad-request; ll_product overflow names 2^60', async () => {
    const s = new Session();
    const big = 'x'.repeat(100_000);
    for (const [op, args] of [
      ['mma_atom', ['4:1\n']],
      ['copy_atom', ['\n - in=1 -> ']],
      ['from_ll', [JSON.parse(LLS), 'a\r\nb\u2028c\u0000']],
      ['atoms', [big]],
      ['ll_apply', [JSON.parse(LLV), { register: 3, lane: 5, warp: big, block: 0 }]],
    ] as const) {
      const r = await s.call(op, args);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.message).not.toMatch(/[\n\r\u2028]/);
        expect(r.message.includes(String.fromCharCode(0))).toBe(false);
        expect(r.message.length).toBeLessThan(1100);
      }
    }
    expect(await s.call('crd2idx', ['1e400', '(4,8)'], '[1e400,"(4,8)"]')).toMatchObject({ ok: false, kind: 'bad-request' });
    const inf = await s.call('crd2idx', [0.5, '(4,8)']);
    expect(inf).toMatchObject({ ok: false, kind: 'bad-request' });
    const huge = await s.call('crd2idx', [2 ** 53 + 2, '(4,8)']);
    expect(huge).toMatchObject({ ok: false, kind: 'domain' });
    // a basis entry nested 100,000 deep is named, not printed (printing it overflowed the stack)
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const nested = await s.call('ll_parse', [], `[{"bases":[["in",[${deep}]]],"outDims":[["out",2]]}]`);
    expect(nested).toMatchObject({ ok: false, kind: 'bad-request' });
    if (!nested.ok) expect(nested.message).toMatch(/basis in=1 has an array, not an integer$/);
    for (const [op, raw] of [
      ['mma_atom', `[${deep}]`],
      ['atoms', `[${deep}]`],
      ['ll_apply', `[${LLI},{"in":${deep}}]`],
    ] as const) {
      const r = await s.call(op, [], raw);
      expect(r).toMatchObject({ ok: false, kind: 'bad-request' });
      if (!r.ok) expect(r.message).toMatch(/got an array$/);
    }
    const big30 = { bases: [['in', []]], outDims: [['out', 2 ** 30]] };
    const pr = await s.call('ll_product', [big30, big30]);
    expect(pr).toMatchObject({ ok: false, kind: 'overflow' });
    if (!pr.ok) expect(pr.message).toContain('2^60');
    expect(await s.end()).toEqual([]);
  });
});

describe('the CLI forms of the new ops: bad input is one stderr line, exit 2, nothing on stdout', () => {
  const LLV_TEXT = LLV;
  const ENC = '#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>';
  const BAD: string[][] = [
    ['mma-atom', 'sm80_16x8x16_f32f16f16f32_tn'],
    ['mma-atom'],
    ['mma-atom', 'a', 'b'],
    ['mma-atom', 'a\nb'],
    ['copy-atom', 'SM75_U32x4_LDSM_N', '1.5'],
    ['copy-atom', 'SM75_U32x4_LDSM_N', '-8'],
    ['copy-atom', 'SM75_U32x4_LDSM_N', '9007199254740993'],
    ['make-tiled-mma', '{"atom":1}'],
    ['make-tiled-mma', 'not json'],
    ['make-tiled-mma', '{"atom":"SM80_16x8x16_F32F16F16F32_TN","layout":"(2,2,2,2)"}'],
    ['make-tiled-copy', '{"atom":"SM75_U32x4_LDSM_N","bits":16,"thr":"(16,1)","val":"(1,8)"}'],
    ['partition-a', MMA, '128', '(64,32):(32,1)'],
    ['partition-s', COPY_THR, 'x', '(64,64)'],
    ['local-tile', '(64,64)', '(8,8)', '(1,1'],
    ['local-partition', '(64,64)', '(8,8):(16,1)', '3'],
    ['copy-bank-conflicts', '{"atom":"DefaultCopy","bits":16,"thr":"(32,8)"}', '(32,64)'],
    ['ll'],
    ['ll', 'bogus', 'x'],
    ['ll', 'parse', 'garbage\nmore'],
    ['ll', 'apply', LLV_TEXT, 'notjson'],
    ['ll', 'apply', LLV_TEXT, '{"register":9}'],
    ['ll', 'format', LLV_TEXT, 'bogus'],
    ['ll', 'compose', LLV_TEXT],
    ['ll-from-encoding', '#ttg.blocked<{}>', '32x32'],
    ['ll-from-encoding', ENC, '33x32'],
    ['ll-from-encoding', ENC, '32xx32'],
    ['ll-from-encoding'],
    ['mma'],
    ['mma', 'SM80_16x8x16_F32F16F16F32_TN', '--layout', '(2,2,2,2)'],
    ['mma', 'SM80_16x8x16_F32F16F16F32_TN', '--thread', '999'],
    ['mma', 'SM80_16x8x16_F32F16F16F32_TN', '--bogus'],
    ['copy'],
    ['copy', 'SM75_U32x4_LDSM_N', '--bits', 'x', '--thr', '(32,8)'],
    ['copy', 'SM75_U32x4_LDSM_N', '--bits', '16', '--thr', '(32,8)', '--val', 'bad'],
    ['to-ll', '(32,32):(1,33)', 'shared'],
    ['from-ll', LLV_TEXT, 'tv', 'extra'],
    ['check-linear', '(4,8):(1,4):(1,4)'],
    ['crd2idx', '(1,2,3)', '(4,8)'],
    ['idx2crd', '32', '(4,8)'],
    ['get', '(4,8)', '2'],
    ['composition', '(4,8):(8,1)', '<2,4,8>'],
  ];
  it('each bad invocation: exit 2, one line on stderr without a stack trace, stdout empty', async () => {
    const found: string[] = [];
    for (let i = 0; i < BAD.length; i += 2) {
      const runs = await Promise.all(BAD.slice(i, i + 2).map((argv) => cli(argv).then((r) => [argv, r] as const)));
      for (const [argv, r] of runs) {
        const lines = r.stderr.split('\n').filter((l) => l !== '');
        const tag = argv.join(' ').slice(0, 120);
        if (r.code !== 2) found.push(`${tag}: exit ${r.code}`);
        if (r.stdout !== '') found.push(`${tag}: stdout ${JSON.stringify(r.stdout.slice(0, 100))}`);
        if (lines.length !== 1 || !r.stderr.endsWith('\n')) found.push(`${tag}: stderr of ${lines.length} lines: ${JSON.stringify(r.stderr.slice(0, 200))}`);
        for (const a of ARTEFACTS) if (r.stderr.includes(a)) found.push(`${tag}: stderr has ${JSON.stringify(a)}`);
      }
    }
    expect(found).toEqual([]);
  });
});

describe('batch: differential checks between the new ops', () => {
  it('from_ll: dims out of order, several in- and out-dims, broadcast shared offsets; ll_bank_conflicts = bank_conflicts of the from_ll forms', async () => {
    const s = new Session();
    const g = rng(31337);
    for (let it = 0; it < 50; it++) {
      const kind = g.pick(['function', 'tv', 'shared'] as const);
      let l: LL;
      if (kind === 'function') {
        l = randomLL(
          g,
          randomDims(g, ['a', 'b', 'c'], 1 + g.int(3), 3),
          randomDims(g, ['x', 'y'], 1 + g.int(2), 3).map(([n, b]) => [n, 2 ** b] as [string, number]),
        );
      } else {
        const k = 1 + g.int(3);
        const outs = pickNames(
          g,
          Array.from({ length: k }, (_, i) => `dim${i}`),
          k,
        ).map((n) => [n, 2 ** g.int(4)] as [string, number]);
        if (kind === 'tv')
          l = randomLL(
            g,
            pickNames(g, ['register', 'lane', 'warp', 'block'], 1 + g.int(4)).map((n) => [n, g.int(3)]),
            outs,
          );
        else {
          // surjective, maybe with broadcast (zero) or repeated offset bits
          const nb = outs.reduce((a, [, sz]) => a + Math.log2(sz), 0);
          const inv = randomInvertible(g, [['offset', nb]], outs);
          const bs = [...inv.bases[0]![1]];
          for (let e = g.int(3); e > 0; e--)
            bs.splice(g.int(bs.length + 1), 0, g.chance(0.5) ? outs.map(() => 0) : (bs[g.int(Math.max(1, bs.length))] ?? outs.map(() => 0)));
          l = {
            bases: [
              ['offset', bs],
              ['block', []],
            ],
            outDims: outs,
          };
        }
      }
      const r = await s.call('from_ll', [l]);
      if (!r.ok) {
        s.check(r.kind === 'not-representable', `from_ll ${str(l)} -> ${r.kind}: ${r.message}`);
        continue;
      }
      const f = layoutFn(r.result as string);
      const sizes = inSizes(l);
      const os = outSizes(l);
      // the tile index: dim0 fastest, by the dims' names
      const byName = (v: readonly number[]): number => {
        if (kind === 'function') return flatten(v, os);
        let idx = 0;
        let m = 1;
        for (let d = 0; d < l.outDims.length; d++) {
          const j = l.outDims.findIndex(([n]) => n === `dim${d}`);
          idx += v[j]! * m;
          m *= os[j]!;
        }
        return idx;
      };
      const nOf = (name: string): number => {
        const j = l.bases.findIndex(([n]) => n === name);
        return j < 0 ? 1 : sizes[j]!;
      };
      const at = (x: readonly number[], name: string): number => {
        const j = l.bases.findIndex(([n]) => n === name);
        return j < 0 ? 0 : x[j]!;
      };
      let bad = '';
      if (kind === 'shared') {
        const smallest = new Map<number, number>();
        for (const x of allInputs(sizes)) {
          const c = byName(ev(l, x));
          if (!smallest.has(c)) smallest.set(c, flatten(x, sizes));
        }
        for (const [c, o] of smallest) if (!bad && f.phi(c) !== o) bad = `tile index ${c}: ${f.phi(c)}, want ${o}`;
      } else {
        const T = nOf('lane') * nOf('warp') * nOf('block');
        for (const x of allInputs(sizes)) {
          const idx = kind === 'tv' ? at(x, 'lane') + nOf('lane') * (at(x, 'warp') + nOf('warp') * at(x, 'block')) + T * at(x, 'register') : flatten(x, sizes);
          if (!bad && f.phi(idx) !== byName(ev(l, x))) bad = `input ${x}: ${f.phi(idx)}, want ${byName(ev(l, x))}`;
        }
      }
      s.check(bad === '', `from_ll ${str(l)} = ${r.result}: ${bad}`);
    }
    // ll_bank_conflicts against bank_conflicts of the CuTe forms
    let compared = 0;
    for (let it = 0; it < 40; it++) {
      const outs: [string, number][] = [
        ['dim0', 2 ** (2 + g.int(4))],
        ['dim1', 2 ** (2 + g.int(4))],
      ];
      const nb = outs.reduce((a, [, sz]) => a + Math.log2(sz), 0);
      const sh = randomInvertible(
        g,
        [
          ['offset', nb],
          ['block', 0],
        ],
        outs,
      );
      const lanes = 2 + g.int(4);
      const regs = Math.max(0, Math.min(4, nb - lanes - 1));
      const rr = randomInvertible(
        g,
        [
          ['register', regs],
          ['lane', lanes],
          ['warp', nb - regs - lanes],
          ['block', 0],
        ],
        outs,
        g.pick([0, 0, 0.1]),
      );
      const e = g.pick([1, 2, 4, 8]);
      const a = await s.call('ll_bank_conflicts', [rr, sh, e]);
      const m = await s.call('from_ll', [sh, 'shared']);
      const tv = await s.call('from_ll', [rr, 'tv']);
      // bank_conflicts takes a plain TV layout
      if (!m.ok || !tv.ok || (tv.result as string).startsWith('Sw')) continue;
      compared++;
      const b = await s.call('bank_conflicts', [m.result, tv.result, e]);
      s.check(str(a) === str(b), `ll_bank_conflicts ${str(rr)} ${str(sh)} ${e} -> ${str(a)}; bank_conflicts ${m.result} ${tv.result} -> ${str(b)}`);
    }
    expect(compared).toBeGreaterThan(10);
    expect(await s.end()).toEqual([]);
  });

  it('partition_a/b/c of the tile itself is the TV layout at that thread; partition_s/d of the tiler-shaped tile is layoutS/D_TV', async () => {
    const s = new Session();
    const g = rng(555);
    const mmas = ['SM80_16x8x16_F32F16F16F32_TN', 'SM70_8x8x4_F32F16F16F32_NT', 'UniversalFMA', 'SM80_8x8x4_F64F64F64F64_TN', 'SM75_16x8x8_F32F16F16F32_TN'];
    for (let it = 0; it < 12; it++) {
      const mma = { atom: g.pick(mmas), layout: g.pick(['1', '(2,2,1)', '(1,2,1)', '(2,1,2)', '(4,2,1):(2,1,0)']) };
      const t = await s.ok<Record<string, string | number>>('make_tiled_mma', [mma]);
      if (!t) continue;
      const [tm, tn, tk] = (t.tileShape as string).slice(1, -1).split(',').map(Number) as [number, number, number];
      for (const [x, key, p, qq] of [
        ['a', 'layoutA_TV', tm, tk],
        ['b', 'layoutB_TV', tn, tk],
        ['c', 'layoutC_TV', tm, tn],
      ] as const) {
        const tvf = layoutFn(t[key] as string);
        const T = tvf.modes[0]!;
        const thr = g.int(T);
        const part = await s.ok<{ offset: number; layout: string }>(`partition_${x}`, [mma, thr, `(${p},${qq})`]);
        if (!part) continue;
        const offs = tensorOffsets(part);
        const want = Array.from({ length: tvf.modes[1]! }, (_, v) => tvf.phi(thr + T * v));
        s.check(str(offs) === str(want), `partition_${x} ${JSON.stringify(mma)} ${thr} (${p},${qq}) -> ${JSON.stringify(part)}: ${offs} != TV ${want}`);
      }
    }
    const copies = [
      { atom: 'SM80_CP_ASYNC_CACHEALWAYS<uint128_t>', bits: 16, thr: '(32,8):(8,1)', val: '(1,8)' },
      { atom: 'SM75_U32x4_LDSM_N', bits: 16, mma: { atom: 'SM80_16x8x16_F32F16F16F32_TN', layout: '(2,2,1)', permutation: '(32,32,16)' }, operand: 'A' },
      { atom: 'SM75_U16x8_LDSM_T', bits: 16, mma: { atom: 'SM80_16x8x16_F32F16F16F32_TN', layout: '(2,2,1)', permutation: '(32,32,16)' }, operand: 'B' },
      { atom: 'SM90_U32x4_STSM_N', bits: 16, mma: { atom: 'SM80_16x8x16_F32F16F16F32_TN', layout: '(2,2,1)', permutation: '(32,32,16)' }, operand: 'C' },
      { atom: 'UniversalCopy<uint32_t>', bits: 16, thr: '(16,8)', val: '(2,1)' },
    ];
    for (const copy of copies) {
      const c = await s.ok<Record<string, string | number>>('make_tiled_copy', [copy]);
      if (!c) continue;
      const tiler = (c.tiler as string).slice(1, -1);
      for (const [op, key] of [
        ['partition_s', 'layoutS_TV'],
        ['partition_d', 'layoutD_TV'],
      ] as const) {
        const tvf = layoutFn(c[key] as string);
        const T = tvf.modes[0]!;
        for (const thr of [0, g.int(T), T - 1]) {
          const part = await s.ok<{ offset: number; layout: string }>(op, [copy, thr, `(${tiler})`]);
          if (!part) continue;
          const offs = tensorOffsets(part);
          const want = Array.from({ length: tvf.modes[1]! }, (_, v) => tvf.phi(thr + T * v));
          s.check(str(offs) === str(want), `${op} ${JSON.stringify(copy)} ${thr} (${tiler}) -> ${JSON.stringify(part)}: ${offs} != ${key} ${want}`);
        }
      }
    }
    expect(await s.end()).toEqual([]);
  });
});

describe("batch: CuTe's names agree with the ops they name", () => {
  it('composition = compose, get(L, i…) = mode(…(L, i+1)), crd2idx = eval_coord, idx2crd = coord (results and error kinds)', async () => {
    const s = new Session();
    const g = rng(2718);
    const shapes = ['(4,8)', '((2,2),8)', '(4,(2,4))', '(3,5)', '8', '(2,3,4)', '((2,3),(4,5))'];
    const same = (a: Awaited<ReturnType<Session['call']>>, b: Awaited<ReturnType<Session['call']>>): boolean =>
      a.ok === b.ok && (a.ok ? str(a.result) === str((b as { result: unknown }).result) : a.kind === (b as { kind: string }).kind);
    for (let it = 0; it < 40; it++) {
      const sh = g.pick(shapes);
      const layout = g.chance(0.5) ? sh : `${sh}:${sh.replace(/\d+/g, () => String(g.int(40)))}`;
      const tiler = g.pick(['2', '4:2', '<2,4>', '<_,2>', '(2,2)', '3:3', '<2:2,(2,2):(1,4)>', '_', '16:1', '<4,4,4>']);
      const c1 = await s.call('composition', [layout, tiler]);
      const c2 = await s.call('compose', [layout, tiler]);
      s.check(same(c1, c2), `composition ${layout} ${tiler} -> ${str(c1)}; compose -> ${str(c2)}`);
      const i = g.int(4);
      const j = g.int(3);
      const g1 = await s.call('get', [layout, i, j]);
      const m1 = await s.call('mode', [layout, i + 1]);
      const m2 = m1.ok ? await s.call('mode', [m1.result, j + 1]) : m1;
      // get<i,j> of a depth-0 mode j = 0 is the mode itself (CuTe's get<0> of an integer)
      if (!(m1.ok && !(m1.result as string).startsWith('(') && j === 0))
        s.check(same(g1, m2), `get ${layout} ${i} ${j} -> ${str(g1)}; mode(mode) -> ${str(m2)}`);
      const size = layoutFn(sh).size;
      const x = g.int(size + 2);
      const crd = await s.call('idx2crd', [x, sh]);
      const crd2 = await s.call('coord', [sh, x]);
      s.check(same(crd, crd2), `idx2crd ${x} ${sh} -> ${str(crd)}; coord -> ${str(crd2)}`);
      if (crd.ok) {
        const e1 = await s.call('crd2idx', [crd.result, layout]);
        const e2 = await s.call('eval_coord', [layout, crd.result]);
        s.check(same(e1, e2), `crd2idx ${str(crd.result)} ${layout} -> ${str(e1)}; eval_coord -> ${str(e2)}`);
        s.check(!e1.ok || e1.result === layoutFn(layout).phi(x), `crd2idx ${str(crd.result)} ${layout} -> ${str(e1)}, Φ(${x}) = ${layoutFn(layout).phi(x)}`);
        const e3 = await s.call('crd2idx', [x, layout]);
        s.check(!e3.ok || e3.result === layoutFn(layout).phi(x), `crd2idx ${x} ${layout} -> ${str(e3)}`);
      }
    }
    expect(await s.end()).toEqual([]);
  });
});
