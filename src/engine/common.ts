/**
 * What both backends share (docs/engine.md): the protocol's checks of check_compose's arguments, the closed form of a
 * digest past enumeration, and the tile geometry of tile_map (A ⊘ B by the algebra, its tiles, whether they cover the
 * image). The GPU backend takes them from here, not from the CPU backend.
 */
import { logicalDivide } from '../algebra/divide.js';
import { LayoutError } from '../algebra/errors.js';
import { size as layoutSize, type Layout } from '../algebra/layout.js';
import { innerLayout, isComposed, type LayoutFunction } from '../cute/composed.js';
import type { Digest } from './backend.js';
import { checkEnumerable, closedDigest, type Prepared } from './prep.js';

/** Protocol: size(C) ≠ size(A) or cosize(A) > size(B) is `domain`; size(A) beyond 2^40 is
 *  `overflow`. A composed A's cosize is known exactly only after enumerating (`cosizeA`); until
 *  then its bound is not held against it. */
export function checkComposeArgs(a: Prepared, b: Prepared, c: Prepared, cosizeA?: number): void {
  if (c.size !== a.size) {
    throw new LayoutError('domain', `size(C) = ${c.size} differs from size(A) = ${a.size}`);
  }
  checkEnumerable(a.size, 'check_compose');
  const co = cosizeA ?? (a.exactCosize ? a.cosize : 0);
  if (co > b.size) {
    throw new LayoutError('domain', `cosize(A) = ${co} exceeds size(B) = ${b.size}: Φ_B(Φ_A(x)) is not defined`);
  }
}

/** digest beyond ENUMERATE_LIMIT: the closed form, or `overflow` where there is none */
export function closedOrOverflow(p: Prepared, lo: number, hi: number): Digest {
  const d = closedDigest(p, lo, hi);
  if (!d) {
    throw new LayoutError(
      'overflow',
      `digest_range of ${p.text} over ${hi - lo} indices: the swizzle's period leaves more than 2^22 low coordinates per part (2^26 in all) to enumerate, past the 2^36 indices enumerated directly`,
    );
  }
  return { count: hi - lo, ...d };
}

/** A ⊘ B by the algebra, with the tile geometry (shared by both backends). For a composed A =
 *  Sw o K o L, A ⊘ B = Sw o K o (L ⊘ B) (docs/semantics.md §9.1: the algebra acts on the inner layout). */
export function tileDivision(a: LayoutFunction, b: Layout): { divided: LayoutFunction; tileSize: number; tiles: number } {
  const n = layoutSize(innerLayout(a));
  const divided: LayoutFunction = isComposed(a) ? { ...a, inner: logicalDivide(a.inner, b) } : logicalDivide(a, b);
  const tileSize = layoutSize(b);
  return { divided, tileSize, tiles: n / tileSize };
}

export function sameMultiset(x: Float64Array, y: Float64Array): boolean {
  if (x.length !== y.length) return false;
  const a = Float64Array.from(x).sort();
  const b = Float64Array.from(y).sort();
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function splitTiles(v: ArrayLike<number>, tileSize: number, tiles: number): number[][] {
  const out: number[][] = [];
  for (let k = 0; k < tiles; k++) {
    const row: number[] = new Array<number>(tileSize);
    for (let i = 0; i < tileSize; i++) row[i] = v[k * tileSize + i]!;
    out.push(row);
  }
  return out;
}
