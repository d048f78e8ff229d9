/**
 * Test-side helpers for CuTe's vocabulary (docs/semantics.md §8): tilers as plain data with their text,
 * a brute-force by-mode application over test/helpers/brute.ts (exhaustive composites), and
 * evaluation at nested coordinates. Nothing here imports src/.
 */
import { phiB, pick, randInt, rankB, showL, showT, sizeB, type BL, type Tup } from '../helpers/brute.js';
import { seededRuns } from '../helpers/seeds.js';

/** A tiler as test data: a one-dimensional layout, a by-mode list, or `_`. */
export type BT = { layout: BL } | { items: BT[] } | '_';

/** Run `body` on `n` seeded generators; a failure names the seed (and body's messages). */
export const forSeeds = seededRuns(0x7113_2026);

/** mode_i(L), 1-based; a depth-0 layout is its own mode (docs/semantics.md §2). */
export function modeB(l: BL, i: number): BL {
  if (typeof l.shape === 'number') {
    if (i !== 1) throw new Error(`modeB: ${i} of depth-0 ${showL(l)}`);
    return l;
  }
  return { shape: l.shape[i - 1]!, stride: (l.stride as readonly Tup[])[i - 1]! };
}

export const rankOf = (l: BL): number => rankB(l.shape);
export const modesB = (l: BL): BL[] => Array.from({ length: rankB(l.shape) }, (_, i) => modeB(l, i + 1));
export const tupleB = (ms: readonly BL[]): BL => ({ shape: ms.map((m) => m.shape), stride: ms.map((m) => m.stride) });

/** Φ at a nested coordinate: an integer indexes its sub-layout colexicographically. */
export function evalAt(l: BL, c: Tup): number {
  if (typeof c === 'number') return phiB(l, c);
  if (typeof l.shape === 'number' || c.length !== l.shape.length) throw new Error(`evalAt: ${showT(c)} vs ${showL(l)}`);
  let s = 0;
  for (let i = 0; i < c.length; i++) s += evalAt(modeB(l, i + 1), c[i]!);
  return s;
}

/** The colexicographic digits of x over the sizes of the members of L (one for depth 0). */
export function digits(l: BL, x: number): number[] {
  const out: number[] = [];
  for (const m of modesB(l)) {
    const n = sizeB(m);
    out.push(x % n);
    x = Math.floor(x / n);
  }
  return out;
}

/** The text of a tiler (the forms docs/semantics.md §8.2 accepts, chosen at random where there is a choice). */
export function tilerText(t: BT, rng?: () => number): string {
  if (t === '_') return '_';
  if ('layout' in t) {
    const l = t.layout;
    // an integer N is N:1
    if (typeof l.shape === 'number' && l.stride === 1 && rng && rng() < 0.5) return String(l.shape);
    return showL(l);
  }
  const inner = t.items.map((u) => tilerText(u, rng));
  // a tuple of integers is the by-mode tiler of those integers (a shape tiler)
  const allInts = t.items.every((u) => u !== '_' && 'layout' in u && typeof u.layout.shape === 'number' && u.layout.stride === 1);
  if (allInts && t.items.length > 0 && rng && rng() < 0.5) return `(${inner.join(',')})`;
  return `<${inner.join(',')}>`;
}

/** CuTe's transform_layout by brute force: f per mode (recursively), `_` keeps a mode, modes
 *  beyond the tiler kept or dropped; null when some mode has no answer. */
export function byModeB(a: BL, t: BT, f: (a: BL, t: BL) => BL | null, keep: boolean): BL | null {
  if (t === '_') return a;
  if ('layout' in t) return f(a, t.layout);
  const r = rankB(a.shape);
  if (t.items.length > r) throw new Error('byModeB: too many modes');
  const out: BL[] = [];
  for (let i = 0; i < t.items.length; i++) {
    const m = byModeB(modeB(a, i + 1), t.items[i]!, f, keep);
    if (m === null) return null;
    out.push(m);
  }
  if (keep) for (let i = t.items.length; i < r; i++) out.push(modeB(a, i + 1));
  return tupleB(out);
}

/** A divisor of n, at random. */
function divisor(rng: () => number, n: number): number {
  const ds: number[] = [];
  for (let d = 1; d <= n; d++) if (n % d === 0) ds.push(d);
  return pick(rng, ds);
}

/** A random one-dimensional tile for a mode of size n: mostly layouts that divide it (d:1 with
 *  d | n, or a strided d:e), sometimes any small layout (which may fail to divide). */
export function randomTile(rng: () => number, n: number): BL {
  const u = rng();
  if (u < 0.5) return { shape: divisor(rng, n), stride: 1 };
  if (u < 0.75) {
    const d = divisor(rng, n);
    const e = divisor(rng, n / d);
    return { shape: d, stride: e };
  }
  if (u < 0.9) {
    const a = divisor(rng, n);
    const b = divisor(rng, n / a);
    return { shape: [a, b], stride: [1, a * divisor(rng, n / a / b)] };
  }
  return { shape: randInt(rng, 1, 4), stride: randInt(rng, 0, 3) };
}

/** A random tiler for layout A: a tile for the whole of A, `_`, or by mode (recursing into modes
 *  of rank ≥ 2 now and then), with at most rank(A) items. */
export function randomTiler(rng: () => number, a: BL, depth = 0): BT {
  const u = rng();
  if (depth > 0 && u < 0.15) return '_';
  if (u < (depth === 0 ? 0.2 : 0.45)) return { layout: randomTile(rng, sizeB(a)) };
  const r = rankB(a.shape);
  const k = randInt(rng, depth === 0 ? 1 : 1, r);
  const items: BT[] = [];
  for (let i = 0; i < k; i++) {
    const m = modeB(a, i + 1);
    if (rankB(m.shape) >= 2 && typeof m.shape !== 'number' && rng() < 0.25 && depth < 2) items.push(randomTiler(rng, m, depth + 1));
    else if (rng() < 0.12) items.push('_');
    else items.push({ layout: randomTile(rng, sizeB(m)) });
  }
  return { items };
}

/** A random layout of rank 1–3 whose modes are small compact or strided layouts (size ≤ ~256). */
export function randomTileable(rng: () => number, maxSize = 256): BL {
  const r = randInt(rng, 1, 3);
  const ms: BL[] = [];
  let size = 1;
  let stride = 1;
  for (let i = 0; i < r; i++) {
    const k = rng() < 0.3 ? 2 : 1;
    const sh: number[] = [];
    const st: number[] = [];
    for (let j = 0; j < k; j++) {
      const s = pick(rng, [1, 2, 2, 3, 4, 4, 6, 8]);
      if (size * s > maxSize) break;
      size *= s;
      sh.push(s);
      st.push(rng() < 0.1 ? 0 : stride * pick(rng, [1, 1, 1, 2]));
      stride *= s;
    }
    if (sh.length === 0) sh.push(1), st.push(0);
    ms.push(sh.length === 1 && rng() < 0.7 ? { shape: sh[0]!, stride: st[0]! } : { shape: sh, stride: st });
  }
  if (r === 1 && rng() < 0.5) return ms[0]!;
  return tupleB(ms);
}

/** CuTe's print of a layout or tiler text: every integer as a static `_N`. */
export const cutePrint = (text: string): string => text.replace(/\d+/g, (m) => `_${m}`);

/** pycute's print: 1-tuples with a trailing comma. */
export function pycutePrint(text: string): string {
  // a 1-tuple "(X)" where X has no top-level comma: add the comma
  let out = '';
  const stack: Array<{ start: number; commas: number }> = [];
  for (const ch of text) {
    if (ch === '(') stack.push({ start: out.length, commas: 0 });
    if (ch === ',' && stack.length) stack[stack.length - 1]!.commas++;
    if (ch === ')') {
      const top = stack.pop()!;
      if (top.commas === 0 && out.length > top.start + 1) out += ',';
    }
    out += ch;
  }
  return out;
}
