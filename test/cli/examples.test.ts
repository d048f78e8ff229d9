/**
 * Every pair of every test/fixtures/*-examples.jsonl through `layoutgpu batch` (the built bin): ok, id, result (exactly, or
 * by the pair's `match` rule) and error kind.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { exampleFiles } from '../helpers/fixtures.js';
import { ensureBuilt } from './_build.js';
import { expectExamplePairs } from './_examples.js';

beforeAll(() => ensureBuilt());

describe('test/fixtures/*-examples.jsonl through batch', () => {
  it('holds the example files the protocol ships', () => {
    expect(exampleFiles()).toEqual(expect.arrayContaining(['batch-examples.jsonl', 'memory-examples.jsonl', 'vocab-examples.jsonl', 'desc-examples.jsonl']));
  });
  for (const file of exampleFiles()) {
    it(`${file}: every pair`, async () => {
      await expectExamplePairs(file, 1);
    }, 240_000);
  }
});
