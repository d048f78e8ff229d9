/**
 * The zipped, tiled and flat forms of a by-mode divide or product against its logical form
 * (docs/semantics.md §8.3), for the tests of both: every element of R = logical(A, T) at its (tile, rest)
 * coordinate (splitCoords) is where zipped, tiled and flat put the same (tile, rest).
 */
import { expect } from 'vitest';
import type { Layout } from '../../src/algebra/layout.js';
import { formatLayout } from '../../src/algebra/notation.js';
import { parseTiler, type Tiler } from '../../src/cute/tiler.js';
import { showL, sizeB } from '../helpers/brute.js';
import { splitCoords } from './_coords.js';
import { kindOf } from './_seeds.js';
import { digits, evalAt, forSeeds, modeB, randomTileable, randomTiler, tilerText } from './_vocab.js';

/** one family of forms: logical_divide with zipped/tiled/flat_divide, or the products */
export interface Forms {
  name: string;
  logical(a: Layout, t: Tiler): Layout;
  zipped(a: Layout, t: Tiler): Layout;
  tiled(a: Layout, t: Tiler): Layout;
  flat(a: Layout, t: Tiler): Layout;
}

/** Checks the forms on `seeds` random (A, tiler) pairs (A of size ≤ maxSize when given);
 *  returns how many had a logical form to check against. */
export function checkForms(f: Forms, seeds: number, maxSize = 256): number {
  let checked = 0;
  forSeeds(seeds, (rng) => {
    const a = randomTileable(rng, maxSize) as Layout;
    const t = randomTiler(rng, a);
    const text = tilerText(t, rng);
    const tiler = parseTiler(text);
    let r: Layout | undefined;
    if (kindOf(() => (r = f.logical(a, tiler))) !== 'ok') return;
    const tag = `(${showL(a)}, ${text}) with ${f.name} ${formatLayout(r!)}`;
    let z: Layout | undefined;
    const zk = kindOf(() => (z = f.zipped(a, tiler)));
    // a `_` over a mode of rank ≠ 2 cannot be split
    if (zk !== 'ok') {
      expect(zk, tag).toBe('domain');
      expect(() => splitCoords(r!, t), tag).toThrow();
      return;
    }
    const td = f.tiled(a, tiler);
    const fd = f.flat(a, tiler);
    const oneD = t === '_' || 'layout' in t;
    for (const c of splitCoords(r!, t)) {
      const want = evalAt(r!, c.r);
      const at = `${tag} at ${JSON.stringify(c)}`;
      expect(evalAt(z!, [c.tile, c.rest]), `zipped ${formatLayout(z!)} ${at}`).toBe(want);
      const rest = oneD ? digits(modeB(z!, 2), c.rest as number) : (c.rest as number[]);
      const tile = oneD ? digits(modeB(z!, 1), c.tile as number) : (c.tile as number[]);
      expect(evalAt(td, [c.tile, ...rest]), `tiled ${formatLayout(td)} ${at}`).toBe(want);
      expect(evalAt(fd, [...tile, ...rest]), `flat ${formatLayout(fd)} ${at}`).toBe(want);
    }
    expect(sizeB(z!), tag).toBe(sizeB(r!));
    checked++;
  });
  return checked;
}
