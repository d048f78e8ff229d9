/**
 * max_common_vector's named accelerators (src/cute/common.ts) against its definition (docs/semantics.md §8.5):
 * `commonRunByDefinition` equals the brute-force oracle (the largest N with Φ_A(Φ_R(n)) = n below it, R =
 * right_inverse(B)); `alignedRun` and `compositeRun` equal it wherever they decide (N > 0), and where they do not
 * (−P), the identity does hold on the prefix [0, P) they claim. Each accelerator must decide some of the pairs and
 * leave some undecided, so that both of its answers are checked.
 */
import { describe, expect, it } from 'vitest';
import { alignedRun, commonRunByDefinition, compositeRun, maxCommonVector } from '../../src/cute/common.js';
import { rightInverse } from '../../src/cute/inverse.js';
import { randInt, showL, type BL } from '../helpers/brute.js';
import { nestRandom, randomLayout } from '../helpers/arbitraries.js';
import { forSeeds, lib } from './_seeds.js';
import { maxCommonVectorSpec } from './_spec.js';

/** A random compact layout over the shapes s: column-major strides of a random order, randomly nested. */
function compactOver(rng: () => number, s: readonly number[]): BL {
  const order = s.map((_, i) => i).sort(() => rng() - 0.5);
  const d = new Array<number>(s.length).fill(0);
  let p = 1;
  for (const i of order) {
    d[i] = p;
    p *= s[i]!;
  }
  return nestRandom(rng, s, d);
}

const shapes = (rng: () => number): number[] => Array.from({ length: randInt(rng, 1, 4) }, () => randInt(rng, 1, 6));
const anyLayout = (rng: () => number): BL => randomLayout(rng, { maxLen: 4, maxShape: 6, maxStride: 12 });

/** B, and an A equal to it, compact over the same shapes, compact over others, or random */
function pair(rng: () => number): { a: BL; b: BL } {
  const s = shapes(rng);
  const b = rng() < 0.7 ? compactOver(rng, s) : anyLayout(rng);
  const k = randInt(rng, 0, 3);
  const a = k === 0 ? b : k === 1 ? compactOver(rng, s) : k === 2 ? compactOver(rng, shapes(rng)) : anyLayout(rng);
  return { a, b };
}

describe('max_common_vector: the accelerators equal the definition', () => {
  it('on random pairs: decided answers equal the definition, undecided prefixes lie within it', () => {
    const decided = { aligned: 0, composite: 0 };
    const undecided = { aligned: 0, composite: 0 };
    forSeeds(1500, (rng) => {
      const { a, b } = pair(rng);
      const tag = `A = ${showL(a)}, B = ${showL(b)}`;
      const want = maxCommonVectorSpec(a, b);
      const r = rightInverse(lib(b));
      expect(commonRunByDefinition(lib(a), r), `definition: ${tag}`).toBe(want);
      expect(maxCommonVector(lib(a), lib(b)), tag).toBe(want);
      for (const [name, run] of [
        ['aligned', alignedRun(lib(a), r)],
        ['composite', compositeRun(lib(a), r)],
      ] as const) {
        if (run > 0) {
          decided[name]++;
          expect(run, `${name}Run: ${tag}`).toBe(want);
        } else {
          undecided[name]++;
          expect(-run, `${name}Run's verified prefix: ${tag}`).toBeGreaterThanOrEqual(1);
          expect(-run, `${name}Run's verified prefix: ${tag}`).toBeLessThanOrEqual(want);
          // the definition, started at the verified prefix, still finds N
          expect(commonRunByDefinition(lib(a), r, -run), `definition from ${name}Run's prefix: ${tag}`).toBe(want);
        }
      }
    });
    for (const name of ['aligned', 'composite'] as const) {
      expect(decided[name], `${name}Run decides some pairs`).toBeGreaterThan(50);
      expect(undecided[name], `${name}Run leaves some pairs to the definition`).toBeGreaterThan(20);
    }
  });

  it('the definition refuses, as overflow, what it cannot decide within its limit', () => {
    // A = B = 64:1: Φ_A∘Φ_R is the identity on all 64 points; 3 evaluations from 1 do not reach the end
    expect(() => commonRunByDefinition(lib({ shape: 64, stride: 1 }), rightInverse(lib({ shape: 64, stride: 1 })), 1, 3)).toThrow(
      expect.objectContaining({ kind: 'overflow' }),
    );
  });
});
