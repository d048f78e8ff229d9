/**
 * Recasts (SPEC §8.5; CuTe's static `upcast<N>` and `downcast<N>` of include/cute/layout.hpp):
 * the element grows (upcast) or shrinks (downcast) N times, entry by entry, structure kept.
 */
import { ceilDiv } from './int.js';
import { domainError } from '../algebra/errors.js';
import { flat, makeLayout, withProfile, profile, type Layout } from '../algebra/layout.js';

function checkN(op: string, n: number): void {
  if (!Number.isSafeInteger(n) || n < 1) throw domainError(`${op}: N = ${n} must be a positive integer`);
}

/**
 * CuTe's `upcast<N>(L)`: stride-0 entries are kept; every other entry s:d needs d % N = 0 or
 * N % d = 0 and becomes ⌈s/⌈N/d⌉⌉ : ⌈d/N⌉. Errors: `domain` naming the entry that breaks the
 * divisibility, or N < 1. Example: upcast(parseLayout('(4,8):(1,4)'), 2) is (2,8):(1,2).
 */
export function upcast(l: Layout, n: number): Layout {
  checkN('upcast', n);
  const { shapes, strides } = flat(l);
  const s: number[] = [];
  const d: number[] = [];
  for (let i = 0; i < shapes.length; i++) {
    const si = shapes[i]!;
    const di = strides[i]!;
    if (di === 0) {
      s.push(si);
      d.push(0);
      continue;
    }
    if (di % n !== 0 && n % di !== 0) {
      throw domainError(`upcast: entry ${i + 1} (${si}:${di}) has stride ${di}, neither a multiple nor a divisor of N = ${n}`);
    }
    s.push(ceilDiv(si, ceilDiv(n, di)));
    d.push(ceilDiv(di, n));
  }
  return rebuild(l, s, d);
}

/**
 * CuTe's `downcast<N>(L)`: the shape of every stride-1 entry is multiplied by N, every other
 * stride by N (stride 0 stays 0). Needs at least one stride-1 entry (else `domain`); a size or
 * cosize beyond 2^53 − 1 is `overflow`. Example: downcast(parseLayout('(4,8):(1,4)'), 2) is
 * (8,8):(1,8).
 */
export function downcast(l: Layout, n: number): Layout {
  checkN('downcast', n);
  const { shapes, strides } = flat(l);
  if (!strides.includes(1)) throw domainError('downcast: the layout has no entry of stride 1');
  const s: number[] = [];
  const d: number[] = [];
  for (let i = 0; i < shapes.length; i++) {
    const si = shapes[i]!;
    const di = strides[i]!;
    s.push(di === 1 ? si * n : si);
    d.push(di === 1 ? 1 : di * n);
  }
  return rebuild(l, s, d);
}

/** L's structure with new entries, validated (sizes and cosizes bounded). */
function rebuild(l: Layout, s: number[], d: number[]): Layout {
  if (typeof l.shape === 'number') return makeLayout(s[0]!, d[0]!);
  const r = withProfile({ shapes: s, strides: d }, profile(l));
  return makeLayout(r.shape, r.stride);
}
