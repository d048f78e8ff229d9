/**
 * Coalesce (docs/semantics.md §3; paper 2.1.4, 2.3.3, 2.3.4).
 */
import { mul } from './arith.js';
import { domainError } from './errors.js';
import { type Flat, type Layout, TRIVIAL } from './layout.js';
import { formatTuple } from './notation.js';
import * as T from './tuple.js';

/** Def. 2.1.4.x, flat coal♭: drop shape-1 entries, then merge neighbours i, i+1 while
 *  d(i+1) = s_i·d_i (stride-0 neighbours merge too). The unique flat layout of minimal rank
 *  with the same function. */
export function coalesceFlat(shapes: readonly number[], strides: readonly number[]): Flat {
  const s: number[] = [];
  const d: number[] = [];
  for (let i = 0; i < shapes.length; i++) {
    const si = shapes[i]!;
    if (si === 1) continue;
    const di = strides[i]!;
    const k = s.length - 1;
    if (k >= 0 && di === s[k]! * d[k]!) {
      s[k] = mul(s[k]!, si, 'size'); // s[k]·d[k] = di ≤ 2^53 already; the new shape divides size
    } else {
      s.push(si);
      d.push(di);
    }
  }
  return { shapes: s, strides: d };
}

/** coal♭(L) straight from L's nested shape and stride, in one walk (coalesceFlat of L♭
 *  without building L♭). Example: coalesceNested((2,(2,3)), (1,(2,8))) = (4,3):(1,8). */
export function coalesceNested(shape: T.Tuple, stride: T.Tuple): Flat {
  const s: number[] = [];
  const d: number[] = [];
  if (typeof shape === 'number') pushMerged(s, d, shape, stride as number);
  else coalesceInto(shape, stride as readonly T.Tuple[], s, d);
  return { shapes: s, strides: d };
}

/** Push the entries of congruent (shape, stride) onto the coalesced list (s):(d). */
function coalesceInto(shape: readonly T.Tuple[], stride: readonly T.Tuple[], s: number[], d: number[]): void {
  for (let i = 0; i < shape.length; i++) {
    const u = shape[i]!;
    if (typeof u === 'number') pushMerged(s, d, u, stride[i] as number);
    else coalesceInto(u, stride[i] as readonly T.Tuple[], s, d);
  }
}

/** One step of coal♭: drop s_i = 1, merge into the last entry when d_i = s_last·d_last. */
function pushMerged(s: number[], d: number[], si: number, di: number): void {
  if (si === 1) return;
  const k = s.length - 1;
  if (k >= 0 && di === s[k]! * d[k]!) s[k] = mul(s[k]!, si, 'size');
  else {
    s.push(si);
    d.push(di);
  }
}

/** The nested form of a coalesced flat result: flat when length > 1, depth-0 s:d when 1,
 *  1:0 when empty (Construction 2.3.3.7). */
export function fromCoalescedFlat(f: Flat): Layout {
  const n = f.shapes.length;
  if (n === 0) return TRIVIAL;
  if (n === 1) return { shape: f.shapes[0]!, stride: f.strides[0]! };
  return { shape: f.shapes, stride: f.strides };
}

/** Construction 2.3.3.7: coal(L). */
export function coalesce(l: Layout): Layout {
  return fromCoalescedFlat(coalesceNested(l.shape, l.stride));
}

/** Def. 2.3.3.1: L = 1:0, or depth 0 with shape > 1, or depth 1, rank > 1, no shape-1 entry
 *  and no mergeable neighbours. */
export function isCoalesced(l: Layout): boolean {
  if (typeof l.shape === 'number') {
    return l.shape > 1 || (l.shape === 1 && l.stride === 0);
  }
  if (l.shape.length < 2 || T.depth(l.shape) !== 1) return false;
  const s = l.shape as readonly number[];
  const d = l.stride as readonly number[];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === 1) return false;
    if (i + 1 < s.length && d[i + 1] === s[i]! * d[i]!) return false;
  }
  return true;
}

/** The relative modes L_1..L_m of L over S̄ (Def. 2.3.4.1); `domain` error when shape(L)
 *  does not refine S̄. */
export function relativeModes(l: Layout, bar: T.Tuple): Layout[] {
  if (!T.refines(l.shape, bar)) {
    throw domainError(`shape ${formatTuple(l.shape)} does not refine ${formatTuple(bar)}`);
  }
  const out: Layout[] = [];
  const go = (s: T.Tuple, d: T.Tuple, b: T.Tuple): void => {
    if (typeof b === 'number') out.push({ shape: s, stride: d });
    else for (let i = 0; i < b.length; i++) go((s as readonly T.Tuple[])[i]!, (d as readonly T.Tuple[])[i]!, b[i]!);
  };
  go(l.shape, l.stride, bar);
  return out;
}

/** Def. 2.3.4.7: coal(L, S̄), coalescing each relative mode and substituting into prof(S̄). */
export function coalesceRelative(l: Layout, bar: T.Tuple): Layout {
  const ms = relativeModes(l, bar).map(coalesce);
  const p = T.profile(bar);
  return {
    shape: T.substituteTuples(
      p,
      ms.map((m) => m.shape),
    ),
    stride: T.substituteTuples(
      p,
      ms.map((m) => m.stride),
    ),
  };
}

/** Def. 2.3.4.4: L is coalesced over S̄ when every relative mode is coalesced. */
export function isCoalescedOver(l: Layout, bar: T.Tuple): boolean {
  return relativeModes(l, bar).every(isCoalesced);
}
