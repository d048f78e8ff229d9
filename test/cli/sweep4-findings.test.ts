/**
 * The fourth hostile sweep's reproducers (test/fixtures/repro/sweep4/, copies of the sweep's files; issue 25 items
 * 1, 2, 3 and 10), each line answered through `batch`'s own `answerLine` and held to what its id says it should answer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { answerLine } from '../../src/cli/batch.js';
import { makeContext } from '../../src/cli/context.js';
import { loadAllOps } from '../../src/ops/table.js';
import { FIXTURES } from '../helpers/fixtures.js';

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
