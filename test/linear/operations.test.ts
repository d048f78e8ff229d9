/**
 * Triton's operations on linear layouts (src/linear/operations.ts) against the definition: every
 * layout is evaluated on every input by brute force (test/linear/_ll.ts), and each operation's
 * defining property is checked pointwise (docs/linear.md, "Operations").
 */
import { describe, expect, it } from 'vitest';
import { LayoutError } from '../../src/algebra/errors.js';
import {
  apply,
  compose,
  divideLeft,
  divideRight,
  equalLayouts,
  freeVariableMasks,
  invert,
  invertAndCompose,
  isInjective,
  isInvertible,
  isSurjective,
  pseudoinvert,
  sublayout,
} from '../../src/linear/operations.js';
import { product, supremum, type LinearLayout } from '../../src/linear/value.js';
import { seededRuns } from '../helpers/seeds.js';
import {
  flatValue,
  inBitsOf,
  int,
  layoutOfColumns,
  outBitsOf,
  pick,
  randomInvertible,
  randomLL,
  randomOutDims,
  randomSurjective,
  shuffle,
  split,
  table,
  unflattenIn,
  valueAt,
} from './_ll.js';
import { kindOf } from '../helpers/kind.js';

const forSeeds = seededRuns(0x11c0de);

/** The record input of a flattened one. */
const inputOf = (l: LinearLayout, x: number): Record<string, number> => {
  const cs = unflattenIn(x, l);
  return Object.fromEntries(l.inDims.map((d, k) => [d.name, cs[k]!]));
};

describe('the value and the predicates', () => {
  it('apply is the XOR of the bases of the set bits, and refuses inputs out of range or misnamed', () => {
    forSeeds(100, (rng) => {
      const l = randomLL(rng, 10, 12);
      for (let t = 0; t < 10 && inBitsOf(l) >= 0; t++) {
        const x = int(rng, 0, 2 ** inBitsOf(l) - 1);
        expect(apply(l, inputOf(l, x))).toEqual(valueAt(l, inputOf(l, x)));
      }
      if (l.inDims.length > 0) {
        const d = l.inDims[0]!;
        expect(kindOf(() => apply(l, { ...inputOf(l, 0), [d.name]: 2 ** d.bases.length }))).toBe('domain');
        expect(kindOf(() => apply(l, { ...inputOf(l, 0), [d.name]: -1 }))).toBe('domain');
        const { [d.name]: _, ...rest } = inputOf(l, 0);
        expect(kindOf(() => apply(l, rest))).toBe('domain');
      }
      expect(kindOf(() => apply(l, { ...inputOf(l, 0), 'no such dim': 0 }))).toBe('domain');
    });
  });

  it('injective, surjective, invertible agree with the enumerated images', () => {
    forSeeds(200, (rng) => {
      const l = rng() < 0.3 ? randomInvertible(rng, int(rng, 0, 10)) : randomLL(rng, 10, 10);
      const images = new Set(table(l));
      const inj = images.size === 2 ** inBitsOf(l);
      const surj = images.size === 2 ** outBitsOf(l);
      expect(isInjective(l)).toBe(inj);
      expect(isSurjective(l)).toBe(surj);
      expect(isInvertible(l)).toBe(inj && surj);
    });
  });

  it('free-variable masks: bit i of d is set exactly when its image is in the span of the images before it', () => {
    forSeeds(200, (rng) => {
      const l = randomLL(rng, 10, 8);
      const images = l.inDims.flatMap((d) => d.bases.map((_, i) => flatValue(l, flatIndex(l, d.name, i))));
      const masks = freeVariableMasks(l);
      let c = 0;
      for (const d of l.inDims) {
        let expected = 0;
        d.bases.forEach((_, i) => {
          const before = new Set<number>();
          for (let s = 0; s < 2 ** c; s++) before.add(images.slice(0, c).reduce((acc, v, k) => ((s >> k) & 1 ? acc ^ v : acc), 0));
          if (before.has(images[c]!)) expected |= 1 << i;
          c++;
        });
        expect(masks[d.name]).toBe(expected);
      }
      expect(Object.keys(masks)).toEqual(l.inDims.map((d) => d.name));
    });
  });
});

/** The flattened input of in-bit i of in-dim `name`. */
function flatIndex(l: LinearLayout, name: string, i: number): number {
  let s = 0;
  for (const d of l.inDims) {
    if (d.name === name) return 2 ** (s + i);
    s += d.bases.length;
  }
  throw new Error(name);
}

describe('compose', () => {
  it('L.compose(O) is O∘L on every input', () => {
    forSeeds(200, (rng) => {
      const l = randomLL(rng, 10, 8);
      // O's in-dims are L's out-dims (any order), each as large or larger
      const ins = shuffle(rng, l.outDims).map((o) => ({ name: o.name, size: o.size * (rng() < 0.2 ? 2 : 1) }));
      const oIn = ins.reduce((s, o) => s + Math.log2(o.size), 0);
      const outs = randomOutDims(rng, int(rng, 0, 8));
      const oBits = outs.reduce((s, o) => s + Math.log2(o.size), 0);
      const o = layoutOfColumns(
        Array.from({ length: oIn }, () => int(rng, 0, 2 ** oBits - 1)),
        ins.map((x) => x.name),
        ins.map((x) => Math.log2(x.size)),
        outs,
      );
      const c = compose(l, o);
      expect(c.inDims.map((d) => d.name)).toEqual(l.inDims.map((d) => d.name));
      expect(c.outDims).toEqual(o.outDims);
      for (let x = 0; x < 2 ** inBitsOf(l); x++) {
        const mid = valueAt(l, inputOf(l, x));
        expect(valueAt(c, inputOf(l, x))).toEqual(valueAt(o, mid));
      }
    });
  });

  it('mismatched dims or a larger size are domain', () => {
    const l = { inDims: [{ name: 'x', bases: [[1], [2]] }], outDims: [{ name: 'o', size: 4 }] };
    const small = { inDims: [{ name: 'o', bases: [[1]] }], outDims: [{ name: 'p', size: 2 }] };
    const other = { inDims: [{ name: 'q', bases: [[1], [2]] }], outDims: [{ name: 'p', size: 4 }] };
    expect(kindOf(() => compose(l, small))).toBe('domain');
    expect(kindOf(() => compose(l, other))).toBe('domain');
  });
});

describe('product', () => {
  it('supremum keeps both orders where it can, and never fails', () => {
    expect(supremum(['a', 'b'], ['a', 'c'])).toEqual(['a', 'b', 'c']);
    expect(supremum(['a', 'b'], ['b', 'c'])).toEqual(['a', 'b', 'c']);
    expect(supremum(['a', 'b'], ['b', 'a'])).toEqual(['a', 'b']);
    forSeeds(100, (rng) => {
      const names = ['p', 'q', 'r', 's', 't'];
      const x = shuffle(rng, names).slice(0, int(rng, 0, 5));
      const y = shuffle(rng, names).slice(0, int(rng, 0, 5));
      const s = supremum(x, y);
      expect(new Set(s)).toEqual(new Set([...x, ...y]));
      expect(s.length).toBe(new Set([...x, ...y]).size);
    });
  });

  it('I * O: the low bits of each in-dim run I, the high bits O, O scaled above I on shared out-dims', () => {
    forSeeds(200, (rng) => {
      const a = randomLL(rng, 6, 6);
      // a third of the time O has one in-dim and one out-dim (as identity1D: the product's one-dim path), named as
      // one of I's or not
      const one = (names: readonly string[], fresh: string): string[] => [rng() < 0.6 && names.length > 0 ? pick(rng, names) : fresh];
      const b =
        rng() < 0.3
          ? randomLL(rng, 4, 4, {
              inNames: one(
                a.inDims.map((d) => d.name),
                'new-in',
              ),
              outNames: one(
                a.outDims.map((o) => o.name),
                'new-out',
              ),
            })
          : randomLL(rng, 6, 6, rng() < 0.5 ? { outNames: a.outDims.map((o) => o.name) } : {});
      const p = product(a, b);
      expect(p.inDims.map((d) => d.name)).toEqual(
        supremum(
          a.inDims.map((d) => d.name),
          b.inDims.map((d) => d.name),
        ),
      );
      expect(p.outDims.map((o) => o.name)).toEqual(
        supremum(
          a.outDims.map((o) => o.name),
          b.outDims.map((o) => o.name),
        ),
      );
      const sizeIn = (l: LinearLayout, n: string): number => 2 ** (l.inDims.find((d) => d.name === n)?.bases.length ?? 0);
      const sizeOut = (l: LinearLayout, n: string): number => l.outDims.find((o) => o.name === n)?.size ?? 1;
      for (let x = 0; x < 2 ** inBitsOf(p); x++) {
        const input = inputOf(p, x);
        const lo = Object.fromEntries(a.inDims.map((d) => [d.name, (input[d.name] ?? 0) % sizeIn(a, d.name)]));
        const hi = Object.fromEntries(b.inDims.map((d) => [d.name, Math.floor((input[d.name] ?? 0) / sizeIn(a, d.name))]));
        const va = valueAt(a, lo);
        const vb = valueAt(b, hi);
        const expected = Object.fromEntries(p.outDims.map((o) => [o.name, (va[o.name] ?? 0) + sizeOut(a, o.name) * (vb[o.name] ?? 0)]));
        expect(valueAt(p, input)).toEqual(expected);
      }
    });
  });

  it('beyond the limits is overflow', () => {
    const big = { inDims: [{ name: 'x', bases: Array.from({ length: 20 }, (_, i) => [2 ** i]) }], outDims: [{ name: 'o', size: 2 ** 20 }] };
    expect(kindOf(() => product(big, big))).toBe('overflow');
  });
});

describe('invertAndCompose, pseudoinvert, invert', () => {
  it('A.invertAndCompose(B) = C with B(C(x)) = A(x), the smallest solution for every in-bit outside the identity dims', () => {
    forSeeds(200, (rng) => {
      const outs = randomOutDims(rng, int(rng, 0, 7));
      const b = randomSurjective(rng, outs, int(rng, 0, 3));
      // A: into the same out-dims (any order), sometimes sharing an in-dim with B's bases
      const aOuts = shuffle(rng, outs).map((o) => ({ name: o.name, size: rng() < 0.15 && o.size > 1 ? o.size / 2 : o.size }));
      const aBits = aOuts.reduce((s, o) => s + Math.log2(o.size), 0);
      const names = pick(rng, [['register', 'lane'], ['a', 'b'], b.inDims.map((d) => d.name)]);
      const nA = int(rng, 0, 6);
      let a = layoutOfColumns(
        Array.from({ length: nA }, () => int(rng, 0, 2 ** aBits - 1)),
        names,
        split(rng, nA, names.length),
        aOuts,
      );
      if (rng() < 0.4 && b.inDims.length > 0) {
        const d = pick(rng, b.inDims);
        const order = aOuts.map((o) => outs.findIndex((x) => x.name === o.name));
        const moved = d.bases.map((v) => order.map((j) => v[j]!));
        if (moved.every((v) => v.every((x, j) => x < aOuts[j]!.size))) {
          a = { inDims: [...a.inDims.filter((x) => x.name !== d.name), { name: d.name, bases: moved }], outDims: a.outDims };
        }
      }
      let c: LinearLayout;
      try {
        c = invertAndCompose(a, b);
      } catch (e) {
        expect(e).toBeInstanceOf(LayoutError);
        expect((e as LayoutError).kind).toBe('domain');
        return;
      }
      expect(c.inDims.map((d) => d.name)).toEqual(a.inDims.map((d) => d.name));
      expect(c.outDims).toEqual(b.inDims.map((d) => ({ name: d.name, size: 2 ** d.bases.length })));
      for (let x = 0; x < 2 ** inBitsOf(a); x++) {
        const input = inputOf(a, x);
        const cx = valueAt(c, input);
        expect(valueAt(b, cx)).toEqual(Object.fromEntries(b.outDims.map((o) => [o.name, valueAt(a, input)[o.name]!])));
      }
      // the identity dims (in both, with the same bases read in B's out-dim order) map to themselves;
      // every other in-bit of A to the smallest solution over B's other in-dims
      const isIdentity = (name: string): boolean => {
        const ad = a.inDims.find((x) => x.name === name);
        const bd = b.inDims.find((x) => x.name === name);
        if (!ad || !bd || ad.bases.length !== bd.bases.length) return false;
        return ad.bases.every((v, i) => b.outDims.every((o, j) => v[a.outDims.findIndex((x) => x.name === o.name)] === bd.bases[i]![j]));
      };
      const rest = b.inDims.filter((d) => !isIdentity(d.name));
      const bRest: LinearLayout = { inDims: rest, outDims: b.outDims };
      const images = table(bRest);
      for (const d of a.inDims) {
        const got = c.inDims.find((x) => x.name === d.name)!.bases;
        if (isIdentity(d.name)) {
          got.forEach((v, i) => expect(v).toEqual(b.inDims.map((x) => (x.name === d.name ? 2 ** i : 0))));
          continue;
        }
        d.bases.forEach((_, i) => {
          const target = valueAt(a, { ...inputOf(a, 0), [d.name]: 2 ** i });
          const want = images.indexOf(
            encode(
              b,
              b.outDims.map((o) => target[o.name]!),
            ),
          );
          expect(
            encodeIn(
              bRest,
              rest.map((r) => got[i]![b.inDims.indexOf(r)]!),
            ),
          ).toBe(want);
          b.inDims.forEach((x, j) => {
            if (isIdentity(x.name)) expect(got[i]![j]).toBe(0);
          });
        });
      }
    });
  });

  it('its domain errors: different out-dims, a smaller second layout, one side without in-dims, an image outside', () => {
    const o = (n: string, s: number) => ({ name: n, size: s });
    const x1 = { inDims: [{ name: 'x', bases: [[1]] }], outDims: [o('o', 2)] };
    expect(kindOf(() => invertAndCompose(x1, { inDims: [{ name: 'y', bases: [[1]] }], outDims: [o('p', 2)] }))).toBe('domain');
    expect(kindOf(() => invertAndCompose({ inDims: [{ name: 'x', bases: [[1], [2]] }], outDims: [o('o', 4)] }, x1))).toBe('domain');
    expect(
      kindOf(() =>
        invertAndCompose(x1, {
          inDims: [
            { name: 'x', bases: [[1]] },
            { name: 'y', bases: [[0]] },
          ],
          outDims: [o('o', 2)],
        }),
      ),
    ).toBe('domain');
    expect(
      kindOf(() =>
        invertAndCompose(
          { inDims: [{ name: 'y', bases: [[1], [2]] }], outDims: [o('o', 4)] },
          { inDims: [{ name: 'x', bases: [[1], [1]] }], outDims: [o('o', 4)] },
        ),
      ),
    ).toBe('domain');
    // both sides reduced to nothing: the identity on the shared dim
    expect(invertAndCompose(x1, x1)).toEqual({ inDims: [{ name: 'x', bases: [[1]] }], outDims: [o('x', 2)] });
  });

  it('pseudoinvert of a surjective layout without identity dims maps every out to its smallest input', () => {
    forSeeds(200, (rng) => {
      const outs = randomOutDims(rng, int(rng, 0, 7), pick(rng, [undefined, ['o'], ['p', 'q']]));
      const l = randomSurjective(
        rng,
        outs,
        int(rng, 0, 4),
        pick(rng, [
          ['a', 'b'],
          ['register', 'lane', 'warp'],
        ]),
      );
      if (outs.length === 0) {
        // the identity on no out-dims has no in-dims, L has some: Triton aborts
        expect(kindOf(() => pseudoinvert(l))).toBe('domain');
        return;
      }
      const p = pseudoinvert(l);
      const t = table(l);
      for (let y = 0; y < 2 ** outBitsOf(l); y++) {
        const got = valueAt(p, Object.fromEntries(unflattenOutRecord(l, y)));
        const flat = encodeIn(
          l,
          l.inDims.map((d) => got[d.name]!),
        );
        expect(flat).toBe(t.indexOf(y));
      }
    });
    const notSurjective = { inDims: [{ name: 'x', bases: [[1], [1]] }], outDims: [{ name: 'o', size: 4 }] };
    expect(kindOf(() => pseudoinvert(notSurjective))).toBe('domain');
    expect(kindOf(() => pseudoinvert({ inDims: [{ name: 'x', bases: [] }], outDims: [] }))).toBe('domain');
  });

  it('invert: L(inv(y)) = y and inv(L(x)) = x, also where Triton aborts (no out-dims, identity dims)', () => {
    forSeeds(200, (rng) => {
      const l = randomInvertible(rng, int(rng, 0, 10));
      const inv = invert(l);
      expect(inv.inDims.map((d) => d.name)).toEqual(l.outDims.map((o) => o.name));
      expect(inv.outDims).toEqual(l.inDims.map((d) => ({ name: d.name, size: 2 ** d.bases.length })));
      const t = table(l);
      for (let x = 0; x < t.length; x++) {
        const y = t[x]!;
        expect(
          encodeIn(
            l,
            l.inDims.map((d) => valueAt(inv, Object.fromEntries(unflattenOutRecord(l, y)))[d.name]!),
          ),
        ).toBe(x);
      }
    });
    expect(invert({ inDims: [{ name: 'x', bases: [] }], outDims: [] })).toEqual({ inDims: [], outDims: [{ name: 'x', size: 1 }] });
    const withIdentity = {
      inDims: [
        { name: 'o', bases: [[1], [2]] },
        { name: 'x', bases: [] },
      ],
      outDims: [{ name: 'o', size: 4 }],
    };
    expect(invert(withIdentity)).toEqual({
      inDims: [
        {
          name: 'o',
          bases: [
            [1, 0],
            [2, 0],
          ],
        },
      ],
      outDims: [
        { name: 'o', size: 4 },
        { name: 'x', size: 1 },
      ],
    });
    expect(kindOf(() => invert({ inDims: [{ name: 'x', bases: [[1], [1]] }], outDims: [{ name: 'o', size: 4 }] }))).toBe('domain');
  });
});

/** out-dim values of a flattened out value of l, as record entries */
function unflattenOutRecord(l: LinearLayout, y: number): [string, number][] {
  let v = y;
  return l.outDims.map((o) => {
    const r = v % o.size;
    v = Math.floor(v / o.size);
    return [o.name, r];
  });
}
/** flattened out value of per-out-dim values */
function encode(l: LinearLayout, vs: readonly number[]): number {
  let x = 0;
  let m = 1;
  l.outDims.forEach((o, j) => {
    x += vs[j]! * m;
    m *= o.size;
  });
  return x;
}
/** flattened in value of per-in-dim coordinates */
function encodeIn(l: LinearLayout, xs: readonly number[]): number {
  let x = 0;
  let m = 1;
  l.inDims.forEach((d, k) => {
    x += xs[k]! * m;
    m *= 2 ** d.bases.length;
  });
  return x;
}

describe('divideLeft, divideRight, sublayout', () => {
  it('divideLeft(B * C, B) and divideRight(C * B, B) give back a C whose product is the dividend', () => {
    forSeeds(200, (rng) => {
      const names = pick(rng, [['register', 'lane'], ['a']]);
      const outNames = pick(rng, [['dim0'], ['dim0', 'dim1']]);
      const b = randomLL(rng, 4, 4, { inNames: names, outNames });
      const c = randomLL(rng, 4, 4, { inNames: names, outNames });
      const left = product(b, c);
      const dl = divideLeft(left, b);
      expect(dl).not.toBeNull();
      expect(equalLayouts(product(b, dl!), left)).toBe(true);
      expect(dl).toEqual(c);
      const right = product(c, b);
      const dr = divideRight(right, b);
      expect(dr).not.toBeNull();
      expect(equalLayouts(product(dr!, b), right)).toBe(true);
      expect(dr).toEqual(c);
    });
  });

  it('an answer is always exact, and null where no C exists', () => {
    forSeeds(200, (rng) => {
      const a = randomLL(rng, 6, 5, { inNames: ['register', 'lane'], outNames: ['dim0', 'dim1'] });
      const b = randomLL(rng, 3, 3, { inNames: ['register', 'lane'], outNames: ['dim0', 'dim1'] });
      const dl = divideLeft(a, b);
      if (dl !== null) expect(equalLayouts(product(b, dl), a)).toBe(true);
      const dr = divideRight(a, b);
      if (dr !== null) expect(equalLayouts(product(dr, b), a)).toBe(true);
    });
    const a = { inDims: [{ name: 'in', bases: [[2], [1], [4]] }], outDims: [{ name: 'out', size: 8 }] };
    const b = { inDims: [{ name: 'in', bases: [[1], [2]] }], outDims: [{ name: 'out', size: 4 }] };
    expect(divideLeft(a, b)).toBeNull();
    expect(divideLeft(b, { inDims: [{ name: 'other', bases: [] }], outDims: [] })).toBeNull();
  });

  it('sublayout keeps the named dims in the layout order; unknown or repeated names are domain', () => {
    forSeeds(100, (rng) => {
      const l = randomLL(rng, 8, 8);
      const ins = shuffle(
        rng,
        l.inDims.map((d) => d.name),
      ).slice(0, int(rng, 0, l.inDims.length));
      const outs = shuffle(
        rng,
        l.outDims.map((o) => o.name),
      ).slice(0, int(rng, 0, l.outDims.length));
      const s = sublayout(l, ins, outs);
      expect(s.inDims.map((d) => d.name)).toEqual(l.inDims.map((d) => d.name).filter((n) => ins.includes(n)));
      expect(s.outDims).toEqual(l.outDims.filter((o) => outs.includes(o.name)));
      for (let x = 0; x < 2 ** inBitsOf(s); x++) {
        const input = inputOf(s, x);
        const full = valueAt(l, input);
        expect(valueAt(s, input)).toEqual(Object.fromEntries(s.outDims.map((o) => [o.name, full[o.name]!])));
      }
    });
    const l = { inDims: [{ name: 'x', bases: [[1]] }], outDims: [{ name: 'o', size: 2 }] };
    expect(kindOf(() => sublayout(l, ['y'], []))).toBe('domain');
    expect(kindOf(() => sublayout(l, ['x', 'x'], []))).toBe('domain');
    expect(kindOf(() => sublayout(l, [], ['p']))).toBe('domain');
  });
});
