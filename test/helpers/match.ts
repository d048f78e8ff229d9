/**
 * How an example pair's result is compared when CuTe's grouping of a layout is one of several right answers
 * (docs/protocol.md, "Hardware atoms"; the pair's optional `match` key):
 * - `{"match": "fields", "fields": {key: rule}}`: an object with the same keys; each key with a rule by the rule, the others exactly;
 * - `{"match": "modes", "guide": G}`: a plain layout string whose shape refines G and whose Φ agrees with the expected one at every x;
 * - `{"match": "tensor", "guide": G}`: `{offset, layout}` whose offsets o + Φ_L(x) agree at every x, L's shape refining G
 *   (plain or composed `Sw<B,M,S> o [K o] L`: both o = 0 with K inside and CuTe's split pass);
 * - `{"match": "atoms-list"}`: the same keys; each list ascending (code-point order), without repeats, holding every expected name.
 * Every function is evaluated by brute force from the definitions (test/helpers/brute.ts), never by src/.
 */
import { parseL, parseT, phiB, refinesB, sizeB, type BL } from './brute.js';

/** The first difference between `got` and `want` under `rule` (undefined: compare exactly), or null when they match. */
export function mismatch(got: unknown, want: unknown, rule?: unknown): string | null {
  if (rule === undefined) return sameJson(got, want) ? null : `expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`;
  const r = rule as { match?: unknown; guide?: unknown; fields?: unknown };
  switch (r.match) {
    case 'fields':
      return fieldsMismatch(got, want, r.fields as Record<string, unknown>);
    case 'modes':
      return modesMismatch(got, want, String(r.guide));
    case 'tensor':
      return tensorMismatch(got, want, String(r.guide));
    case 'atoms-list':
      return atomsListMismatch(got, want);
    default:
      throw new Error(`unknown match rule ${JSON.stringify(rule)}`);
  }
}

const sameJson = (a: unknown, b: unknown): boolean => canonical(a) === canonical(b);

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const keys = Object.keys(v).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function sameKeys(got: unknown, want: unknown): string | null {
  if (!isObject(got) || !isObject(want)) return `expected an object, got ${JSON.stringify(got)}`;
  const g = Object.keys(got).sort().join(',');
  const w = Object.keys(want).sort().join(',');
  return g === w ? null : `keys ${g} instead of ${w}`;
}

function fieldsMismatch(got: unknown, want: unknown, fields: Record<string, unknown>): string | null {
  const keys = sameKeys(got, want);
  if (keys) return keys;
  const g = got as Record<string, unknown>;
  const w = want as Record<string, unknown>;
  for (const k of Object.keys(w)) {
    const m = mismatch(g[k], w[k], fields[k]);
    if (m) return `${k}: ${m}`;
  }
  return null;
}

/** The largest layout compared point by point (a guard against a hang on a wrong answer). */
const MAX_POINTS = 1 << 22;

/** A composed layout `Sw<B,M,S> o [K o] L` or a plain one, evaluated from the definitions (docs/semantics.md, swizzles). */
interface BrutePiece {
  readonly inner: BL;
  readonly offset: bigint;
  readonly swizzle: readonly [number, number, number] | null;
}

export function parsePiece(text: string): BrutePiece {
  const m = /^\s*Sw<\s*(\d+)\s*,\s*(\d+)\s*,\s*(-?\d+)\s*>\s+o\s+(?:(\d+)\s+o\s+)?(.*)$/s.exec(text);
  if (!m) return { inner: parseL(text), offset: 0n, swizzle: null };
  return { inner: parseL(m[5]!), offset: BigInt(m[4] ?? '0'), swizzle: [Number(m[1]), Number(m[2]), Number(m[3])] };
}

/** Sw<B,M,S>(y) = y XOR ((y AND Ymask) >> S), Ymask = (2^B − 1) << (M + max(0, S)); a negative S shifts left. */
export function swizzleB(b: number, m: number, s: number, y: bigint): bigint {
  const mask = ((1n << BigInt(b)) - 1n) << BigInt(m + Math.max(0, s));
  const hit = y & mask;
  return y ^ (s >= 0 ? hit >> BigInt(s) : hit << BigInt(-s));
}

export function phiPiece(p: BrutePiece, x: number): bigint {
  const y = p.offset + BigInt(phiB(p.inner, x));
  return p.swizzle ? swizzleB(p.swizzle[0], p.swizzle[1], p.swizzle[2], y) : y;
}

function shapeMismatch(p: BrutePiece, guide: string, what: string): string | null {
  if (!refinesB(p.inner.shape, parseT(guide))) return `${what}: shape does not refine the guide ${guide}`;
  if (sizeB(p.inner) > MAX_POINTS) return `${what}: too large to compare point by point`;
  return null;
}

function pointsMismatch(g: BrutePiece, w: BrutePiece, go: bigint, wo: bigint): string | null {
  const n = sizeB(w.inner);
  if (sizeB(g.inner) !== n) return `size ${sizeB(g.inner)} instead of ${n}`;
  for (let x = 0; x < n; x++) {
    const a = go + phiPiece(g, x);
    const b = wo + phiPiece(w, x);
    if (a !== b) return `at x = ${x}: ${a} instead of ${b}`;
  }
  return null;
}

function modesMismatch(got: unknown, want: unknown, guide: string): string | null {
  if (typeof got !== 'string') return `expected a layout string, got ${JSON.stringify(got)}`;
  if (/Sw</.test(got) !== /Sw</.test(String(want))) return `${got}: plain and composed differ from ${String(want)}`;
  const g = parsePiece(got);
  const w = parsePiece(String(want));
  const bad = shapeMismatch(g, guide, got) ?? shapeMismatch(w, guide, `expected ${String(want)}`);
  return bad ?? withText(pointsMismatch(g, w, 0n, 0n), got, want);
}

function tensorMismatch(got: unknown, want: unknown, guide: string): string | null {
  const keys = sameKeys(got, want);
  if (keys) return keys;
  const g = got as { offset: unknown; layout: unknown };
  const w = want as { offset: unknown; layout: unknown };
  if (typeof g.layout !== 'string' || (typeof g.offset !== 'number' && typeof g.offset !== 'string')) return `not a tensor: ${JSON.stringify(got)}`;
  const gp = parsePiece(g.layout);
  const wp = parsePiece(String(w.layout));
  const bad = shapeMismatch(gp, guide, g.layout) ?? shapeMismatch(wp, guide, `expected ${String(w.layout)}`);
  return bad ?? withText(pointsMismatch(gp, wp, BigInt(g.offset), BigInt(String(w.offset))), got, want);
}

const withText = (m: string | null, got: unknown, want: unknown): string | null => m && `${m} (got ${JSON.stringify(got)}, expected ${JSON.stringify(want)})`;

function atomsListMismatch(got: unknown, want: unknown): string | null {
  const keys = sameKeys(got, want);
  if (keys) return keys;
  const g = got as Record<string, unknown>;
  for (const [k, names] of Object.entries(want as Record<string, readonly string[]>)) {
    const list = g[k];
    if (!Array.isArray(list) || !list.every((n): n is string => typeof n === 'string')) return `${k}: not a list of names`;
    const bad = list.findIndex((n, i) => i > 0 && !(list[i - 1]! < n));
    if (bad > 0) return `${k}: ${list[bad - 1]}, ${list[bad]} not ascending without repeats`;
    const have = new Set(list);
    const missing = names.filter((n) => !have.has(n));
    if (missing.length > 0) return `${k}: missing ${missing.join(', ')}`;
  }
  return null;
}
