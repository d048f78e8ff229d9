/**
 * The table entries of docs/semantics.md §8.5 (src/ops/cute-more.ts): the worked pairs of
 * test/fixtures/vocab-examples.jsonl for these ops through the op table, and each op as a
 * CLI subcommand (kebab-case, human and --json output, bad input → exit 2, one line).
 */
import { describe, expect, it } from 'vitest';
import { op } from '../algebra/_run.js';
import { readPairs } from '../helpers/fixtures.js';
import { cuteMoreOps } from '../../src/ops/cute-more.js';
import { opsByName } from '../../src/ops/table.js';
import { main } from '../../src/cli/main.js';

const mine = new Set(cuteMoreOps.map((o) => o.name));

async function* noInput(): AsyncGenerator<string> {}

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { stdout: (s) => void (out += s), stderr: (s) => void (err += s), isTTY: false }, noInput());
  return { code, out, err };
}

describe('docs/semantics.md §8.5 ops in the table', () => {
  it('every op is in the table', () => {
    for (const n of [
      'right_inverse',
      'left_inverse',
      'filter',
      'filter_zeros',
      'max_common_vector',
      'max_common_layout',
      'slice',
      'dice',
      'upcast',
      'downcast',
    ]) {
      expect(opsByName.get(n), n).toBeDefined();
      expect(mine.has(n), n).toBe(true);
    }
  });

  it('the worked pairs of vocab-examples.jsonl for these ops: ok, result and kind', () => {
    const pairs = readPairs('vocab-examples.jsonl').filter((p) => mine.has(p.request.op));
    expect(pairs.length).toBeGreaterThanOrEqual(15);
    for (const p of pairs) {
      const got = op(p.request.op, ...p.request.args);
      const tag = JSON.stringify(p.request);
      expect(got.ok, tag).toBe(p.response.ok);
      if (got.ok) expect(got.result, tag).toEqual(p.response.result);
      else expect(got.kind, tag).toBe(p.response.error!.kind);
    }
  });
});

describe('composed layouts (docs/semantics.md §9.1)', () => {
  it('the inverses, filters, casts and common vectors need a plain layout: domain', () => {
    const c = 'Sw<3,3,3> o (8,64):(64,1)';
    for (const [name, args] of [
      ['right_inverse', [c]],
      ['left_inverse', [c]],
      ['filter', [c]],
      ['filter_zeros', [c]],
      ['upcast', [c, 2]],
      ['downcast', [c, 2]],
      ['max_common_vector', [c, '(8,64):(64,1)']],
      ['max_common_layout', ['(8,64):(64,1)', c]],
    ] as const) {
      const r = op(name, ...args);
      expect(r.ok, name).toBe(false);
      if (!r.ok) expect(r.kind, `${name}: ${r.message}`).toBe('domain');
    }
  });
});

describe('CLI subcommands', () => {
  it('kebab-case, human and --json', async () => {
    const cases: Array<[string[], string]> = [
      [['right-inverse', '(2,4,6):(4,1,8)'], '(4,2,6):(2,1,8)'],
      [['left-inverse', '(4,8):(1,5)'], '(5,8):(1,4)'],
      [['filter', '(4,1,(2,3)):(1,5,(0,8))'], '(4,3):(1,8)'],
      [['filter-zeros', '(4,1,(2,3)):(1,5,(0,8))'], '(4,1,(1,3)):(1,5,(0,8))'],
      [['max-common-vector', '(4,8):(1,4)', '(4,8):(1,4)'], '32'],
      [['max-common-layout', '(4,8):(1,4)', '(4,(2,4)):(1,(4,8))'], '32:1'],
      [['slice', '(4,(2,3)):(1,(4,8))', '(_,(1,_))'], '(4,3):(1,8)'],
      [['dice', '(4,(2,3)):(1,(4,8))', '(_,5)'], '((2,3)):((4,8))'],
      [['upcast', '(4,8):(1,4)', '2'], '(2,8):(1,2)'],
      [['downcast', '(4,8):(1,4)', '2'], '(8,8):(1,8)'],
    ];
    for (const [argv, want] of cases) {
      const h = await run(argv);
      expect(h.code, `${argv.join(' ')}: ${h.err}`).toBe(0);
      expect(h.out).toBe(`${want}\n`);
      const j = await run([...argv, '--json']);
      expect(j.code).toBe(0);
      expect(JSON.parse(j.out)).toEqual(argv[0] === 'max-common-vector' ? Number(want) : want);
      const help = await run([argv[0]!, '--help']);
      expect(help.code).toBe(0);
      expect(help.out).toContain(`layoutgpu ${argv[0]}`);
    }
  });

  it('bad input: exit 2, one line naming the culprit', async () => {
    for (const argv of [
      ['left-inverse', '(4,6):(2,3)'],
      ['upcast', '(4,8):(3,4)', '2'],
      ['slice', '(4,(2,3)):(1,(4,8))', '(_,(2,_))'],
      ['slice', '(4,(2,3)):(1,(4,8))', '(_,(1,_)'],
      ['downcast', '(4,8):(1,4)', 'two'],
    ]) {
      const r = await run(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err.trim().split('\n').length, r.err).toBe(1);
      expect(r.out).toBe('');
    }
  });
});
