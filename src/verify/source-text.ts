/**
 * The candidates of a JSONL file or of a list, a candidate source of `layoutgpu verify`
 * (sources.ts): plain layouts as they are, composed ones (docs/semantics.md §9.1) packed with
 * their outer functions.
 */
import { LayoutError } from '../algebra/errors.js';
import type { Layout } from '../algebra/layout.js';
import { formatLayoutFunction, isComposed, parseLayoutFunction, type LayoutFunction } from '../cute/composed.js';
import { batchOfFunctions } from './packed.js';
import type { Chunk, Source, SourceSpec } from './sources.js';

/**
 * One candidate per line: a JSON string ("(4,8):(1,4)"), a JSON array of one or two strings
 * (["B", "A"] for a pair), or the bare notation. Blank lines are skipped. A line that does not
 * parse is a `parse` (or `bad-request`) error naming the line.
 */
export function parseCandidateLine(line: string, lineNo: number): LayoutFunction[] | null {
  const t = line.trim();
  if (t === '') return null;
  let v: unknown = t;
  if (t.startsWith('"') || t.startsWith('[')) {
    try {
      v = JSON.parse(t);
    } catch {
      throw new LayoutError('bad-request', `line ${lineNo}: not valid JSON`);
    }
  }
  const parts = Array.isArray(v) ? v : [v];
  if (parts.length < 1 || parts.length > 2) throw new LayoutError('bad-request', `line ${lineNo}: expected one layout or a pair`);
  return parts.map((p, k) => {
    if (typeof p !== 'string') throw new LayoutError('bad-request', `line ${lineNo}: layouts must be strings`);
    return parseLayoutFunction(p, `line ${lineNo}${parts.length > 1 ? ` item ${k + 1}` : ''}`);
  });
}

export function textSource(text: string, name: string): Source {
  const lines = text.split(/\r?\n/);
  const cands: LayoutFunction[][] = [];
  lines.forEach((l, i) => {
    const c = parseCandidateLine(l, i + 1);
    if (c) cands.push(c);
  });
  const arity = cands.length ? cands[0]!.length : 1;
  cands.forEach((c, i) => {
    if (c.length !== arity) throw new LayoutError('bad-request', `${name}: candidate ${i + 1} has ${c.length} layout(s), the first has ${arity}`);
  });
  return listSource(cands, `${cands.length} candidates from ${name}`, arity);
}

export function listSource(cands: LayoutFunction[][], describe: string, arity = cands[0]?.length ?? 1): Source {
  const part = (lo: number, hi: number): Source => ({
    total: hi - lo,
    arity,
    describe,
    get spec(): SourceSpec {
      return { kind: 'list', items: cands.slice(lo, hi).map((c) => c.map(formatLayoutFunction)), arity, describe };
    },
    *chunks(chunkSize) {
      for (let first = lo; first < hi; first += chunkSize) {
        const items = cands.slice(first, Math.min(first + chunkSize, hi));
        if (items.some((c) => c.some(isComposed))) yield composedChunk(first, items);
        else yield { first, count: items.length, items: items as Layout[][] };
      }
    },
    slice: (a, b) => part(lo + a, lo + Math.min(b, hi - lo)),
  });
  return part(0, cands.length);
}

/** A chunk of candidates some of which are composed: their flattened inner layouts with their
 *  outer functions (batchOfFunctions) and their texts. Only single candidates: a pair with a
 *  composed layout is `domain` (the laws of two layouts need plain layouts). */
function composedChunk(first: number, items: readonly LayoutFunction[][]): Chunk {
  const pair = items.findIndex((c) => c.length !== 1);
  if (pair >= 0)
    throw new LayoutError(
      'domain',
      `candidate ${first + pair + 1}: pairs need plain layouts; ${items[pair]!.map(formatLayoutFunction).join(' ')} has a composed one`,
    );
  const fns = items.map((c) => c[0]!);
  return { first, count: fns.length, flat: batchOfFunctions(fns), texts: fns.map(formatLayoutFunction) };
}
