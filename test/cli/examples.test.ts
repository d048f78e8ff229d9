/**
 * shared/examples/vocab-examples.jsonl (SPEC §8) and memory-examples.jsonl (SPEC §9) through
 * `layoutgpu batch`: ok, result and error kind match exactly, for every pair.
 */
import { beforeAll, describe, it } from 'vitest';
import { ensureBuilt } from './_build.js';
import { expectExamplePairs } from './_examples.js';

beforeAll(() => ensureBuilt());

describe('vocab-examples.jsonl', () => {
  it('every pair: ok, result and kind match exactly', async () => {
    await expectExamplePairs('vocab-examples.jsonl', 31);
  });
});

describe('memory-examples.jsonl', () => {
  it('every pair (composed layouts, bulk checks, bank_conflicts): ok, result and kind match exactly', async () => {
    await expectExamplePairs('memory-examples.jsonl', 15);
  });
});
