/**
 * A part of a verify run, as run in a pool worker (engine/node/pool-worker.ts): the property (as
 * JSON) over the source a SourceSpec describes, on the CPU engine, with the matches of a
 * search (all of them, or the first `maxExamples`) and the shrunk counterexamples of a law.
 */
import { CpuVerifyEngine } from './cpu.js';
import { propertyFromJson, runVerify, type Example } from './run.js';
import type { SourceSpec } from './sources.js';
import { sourceFromSpec } from './source-spec.js';

export interface VerifyPartInput {
  property: unknown;
  spec: SourceSpec;
  maxExamples: number;
  /** every match of a search, not only the first maxExamples */
  all: boolean;
}

export interface VerifyPart {
  candidates: number;
  passed: number;
  skipped: number;
  fallbacks: number;
  /** searches with `all`: every match, in order */
  matches: string[] | null;
  examples: Example[];
}

let engine: CpuVerifyEngine | null = null;

export const handlers = {
  async verify(p: VerifyPartInput, ctx: { progress(done: number): void }): Promise<VerifyPart> {
    const matches: string[] | null = p.all ? [] : null;
    const s = await runVerify({
      property: propertyFromJson(p.property),
      source: sourceFromSpec(p.spec),
      engine: (engine ??= new CpuVerifyEngine()),
      maxExamples: p.maxExamples,
      ...(matches ? { onMatch: (t: string) => void matches.push(t) } : {}),
      onProgress: (d) => ctx.progress(d),
    });
    return { candidates: s.candidates, passed: s.passed, skipped: s.skipped, fallbacks: s.fallbacks, matches, examples: s.examples };
  },
};
