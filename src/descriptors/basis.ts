/**
 * Layouts whose strides are CuTe's scaled bases c·E<j> (docs/descriptors.md §2.1; CuTe's
 * `make_identity_layout`, `ScaledBasis`): the map from a tile coordinate to a coordinate of the global tensor G, E<j>
 * being one unit step along leaf j of G's shape. The TMA steps of docs/descriptors.md §2.1 compose, coalesce and truncate such
 * layouts; here they are flat lists of entries, and composition is CuTe's (the left side's last entry unbounded, its
 * divisibility conditions `domain`), so that a tile step along one leaf never reads as a step along the next one.
 */
import { domainError } from '../algebra/errors.js';

/** One entry s : c·E<leaf> (leaf −1 with c = 0 is the stride 0). */
export interface BasisEntry {
  readonly size: number;
  readonly leaf: number;
  readonly coef: number;
}

/** A flat layout of scaled-basis strides, entries innermost first. */
export type BasisLayout = readonly BasisEntry[];

const entry = (size: number, leaf: number, coef: number): BasisEntry => (coef === 0 ? { size, leaf: -1, coef: 0 } : { size, leaf, coef });

/**
 * CuTe's `coalesce` over scaled bases: size-1 entries dropped, s0:d0 and s1:d1 merged where d1 = s0·d0 (the same leaf,
 * c1 = s0·c0; two stride-0 entries too). Example: (8,8):(E0,8E0) coalesces to 64:E0.
 */
export function coalesceBasis(l: BasisLayout): BasisEntry[] {
  const out: BasisEntry[] = [];
  for (const e of l) {
    if (e.size === 1) continue;
    const back = out[out.length - 1];
    if (back !== undefined && back.leaf === e.leaf && e.coef === back.size * back.coef) out[out.length - 1] = entry(back.size * e.size, back.leaf, back.coef);
    else out.push(e);
  }
  return out;
}

/**
 * L ∘ (s:d) for a coalesced L of scaled bases and one integer entry, CuTe's `composition_impl`: d is divided out of
 * L's entries (all but the last: each must divide the remaining stride or be divided by it), then s is taken from the
 * rest (the last entry takes what remains, unbounded). Appends the result's entries of size > 1 to `out`. Errors:
 * `domain` naming CuTe's stride or shape divisibility condition. Example: (4,8):(E0,E1) ∘ 4:2 is (2,2):(2E0,E1).
 */
export function composeEntry(l: BasisLayout, s: number, d: number, out: BasisEntry[], what: string): void {
  if (s === 1) return;
  if (d < 0) throw domainError(`${what}: the stride ${d} is negative (a descriptor's strides are not)`);
  if (d === 0 || l.length === 0) {
    out.push(entry(s, -1, 0));
    return;
  }
  const last = l.length - 1;
  let restD = d;
  let restS = s;
  for (let k = 0; k <= last && restS > 1; k++) {
    const e = l[k]!;
    let n = e.size;
    let c = e.coef;
    if (k < last) {
      // divide the stride out of this entry
      if (restD > 1) {
        if (restD % n === 0) {
          restD /= n;
          continue;
        }
        if (n % restD !== 0) throw domainError(`${what}: ${n} and ${restD} divide neither way (CuTe's stride divisibility condition)`);
        n /= restD;
        c *= restD;
        restD = 1;
      }
      // then take what it holds of the shape
      if (restS <= n) {
        if (n % restS !== 0) throw domainError(`${what}: ${restS} does not divide ${n} (CuTe's shape divisibility condition)`);
        out.push(entry(restS, e.leaf, c));
        return;
      }
      if (restS % n !== 0) throw domainError(`${what}: ${n} does not divide ${restS} (CuTe's shape divisibility condition)`);
      out.push(entry(n, e.leaf, c));
      restS /= n;
    } else {
      out.push(entry(restS, e.leaf, c * restD));
      return;
    }
  }
}

/** L ∘ R for a flat integer layout R (its entries' results concatenated, CuTe's composition distributing over R). */
export function composeBasis(l: BasisLayout, shapes: readonly number[], strides: readonly number[], what: string): BasisEntry[] {
  const lc = coalesceBasis(l);
  const out: BasisEntry[] = [];
  for (let i = 0; i < shapes.length; i++) composeEntry(lc, shapes[i]!, strides[i]!, out, what);
  return out;
}
