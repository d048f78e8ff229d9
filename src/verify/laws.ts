/**
 * The algebra's laws as fuzzing properties (docs/semantics.md §3–§6). Each law computes the algebra's
 * answer on the CPU, checks its structure with code independent of the algebra, and asks the
 * verification engine for the bulk checks (Φ equalities, compactness), so that thousands of
 * candidates are checked in one dispatch. A failing candidate is shrunk on the CPU to a
 * minimal counterexample: one that still fails while no single shrinking step of it does.
 *
 * - law:coalesce  R = coal(L): same size, same Φ, R♭ has no shape-1 entry and no mergeable
 *   neighbours, and R is 1:0 when empty, depth 0 when of length 1, flat otherwise.
 * - law:complement  comp(A) and comp(A, N) for N = 2·span(A): answered exactly when A is
 *   (N-)complementable by the criterion of docs/semantics.md §4 (re-implemented here), then
 *   size(A)·size(comp) = span(A) resp. N, (A, comp) compact, comp in coalesced form; and
 *   comp(A, span + 1) is refused when span > 1.
 * - law:compose  C = B∘A (pairs [B, A]): C exists ⇒ cosize(A) ≤ size(B), size(C) = size(A),
 *   shape(C) refines shape(A), C is coalesced over shape(A), Φ_C = Φ_B∘Φ_A. Every
 *   `not-composable` answer is confirmed: by cosize(A) > size(B), or by an exhaustive search
 *   (size(A) ≤ SEARCH_LIMIT) over every ordered factorisation of every entry of A (the only
 *   candidate layout functions of that entry, strides forced by Φ_B) and then additivity over
 *   all x; larger refusals are counted as skipped (unconfirmed).
 * - law:divide  D = A ⊘ B (pairs [A, B]): refused exactly when B is not size(A)-complementable
 *   (or the composite does not exist, confirmed as above); else B* = comp(B, size(A)) satisfies
 *   the complement law, size(D) = size(A), shape(D) refines shape((B, B*)) and Φ_D = Φ_A∘Φ_(B,B*).
 * - law:product  P = A ⊗ B (pairs [A, B]) with N the least multiple of span(A) that is
 *   ≥ size(A)·cosize(B): refused exactly when A is not N-complementable (or the composite does
 *   not exist, confirmed); else P = (A, M) with M of size size(B), shape(M) refining shape(B),
 *   A* = comp(A, N) satisfying the complement law, and Φ_M = Φ_A*∘Φ_B.
 */
import { LayoutError } from '../algebra/errors.js';
import { coalesce } from '../algebra/coalesce.js';
import { complement } from '../algebra/complement.js';
import { compose } from '../algebra/compose.js';
import { logicalDivide, logicalProduct } from '../algebra/divide.js';
import { concat, cosize, flat, makeLayout, size, tuplesEqual, type Layout } from '../algebra/layout.js';
import { formatLayout } from '../algebra/notation.js';
import * as T from '../algebra/tuple.js';
import { CpuVerifyEngine } from './cpu.js';
import type { VerifyEngine } from './engine.js';
import { FlatBatchBuilder } from './packed.js';

export type LawName = 'coalesce' | 'complement' | 'compose' | 'divide' | 'product';
export const LAWS: readonly LawName[] = ['coalesce', 'complement', 'compose', 'divide', 'product'];
/** laws over pairs; the order of a pair is the operation's argument order */
export const PAIR_LAWS: ReadonlySet<LawName> = new Set(['compose', 'divide', 'product']);

/** the implementations under test (the algebra's by default; tests swap in broken ones) */
export interface LawImpl {
  coalesce(l: Layout): Layout;
  complement(a: Layout, n?: number): Layout;
  compose(b: Layout, a: Layout): Layout;
  logicalDivide(a: Layout, b: Layout): Layout;
  logicalProduct(a: Layout, b: Layout): Layout;
}

export const ALGEBRA: LawImpl = { coalesce, complement, compose, logicalDivide, logicalProduct };

/** exhaustive confirmation of not-composable answers up to this size(A) */
export const SEARCH_LIMIT = 4096;

export type Status = 'pass' | 'fail' | 'skip';

export interface LawOutcome {
  status: Status;
  reason?: string;
}

/** a bulk check: compact (entries of one flat layout) or Φ_B∘Φ_A = Φ_C */
type Bulk =
  | { kind: 'compact'; entries: { shapes: readonly number[]; strides: readonly number[] }; reason: string }
  | { kind: 'equal'; a: Layout; b: Layout | null; c: Layout; reason: string };

/** what the law says about one candidate before the bulk checks */
interface Pending {
  status: Status;
  reason?: string;
  bulk: Bulk[];
}

const show = formatLayout;

// ---------------------------------------------------------------------------------------------
// independent structure checks

/** R is in the coalesced form of docs/semantics.md §3 (1:0, depth-0 s:d with s > 1, or flat of length ≥ 2
 *  without shape-1 entries or mergeable neighbours); null when it is, else why not */
function coalescedFormFailure(r: Layout): string | null {
  if (typeof r.shape === 'number') {
    const s = r.shape;
    const d = r.stride as number;
    if (s === 1 && d !== 0) return `${show(r)} has a shape-1 entry with stride ${d}`;
    return null;
  }
  if (T.depth(r.shape) !== 1) return `${show(r)} is not flat`;
  const s = r.shape as readonly number[];
  const d = r.stride as readonly number[];
  if (s.length === 0) return `${show(r)} is empty (the coalesced empty layout is 1:0)`;
  if (s.length === 1) return `${show(r)} has length 1 (it should be the depth-0 ${s[0]}:${d[0]})`;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === 1) return `${show(r)} keeps the shape-1 entry ${i + 1}`;
    if (i + 1 < s.length && d[i + 1] === s[i]! * d[i]!) return `${show(r)} keeps mergeable neighbours ${i + 1}, ${i + 2}`;
  }
  return null;
}

/** sorted entries with shape > 1, by stride then shape */
function sortedEntries(l: Layout): { s: number[]; d: number[] } {
  const f = flat(l);
  const idx: number[] = [];
  for (let i = 0; i < f.shapes.length; i++) if (f.shapes[i]! > 1) idx.push(i);
  idx.sort((x, y) => f.strides[x]! - f.strides[y]! || f.shapes[x]! - f.shapes[y]!);
  return { s: idx.map((i) => f.shapes[i]!), d: idx.map((i) => f.strides[i]!) };
}

/** span(A) = s_m·d_m of sorted A (1 without entries of shape > 1) */
function spanOf(l: Layout): number {
  const { s, d } = sortedEntries(l);
  const m = s.length;
  return m === 0 ? 1 : s[m - 1]! * d[m - 1]!;
}

/** complementable (N-complementable when n is given), docs/semantics.md §4 */
function complementable(l: Layout, n?: number): boolean {
  const { s, d } = sortedEntries(l);
  for (let i = 0; i < s.length; i++) {
    if (d[i] === 0) return false;
    if (i + 1 < s.length && d[i + 1]! % (s[i]! * d[i]!) !== 0) return false;
  }
  if (n === undefined) return true;
  const sp = s.length === 0 ? 1 : s[s.length - 1]! * d[d.length - 1]!;
  return n % sp === 0;
}

/** Φ of a layout by division (exact) */
function phiOf(l: Layout): (x: number) => number {
  const f = flat(l);
  const S = f.shapes;
  const D = f.strides;
  return (x) => {
    let o = 0;
    let r = x;
    for (let i = 0; i < S.length; i++) {
      if (i === S.length - 1) return o + r * D[i]!;
      const q = Math.floor(r / S[i]!);
      o += (r - q * S[i]!) * D[i]!;
      r = q;
    }
    return o;
  };
}

/** the ordered factorisations of n (every rank), each factor ≥ 2; [[]] for n = 1 */
function allFactorisations(n: number, out: number[][] = [], cur: number[] = []): number[][] {
  if (n === 1) {
    out.push([...cur]);
    return out;
  }
  for (let s = 2; s <= n; s++) {
    if (n % s !== 0) continue;
    cur.push(s);
    allFactorisations(n / s, out, cur);
    cur.pop();
  }
  return out;
}

export type SearchResult = { exists: true; composite: Layout } | { exists: false; why: string } | null;

/**
 * Exhaustive search for B∘A (null when size(A) > limit). For each entry s:d of A, f(t) = Φ_B(t·d)
 * must be the function of some layout of size s: every ordered factorisation (s_1..s_k) of s
 * is tried, with the strides it forces (g_j = f(s_1·…·s_(j−1))), and checked at every t < s.
 * Then Φ_B(Φ_A(x)) must equal Σ_i f_i(x_i) at every x < size(A).
 */
export function searchComposite(b: Layout, a: Layout, limit = SEARCH_LIMIT): SearchResult {
  if (cosize(a) > size(b)) return { exists: false, why: `cosize(A) = ${cosize(a)} > size(B) = ${size(b)}` };
  const n = size(a);
  if (n > limit) return null;
  const pb = phiOf(b);
  const fa = flat(a);
  const modes: Layout[] = [];
  const tables: number[][] = [];
  for (let i = 0; i < fa.shapes.length; i++) {
    const s = fa.shapes[i]!;
    const d = fa.strides[i]!;
    const f: number[] = [];
    for (let t = 0; t < s; t++) f.push(pb(t * d));
    tables.push(f);
    let found: Layout | null = null;
    for (const fs of allFactorisations(s)) {
      const gs: number[] = [];
      let P = 1;
      for (const x of fs) {
        gs.push(f[P]!);
        P *= x;
      }
      // check Φ_(fs):(gs) = f at every t
      let ok = true;
      const c = new Array<number>(fs.length).fill(0);
      let o = 0;
      for (let t = 0; t < s && ok; t++) {
        if (o !== f[t]) ok = false;
        for (let j = 0; j < fs.length; j++) {
          o += gs[j]!;
          if (++c[j]! < fs[j]!) break;
          o -= fs[j]! * gs[j]!;
          c[j] = 0;
        }
      }
      if (ok) {
        found = fs.length === 0 ? makeLayout(1, 0) : fs.length === 1 ? makeLayout(fs[0]!, gs[0]!) : makeLayout(fs, gs);
        break;
      }
    }
    if (!found) return { exists: false, why: `entry ${i + 1} (${s}:${d}) maps to no layout function` };
    modes.push(found);
  }
  // additivity
  const m = fa.shapes.length;
  const c = new Array<number>(m).fill(0);
  let xa = 0;
  for (let x = 0; x < n; x++) {
    let sum = 0;
    for (let i = 0; i < m; i++) sum += tables[i]![c[i]!]!;
    if (pb(xa) !== sum) return { exists: false, why: `not additive at x = ${x}` };
    for (let i = 0; i < m; i++) {
      xa += fa.strides[i]!;
      if (++c[i]! < fa.shapes[i]!) break;
      xa -= fa.shapes[i]! * fa.strides[i]!;
      c[i] = 0;
    }
  }
  // the composite: A's nesting with each entry replaced by its mode (coalesced)
  let k = 0;
  const sub = (s: T.Tuple): [T.Tuple, T.Tuple] => {
    if (typeof s === 'number') {
      const md = coalesce(modes[k++]!);
      return [md.shape, md.stride];
    }
    const S: T.Tuple[] = [];
    const D: T.Tuple[] = [];
    for (const u of s) {
      const [x, y] = sub(u);
      S.push(x);
      D.push(y);
    }
    return [S, D];
  };
  const [S, D] = sub(a.shape);
  return { exists: true, composite: makeLayout(S, D) };
}

// ---------------------------------------------------------------------------------------------
// the laws

function kindOf(e: unknown): string {
  return e instanceof LayoutError ? e.kind : 'internal';
}

function msg(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function concatEntries(x: Layout, y: Layout): { shapes: number[]; strides: number[] } {
  const a = flat(x);
  const b = flat(y);
  return { shapes: [...a.shapes, ...b.shapes], strides: [...a.strides, ...b.strides] };
}

/** the checks of comp(A[, N]) = c: size, coalesced form, (A, c) compact */
function complementChecks(a: Layout, c: Layout, expectSize: number, what: string, p: Pending): void {
  if (size(a) * size(c) !== expectSize) {
    p.status = 'fail';
    p.reason = `${what} = ${show(c)}: size(A)·size(comp) = ${size(a) * size(c)}, expected ${expectSize}`;
    return;
  }
  const why = coalescedFormFailure(c);
  if (why) {
    p.status = 'fail';
    p.reason = `${what}: ${why}`;
    return;
  }
  p.bulk.push({ kind: 'compact', entries: concatEntries(a, c), reason: `${what} = ${show(c)}: (A, comp) is not compact` });
}

function failWith(p: Pending, reason: string): Pending {
  p.status = 'fail';
  p.reason = reason;
  return p;
}

function lawCoalesce(l: Layout, impl: LawImpl): Pending {
  const p: Pending = { status: 'pass', bulk: [] };
  let r: Layout;
  try {
    r = impl.coalesce(l);
  } catch (e) {
    return failWith(p, `coal threw ${kindOf(e)}: ${msg(e)}`);
  }
  if (size(r) !== size(l)) return failWith(p, `coal = ${show(r)} has size ${size(r)}, expected ${size(l)}`);
  const why = coalescedFormFailure(r);
  if (why) return failWith(p, `coal = ${why}`);
  p.bulk.push({ kind: 'equal', a: l, b: null, c: r, reason: `coal = ${show(r)} has a different Φ` });
  return p;
}

function lawComplement(a: Layout, impl: LawImpl): Pending {
  const p: Pending = { status: 'pass', bulk: [] };
  const ok = complementable(a);
  let c: Layout;
  try {
    c = impl.complement(a);
  } catch (e) {
    if (kindOf(e) === 'not-complementable' && !ok) return p;
    return failWith(p, `comp(A) threw ${kindOf(e)}${ok ? ' although A is complementable' : ''}: ${msg(e)}`);
  }
  if (!ok) return failWith(p, `comp(A) = ${show(c)} although A is not complementable`);
  const sp = spanOf(a);
  complementChecks(a, c, sp, 'comp(A)', p);
  if (p.status !== 'pass') return p;
  const n = 2 * sp;
  if (Number.isSafeInteger(n)) {
    try {
      const cn = impl.complement(a, n);
      complementChecks(a, cn, n, `comp(A, ${n})`, p);
      if (p.status !== 'pass') return p;
    } catch (e) {
      return failWith(p, `comp(A, ${n}) threw ${kindOf(e)}: ${msg(e)}`);
    }
  }
  if (sp > 1 && Number.isSafeInteger(sp + 1)) {
    try {
      const bad = impl.complement(a, sp + 1);
      return failWith(p, `comp(A, ${sp + 1}) = ${show(bad)} although span(A) = ${sp} does not divide ${sp + 1}`);
    } catch (e) {
      if (kindOf(e) !== 'not-complementable') return failWith(p, `comp(A, ${sp + 1}) threw ${kindOf(e)}: ${msg(e)}`);
    }
  }
  return p;
}

/** checks of a composite C of B∘A (given), or confirmation of its refusal */
function compositeChecks(b: Layout, a: Layout, run: () => Layout, what: string, p: Pending): void {
  let c: Layout;
  try {
    c = run();
  } catch (e) {
    const k = kindOf(e);
    if (k === 'not-composable') {
      const r = searchComposite(b, a);
      if (r === null) {
        p.status = 'skip';
        p.reason = `${what}: not-composable, unconfirmed (size(A) = ${size(a)} > ${SEARCH_LIMIT})`;
      } else if (r.exists) {
        p.status = 'fail';
        p.reason = `${what}: refused as not-composable, but ${show(r.composite)} is the composite`;
      }
      return;
    }
    if (k === 'overflow') {
      p.status = 'skip';
      p.reason = `${what}: overflow (${msg(e)})`;
      return;
    }
    p.status = 'fail';
    p.reason = `${what} threw ${k}: ${msg(e)}`;
    return;
  }
  if (cosize(a) > size(b)) {
    p.status = 'fail';
    p.reason = `${what} = ${show(c)} although cosize(A) = ${cosize(a)} > size(B) = ${size(b)}`;
    return;
  }
  if (size(c) !== size(a)) {
    p.status = 'fail';
    p.reason = `${what} = ${show(c)} has size ${size(c)}, expected ${size(a)}`;
    return;
  }
  const modes = T.relativeModes(c.shape, a.shape);
  if (!modes) {
    p.status = 'fail';
    p.reason = `${what} = ${show(c)}: its shape does not refine ${T.depth(a.shape) === 0 ? a.shape : show(a)}'s shape`;
    return;
  }
  // coalesced over shape(A): each relative mode in coalesced form
  let k = 0;
  const walk = (s: T.Tuple, d: T.Tuple, bar: T.Tuple): string | null => {
    if (typeof bar === 'number') {
      k++;
      return coalescedFormFailure({ shape: s, stride: d });
    }
    for (let i = 0; i < bar.length; i++) {
      const w = walk((s as readonly T.Tuple[])[i]!, (d as readonly T.Tuple[])[i]!, bar[i]!);
      if (w) return w;
    }
    return null;
  };
  const why = walk(c.shape, c.stride, a.shape);
  if (why) {
    p.status = 'fail';
    p.reason = `${what} = ${show(c)} is not coalesced over shape(A): mode ${k}: ${why}`;
    return;
  }
  p.bulk.push({ kind: 'equal', a, b, c, reason: `${what} = ${show(c)}: Φ differs from Φ_B∘Φ_A` });
}

function lawCompose(b: Layout, a: Layout, impl: LawImpl): Pending {
  const p: Pending = { status: 'pass', bulk: [] };
  compositeChecks(b, a, () => impl.compose(b, a), 'B∘A', p);
  return p;
}

function lawDivide(a: Layout, b: Layout, impl: LawImpl): Pending {
  const p: Pending = { status: 'pass', bulk: [] };
  const n = size(a);
  const ok = complementable(b, n);
  let d: Layout;
  try {
    d = impl.logicalDivide(a, b);
  } catch (e) {
    const k = kindOf(e);
    if (k === 'not-complementable') return ok ? failWith(p, `A ⊘ B refused as not-complementable, but B is ${n}-complementable`) : p;
    if (k !== 'not-composable' && k !== 'overflow') return failWith(p, `A ⊘ B threw ${k}: ${msg(e)}`);
    if (!ok) return failWith(p, `A ⊘ B threw ${k}, but B is not ${n}-complementable (expected not-complementable)`);
    let bs: Layout;
    try {
      bs = impl.complement(b, n);
    } catch (e2) {
      return failWith(p, `comp(B, ${n}) threw ${kindOf(e2)}: ${msg(e2)}`);
    }
    compositeChecks(
      a,
      concat(b, bs),
      () => {
        throw e;
      },
      'A∘(B, B*)',
      p,
    );
    return p;
  }
  if (!ok) return failWith(p, `A ⊘ B = ${show(d)} although B is not ${n}-complementable`);
  let bs: Layout;
  try {
    bs = impl.complement(b, n);
  } catch (e) {
    return failWith(p, `comp(B, ${n}) threw ${kindOf(e)}: ${msg(e)}`);
  }
  complementChecks(b, bs, n, `comp(B, ${n})`, p);
  if (p.status !== 'pass') return p;
  compositeChecks(a, concat(b, bs), () => d, 'A ⊘ B', p);
  return p;
}

/** the least multiple of span(A) that is ≥ size(A)·cosize(B) */
function productN(a: Layout, b: Layout): number {
  const need = size(a) * cosize(b);
  const sp = spanOf(a);
  return Math.ceil(need / sp) * sp;
}

function lawProduct(a: Layout, b: Layout, impl: LawImpl): Pending {
  const p: Pending = { status: 'pass', bulk: [] };
  // not complementable at all (e.g. a stride-0 entry, span 0): no N exists
  const n = complementable(a) ? productN(a, b) : NaN;
  if (complementable(a) && !Number.isSafeInteger(n)) return { status: 'skip', reason: 'N beyond 2^53', bulk: [] };
  const ok = complementable(a) && complementable(a, n);
  let prod: Layout;
  try {
    prod = impl.logicalProduct(a, b);
  } catch (e) {
    const k = kindOf(e);
    if (k === 'not-complementable') return ok ? failWith(p, `A ⊗ B refused as not-complementable, but A is ${n}-complementable`) : p;
    if (k !== 'not-composable' && k !== 'overflow') return failWith(p, `A ⊗ B threw ${k}: ${msg(e)}`);
    if (!ok) return failWith(p, `A ⊗ B threw ${k}: ${msg(e)}, but A is not ${Number.isNaN(n) ? '' : `${n}-`}complementable (expected not-complementable)`);
    let as: Layout;
    try {
      as = impl.complement(a, n);
    } catch (e2) {
      return failWith(p, `comp(A, ${n}) threw ${kindOf(e2)}: ${msg(e2)}`);
    }
    compositeChecks(
      as,
      b,
      () => {
        throw e;
      },
      'A*∘B',
      p,
    );
    return p;
  }
  if (!ok) return failWith(p, `A ⊗ B = ${show(prod)} although A is not ${n}-complementable`);
  let as: Layout;
  try {
    as = impl.complement(a, n);
  } catch (e) {
    return failWith(p, `comp(A, ${n}) threw ${kindOf(e)}: ${msg(e)}`);
  }
  complementChecks(a, as, n, `comp(A, ${n})`, p);
  if (p.status !== 'pass') return p;
  if (typeof prod.shape === 'number' || prod.shape.length !== 2) return failWith(p, `A ⊗ B = ${show(prod)} is not of rank 2`);
  const m1: Layout = { shape: prod.shape[0]!, stride: (prod.stride as readonly T.Tuple[])[0]! };
  const m2: Layout = { shape: prod.shape[1]!, stride: (prod.stride as readonly T.Tuple[])[1]! };
  if (!tuplesEqual(m1.shape, a.shape) || !tuplesEqual(m1.stride, a.stride)) return failWith(p, `A ⊗ B = ${show(prod)}: its first mode is not A`);
  compositeChecks(as, b, () => m2, `A ⊗ B = ${show(prod)}: mode 2`, p);
  return p;
}

function pending(law: LawName, items: readonly Layout[], impl: LawImpl): Pending {
  try {
    switch (law) {
      case 'coalesce':
        return lawCoalesce(items[0]!, impl);
      case 'complement':
        return lawComplement(items[0]!, impl);
      case 'compose':
        return lawCompose(items[0]!, items[1]!, impl);
      case 'divide':
        return lawDivide(items[0]!, items[1]!, impl);
      case 'product':
        return lawProduct(items[0]!, items[1]!, impl);
    }
  } catch (e) {
    return { status: 'fail', reason: `the law's own checks threw ${kindOf(e)}: ${msg(e)}`, bulk: [] };
  }
}

/** the number of layouts a law takes per candidate */
export const lawArity = (law: LawName): number => (PAIR_LAWS.has(law) ? 2 : 1);

/**
 * Checks a law over many candidates: the structural parts on the CPU, the bulk parts in two
 * engine calls (one bitmap batch, one or two equality batches).
 */
export async function checkLaw(law: LawName, cands: readonly (readonly Layout[])[], engine: VerifyEngine, impl: LawImpl = ALGEBRA): Promise<LawOutcome[]> {
  const ps = cands.map((c) => pending(law, c, impl));
  const compact = new FlatBatchBuilder();
  const compactOwner: [number, string][] = [];
  const eq: { a: FlatBatchBuilder; b: FlatBatchBuilder | null; c: FlatBatchBuilder; owner: [number, string][] }[] = [
    { a: new FlatBatchBuilder(), b: null, c: new FlatBatchBuilder(), owner: [] },
    { a: new FlatBatchBuilder(), b: new FlatBatchBuilder(), c: new FlatBatchBuilder(), owner: [] },
  ];
  ps.forEach((p, i) => {
    if (p.status !== 'pass') return;
    for (const k of p.bulk) {
      if (k.kind === 'compact') {
        compact.push(k.entries.shapes, k.entries.strides);
        compactOwner.push([i, k.reason]);
      } else {
        const e = eq[k.b ? 1 : 0]!;
        e.a.pushLayout(k.a);
        if (k.b) e.b!.pushLayout(k.b);
        e.c.pushLayout(k.c);
        e.owner.push([i, k.reason]);
      }
    }
  });
  const out: LawOutcome[] = ps.map((p) => (p.reason === undefined ? { status: p.status } : { status: p.status, reason: p.reason }));
  const mark = (owner: [number, string][], v: Uint8Array): void => {
    owner.forEach(([i, reason], j) => {
      if (v[j] === 0 && out[i]!.status === 'pass') out[i] = { status: 'fail', reason };
    });
  };
  if (compact.count > 0) mark(compactOwner, await engine.bitmapCheck('compact', compact.finish()));
  for (const e of eq) {
    if (e.owner.length === 0) continue;
    mark(e.owner, await engine.equalCheck({ a: e.a.finish(), b: e.b ? e.b.finish() : null, c: e.c.finish() }));
  }
  return out;
}

const cpuEngine = new CpuVerifyEngine();

/** one candidate, synchronously on the CPU (for shrinking) */
export function lawOutcomeSync(law: LawName, items: readonly Layout[], impl: LawImpl = ALGEBRA): LawOutcome {
  const p = pending(law, items, impl);
  if (p.status !== 'pass') return p.reason === undefined ? { status: p.status } : { status: p.status, reason: p.reason };
  for (const k of p.bulk) {
    let ok: boolean;
    if (k.kind === 'compact') {
      const b = new FlatBatchBuilder(1);
      b.push(k.entries.shapes, k.entries.strides);
      ok = cpuEngine.bitmapCheckSync('compact', b.finish())[0] === 1;
    } else {
      const mk = (l: Layout) => {
        const b = new FlatBatchBuilder(1);
        b.pushLayout(l);
        return b.finish();
      };
      ok = cpuEngine.equalCheckSync({ a: mk(k.a), b: k.b ? mk(k.b) : null, c: mk(k.c) })[0] === 1;
    }
    if (!ok) return { status: 'fail', reason: k.reason };
  }
  return { status: 'pass' };
}
