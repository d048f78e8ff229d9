/**
 * Tiled MMAs (docs/atoms.md, "Tiled MMA"; CuTe `make_tiled_mma`, `TiledMMA`, `ThrMMA` of
 * include/cute/atom/mma_atom.hpp): an MMA atom, an atom layout L (how many atoms tile M, N
 * and K, and how they are numbered) and a permutation P of the tile's rows, columns and
 * K-slices. Each derived layout is a short definition over cute/ and algebra/; the three TV
 * layouts are the functions the definitions give, as exact composites or, where none exists,
 * found point by point (exactOrTabulated; the answer is the function, not CuTe's composition,
 * which differs for C with threads along K).
 */
import { intText } from '../algebra/int-text.js';
import { domainError } from '../algebra/errors.js';
import { compose } from '../algebra/compose.js';
import { coalesce } from '../algebra/coalesce.js';
import type { Tuple } from '../algebra/tuple.js';
import { modes, phi, rank, size, TRIVIAL, concatUnchecked, type Layout } from '../algebra/layout.js';
import { complement, isComplementable } from '../algebra/complement.js';
import { isCompact } from '../algebra/properties.js';
import { formatLayout } from '../algebra/notation.js';
import { phiTable } from '../memory/access.js';
import { tiledProduct } from '../cute/product.js';
import { rightInverse } from '../cute/inverse.js';
import { isByMode, isUnderscore, type Tiler } from '../cute/tiler.js';
import { mmaAtom, type MmaAtom } from './atom.js';
import { exactOrTabulated, layoutOfFunction } from './function-layout.js';

/** The operands of an MMA: A (modes M, K), B (N, K), C (M, N). */
export type Operand = 'A' | 'B' | 'C';

/** The (I, J) modes of an operand as indices into (M, N, K). */
export const operandModes: Readonly<Record<Operand, readonly [number, number]>> = { A: [0, 2], B: [1, 2], C: [0, 1] };

/** A tiled MMA (docs/atoms.md, "Tiled MMA"). */
export interface TiledMma {
  readonly atom: MmaAtom;
  /** L padded to rank 3: the modes L_M, L_N, L_K */
  readonly atomLayout: readonly [Layout, Layout, Layout];
  /** P_M, P_N, P_K: each a permutation of [0, t_I) */
  readonly permutation: readonly [Layout, Layout, Layout];
  /** tiled_product(thrID, L): (ThrID, m, n, k) → thread index */
  readonly thrLayoutVMNK: Layout;
  readonly tileShape: readonly [number, number, number];
  /** size(thrLayoutVMNK) (CuTe `size(tiled_mma)`) */
  readonly threads: number;
  /** the thread indices of the TV layouts: size((V, comp(V))) */
  readonly T: number;
  /** the coordinate sizes (size(thrID), L_M, L_N, L_K) */
  readonly dims: readonly [number, number, number, number];
  /** W⁻¹ for W = (V, comp(V)): thread index → (V's index, complement's index) */
  readonly winv: Layout;
  readonly layoutA_TV: Layout;
  readonly layoutB_TV: Layout;
  readonly layoutC_TV: Layout;
}

/** L padded with 1:0 modes to rank 3 (CuTe `append<3>`); rank > 3 is `domain`. */
function padAtomLayout(l: Layout): [Layout, Layout, Layout] {
  const r = rank(l);
  if (r > 3) throw domainError(`the atom layout ${formatLayout(l)} has rank ${r}; at most 3 (M, N, K)`);
  const ms = modes(l);
  while (ms.length < 3) ms.push(TRIVIAL);
  return [ms[0]!, ms[1]!, ms[2]!];
}

/** The permutation's items padded with `_` to 3 (a bare layout is the M item). */
function permutationItems(p: Tiler | undefined): (Layout | '_')[] {
  if (p === undefined || isUnderscore(p)) return ['_', '_', '_'];
  if (!isByMode(p)) return [p, '_', '_'];
  if (p.length > 3) throw domainError(`the permutation has ${p.length} items; at most 3 (M, N, K)`);
  const items: (Layout | '_')[] = [];
  for (let i = 0; i < 3; i++) {
    const it = p[i] ?? '_';
    if (isByMode(it)) throw domainError(`permutation item ${i + 1} is a nested by-mode tiler; each item is '_', an integer or a one-dimensional layout`);
    items.push(it);
  }
  return items;
}

const MNK = ['M', 'N', 'K'];

/** P_I resolved, checked to be a permutation of [0, t_I) with t_I a multiple of atom_I·size(L_I). */
function permutationOf(item: Layout | '_', unit: number, i: number): Layout {
  if (item === '_') return { shape: unit, stride: 1 };
  const t = size(item);
  if (!isCompact(item)) throw domainError(`permutation item ${MNK[i]} (${formatLayout(item)}) is not a permutation of [0, ${t})`);
  if (t % unit !== 0) throw domainError(`permutation item ${MNK[i]} has size ${t}, not a multiple of the atoms' ${unit} (atom size × atom layout)`);
  return item;
}

/** W⁻¹ for W = (V, comp(V)) (`domain` when V has no complement), and T = size(W). */
function threadInverse(v: Layout): { T: number; winv: Layout } {
  if (!isComplementable(v)) throw domainError(`the thread layout ${formatLayout(v)} has no complement (atoms on the same threads)`);
  const w = concatUnchecked([v, complement(v)]);
  return { T: size(w), winv: rightInverse(w) };
}

/** colex(x, dims) of x = W⁻¹(t) mod threads: thread t's (v, m, n, k). */
function coordOf(m: Pick<TiledMma, 'winv' | 'threads' | 'dims'>, t: number): [number, number, number, number] {
  let x = phi(m.winv, t) % m.threads;
  const c: number[] = [];
  for (const d of m.dims) {
    c.push(x % d);
    x = Math.floor(x / d);
  }
  return c as [number, number, number, number];
}

/**
 * make_tiled_mma(atom, L = 1, P = _) (docs/atoms.md, "Tiled MMA"; CuTe `make_tiled_mma`).
 * Errors: `domain` (unknown atom, rank of L above 3, a permutation that is no permutation or
 * too small, atoms on the same threads), `not-composable` (a TV layout that no layout has).
 * Example: makeTiledMma('SM80_16x8x16_F32F16F16F32_TN', parseLayout('(2,2,1)')).tileShape is [32, 16, 16].
 */
export function makeTiledMma(atomName: string, layout?: Layout, permutation?: Tiler): TiledMma {
  const atom = mmaAtom(atomName);
  const atomLayout = padAtomLayout(layout ?? TRIVIAL);
  const items = permutationItems(permutation);
  const perm = [0, 1, 2].map((i) => permutationOf(items[i]!, atom.shapeMNK[i]! * size(atomLayout[i]!), i)) as [Layout, Layout, Layout];
  const thrLayoutVMNK = tiledProduct(atom.thrID, concatUnchecked(atomLayout));
  const dims: [number, number, number, number] = [size(atom.thrID), size(atomLayout[0]), size(atomLayout[1]), size(atomLayout[2])];
  const { T, winv } = threadInverse(thrLayoutVMNK);
  const base = { atom, atomLayout, permutation: perm, thrLayoutVMNK, threads: size(thrLayoutVMNK), T, dims, winv };
  const tileShape = perm.map(size) as [number, number, number];
  const partial = { ...base, tileShape };
  return {
    ...partial,
    layoutA_TV: operandTV(partial, 'A'),
    layoutB_TV: operandTV(partial, 'B'),
    layoutC_TV: operandTV(partial, 'C'),
  };
}

/** What the per-operand definitions read of a tiled MMA. */
type MmaCore = Pick<TiledMma, 'atom' | 'atomLayout' | 'permutation' | 'T' | 'threads' | 'dims' | 'winv' | 'tileShape'>;

/** The numbers of one operand X with modes (I, J) (docs/atoms.md, "Tiled MMA"). */
export interface OperandGeometry {
  readonly I: number;
  readonly J: number;
  /** the atom's X layout: Φ over (size(thrID), V_X), flattened */
  readonly atomTab: Float64Array;
  readonly S: number;
  readonly VX: number;
  readonly atomI: number;
  readonly atomJ: number;
  readonly LI: number;
  readonly LJ: number;
  readonly RI: number;
  readonly RJ: number;
  readonly tI: number;
  readonly tJ: number;
  readonly PI: Float64Array;
  readonly PJ: Float64Array;
}

const geometryCache = new WeakMap<object, Map<Operand, OperandGeometry>>();

/** The geometry of operand X of a tiled MMA (cached per tiled MMA object: not per part of it — two tiled MMAs of one
 *  thread each share their thread inverse, TRIVIAL, and differ in their atoms). */
export function operandGeometry(m: MmaCore, x: Operand): OperandGeometry {
  let per = geometryCache.get(m);
  if (!per) geometryCache.set(m, (per = new Map()));
  const hit = per.get(x);
  if (hit) return hit;
  const [I, J] = operandModes[x];
  const atomX = m.atom[x];
  const S = size(m.atom.thrID);
  const VX = size(atomX) / S;
  const LI = size(m.atomLayout[I]!);
  const LJ = size(m.atomLayout[J]!);
  const atomI = m.atom.shapeMNK[I]!;
  const atomJ = m.atom.shapeMNK[J]!;
  const tI = m.tileShape[I]!;
  const tJ = m.tileShape[J]!;
  const g: OperandGeometry = {
    I,
    J,
    S,
    VX,
    atomI,
    atomJ,
    LI,
    LJ,
    tI,
    tJ,
    atomTab: phiTable(atomX),
    RI: tI / (atomI * LI),
    RJ: tJ / (atomJ * LJ),
    PI: phiTable(m.permutation[I]!),
    PJ: phiTable(m.permutation[J]!),
  };
  per.set(x, g);
  return g;
}

/** x_I of (thread coordinate c_I, atom value a_I, rest r_I): a_I + atom_I·(c_I + L_I·r_I). */
const along = (a: number, atom: number, c: number, l: number, r: number): number => a + atom * (c + l * r);

/**
 * The TV layout of operand X (docs/atoms.md, "Tiled MMA"; CuTe `get_layoutA_TV` …), the same
 * function as operandTVPointwise below, first as a composite of layouts: the index is Z(y) with
 * Z = (P_I, t_I·P_J) on the t_I × t_J tile and y(t, w) = Y_T(t) + Y_V(w), where
 * Y_T = (E∘X_atom's thread mode, the atom coordinates' strides, T/threads:0) ∘ W⁻¹ (E =
 * (atom_I, atom_J):(1, t_I) places the atom's tile) and Y_V = (E∘X_atom's value mode,
 * R_I:atom_I·L_I, R_J:t_I·atom_J·L_J). Each composite is exact (algebra/compose.ts), so when they
 * exist the answer is Z∘y with each mode coalesced; when one does not (its function may still be
 * a layout over the coarser modes (T, V)), the function is decided point by point.
 * Errors: `not-composable` when no layout has this function.
 */
export function operandTV(m: MmaCore, x: Operand): Layout {
  return exactOrTabulated(
    () => operandTVComposed(m, x),
    () => operandTVAt(m, x),
    () => operandTVGuide(m, x),
    `the TV layout of ${x}`,
  );
}

/** Strides of a layout multiplied by k. */
const scaled = (l: Layout, k: number): Layout => ({ shape: l.shape, stride: scaleTuple(l.stride, k) });
const scaleTuple = (t: Tuple, k: number): Tuple => (typeof t === 'number' ? t * k : t.map((u) => scaleTuple(u, k)));

/** The composite form of operandTV, or null (or a `not-composable` / `overflow` error) when a step has none. */
export function operandTVComposed(m: MmaCore, x: Operand): Layout | null {
  const [I, J] = operandModes[x];
  const atomI = m.atom.shapeMNK[I]!;
  const atomJ = m.atom.shapeMNK[J]!;
  const tI = m.tileShape[I]!;
  const LI = size(m.atomLayout[I]!);
  const LJ = size(m.atomLayout[J]!);
  const RI = tI / (atomI * LI);
  const RJ = m.tileShape[J]! / (atomJ * LJ);
  const ex = compose({ shape: [atomI, atomJ], stride: [1, tI] }, m.atom[x]);
  if (rank(ex) !== 2) return null;
  const [exT, exV] = modes(ex) as [Layout, Layout];
  const s = [atomI, tI * atomJ];
  const q = concatUnchecked([
    exT,
    ...[0, 1, 2].map((i): Layout => ({ shape: size(m.atomLayout[i]!), stride: i === I ? s[0]! : i === J ? s[1]! : 0 })),
    { shape: m.T / m.threads, stride: 0 },
  ]);
  const yT = compose(q, m.winv);
  const yV = concatUnchecked([exV, { shape: RI, stride: atomI * LI }, { shape: RJ, stride: tI * atomJ * LJ }]);
  const z = concatUnchecked([m.permutation[I]!, scaled(m.permutation[J]!, tI)]);
  const tv = compose(z, concatUnchecked([yT, yV]));
  if (rank(tv) !== 2) return null;
  return concatUnchecked(modes(tv).map(coalesce));
}

/** The guide (T, V) of operand X's TV layout: V = V_X·R_I·R_J values per thread. */
function operandTVGuide(m: MmaCore, x: Operand): [number, number] {
  const [I, J] = operandModes[x];
  const atomI = m.atom.shapeMNK[I]!;
  const atomJ = m.atom.shapeMNK[J]!;
  const RI = m.tileShape[I]! / (atomI * size(m.atomLayout[I]!));
  const RJ = m.tileShape[J]! / (atomJ * size(m.atomLayout[J]!));
  return [m.T, (size(m.atom[x]) / size(m.atom.thrID)) * RI * RJ];
}

/**
 * The TV layout of operand X (CuTe `get_layoutA_TV` …): (t, w) ↦ Φ_{P_I}(x_I) + t_I·Φ_{P_J}(x_J)
 * with (f, r_I, r_J) = colex(w, (V_X, R_I, R_J)), a = Φ_{X_atom}(v + size(thrID)·f), a_I = a mod
 * atom_I, a_J = ⌊a / atom_I⌋ and x_I, x_J as `along` (docs/atoms.md, "Tiled MMA").
 * Evaluated at every (t, w) and decided by layoutOfFunction. Errors: `not-composable` when no layout
 * has this function.
 */
export function operandTVPointwise(m: MmaCore, x: Operand): Layout {
  return layoutOfFunction(() => operandTVAt(m, x), operandTVGuide(m, x), `the TV layout of ${x}`);
}

/** operandTVPointwise's function at i = t + T·w; each thread's coordinate is found on the first row (w = 0). */
function operandTVAt(m: MmaCore, x: Operand): (i: number) => number {
  const g = operandGeometry(m, x);
  const T = m.T;
  const coords = new Int32Array(3 * T);
  return (i) => {
    const t = i % T;
    const w = (i - t) / T;
    if (w === 0) {
      const c = coordOf(m, t);
      coords[3 * t] = c[0];
      coords[3 * t + 1] = c[1 + g.I]!;
      coords[3 * t + 2] = c[1 + g.J]!;
    }
    const f = w % g.VX;
    const rI = Math.floor(w / g.VX) % g.RI;
    const rJ = Math.floor(w / (g.VX * g.RI));
    const a = g.atomTab[coords[3 * t]! + g.S * f]!;
    const aI = a % g.atomI;
    const aJ = (a - aI) / g.atomI;
    return g.PI[along(aI, g.atomI, coords[3 * t + 1]!, g.LI, rI)]! + g.tI * g.PJ[along(aJ, g.atomJ, coords[3 * t + 2]!, g.LJ, rJ)]!;
  };
}

/** Thread t's coordinate (v, m, n, k) in a tiled MMA; t < T, else `domain`. */
export function threadCoord(m: TiledMma, t: number): [number, number, number, number] {
  if (!Number.isSafeInteger(t) || t < 0 || t >= m.T) throw domainError(`thread index ${intText(t)} is outside [0, ${m.T})`);
  return coordOf(m, t);
}
