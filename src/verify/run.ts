/**
 * Bulk verification: properties of candidates, checked a chunk at a time by a VerifyEngine.
 *
 * Searches (one boolean per candidate: does it match?):
 * - compact: Φ is a bijection [0, size) → [0, size);
 * - injective: Φ is injective on [0, size);
 * - complement-of A: (A, B) is compact, for candidates B;
 * - compose-equals C with outer B: Φ_B∘Φ_A = Φ_C on [0, size(A)) with size(A) = size(C) and
 *   cosize(A) ≤ size(B), for candidates A.
 * Laws (laws.ts): law:coalesce, law:complement, law:compose, law:divide, law:product; a
 * candidate passes when no counterexample is found (an unconfirmable refusal is `skipped` and
 * counts as passed in the boolean answers of `batch`).
 */
import { LayoutError, badRequestError } from '../algebra/errors.js';
import type { Layout } from '../algebra/layout.js';
import { formatLayout, parseLayout } from '../algebra/notation.js';
import type { VerifyEngine } from './engine.js';
import { ALGEBRA, checkLaw, lawArity, lawOutcomeSync, LAWS, type LawImpl, type LawName, type LawOutcome } from './laws.js';
import { batchOf, FlatBatchBuilder, formatFlatAt, isComposedAt, type FlatBatch } from './packed.js';
import { shrink } from './shrink.js';
import { chunkItem, type Chunk, type Source } from './sources.js';

export type Property =
  | { kind: 'compact' }
  | { kind: 'injective' }
  | { kind: 'complement-of'; a: Layout }
  | { kind: 'compose-equals'; c: Layout; outer: Layout }
  | { kind: 'law'; law: LawName; with?: Layout };

export const PROPERTY_NAMES = ['compact', 'injective', 'complement-of', 'compose-equals', ...LAWS.map((l) => `law:${l}`)] as const;

/**
 * A property from its name and operands (strings in layout notation):
 * compact | injective | complement-of A | compose-equals C B (B the outer layout) |
 * law:<name> [L] (L: the other operand of a pair law; see `pairFor`).
 */
export function makeProperty(name: unknown, operands: readonly unknown[]): Property {
  if (typeof name !== 'string') throw badRequestError('the property must be a string such as "compact" or ["complement-of", A]');
  const layoutArg = (i: number, what: string): Layout => {
    const v = operands[i];
    if (typeof v !== 'string') throw badRequestError(`${name} needs ${what} as a string in layout notation`);
    return parseLayout(v, what);
  };
  const expect = (n: number): void => {
    if (operands.length !== n) throw badRequestError(`${name} takes ${n} operand(s), got ${operands.length}`);
  };
  switch (name) {
    case 'compact':
    case 'injective':
      expect(0);
      return { kind: name };
    case 'complement-of':
      expect(1);
      return { kind: 'complement-of', a: layoutArg(0, 'A') };
    case 'compose-equals':
      expect(2);
      return { kind: 'compose-equals', c: layoutArg(0, 'C'), outer: layoutArg(1, 'B (outer)') };
  }
  if (name.startsWith('law:') && (LAWS as readonly string[]).includes(name.slice(4))) {
    const law = name.slice(4) as LawName;
    if (operands.length > 1 || (operands.length === 1 && lawArity(law) === 1))
      throw badRequestError(`${name} takes ${lawArity(law) === 1 ? 'no operand' : 'at most one operand'}`);
    return operands.length === 1 ? { kind: 'law', law, with: layoutArg(0, 'the other operand') } : { kind: 'law', law };
  }
  throw badRequestError(`unknown property '${name}' (one of ${PROPERTY_NAMES.join(', ')})`);
}

/** a property as JSON: "compact" or ["complement-of", A] etc. */
export function propertyFromJson(v: unknown): Property {
  if (Array.isArray(v)) {
    if (v.length === 0) throw badRequestError('the property array is empty');
    return makeProperty(v[0], v.slice(1));
  }
  return makeProperty(v, []);
}

export function propertyText(p: Property): string {
  switch (p.kind) {
    case 'compact':
    case 'injective':
      return p.kind;
    case 'complement-of':
      return `complement-of ${formatLayout(p.a)}`;
    case 'compose-equals':
      return `compose-equals ${formatLayout(p.c)} --outer ${formatLayout(p.outer)}`;
    case 'law':
      return `law:${p.law}${p.with ? ` with ${formatLayout(p.with)}` : ''}`;
  }
}

/** how many layouts a candidate of the source must have */
export function candidateArity(p: Property): number {
  return p.kind === 'law' && !p.with ? lawArity(p.law) : 1;
}

/** a pair law's operands for a single candidate L and the fixed operand W:
 *  compose: [W, L] (W outer); divide: [L, W] (L ⊘ W); product: [L, W] (L ⊗ W) */
export function pairFor(law: LawName, l: Layout, w: Layout): Layout[] {
  return law === 'compose' ? [w, l] : [l, w];
}

export interface ChunkResult {
  /** 1: matches / the law holds (or was skipped) */
  ok: Uint8Array;
  /** laws only */
  outcomes?: LawOutcome[];
}

function itemsOf(chunk: Chunk): Layout[][] {
  if (chunk.items) return chunk.items;
  const out: Layout[][] = [];
  for (let i = 0; i < chunk.count; i++) out.push(chunkItem(chunk, i));
  return out;
}

function flatOf(chunk: Chunk): FlatBatch {
  return chunk.flat ?? batchOf(chunk.items!.map((c) => c[0]!));
}

/** the verdicts of a chunk of candidates */
export async function checkChunk(p: Property, chunk: Chunk, engine: VerifyEngine, impl: LawImpl = ALGEBRA): Promise<ChunkResult> {
  // composed candidates (docs/semantics.md §9.1): compact and injective read their Φ; the rest need plain layouts
  const f = chunk.flat;
  const composedAt =
    f?.outer && p.kind !== 'compact' && p.kind !== 'injective' ? Array.from({ length: chunk.count }, (_, i) => i).find((i) => isComposedAt(f, i)) : undefined;
  if (composedAt !== undefined) {
    throw new LayoutError(
      'domain',
      `${propertyText(p)} needs plain layouts; candidate ${chunk.first + composedAt + 1} is a composed layout (compact and injective take them)`,
    );
  }
  switch (p.kind) {
    case 'compact':
    case 'injective':
      return { ok: await engine.bitmapCheck(p.kind, flatOf(chunk)) };
    case 'complement-of': {
      const f = flatOf(chunk);
      const b = new FlatBatchBuilder(f.count, f.shapes.length + f.count * 4);
      const a = batchOf([p.a]);
      for (let i = 0; i < f.count; i++) {
        b.pushConcat(a.shapes, a.strides, f.shapes.subarray(f.start[i]!, f.start[i + 1]!), f.strides.subarray(f.start[i]!, f.start[i + 1]!));
      }
      return { ok: await engine.bitmapCheck('compact', b.finish()) };
    }
    case 'compose-equals':
      return { ok: await engine.equalCheck({ a: flatOf(chunk), b: batchOf([p.outer]), c: batchOf([p.c]) }) };
    case 'law': {
      let items = itemsOf(chunk);
      if (p.with) items = items.map((c) => pairFor(p.law, c[0]!, p.with!));
      const outcomes = await checkLaw(p.law, items, engine, impl);
      return { ok: Uint8Array.from(outcomes, (o) => (o.status === 'fail' ? 0 : 1)), outcomes };
    }
  }
}

export interface Example {
  candidate: string[];
  /** laws: the minimal counterexample and why it fails */
  shrunk?: string[];
  reason?: string;
}

export interface VerifySummary {
  property: string;
  source: string;
  candidates: number;
  passed: number;
  failed: number;
  /** laws: refusals that could not be confirmed (counted in passed) */
  skipped: number;
  backend: string;
  adapter: string;
  seconds: number;
  /** searches: the first matching candidates; laws: the counterexamples, shrunk */
  examples: Example[];
  /** candidates the GPU engine answered on the CPU (beyond the interpreter's u32 range) */
  fallbacks: number;
}

export interface VerifyRunOptions {
  property: Property;
  source: Source;
  engine: VerifyEngine;
  chunkSize?: number;
  /** examples to keep (counterexamples are shrunk) */
  maxExamples?: number;
  /** every matching candidate of a search, canonically printed, in order */
  onMatch?: (text: string) => void;
  onProgress?: (done: number, total: number | undefined) => void;
  impl?: LawImpl;
  now?: () => number;
}

/** runs a property over a source */
export async function runVerify(o: VerifyRunOptions): Promise<VerifySummary> {
  const now = o.now ?? (() => performance.now());
  const t0 = now();
  const p = o.property;
  const arity = candidateArity(p);
  if (o.source.arity !== arity && o.source.total !== 0) {
    throw badRequestError(
      `${propertyText(p)} takes ${arity === 2 ? 'pairs of layouts' : 'single layouts'} as candidates, the source gives ${o.source.arity === 2 ? 'pairs' : 'single layouts'}${arity === 2 ? ' (or give the other operand with --with)' : ''}`,
    );
  }
  const isLaw = p.kind === 'law';
  const chunkSize = o.chunkSize ?? (isLaw ? 2048 : 1 << 16);
  const maxExamples = o.maxExamples ?? 10;
  const impl = o.impl ?? ALGEBRA;
  let candidates = 0;
  let passed = 0;
  let skipped = 0;
  const examples: Example[] = [];
  if (p.kind === 'compact' && o.engine.backend === 'cpu' && o.source.scanCompact) {
    // the CPU's fastest method on an enumeration: the fused scan
    for (const blk of o.source.scanCompact(1 << 20)) {
      for (const text of blk.matches) {
        o.onMatch?.(text);
        if (examples.length < maxExamples) examples.push({ candidate: [text] });
      }
      passed += blk.matches.length;
      candidates += blk.count;
      o.onProgress?.(candidates, o.source.total);
    }
  } else
    for (const chunk of o.source.chunks(chunkSize)) {
      const r = await checkChunk(p, chunk, o.engine, impl);
      for (let i = 0; i < chunk.count; i++) {
        if (r.ok[i]) {
          passed++;
          if (r.outcomes?.[i]?.status === 'skip') skipped++;
          if (!isLaw && (o.onMatch || examples.length < maxExamples)) {
            const text = chunk.texts
              ? chunk.texts[i]!
              : chunk.items || chunk.item
                ? chunkItem(chunk, i).map(formatLayout).join(' ')
                : formatFlatAt(chunk.flat!, i);
            o.onMatch?.(text);
            if (examples.length < maxExamples) examples.push({ candidate: [text] });
          }
        } else if (isLaw && examples.length < maxExamples) {
          let items = chunkItem(chunk, i);
          if (p.with) items = pairFor(p.law, items[0]!, p.with);
          const fails = (c: readonly Layout[]): boolean => lawOutcomeSync(p.law, c, impl).status === 'fail';
          const small = shrink(items, fails);
          const why = lawOutcomeSync(p.law, small, impl);
          examples.push({
            candidate: items.map(formatLayout),
            shrunk: small.map(formatLayout),
            reason: why.reason ?? r.outcomes?.[i]?.reason ?? 'fails',
          });
        }
      }
      candidates += chunk.count;
      o.onProgress?.(candidates, o.source.total);
    }
  return {
    property: propertyText(p),
    source: o.source.describe,
    candidates,
    passed,
    failed: candidates - passed,
    skipped,
    backend: o.engine.backend,
    adapter: o.engine.adapter,
    seconds: (now() - t0) / 1000,
    examples,
    fallbacks: o.engine.fallbacks,
  };
}
