/**
 * A by-mode divide, product or composition by a tiler against brute force (docs/semantics.md §8.3), for the
 * tests of both: on random (A, tiler) pairs, each mode of the library's answer is, pointwise, the
 * one-dimensional definition applied mode by mode (byModeB); where some mode has none, the library
 * fails with one of the kinds the operation may fail with.
 */
import { expect } from 'vitest';
import type { Layout } from '../../src/algebra/layout.js';
import { formatLayout } from '../../src/algebra/notation.js';
import { parseTiler, type Tiler } from '../../src/cute/tiler.js';
import { sameFunction, showL, type BL } from '../helpers/brute.js';
import { kindOf } from './_seeds.js';
import { byModeB, forSeeds, modeB, randomTileable, randomTiler, rankOf, tilerText } from './_vocab.js';

/** one by-mode operation: the library's, and its one-dimensional definition by brute force */
export interface ByMode {
  name: string;
  lib(a: Layout, t: Tiler): Layout;
  /** the brute-force answer for one mode and its one-dimensional tile, null when there is none */
  brute(a: BL, t: BL): BL | null;
  /** modes beyond the tiler kept (divide, product) or dropped (compose) */
  keep: boolean;
  /** the error kinds the library may give where brute force has no answer */
  failures: readonly string[];
}

/** Checks `op` on `seeds` random (A, tiler) pairs (A of size ≤ maxSize); returns how many had an answer. */
export function checkByMode(op: ByMode, seeds: number, maxSize = 256): number {
  let answered = 0;
  forSeeds(seeds, (rng) => {
    const a = randomTileable(rng, maxSize);
    const t = randomTiler(rng, a);
    const text = tilerText(t, rng);
    const tag = `${op.name}(${showL(a)}, ${text})`;
    const want = byModeB(a, t, op.brute, op.keep);
    let got: Layout | undefined;
    const kind = kindOf(() => (got = op.lib(a as Layout, parseTiler(text))));
    if (want === null) {
      expect(op.failures, tag).toContain(kind);
      return;
    }
    expect(kind, `${tag}: ${kind}`).toBe('ok');
    answered++;
    expect(rankOf(got!), tag).toBe(rankOf(want));
    for (let i = 1; i <= rankOf(want); i++) {
      expect(sameFunction(modeB(got!, i), modeB(want, i)), `${tag} = ${formatLayout(got!)}, mode ${i} vs ${showL(want)}`).toBe(true);
    }
  });
  return answered;
}
