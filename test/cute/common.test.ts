/**
 * max_common_vector and max_common_layout (docs/semantics.md §8.5), against brute force of the definition
 * on random pairs, including pairs whose composite A∘right_inverse(B) does not exist.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { err, ok } from '../algebra/_run.js';
import { maxCommonLayout, maxCommonVector, EVAL_LIMIT } from '../../src/cute/common.js';
import { rightInverse } from '../../src/cute/inverse.js';
import type { LayoutError } from '../../src/algebra/errors.js';
import { isLayoutFunction, parseL, phiB, randInt, showL, sizeB, type BL } from '../helpers/brute.js';
import { nestRandom, randomLayout } from '../helpers/arbitraries.js';
import { forSeeds, lib } from './_seeds.js';
import { maxCommonVectorSpec } from './_spec.js';

/** A random compact layout over the given shapes: column-major strides of a random order. */
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

function randomShape(rng: () => number): number[] {
  const k = randInt(rng, 1, 4);
  const s: number[] = [];
  for (let i = 0; i < k; i++) s.push(randInt(rng, 1, 6));
  return s;
}

/** B, and an A related to it in one of several ways (equal, same shape, random, …). */
function pair(rng: () => number): { a: BL; b: BL } {
  const s = randomShape(rng);
  const b = rng() < 0.7 ? compactOver(rng, s) : randomLayout(rng, { maxLen: 4, maxShape: 6, maxStride: 12 });
  switch (randInt(rng, 0, 4)) {
    case 0:
      return { a: b, b };
    case 1:
      return { a: compactOver(rng, s), b };
    case 2: {
      // A agrees with B on a prefix, then departs (one stride of a compact A bumped)
      const a = compactOver(rng, s);
      return { a: { shape: a.shape, stride: bump(a.stride, rng) }, b };
    }
    case 3:
      return { a: randomLayout(rng, { maxLen: 4, maxShape: 6, maxStride: 12 }), b };
    default:
      return { a: compactOver(rng, randomShape(rng)), b };
  }
}

/** Add 1 to one random non-zero stride entry (keeps the structure). */
function bump(t: BL['stride'], rng: () => number): BL['stride'] {
  let done = false;
  const go = (u: BL['stride']): BL['stride'] => {
    if (typeof u === 'number') {
      if (!done && u > 1 && rng() < 0.5) {
        done = true;
        return u + 1;
      }
      return u;
    }
    return u.map(go);
  };
  return go(t);
}

describe('max_common_vector', () => {
  it('docs/semantics.md §8.5 examples', () => {
    expect(ok('max_common_vector', '(4,8):(1,4)', '(4,8):(1,4)')).toBe(32);
    expect(ok('max_common_vector', '(4,8):(1,4)', '(4,8):(8,1)')).toBe(1);
    expect(ok('max_common_vector', '(4,8):(1,4)', '(4,(2,4)):(1,(4,8))')).toBe(32);
    expect(ok('max_common_vector', '(8,4):(4,1)', '(8,4):(4,1)')).toBe(32);
    expect(ok('max_common_vector', '(4,8):(1,8)', '(4,8):(1,4)')).toBe(4);
  });

  it('where no composite A∘R exists, the definition still answers', () => {
    // Φ_A on 0..5 is 0,1,2,3,5,6: no layout function, so A∘(6:1) does not exist
    expect(ok('max_common_vector', '(4,4):(1,5)', '6:1')).toBe(4);
    // Φ_A is only defined below size(A): the run ends there (R = 8:1 reaches 4)
    expect(ok('max_common_vector', '4:1', '8:1')).toBe(4);
    expect(ok('max_common_vector', '(4,3):(1,4)', '16:1')).toBe(12);
  });

  it('equals the brute-force definition on random pairs', () => {
    const seen = new Set<number>();
    forSeeds(600, (rng) => {
      const { a, b } = pair(rng);
      const want = maxCommonVectorSpec(a, b);
      const got = maxCommonVector(lib(a), lib(b));
      seen.add(got);
      expect(got, `max_common_vector(${showL(a)}, ${showL(b)})`).toBe(want);
    });
    expect(seen.size).toBeGreaterThan(8);
  });

  it('decides by evaluation where neither the fast path nor a composite does; refuses with overflow beyond the bound', () => {
    // R = (3,2):(1,6): 3 does not divide A's first extent 4, and A∘R does not exist
    // (additivity fails at x = 8); Φ_A∘Φ_R is 0, 1, 2, then 5
    const a1 = lib({ shape: [4, [2, 3]], stride: [1, [3, 6]] });
    const b1 = lib({ shape: [[[3], [2], 2]], stride: [[[1], [7], 3]] });
    expect(maxCommonVector(a1, b1)).toBe(3);
    expect(maxCommonVectorSpec(a1 as BL, b1 as BL)).toBe(3);
    // R = 4:3 (no fast path: its stride is not 1), A∘R does not exist (Φ_A(3t) is 0, 1, 2, 0);
    // Φ_A∘Φ_R is evaluated at n = 1, 2, 3
    const a = lib({ shape: [[[3, 3], 4]], stride: [[[4, 1], 0]] });
    const b = lib({ shape: [3, 4], stride: [5, 1] });
    expect(maxCommonVector(a, b)).toBe(3);
    expect(maxCommonVectorSpec(a as BL, b as BL)).toBe(3);
    expect(maxCommonVector(a, b, 3)).toBe(3);
    let kind = '';
    try {
      maxCommonVector(a, b, 2);
    } catch (e) {
      kind = (e as LayoutError).kind;
    }
    expect(kind).toBe('overflow');
    expect(EVAL_LIMIT).toBe(2 ** 24);
    // a long identity run is decided without evaluation (fast path: r_1 = 3·2^24 > a_1 = 2^25,
    // so N = 2^25 at once)
    expect(maxCommonVector(lib({ shape: [2 ** 25, 4], stride: [1, 2 ** 25 + 1] }), lib({ shape: 3 * 2 ** 24, stride: 1 }))).toBe(2 ** 25);
  });
});

/** A random non-injective A: a compact layout with some strides zeroed or repeated, the first kept at 1 (so R's
 *  digits run into A's fast path). */
function nonInjective(rng: () => number): BL {
  const s = randomShape(rng).map((x) => x + 1);
  const d: number[] = [];
  let p = 1;
  for (const x of s) {
    d.push(p);
    p *= x;
  }
  for (let i = 1; i < d.length; i++) {
    const u = rng();
    if (u < 0.35) d[i] = 0;
    else if (u < 0.6) d[i] = d[randInt(rng, 0, i - 1)]!;
    else if (u < 0.75) d[i] = d[i]! + randInt(rng, 1, 3);
  }
  if (d.every((x, i) => i === 0 || x === 0 || d.indexOf(x) === i)) d[randInt(rng, 1, Math.max(1, d.length - 1))] = 0;
  return nestRandom(rng, s, d.length > 1 ? d : [1]);
}

/**
 * A pair that runs into the fast path and leaves it: R = right_inverse(B) a compact layout whose first entry r_1:1
 * splits A's first mode a_1:1 (r_1 | a_1), then a stride that jumps; A's other modes zero, repeated or arbitrary, so
 * that Φ_A at the jump may land back on the run.
 */
function fastPathPair(rng: () => number): { a: BL; b: BL } {
  const r0 = randInt(rng, 2, 3);
  const rs = [r0];
  for (let i = randInt(rng, 1, 3); i > 0; i--) rs.push(randInt(rng, 2, 4));
  const order = rs
    .map((_, i) => i)
    .slice(1)
    .sort(() => rng() - 0.5);
  const rd = new Array<number>(rs.length).fill(0);
  let q = 1;
  for (const i of [0, ...order]) {
    rd[i] = q;
    q *= rs[i]!;
  }
  const b = rightInverse(lib({ shape: rs, stride: rd })) as BL;
  const s = [r0 * randInt(rng, 1, 3)];
  for (let i = randInt(rng, 0, 2); i > 0; i--) s.push(randInt(rng, 2, 4));
  const d = [1];
  let p = s[0]!;
  for (let i = 1; i < s.length; i++) {
    d.push(rng() < 0.5 ? 0 : rng() < 0.5 ? p : randInt(rng, 1, p));
    p *= s[i]!;
  }
  return { a: nestRandom(rng, s, d), b };
}

describe('max_common_vector and max_common_layout fast paths on non-injective A (issue 18 item 3)', () => {
  it('the reproducer: A = (4,3):(1,0), B = (2,3,2):(1,4,2) (R = (2,2,3):(1,6,2)) has 4 by the definition', () => {
    const a: BL = { shape: [4, 3], stride: [1, 0] };
    const b: BL = { shape: [2, 3, 2], stride: [1, 4, 2] };
    expect(maxCommonVectorSpec(a, b)).toBe(4);
    expect(maxCommonVector(lib(a), lib(b))).toBe(maxCommonVectorSpec(a, b));
    const m = maxCommonLayout(lib(a), lib(b)) as BL;
    expect(sizeB(m)).toBe(4);
    for (let i = 0; i < 4; i++) expect([phiB(a, phiB(m, i)), phiB(b, phiB(m, i))]).toEqual([i, i]);
  });

  it('every max_common_vector of the reproducer file agrees with the definition', () => {
    const lines = readFileSync(join(__dirname, '..', 'fixtures', 'repro', '02-max-common-vector.jsonl'), 'utf8')
      .trim()
      .split('\n');
    let n = 0;
    for (const line of lines) {
      const { op, args } = JSON.parse(line) as { op: string; args: string[] };
      if (op !== 'max_common_vector') continue;
      const [a, b] = args.map((t) => parseL(t));
      expect(ok('max_common_vector', args[0]!, args[1]!), line).toBe(maxCommonVectorSpec(a!, b!));
      n++;
    }
    expect(n).toBe(4);
  });

  it('equals the brute-force definition on random non-injective A against compact and random B', () => {
    let differs = 0;
    forSeeds(1500, (rng) => {
      const { a, b } =
        rng() < 0.5
          ? fastPathPair(rng)
          : {
              a: nonInjective(rng),
              b:
                rng() < 0.75
                  ? compactOver(
                      rng,
                      randomShape(rng).map((x) => x + 1),
                    )
                  : randomLayout(rng, { maxLen: 4, maxShape: 6, maxStride: 12 }),
            };
      const want = maxCommonVectorSpec(a, b);
      const tag = `max_common_vector(${showL(a)}, ${showL(b)})`;
      expect(maxCommonVector(lib(a), lib(b)), tag).toBe(want);
      if (want > 1) differs++;
      const r = rightInverse(lib(b)) as BL;
      let m: BL;
      try {
        m = maxCommonLayout(lib(a), lib(b)) as BL;
      } catch (e) {
        expect((e as LayoutError).kind, tag).toBe('not-composable');
        return;
      }
      expect(sizeB(m), tag).toBe(want);
      for (let i = 0; i < want; i++) expect(phiB(m, i), `${tag} at ${i}`).toBe(phiB(r, i));
    });
    expect(differs).toBeGreaterThan(100);
  });
});

describe('max_common_layout', () => {
  it('docs/semantics.md §8.5 example', () => {
    expect(ok('max_common_layout', '(4,8):(1,4)', '(4,(2,4)):(1,(4,8))')).toBe('32:1');
    expect(ok('max_common_layout', '(4,8):(1,4)', '(4,8):(8,1)')).toBe('1:0');
    expect(ok('max_common_layout', '(8,4):(4,1)', '(8,4):(4,1)')).toBe('(4,8):(8,1)');
  });

  it('its points are where A and B both take the value n, n < max_common_vector (random pairs)', () => {
    forSeeds(400, (rng) => {
      const { a, b } = pair(rng);
      const n = maxCommonVectorSpec(a, b);
      const r = rightInverse(lib(b)) as BL;
      const tag = `max_common_layout(${showL(a)}, ${showL(b)})`;
      let m: BL;
      try {
        m = maxCommonLayout(lib(a), lib(b)) as BL;
      } catch (e) {
        // only where the first n points of R are no layout function (R∘n:1 does not exist)
        expect((e as LayoutError).kind, tag).toBe('not-composable');
        const pts = Array.from({ length: n }, (_, i) => phiB(r, i));
        expect(isLayoutFunction(pts), tag).toBe(false);
        return;
      }
      expect(sizeB(m), tag).toBe(n);
      for (let i = 0; i < n; i++) {
        const x = phiB(m, i);
        expect(x, `${tag} at ${i}`).toBe(phiB(r, i));
        expect(phiB(a, x), `${tag}: A at ${i}`).toBe(i);
        expect(phiB(b, x), `${tag}: B at ${i}`).toBe(i);
      }
    });
  });

  it('bad input', () => {
    expect(err('max_common_vector', '(4,8):(1,4)').kind).toBe('bad-request');
    expect(err('max_common_layout', '(4,8):(1,4)', '(4,8:(1,4)').kind).toBe('parse');
  });
});
