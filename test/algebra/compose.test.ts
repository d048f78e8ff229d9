/**
 * Composition (src/algebra/compose.ts): the paths of its existence argument on inputs that
 * are large or whose witnesses are far apart, against the brute force of test/helpers/brute.ts
 * (pointwise at sampled points where the sizes are beyond exhaustive search, exhaustively on
 * small analogues). Outcomes are asserted, never wall time; the large ones run under a
 * deadline so that a regression answers `timeout` instead of hanging the suite.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compose } from '../../src/algebra/compose.js';
import { withDeadline } from '../../src/algebra/deadline.js';
import { LayoutError } from '../../src/algebra/errors.js';
import type { Layout } from '../../src/algebra/layout.js';
import { formatLayout, parseLayout } from '../../src/algebra/notation.js';
import {
  checkComposite,
  cosizeB,
  divideB,
  flatB,
  mulberry32,
  parseL,
  phiB,
  pick,
  productB,
  randInt,
  searchComposite,
  showL,
  sizeB,
  type BL,
} from '../helpers/brute.js';
import { ok, op } from './_run.js';
import { runs, seededRuns } from '../helpers/seeds.js';

const forSeeds = seededRuns(0x5eed2027);

/** compose under a generous deadline: the answer, or the error's kind and message. */
function composeOutcome(b: string, a: string): { c: Layout } | { kind: string; message: string } {
  try {
    return { c: withDeadline(20_000, () => compose(parseLayout(b), parseLayout(a))) };
  } catch (e) {
    if (e instanceof LayoutError) return { kind: e.kind, message: e.message };
    throw e;
  }
}

/** Additivity at x by brute force: Φ_B(Φ_A(x)) against Σ_i Φ_B(x_i·d_i) (docs/semantics.md §5). */
function additiveAtB(b: BL, a: BL, x: number): boolean {
  const { s, d } = flatB(a);
  let r = x;
  let sum = 0;
  for (let i = 0; i < s.length; i++) {
    sum += phiB(b, (r % s[i]!) * d[i]!);
    r = Math.floor(r / s[i]!);
  }
  return sum === phiB(b, phiB(a, x));
}

/** The x an additivity failure names. */
const witness = (message: string): number => {
  const m = /x = (\d+)/.exec(message);
  if (!m) throw new Error(`no x in: ${message}`);
  return Number(m[1]);
};

const flatText = (s: readonly number[], d: readonly number[]): string => `(${s.join(',')}):(${d.join(',')})`;

describe('composition: the reproducers of issue 9', () => {
  it('52 odd strides after 27 powers of two with a repeated 2^25: not-composable at x = 1 + 2^26', () => {
    // hand: entries 1 and 27 of A both put a 1 in bit 25, so Φ_A(1 + 2^26) = 2^26 carries into
    // bit 26: Φ_B = 53, while f_1(1) + f_27(1) = 51 + 51 = 102
    const b = flatText(
      new Array(52).fill(2),
      Array.from({ length: 52 }, (_, i) => 2 * i + 1),
    );
    const powers = Array.from({ length: 26 }, (_, i) => 2 ** (25 + i));
    const a = flatText(new Array(27).fill(2), [...powers, 2 ** 25]);
    const r = composeOutcome(b, a);
    expect('kind' in r && r.kind, JSON.stringify(r)).toBe('not-composable');
    if (!('kind' in r)) return;
    const x = witness(r.message);
    expect(x).toBe(1 + 2 ** 26);
    expect(additiveAtB(parseL(b), parseL(a), x)).toBe(false);
    // with A's entries reordered the failure is the same pair, found as fast
    const r2 = composeOutcome(b, flatText(new Array(27).fill(2), [2 ** 25, ...powers]));
    expect('kind' in r2 && r2.kind).toBe('not-composable');
    if ('kind' in r2) expect(additiveAtB(parseL(b), parseL(flatText(new Array(27).fill(2), [2 ** 25, ...powers])), witness(r2.message))).toBe(false);
  });

  it('(2,2^30):(1,5) ∘ 2^25:3 = (2,2^24):(6,15), exact, not overflow', () => {
    // hand: 3t for t = 2u + r has digit 0 = r and digit 1 = 3u + r, so Φ_B(3t) = 6r + 15u
    expect(ok('compose', '(2,1073741824):(1,5)', '33554432:3')).toBe('(2,16777216):(6,15)');
    const b = parseL('(2,1073741824):(1,5)');
    const c = parseL('(2,16777216):(6,15)');
    const rng = mulberry32(9);
    for (let k = 0; k < 2000; k++) {
      const t = k < 8 ? [0, 1, 2, 3, 33554431, 33554430, 16777216, 16777215][k]! : randInt(rng, 0, 33554431);
      expect(phiB(c, t), `t = ${t}`).toBe(phiB(b, 3 * t));
    }
    // the same argument at a size the brute force searches exhaustively
    const small = searchComposite(parseL('(2,1024):(1,5)'), parseL('32:3'));
    expect(small.exists && showL(small.c)).toBe('(2,16):(6,15)');
    expect(ok('compose', '(2,1024):(1,5)', '32:3')).toBe('(2,16):(6,15)');
  });

  it('a large entry above the carries is decided without enumerating it', () => {
    // hand: digit 0 carries (1 + 1) and so does digit 1 (1 + carry 1); digit 2 receives at most
    // 1 beside 2^26 − 1 < 2^29, so the entry 2^26:4 (↦ 5t) only adds: (2,2,2^26):(1,4,5)
    expect(ok('compose', '(2,2,536870912):(1,3,5)', '(2,2,67108864):(1,3,4)')).toBe('(2,2,67108864):(1,4,5)');
    const small = searchComposite(parseL('(2,2,64):(1,3,5)'), parseL('(2,2,16):(1,3,4)'));
    expect(small.exists && showL(small.c)).toBe('(2,2,16):(1,4,5)');
  });

  it('division and product run on the same composition (against their brute-force definitions)', () => {
    // comp(3:1, 9213) = 3071:3 composed with B, whose entry 1024:3 becomes 1024:9
    expect(ok('logical_product', '3:1', '(2,1024):(1,3)')).toBe('(3,(2,1024)):(1,(3,9))');
    const cases: Array<[string, string]> = [
      ['3:1', '(2,64):(1,3)'],
      ['(2,2):(1,6)', '(3,5):(1,7)'],
      ['(2,2,2,2):(1,3,5,7)', '(2,2):(1,4)'],
      ['(2,2,2,2):(1,3,5,7)', '(2,2):(1,2)'],
      ['(3,64):(1,5)', '2:3'],
    ];
    for (const [x, y] of cases) {
      const want = productB(parseL(x), parseL(y));
      const got = op('logical_product', x, y);
      expect(got.ok ? got.result : null, `${x} ⊗ ${y}`).toBe(want === null ? null : showL(want));
      const wantD = divideB(parseL(x), parseL(y));
      const gotD = op('logical_divide', x, y);
      expect(gotD.ok ? gotD.result : null, `${x} ⊘ ${y}`).toBe(wantD === null ? null : showL(wantD));
    }
  });
});

/** B: k entries of shape 2 with random strides (odd, or anything); A: shape-2 entries with
 *  the strides 2^0..2^(m−1) shuffled, plus colliding entries (a repeated power, or a sum of
 *  two) at random places, often far from the entry they collide with. */
function farApartPair(rng: () => number): { b: BL; a: BL } {
  const m = randInt(rng, 9, 11);
  const strides = Array.from({ length: m }, (_, i) => 2 ** i);
  for (let i = strides.length - 1; i > 0; i--) {
    const j = randInt(rng, 0, i);
    [strides[i], strides[j]] = [strides[j]!, strides[i]!];
  }
  const extra = randInt(rng, 0, 2);
  for (let e = 0; e < extra; e++) {
    const p = 2 ** randInt(rng, 0, m - 1);
    const v = rng() < 0.6 ? p : p + 2 ** randInt(rng, 0, m - 1);
    const at = rng() < 0.5 ? strides.length : randInt(rng, 0, strides.length);
    strides.splice(at, 0, v);
  }
  const a: BL = { shape: strides.map(() => 2), stride: strides };
  const k = Math.ceil(Math.log2(cosizeB(a))) + randInt(rng, 0, 1);
  const odd = rng() < 0.5;
  const bStrides = Array.from({ length: k }, () => (odd ? 2 * randInt(rng, 0, 30) + 1 : randInt(rng, 0, 40)));
  return { b: { shape: bStrides.map(() => 2), stride: bStrides }, a };
}

/** Small B with shapes 2..6 and one or two entries of A with sizes up to 48 and arbitrary
 *  strides: the division, split and evaluation paths of (a). */
function entryPathPair(rng: () => number): { b: BL; a: BL } {
  const k = randInt(rng, 1, 4);
  const bs = Array.from({ length: k }, () => randInt(rng, 2, 6));
  const es = Array.from({ length: k }, () => randInt(rng, 0, 60));
  const b: BL = { shape: bs, stride: es };
  const sb = sizeB(b);
  for (;;) {
    const n = randInt(rng, 1, 2);
    const s: number[] = [];
    const d: number[] = [];
    for (let i = 0; i < n; i++) {
      const si = pick(rng, [2, 3, 4, 6, 8, 9, 12, 16, 18, 24, 32, 48]);
      s.push(si);
      d.push(randInt(rng, 1, Math.max(1, Math.floor((sb - 1) / (si - 1)))));
    }
    const a: BL = { shape: s, stride: d };
    if (cosizeB(a) <= sb) return { b, a };
  }
}

/** compose agrees with the exhaustive search; a not-composable names a genuine witness. */
function agreesWithBrute(b: BL, a: BL): 'composable' | 'not' {
  const tag = `${showL(b)} ∘ ${showL(a)}`;
  const search = searchComposite(b, a);
  let c: Layout | null = null;
  let error: LayoutError | null = null;
  try {
    c = compose(parseLayout(showL(b)), parseLayout(showL(a)));
  } catch (e) {
    if (!(e instanceof LayoutError)) throw e;
    error = e;
  }
  if (c) {
    expect(search.exists, `${tag} = ${formatLayout(c)} but the search finds none`).toBe(true);
    expect(checkComposite(b, a, parseL(formatLayout(c))), `${tag} = ${formatLayout(c)}`).toEqual({ ok: true });
    return 'composable';
  }
  expect(error?.kind, `${tag}: ${error?.message}`).toBe('not-composable');
  expect(search.exists, `${tag}: not-composable but ${search.exists ? showL(search.c) : ''} qualifies`).toBe(false);
  if (/x = /.test(error!.message)) expect(additiveAtB(b, a, witness(error!.message)), `${tag}: ${error!.message}`).toBe(false);
  return 'not';
}

/**
 * B: g blocks, block k a small random layout of shape-2 entries (strides below 8, so that its
 * values stay below 8) scaled by 8^k; A: per block one to three entries, sums of the block's
 * strides (collisions whose carries may cancel or not) scaled alike, the blocks shuffled.
 * Carries stay inside the blocks: the composition decides them as independent groups.
 */
function blockPair(rng: () => number): { b: BL; a: BL } {
  const g = randInt(rng, 2, 4);
  const bs: number[] = [];
  const es: number[] = [];
  const as: number[] = [];
  const ds: number[] = [];
  for (let k = 0; k < g; k++) {
    const scale = 8 ** k;
    const block = [1, ...Array.from({ length: 2 }, () => randInt(rng, 1, 7))];
    for (const e of block) {
      bs.push(2);
      es.push(e * scale);
    }
    const n = randInt(rng, 1, 3);
    for (let i = 0; i < n; i++) {
      as.push(2);
      ds.push(pick(rng, [1, 2, 3, 4]) * scale);
    }
  }
  for (let i = as.length - 1; i > 0; i--) {
    const j = randInt(rng, 0, i);
    [ds[i], ds[j]] = [ds[j]!, ds[i]!];
  }
  return { b: { shape: bs, stride: es }, a: { shape: as, stride: ds } };
}

describe('composition: carries that cancel inside independent groups (issue 18 item 10)', () => {
  it('17 blocks of (2,2):(1,3)·8^k into (2,2,2):(1,3,5)·8^k (repro 11): the composite, checked against the definition', () => {
    const lines = readFileSync(join(__dirname, '..', 'fixtures', 'repro', '11-compose-cancelling-carries.jsonl'), 'utf8')
      .trim()
      .split('\n');
    for (const line of lines.slice(0, 2)) {
      const [bText, aText] = (JSON.parse(line) as { args: [string, string] }).args;
      const out = composeOutcome(bText, aText);
      expect('c' in out, JSON.stringify(out).slice(0, 200)).toBe(true);
      const c = (out as { c: Layout }).c;
      const b = parseL(bText);
      const a = parseL(aText);
      expect(JSON.stringify(c.shape)).toBe(JSON.stringify(a.shape));
      const n = sizeB(a);
      const rng = mulberry32(18);
      const xs = [0, n - 1, ...Array.from({ length: 34 }, (_, i) => 2 ** i).filter((x) => x < n), ...Array.from({ length: 5000 }, () => Math.floor(rng() * n))];
      for (const x of xs) expect(phiB(parseL(formatLayout(c)), x), `x = ${x}`).toBe(phiB(b, phiB(a, x)));
    }
  });

  it('blocks whose carries cancel or not agree with exhaustive search', () => {
    let yes = 0;
    let no = 0;
    forSeeds(300, (rng) => {
      const { b, a } = blockPair(rng);
      if (agreesWithBrute(b, a) === 'composable') yes++;
      else no++;
    });
    expect(yes).toBeGreaterThan(runs(300) * 0.1);
    expect(no).toBeGreaterThan(runs(300) * 0.1);
  });
});

describe('composition against brute force', () => {
  /** n seeded pairs checked against exhaustive search; both answers must occur (at least the
   *  given fractions of the runs) */
  function agreeOn(n: number, pair: (rng: () => number) => { b: BL; a: BL }, minYes: number, minNo: number): void {
    let yes = 0;
    let no = 0;
    forSeeds(n, (rng) => {
      const { b, a } = pair(rng);
      if (agreesWithBrute(b, a) === 'composable') yes++;
      else no++;
    });
    expect(yes, `composable ${yes}, not ${no}`).toBeGreaterThan(runs(n) * minYes);
    expect(no, `composable ${yes}, not ${no}`).toBeGreaterThan(runs(n) * minNo);
  }

  it('witnesses far apart: answers and the named x agree with exhaustive search', () => {
    agreeOn(80, farApartPair, 0.1, 0.2);
  });

  it('entries of every kind (divisible, split, evaluated) agree with exhaustive search', () => {
    agreeOn(500, entryPathPair, 0.1, 0.1);
  });
});
