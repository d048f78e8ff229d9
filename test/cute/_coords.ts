/**
 * The (tile, rest) coordinates of a by-mode divide or product (docs/semantics.md §8.3), enumerated from the
 * tiler's structure alone: for a one-dimensional tile (or `_`) a mode of R is (tile, rest);
 * for a by-mode <T1,…,Tk>, modes 1..k split recursively and the other modes belong to the rest.
 */
import { sizeB, type BL, type Tup } from '../helpers/brute.js';
import { modeB, rankOf, type BT } from './_vocab.js';

export interface SplitCoord {
  /** the coordinate in R = logical_divide/product(A, T) */
  r: Tup;
  /** the tile coordinate: an index for a one-dimensional tile, a list for a by-mode one */
  tile: Tup;
  /** the rest coordinate, likewise */
  rest: Tup;
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

export function splitCoords(r: BL, t: BT): SplitCoord[] {
  if (t === '_' || 'layout' in t) {
    if (rankOf(r) !== 2) throw new Error('splitCoords: a one-dimensional mode of R must have rank 2');
    const out: SplitCoord[] = [];
    const n1 = sizeB(modeB(r, 1));
    const n2 = sizeB(modeB(r, 2));
    for (let y = 0; y < n2; y++) for (let x = 0; x < n1; x++) out.push({ r: [x, y], tile: x, rest: y });
    return out;
  }
  const k = t.items.length;
  const parts: SplitCoord[][] = t.items.map((u, i) => splitCoords(modeB(r, i + 1), u));
  const extras: number[][] = [];
  for (let j = k; j < rankOf(r); j++) extras.push(range(sizeB(modeB(r, j + 1))));
  let acc: Array<{ r: Tup[]; tile: Tup[]; rest: Tup[]; extra: Tup[] }> = [{ r: [], tile: [], rest: [], extra: [] }];
  for (const p of parts) {
    const next: typeof acc = [];
    for (const a of acc) for (const c of p) next.push({ r: [...a.r, c.r], tile: [...a.tile, c.tile], rest: [...a.rest, c.rest], extra: [] });
    acc = next;
  }
  for (const e of extras) {
    const next: typeof acc = [];
    for (const a of acc) for (const v of e) next.push({ ...a, extra: [...a.extra, v] });
    acc = next;
  }
  return acc.map((a) => ({ r: [...a.r, ...a.extra], tile: a.tile, rest: [...a.rest, ...a.extra] }));
}
