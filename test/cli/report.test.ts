/**
 * The CLI's one error policy (src/cli/report.ts): broken pipe 0, usage 2, every LayoutError kind 2 but `gpu` 1,
 * anything unexpected 1, and one stderr line. The rule itself, then the rule through every subcommand: each op of the
 * table and each tool, in process through main(), with `parse`, `domain`, `timeout` and `gpu` errors forced where the
 * work starts (an op's run, or the first deadline check of a tool's work), expecting the same code and one line.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LayoutError, type ErrorKind } from '../../src/algebra/errors.js';
import { errorLine, exitCode, reportError, Usage } from '../../src/cli/report.js';

/** the error a forced deadline check throws (null: the real check) */
const force: { error: Error | null } = vi.hoisted(() => ({ error: null }));

vi.mock('../../src/algebra/deadline.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/algebra/deadline.js')>();
  return {
    ...real,
    checkDeadline: (what?: string): void => {
      if (force.error) throw force.error;
      real.checkDeadline(what);
    },
  };
});

// where a tool's work starts without a deadline check: the backend (bulk checks, verify) and the picture (show)
vi.mock('../../src/engine/select.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/engine/select.js')>();
  return {
    ...real,
    createBackend: (...a: Parameters<typeof real.createBackend>) => (force.error ? Promise.reject(force.error) : real.createBackend(...a)),
  };
});
vi.mock('../../src/render/grid.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/render/grid.js')>();
  return {
    ...real,
    makePicture: (...a: Parameters<typeof real.makePicture>) => {
      if (force.error) throw force.error;
      return real.makePicture(...a);
    },
  };
});

vi.mock('../../src/atoms/registry.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/atoms/registry.js')>();
  const forced =
    <A extends unknown[], R>(f: (...a: A) => R) =>
    (...a: A): R => {
      if (force.error) throw force.error;
      return f(...a);
    };
  return { ...real, mmaAtomData: forced(real.mmaAtomData), copyAtomData: forced(real.copyAtomData) };
});

const { main, TOOL_NAMES } = await import('../../src/cli/main.js');
const { ops } = await import('../../src/ops/table.js');

const KINDS: readonly ErrorKind[] = [
  'bad-request',
  'parse',
  'domain',
  'not-composable',
  'not-complementable',
  'overflow',
  'gpu',
  'timeout',
  'not-linear',
  'not-representable',
];
const FORCED: readonly ErrorKind[] = ['parse', 'domain', 'timeout', 'gpu'];
const codeOf = (k: ErrorKind): number => (k === 'gpu' ? 1 : 2);

async function* noInput(): AsyncGenerator<string> {}

async function run(argv: string[]): Promise<{ code: number; err: string[] }> {
  let err = '';
  const code = await main(argv, { stdout: () => {}, stderr: (s) => void (err += s), isTTY: false }, noInput());
  return { code, err: err.split('\n').filter((l) => l !== '') };
}

describe('the rule', () => {
  it('every LayoutError kind: 2, but gpu 1; the line names the kind', () => {
    for (const k of KINDS) {
      const e = new LayoutError(k, 'what went wrong');
      expect(exitCode(e), k).toBe(codeOf(k));
      expect(errorLine(e), k).toBe(`layoutgpu: ${k}: what went wrong\n`);
    }
  });
  it('usage 2, broken pipe 0 and silent, anything else 1 as an internal error; always one line', () => {
    expect(exitCode(new Usage('--x needs a value'))).toBe(2);
    expect(errorLine(new Usage('--x needs a value'), { prefix: 'layoutgpu verify' })).toBe('layoutgpu verify: --x needs a value\n');
    const pipe = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
    expect(exitCode(pipe)).toBe(0);
    expect(errorLine(pipe)).toBe('');
    expect(exitCode(new TypeError('x is undefined'))).toBe(1);
    expect(errorLine(new TypeError('x is undefined'))).toBe('layoutgpu: internal error: x is undefined\n');
    expect(errorLine(new Usage('two\nlines'))).toBe('layoutgpu: two lines\n');
    expect(errorLine(new LayoutError('domain', 'two\nlines')).split('\n')).toEqual([expect.stringMatching(/^layoutgpu: domain: two.+lines$/), '']);
    const said: string[] = [];
    expect(reportError(new LayoutError('gpu', 'no adapter'), { stderr: (s) => void said.push(s) })).toBe(1);
    expect(said).toEqual(['layoutgpu: gpu: no adapter\n']);
  });
});

/** the ops that the CLI runs through a tool (main.ts VIA_EVALUATOR): checked with the tools below */
const VIA_TOOLS = new Set(['check_compact', 'check_complement', 'check_compose', 'tile_map', 'eval_range', 'digest_range']);

/** an argument of each kind that the CLI accepts as it is */
const SAMPLE: Record<string, string> = {
  layout: '(4,8):(1,4)',
  'any-layout': '(4,8):(1,4)',
  'layout-fn': '(4,8):(1,4)',
  'any-layout-fn': '(4,8):(1,4)',
  tuple: '(4,8)',
  profile: '(*,*)',
  coord: '(1,2)',
  tiler: '(2,2)',
  order: 'col',
  int: '2',
  json: '1',
};

describe('the rule through every subcommand', () => {
  afterEach(() => {
    force.error = null;
    vi.restoreAllMocks();
  });

  it('every op of the table: parse, domain, timeout and gpu from its run give the same code and one line', async () => {
    expect(ops.length).toBeGreaterThan(40);
    for (const spec of ops.filter((o) => !VIA_TOOLS.has(o.name) && !TOOL_NAMES.includes(o.name.replace(/_/g, '-')))) {
      const argv = [spec.name.replace(/_/g, '-'), ...spec.args.filter((a) => !a.optional).map((a) => SAMPLE[a.kind] ?? '1')];
      for (const k of FORCED) {
        vi.spyOn(spec, 'run').mockImplementation(() => {
          throw new LayoutError(k, `forced ${k}`);
        });
        force.error = new LayoutError(k, `forced ${k}`);
        const r = await run(argv);
        expect(r.code, `${argv.join(' ')} (${k}): ${r.err.join(' / ')}`).toBe(codeOf(k));
        expect(r.err, `${argv.join(' ')} (${k})`).toEqual([expect.stringMatching(new RegExp(`^layoutgpu( \\w+)?: ${k}: forced ${k}$`))]);
        vi.restoreAllMocks();
      }
    }
  }, 120_000);

  /** each tool, with arguments whose work starts with a deadline check */
  const TOOLS: readonly string[][] = [
    ['show', '(4,8):(1,4)'],
    ['conflicts', '(8,64):(64,1)', '((8,4),(8,2)):((1,64),(8,256))', '--elem', '2'],
    ['verify', 'compact', '--random', '3000', '--seed', '1', '--backend', 'cpu'],
    ['verify', 'law:coalesce', '--random', '3000', '--seed', '1', '--backend', 'cpu'],
    ['verify', 'conflict-free', '--tv', '((8,4),(8,2)):((1,64),(8,256))', '--elem', '2', '--swizzles', '(8,64):(64,1)', '--backend', 'cpu'],
    ['eval', '(4,8):(1,4)', '--backend', 'cpu'],
    ['digest', '(4,8):(1,4)', '--backend', 'cpu'],
    ['check', 'compact', '(4,8):(1,4)', '--backend', 'cpu'],
    ['tiles', '(4,8):(1,4)', '(2,2):(1,4)', '--backend', 'cpu'],
    ['check-compact', '(4,8):(1,4)', '--backend', 'cpu'],
    ['check-complement', '(4,8):(1,4)', '(2,2):(1,4)', '--backend', 'cpu'],
    ['check-compose', '(4,8):(1,4)', '(2,2):(1,4)', '--backend', 'cpu'],
    ['tile-map', '(4,8):(1,4)', '(2,2):(1,4)', '--backend', 'cpu'],
    ['eval-range', '(4,8):(1,4)', '0', '8', '--backend', 'cpu'],
    ['digest-range', '(4,8):(1,4)', '0', '8', '--backend', 'cpu'],
    ['mma', 'SM80_16x8x16_F32F16F16F32_TN', '--layout', '(2,2,1)'],
    ['copy', 'SM80_CP_ASYNC_CACHEALWAYS<uint128_t>', '--bits', '16', '--thr', '(32,8)', '--val', '(1,8)'],
    ['partition', 'A', 'SM80_16x8x16_F32F16F16F32_TN', '--thread', '3', '(64,64):(64,1)'],
    ['local-tile', '(128,64):(64,1)', '(32,16)', '(1,2)'],
    ['ll', 'apply', '{"bases":[["lane",[[1],[2]]]],"outDims":[["dim0",4]]}', 'lane=3'],
    ['ll-from-encoding', '#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>', '128x64'],
    ['tma', '--gmem', '(64,64):(64,1)', '--smem', '(8,64):(64,1)', '--dtype', 'half_t'],
    ['gmma-desc', '((8,8),(8,2)):((8,64),(1,512))', '--dtype', 'half_t', '--major', 'K'],
    ['to-ll', '((4,8),(2,2)):((32,1),(16,8))', 'tv', '16x8'],
    ['from-ll', '{"bases":[["lane",[[1],[2]]]],"outDims":[["dim0",4]]}'],
    ['ll-bank-conflicts', '{"bases":[["lane",[[1],[2]]]],"outDims":[["dim0",4]]}', '{"bases":[["offset",[[1],[2]]]],"outDims":[["dim0",4]]}', '4'],
    ['plan', '--tile', '8x8', '--dtype', 'half_t', '--write', '(32,2):(2,1)', '--read', '(32,2):(1,32)'],
  ];
  for (const argv of TOOLS) {
    it(`${argv.slice(0, 2).join(' ')}: parse, domain, timeout and gpu give the same code and one line`, async () => {
      for (const k of FORCED) {
        force.error = new LayoutError(k, `forced ${k}`);
        for (const spec of ops) {
          vi.spyOn(spec, 'run').mockImplementation(() => {
            throw new LayoutError(k, `forced ${k}`);
          });
        }
        const r = await run([...argv]);
        expect(r.code, `${argv.join(' ')} (${k}): ${r.err.join(' / ')}`).toBe(codeOf(k));
        expect(r.err, `${argv.join(' ')} (${k})`).toEqual([expect.stringMatching(new RegExp(`^layoutgpu( \\w+)?: ${k}: forced ${k}$`))]);
        vi.restoreAllMocks();
      }
    });
  }

  /** the tools whose work has no point to force an error at: their own bad input, each kind it can meet */
  const NATURAL: readonly [string[], ErrorKind | 'usage'][] = [
    [['wgsl', '(4,8):(1,4'], 'parse'],
    [['wgsl', '(4,8):(1,4)', '--kernel', 'nothing'], 'usage'],
    [['bench', '(4,8):(1,4', '--backend', 'cpu'], 'parse'],
    [['bench', '(4,8):(1,4)', '--elem', '3'], 'usage'],
    [['merge'], 'usage'],
    [['batch', '--backend', 'tpu'], 'usage'],
    [['gpu-info', '--nothing'], 'usage'],
  ];
  it('wgsl, bench, merge, batch, gpu-info: their own bad input gives the same code and one line', async () => {
    for (const [argv, k] of NATURAL) {
      const r = await run(argv);
      expect(r.code, `${argv.join(' ')}: ${r.err.join(' / ')}`).toBe(k === 'usage' ? 2 : codeOf(k));
      expect(r.err, argv.join(' ')).toEqual([
        k === 'usage' ? expect.stringMatching(/^layoutgpu( \w+)?: (?!\w+: )/) : expect.stringMatching(new RegExp(`^layoutgpu( \\w+)?: ${k}: `)),
      ]);
    }
  });

  it('every tool has its row here', () => {
    const rows = new Set([...TOOLS, ...NATURAL.map(([a]) => a)].map((a) => a[0]));
    expect(TOOL_NAMES.filter((n) => !rows.has(n) && !rows.has(n.replace(/-/g, '_')))).toEqual([]);
  });

  beforeEach(() => {
    force.error = null;
  });
});
