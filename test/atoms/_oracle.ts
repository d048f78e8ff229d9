/**
 * The oracle of the tiled-atom tests (docs/atoms.md, "Tiled MMA", "Tiled copy", "Partitions"): every
 * map computed pointwise from the definitions with the brute-force helpers (test/helpers/brute.ts);
 * the atoms' layouts are read as data (the registry; a copy atom at b bits from src/atoms/atom.ts, whose recast
 * data.test.ts checks), nothing else from src/.
 */
import { complementB, concatB, flatB, layoutsWithFunction, parseL, phiB, productN, sizeB, sizeT, type BL, type Tup } from '../helpers/brute.js';
import { mmaAtomData } from '../../src/atoms/registry.js';

/** The sizes of the top-level modes of a layout. */
export const modeSizes = (l: BL): number[] => (typeof l.shape === 'number' ? [l.shape] : l.shape.map((s: Tup) => sizeT(s)));
const modesB = (l: BL): BL[] => (typeof l.shape === 'number' ? [l] : l.shape.map((s, i) => ({ shape: s, stride: (l.stride as readonly Tup[])[i]! })));
const colex = (x: number, dims: readonly number[]): number[] =>
  dims.map((d) => {
    const c = x % d;
    x = Math.floor(x / d);
    return c;
  });
const TRIV: BL = { shape: 1, stride: 0 };

/** Φ_L as a function with L's entries flattened once (phiB's definition, faster for many points). */
export function fnB(l: BL): (x: number) => number {
  const s = flatB(l).s;
  const d = flatB(l).d;
  return (x) => {
    let off = 0;
    for (let i = 0; i < s.length; i++) {
      off += (x % s[i]!) * d[i]!;
      x = Math.floor(x / s[i]!);
    }
    return off;
  };
}

/** Whether some layout with top-level modes (T, V) has the function f(t, v) (each mode by exhaustive search, then additivity). */
export const isLayoutOnGuide = (f: (t: number, v: number) => number, T: number, V: number): boolean =>
  isLayoutOnModes((x) => f(x % T, Math.floor(x / T)), [T, V]);

/** Whether some layout with top-level modes of sizes `guide` has the function f (colex index x). */
export function isLayoutOnModes(f: (x: number) => number, guide: readonly number[]): boolean {
  const ms: BL[] = [];
  let base = 1;
  for (const n of guide) {
    const found = layoutsWithFunction(Array.from({ length: n }, (_, t) => f(t * base)));
    if (found.length === 0) return false;
    ms.push(found[0]!);
    base *= n;
  }
  for (let x = 0; x < base; x++) {
    const c = colex(x, guide);
    if (f(x) !== c.reduce((a, ci, i) => a + phiB(ms[i]!, ci), 0)) return false;
  }
  return true;
}

/** An MMA atom's layouts as brute layouts. */
export function mmaData(name: string): { thr: BL; mnk: readonly number[]; X: Record<'A' | 'B' | 'C', BL> } {
  const d = mmaAtomData(name)!;
  return { thr: parseL(d.thrID), mnk: d.shapeMNK, X: { A: parseL(d.A), B: parseL(d.B), C: parseL(d.C) } };
}

/** The §10.2 ingredients: V's function (tiled_product(thrID, L')), its dims, the tile and the permutations. */
export interface MmaSpec {
  name: string;
  L: BL;
  /** P_I as layouts, or null for `_` */
  P: (BL | null)[];
}

const OPS = { A: [0, 2], B: [1, 2], C: [0, 1] } as const;

/** thrLayoutVMNK's function: V(v + S·y) = thrID(v) + comp(thrID, N)(L'(y)) (the logical product's definition). */
export function vFunction(s: MmaSpec): { values: number[]; dims: number[] } {
  const a = mmaData(s.name);
  const lm = modesB(s.L);
  while (lm.length < 3) lm.push(TRIV);
  const l3 = concatB(...lm);
  const n = productN(a.thr, l3);
  const comp = complementB(a.thr, n)!;
  const S = sizeB(a.thr);
  const values: number[] = [];
  for (let y = 0; y < sizeB(l3); y++) for (let v = 0; v < S; v++) values.push(phiB(a.thr, v) + phiB(comp, phiB(l3, y)));
  return { values, dims: [S, ...lm.map(sizeB)] };
}

/** Thread t's coordinate (v, m, n, k) = colex(W⁻¹(t) mod threads) with W = (V, comp(V)), V given as a layout. */
export function threadCoords(vLayout: BL, dims: readonly number[]): number[][] {
  const w = concatB(vLayout, complementB(vLayout)!);
  const T = sizeB(w);
  const inv = new Array<number>(T);
  for (let x = 0; x < T; x++) inv[phiB(w, x)] = x;
  const threads = sizeB(vLayout);
  return inv.map((x) => colex(x % threads, dims));
}

/** The tile sizes t_I. */
export function tileOf(s: MmaSpec): number[] {
  const a = mmaData(s.name);
  const lm = modesB(s.L);
  while (lm.length < 3) lm.push(TRIV);
  return [0, 1, 2].map((i) => (s.P[i] ? sizeB(s.P[i]!) : a.mnk[i]! * sizeB(lm[i]!)));
}

/** x_I = a_I + atom_I·(c_I + size(L_I)·r_I) and the index Φ_{P_I}(x_I) + t_I·Φ_{P_J}(x_J) of operand X at (t, w). */
export function mmaTV(s: MmaSpec, coords: number[][], x: 'A' | 'B' | 'C'): { T: number; V: number; at: (t: number, w: number) => number } {
  const a = mmaData(s.name);
  const lm = modesB(s.L);
  while (lm.length < 3) lm.push(TRIV);
  const [I, J] = OPS[x];
  const tile = tileOf(s);
  const S = sizeB(a.thr);
  const VX = sizeB(a.X[x]) / S;
  const R = [I, J].map((i) => tile[i]! / (a.mnk[i]! * sizeB(lm[i]!)));
  const pf = s.P.map((p) => (p ? fnB(p) : null));
  const P = (i: number, y: number): number => (pf[i] ? pf[i]!(y) : y);
  const ax = fnB(a.X[x]);
  const at = (t: number, w: number): number => {
    const [f, rI, rJ] = colex(w, [VX, R[0]!, R[1]!]);
    const c = coords[t]!;
    const av = ax(c[0]! + S * f!);
    const aI = av % a.mnk[I]!;
    const aJ = Math.floor(av / a.mnk[I]!);
    const xI = aI + a.mnk[I]! * (c[1 + I]! + sizeB(lm[I]!) * rI!);
    const xJ = aJ + a.mnk[J]! * (c[1 + J]! + sizeB(lm[J]!) * rJ!);
    return P(I, xI) + tile[I]! * P(J, xJ);
  };
  return { T: coords.length, V: VX * R[0]! * R[1]!, at };
}

/** Element (f, r_I, r_J, e…) of partition_X over a tensor of mode sizes ns: T's coordinate (y_I, y_J, e…) as the identity index. */
export function mmaPartitionIndex(s: MmaSpec, coords: number[][], x: 'A' | 'B' | 'C', t: number, ns: readonly number[], el: number): number {
  const a = mmaData(s.name);
  const lm = modesB(s.L);
  while (lm.length < 3) lm.push(TRIV);
  const [I, J] = OPS[x];
  const tile = tileOf(s);
  const S = sizeB(a.thr);
  const VX = sizeB(a.X[x]) / S;
  const RI = ns[0]! / (a.mnk[I]! * sizeB(lm[I]!));
  const RJ = ns[1]! / (a.mnk[J]! * sizeB(lm[J]!));
  const core = VX * RI * RJ;
  const [f, rI, rJ] = colex(el % core, [VX, RI, RJ]);
  const e = Math.floor(el / core);
  const c = coords[t]!;
  const av = phiB(a.X[x], c[0]! + S * f!);
  const aI = av % a.mnk[I]!;
  const aJ = Math.floor(av / a.mnk[I]!);
  const y = (i: number, xi: number): number => (s.P[i] ? phiB(s.P[i]!, xi % tile[i]!) : xi % tile[i]!) + tile[i]! * Math.floor(xi / tile[i]!);
  const yI = y(I, aI + a.mnk[I]! * (c[1 + I]! + sizeB(lm[I]!) * rI!));
  const yJ = y(J, aJ + a.mnk[J]! * (c[1 + J]! + sizeB(lm[J]!) * rJ!));
  return yI + ns[0]! * yJ + ns[0]! * ns[1]! * e;
}

/** The tiler TV of make_tiled_copy(thr, val): c_i = v_i + size(val_i)·t_i, (t_i) = colex(thr⁻¹(t)), (v_i) = colex(val⁻¹(v)). */
export function copyTV(thr: BL, val: BL): { tiler: number[]; T: number; V: number; at: (t: number, v: number) => number } {
  const tm = modesB(thr);
  const vm = modesB(val);
  const r = Math.max(tm.length, vm.length);
  while (tm.length < r) tm.push(TRIV);
  while (vm.length < r) vm.push(TRIV);
  const ts = tm.map(sizeB);
  const vs = vm.map(sizeB);
  const tiler = ts.map((t, i) => t * vs[i]!);
  const invOf = (l: BL): number[] => {
    const inv: number[] = [];
    for (let x = 0; x < sizeB(l); x++) inv[phiB(l, x)] = x;
    return inv;
  };
  const ti = invOf(thr);
  const vi = invOf(val);
  const at = (t: number, v: number): number => {
    const tc = colex(ti[t]!, ts);
    const vc = colex(vi[v]!, vs);
    let idx = 0;
    let p = 1;
    for (let i = 0; i < r; i++) {
      idx += p * (vc[i]! + vs[i]! * tc[i]!);
      p *= tiler[i]!;
    }
    return idx;
  };
  return { tiler, T: sizeB(thr), V: sizeB(val), at };
}
