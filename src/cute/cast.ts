/**
 * Recasts (docs/semantics.md §8.5; CuTe's static `upcast<N>` and `downcast<N>` of include/cute/layout.hpp):
 * the element grows (upcast) or shrinks (downcast) N times, entry by entry, structure kept.
 */
import { MAX_EXACT, overflow } from '../algebra/arith.js';
import { domainError } from '../algebra/errors.js';
import type { Layout } from '../algebra/layout.js';
import type { Tuple } from '../algebra/tuple.js';
import { ceilDiv } from './int.js';

function checkN(op: string, n: number): void {
  if (!Number.isSafeInteger(n) || n < 1) throw domainError(`${op}: N = ${n} must be a positive integer`);
}

/** Entry counter of one recast walk (the entry number for error messages). */
interface Walk {
  n: number;
  entry: number;
  /** downcast: size and cosize − 1 of the result so far */
  size: number;
  span: number;
}

function hasUnit(d: Tuple): boolean {
  if (typeof d === 'number') return d === 1;
  for (let i = 0; i < d.length; i++) if (hasUnit(d[i]!)) return true;
  return false;
}

function upShape(w: Walk, s: Tuple, d: Tuple): Tuple {
  if (typeof s === 'number') {
    w.entry++;
    const di = d as number;
    if (di === 0) return s;
    if (di % w.n !== 0 && w.n % di !== 0) {
      throw domainError(`upcast: entry ${w.entry} (${s}:${di}) has stride ${di}, neither a multiple nor a divisor of N = ${w.n}`);
    }
    return ceilDiv(s, ceilDiv(w.n, di));
  }
  const dd = d as readonly Tuple[];
  const out: Tuple[] = new Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = upShape(w, s[i]!, dd[i]!);
  return out;
}

function upStride(n: number, d: Tuple): Tuple {
  if (typeof d === 'number') return d === 0 ? 0 : ceilDiv(d, n);
  const out: Tuple[] = new Array(d.length);
  for (let i = 0; i < d.length; i++) out[i] = upStride(n, d[i]!);
  return out;
}

/**
 * CuTe's `upcast<N>(L)`: stride-0 entries are kept; every other entry s:d needs d % N = 0 or
 * N % d = 0 and becomes ⌈s/⌈N/d⌉⌉ : ⌈d/N⌉ (never larger: no overflow). Errors: `domain`
 * naming the entry that breaks the divisibility, or N < 1.
 * Example: upcast(parseLayout('(4,8):(1,4)'), 2) is (2,8):(1,2).
 */
export function upcast(l: Layout, n: number): Layout {
  checkN('upcast', n);
  const w: Walk = { n, entry: 0, size: 1, span: 0 };
  const shape = upShape(w, l.shape, l.stride);
  return { shape, stride: upStride(n, l.stride) };
}

function downShape(w: Walk, s: Tuple, d: Tuple): Tuple {
  if (typeof s === 'number') {
    const di = d as number;
    const si = di === 1 ? s * w.n : s;
    const dj = di === 1 ? 1 : di * w.n;
    // exact checks: a rounded product beyond 2^53 − 1 is still beyond it
    if (si > MAX_EXACT || dj > MAX_EXACT) throw overflow(`downcast: entry ${w.entry + 1}`);
    w.entry++;
    w.size *= si;
    w.span += (si - 1) * dj;
    if (w.size > MAX_EXACT) throw overflow('downcast: size');
    if (w.span >= MAX_EXACT) throw overflow('downcast: cosize');
    return si;
  }
  const dd = d as readonly Tuple[];
  const out: Tuple[] = new Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = downShape(w, s[i]!, dd[i]!);
  return out;
}

function downStride(n: number, d: Tuple): Tuple {
  if (typeof d === 'number') return d === 1 ? 1 : d * n;
  const out: Tuple[] = new Array(d.length);
  for (let i = 0; i < d.length; i++) out[i] = downStride(n, d[i]!);
  return out;
}

/**
 * CuTe's `downcast<N>(L)`: the shape of every stride-1 entry is multiplied by N, every other
 * stride by N (stride 0 stays 0). Needs at least one stride-1 entry (else `domain`); a size or
 * cosize beyond 2^53 − 1 is `overflow`. Example: downcast(parseLayout('(4,8):(1,4)'), 2) is
 * (8,8):(1,8).
 */
export function downcast(l: Layout, n: number): Layout {
  checkN('downcast', n);
  if (!hasUnit(l.stride)) throw domainError('downcast: the layout has no entry of stride 1');
  const w: Walk = { n, entry: 0, size: 1, span: 0 };
  const shape = downShape(w, l.shape, l.stride);
  return { shape, stride: downStride(n, l.stride) };
}
