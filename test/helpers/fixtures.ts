/**
 * The one reader of the worked request/response pairs the tests check (test/fixtures/*-examples.jsonl,
 * copies of the project's example files: the repository needs nothing beside it).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

export interface ExampleRequest {
  readonly id?: unknown;
  readonly op: string;
  readonly args: readonly unknown[];
}
export interface ExampleResponse {
  readonly id?: unknown;
  readonly ok: boolean;
  readonly result?: unknown;
  readonly error?: { readonly kind: string; readonly message?: string };
}
/** One pair; `match` (optional) says how a result is compared when it is not compared exactly (see test/helpers/match.ts). */
export interface ExamplePair {
  readonly request: ExampleRequest;
  readonly response: ExampleResponse;
  readonly match?: unknown;
}

/** The pairs of test/fixtures/`name` (e.g. 'batch-examples.jsonl'), one per non-blank line, in file order. */
export function readPairs(name: string): ExamplePair[] {
  return readFileSync(join(FIXTURES, name), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l, i) => {
      const p = JSON.parse(l) as ExamplePair;
      if (typeof p !== 'object' || p === null || typeof p.request !== 'object' || typeof p.response !== 'object') {
        throw new Error(`${name}:${i + 1}: not a {request, response} pair`);
      }
      return p;
    });
}

/** Every example file in test/fixtures/ (`*-examples.jsonl`), sorted by name. */
export const exampleFiles = (): string[] =>
  readdirSync(FIXTURES)
    .filter((f) => f.endsWith('-examples.jsonl'))
    .sort();
