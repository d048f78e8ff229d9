/**
 * Recasts (docs/semantics.md §8.5; CuTe's static `upcast<N>` and `downcast<N>` of include/cute/layout.hpp):
 * the element grows (upcast) or shrinks (downcast) N times, entry by entry, structure kept.
 */
import { MAX_EXACT, overflow } from '../algebra/arith.js';
import { domainError } from '../algebra/errors.js';
import { mapShape, type Layout } from '../algebra/layout.js';
import * as T from '../algebra/tuple.js';
import type { Tuple } from '../algebra/tuple.js';
import { ceilDiv } from './int.js';

function checkN(op: string, n: number): void {
  if (!Number.isSafeInteger(n) || n < 1) throw domainError(`${op}: N = ${n} must be a positive integer`);
}

/**
 * CuTe's `upcast<N>(L)`: stride-0 entries are kept; every other entry s:d needs d % N = 0 or
 * N % d = 0 and becomes ⌈s/⌈N/d⌉⌉ : ⌈d/N⌉ (never larger: no overflow). Errors: `domain`
 * naming the entry that breaks the divisibility, or N < 1.
 * Example: upcast(parseLayout('(4,8):(1,4)'), 2) is (2,8):(1,2).
 */
export function upcast(l: Layout, n: number): Layout {
  checkN('upcast', n);
  const { shape } = mapShape(l, (s, d, i) => {
    if (d === 0) return s;
    if (d % n !== 0 && n % d !== 0) throw domainError(`upcast: entry ${i} (${s}:${d}) has stride ${d}, neither a multiple nor a divisor of N = ${n}`);
    return ceilDiv(s, ceilDiv(n, d));
  });
  return { shape, stride: upStride(l.stride, n) };
}

/**
 * CuTe's `downcast<N>(L)`: the shape of every stride-1 entry is multiplied by N, every other
 * stride by N (stride 0 stays 0). Needs at least one stride-1 entry (else `domain`); a size or
 * cosize beyond 2^53 − 1 is `overflow`. Example: downcast(parseLayout('(4,8):(1,4)'), 2) is
 * (8,8):(1,8).
 */
export function downcast(l: Layout, n: number): Layout {
  checkN('downcast', n);
  if (!T.hasEntry(l.stride, 1)) throw domainError('downcast: the layout has no entry of stride 1');
  const w: DownWalk = { n, entry: 0, size: 1, span: 0 };
  return { shape: downShape(w, l.shape, l.stride), stride: downStride(l.stride, n) };
}

/** downcast's walk: N, the entries seen, and the size and cosize − 1 of the result so far (checked entry by entry). */
interface DownWalk {
  readonly n: number;
  entry: number;
  size: number;
  span: number;
}

/** downcast's shapes, in entry order (a walk of its own, as its strides': the casts run per request). */
function downShape(w: DownWalk, s: Tuple, d: Tuple): Tuple {
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

/** upcast's strides: ⌈d/N⌉, 0 kept (a walk of its own: the casts run per request, a callback per leaf costs 10%). */
function upStride(d: Tuple, n: number): Tuple {
  if (typeof d === 'number') return d === 0 ? 0 : ceilDiv(d, n);
  const out: Tuple[] = new Array(d.length);
  for (let i = 0; i < d.length; i++) out[i] = upStride(d[i]!, n);
  return out;
}

/** downcast's strides: d·N, 1 kept (checked by downcast's entry walk first). */
function downStride(d: Tuple, n: number): Tuple {
  if (typeof d === 'number') return d === 1 ? 1 : d * n;
  const out: Tuple[] = new Array(d.length);
  for (let i = 0; i < d.length; i++) out[i] = downStride(d[i]!, n);
  return out;
}
