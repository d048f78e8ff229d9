/**
 * Partitions and tiles of a tensor (docs/atoms.md, "Partitions"; CuTe `partition_A/B/C`,
 * `partition_S/D`, `local_tile`, `local_partition` of mma_atom.hpp, copy_atom.hpp and
 * tensor_impl.hpp). A tensor is a plain or composed layout T read as CuTe's tensor over a
 * pointer; a result is `{offset, layout}`.
 *
 * The rule of the identity: each op is first done on I = make_layout(shape(T)) (for a composed
 * T, of its inner layout), where every division exists, giving index maps into T's domain;
 * the answer is x ↦ Φ_T(o_S + Φ_S(x)) over the result's top-level modes (plain: offset Φ_T(o_S)
 * and the rest; composed Sw∘K∘L: offset 0 and Sw ∘ (K + o′) ∘ L′). It is found as an exact
 * composite T ∘ (S, 2:o_S) when that exists (algebra/compose.ts), else point by point by
 * the layout of the function (exactOrNull, then layoutOfFunction: exactOrTabulated's two halves), so only what the
 * result contains has to exist.
 */
import { intText } from '../algebra/int-text.js';
import { compose } from '../algebra/compose.js';
import { LayoutError, domainError } from '../algebra/errors.js';
import { coalesce } from '../algebra/coalesce.js';
import { flat, mode, modes, phi, rank, size, concatUnchecked, type Layout } from '../algebra/layout.js';
import { colMajorStride, formatLayout } from '../algebra/notation.js';
import { isCompact } from '../algebra/properties.js';
import { innerLayout, isComposed, makeComposed, type LayoutFunction } from '../cute/composed.js';
import { zippedDivide } from '../cute/divide.js';
import { rightInverse } from '../cute/inverse.js';
import { sliceLayout, sliceOffset, type SliceCoord } from '../cute/slice.js';
import { isByMode, type Tiler } from '../cute/tiler.js';
import { exactOrNull, layoutOfFunction, type PointFunction } from './function-layout.js';
import { operandGeometry, threadCoord, type OperandGeometry, type Operand, type TiledMma } from './tiled-mma.js';
import type { TiledCopy } from './tiled-copy.js';

/** A tensor result: element x is at offset `offset` + Φ_layout(x) from the argument's base. */
export interface TensorResult {
  readonly offset: number;
  readonly layout: LayoutFunction;
}

/** Φ over a layout's flat entries, at an index below its size. */
function phiFlat(shapes: readonly number[], strides: readonly number[], x: number): number {
  let off = 0;
  let rest = x;
  for (let i = 0; i < shapes.length && rest > 0; i++) {
    const s = shapes[i]!;
    const c = rest % s;
    off += c * strides[i]!;
    rest = (rest - c) / s;
  }
  return off;
}

/**
 * The tensor whose element x of the core (colex over `guide`) is T's element at identity index
 * s(x), followed by `tail` (modes of T's inner layout passed through whole), tabulated: offset
 * Φ_T(s(0)) and the layout of x ↦ Φ_T(s(x)) − Φ_T(s(0)) (layoutOfFunction). The callers try the
 * exact composite first (`exactOrNull(…) ?? tabulatedTensor(…)`, exactOrTabulated's two halves).
 * Errors: `not-composable` when the function is no layout, `overflow`.
 */
function tabulatedTensor(t: LayoutFunction, s: PointFunction, guide: readonly number[], tail: readonly Layout[], what: string): TensorResult {
  let y0 = 0;
  const core = layoutOfFunction(
    () => {
      const { shapes, strides } = flat(innerLayout(t));
      const sx = s();
      y0 = phiFlat(shapes, strides, sx(0));
      return (x) => phiFlat(shapes, strides, sx(x)) - y0;
    },
    guide,
    what,
  );
  return finish(t, y0, concatUnchecked([...modes(core), ...tail]));
}

/** {offset, layout} of the function y0 + Φ_L′ over T's inner layout (plain or composed T). */
function finish(t: LayoutFunction, y0: number, l: Layout): TensorResult {
  if (!isComposed(t)) return { offset: y0, layout: l };
  return { offset: 0, layout: makeComposed(t.swizzle, t.offset + y0, l) };
}

/** make_layout(shape(L)): the column-major identity of L's shape. */
const identityOf = (l: Layout): Layout => ({ shape: l.shape, stride: colMajorStride(l.shape) });

/** Thread index check (`domain`). */
function checkThread(t: number, n: number): void {
  if (!Number.isSafeInteger(t) || t < 0 || t >= n) throw domainError(`thread index ${intText(t)} is outside [0, ${n})`);
}

/** Mode i of a tensor's inner layout must be a multiple of the tile size (`not-complementable`). */
function checkMultiple(n: number, tile: number, name: string): void {
  if (n % tile !== 0) throw new LayoutError('not-complementable', `mode of size ${n} is not a multiple of the tile size ${tile} (${name})`);
}

/**
 * partition_A/B/C of thread t of a tiled MMA over tensor T (docs/atoms.md, "Partitions"; CuTe
 * `tiled_mma.get_slice(t).partition_A(T)`): modes (V_X, n_I/(atom_I·size(L_I)),
 * n_J/(atom_J·size(L_J)), T's modes 3, …); element (f, r_I, r_J, e…) is T's element at
 * (y_I, y_J, e…), y_I = Φ_{P_I}(x_I mod t_I) + t_I·⌊x_I/t_I⌋. Errors: `domain` (rank of T below
 * 2, t out of range), `not-complementable` (a mode that is no multiple of the tile),
 * `not-composable`, `overflow` (beyond 2^24 elements).
 */
export function partitionMma(m: TiledMma, x: Operand, t: number, tensor: LayoutFunction): TensorResult {
  const inner = innerLayout(tensor);
  if (rank(inner) < 2) throw domainError(`partition_${x.toLowerCase()}: the tensor ${formatLayout(inner)} has rank ${rank(inner)}; at least 2`);
  checkThread(t, m.T);
  const g = operandGeometry(m, x);
  const names = ['M', 'N', 'K'];
  const nI = size(mode(inner, 1));
  const nJ = size(mode(inner, 2));
  checkMultiple(nI, g.tI, names[g.I]!);
  checkMultiple(nJ, g.tJ, names[g.J]!);
  const [v, ...c] = threadCoord(m, t);
  const cI = c[g.I]!;
  const cJ = c[g.J]!;
  const RI = nI / (g.atomI * g.LI);
  const RJ = nJ / (g.atomJ * g.LJ);
  return (
    exactOrNull(() => partitionMmaComposed(m, x, g, [v!, cI, cJ], tensor, nI, nJ)) ??
    tabulatedTensor(
      tensor,
      // element (f, r_I, r_J) at k = f + V_X·(r_I + R_I·r_J)
      () => {
        const yOf = (a: number, atom: number, c0: number, l: number, r: number, tile: number, p: Float64Array): number => {
          const xi = a + atom * (c0 + l * r);
          const q = Math.floor(xi / tile);
          return p[xi - q * tile]! + tile * q;
        };
        return (k) => {
          const f = k % g.VX;
          const r = (k - f) / g.VX;
          const rI = r % RI;
          const rJ = (r - rI) / RI;
          const a = g.atomTab[v! + g.S * f]!;
          const aI = a % g.atomI;
          const aJ = (a - aI) / g.atomI;
          return yOf(aI, g.atomI, cI, g.LI, rI, g.tI, g.PI) + nI * yOf(aJ, g.atomJ, cJ, g.LJ, rJ, g.tJ, g.PJ);
        };
      },
      [g.VX, RI, RJ],
      modes(inner).slice(2),
      `partition_${x.toLowerCase()}`,
    )
  );
}

/** Strides of a layout multiplied by k. */
const scaled = (l: Layout, k: number): Layout => ({ shape: l.shape, stride: scaleTuple(l.stride, k) });
/** A permutation P extended by (n/tile):tile over the whole mode of size n. */
const ext = (p: Layout, tile: number, n: number): Layout => concatUnchecked([p, { shape: n / tile, stride: tile }]);
const scaleTuple = (t: Layout['stride'], k: number): Layout['stride'] => (typeof t === 'number' ? t * k : t.map((u) => scaleTuple(u, k)));

/**
 * partition_A/B/C as exact composites (null, or `not-composable` or `overflow`, when one does not exist): the element (f, r_I, r_J)
 * is at identity index Z′(o′ + Y(f, r_I, r_J)) with Z′ = (P_I extended by (n_I/t_I):t_I, n_I·P_J
 * extended), Y = (E′∘X_atom's value mode, R_I:atom_I·L_I, R_J:n_I·atom_J·L_J), E′ =
 * (atom_I, atom_J):(1, n_I), o′ = E′∘X_atom's thread mode at v plus the thread's atom
 * coordinates; the answer is (T's modes 1, 2) ∘ Z′ ∘ (Y, 2:o′) without its last mode.
 */
function partitionMmaComposed(
  m: TiledMma,
  x: Operand,
  g: OperandGeometry,
  [v, cI, cJ]: readonly number[],
  tensor: LayoutFunction,
  nI: number,
  nJ: number,
): TensorResult | null {
  const inner = innerLayout(tensor);
  const ex = compose({ shape: [g.atomI, g.atomJ], stride: [1, nI] }, m.atom[x]);
  if (rank(ex) !== 2) return null;
  const [exT, exV] = modes(ex) as [Layout, Layout];
  const o = phi(exT, v!) + g.atomI * cI! + nI * g.atomJ * cJ!;
  const y = [exV, { shape: nI / (g.atomI * g.LI), stride: g.atomI * g.LI }, { shape: nJ / (g.atomJ * g.LJ), stride: nI * g.atomJ * g.LJ }];
  const z = concatUnchecked([ext(m.permutation[g.I]!, g.tI, nI), scaled(ext(m.permutation[g.J]!, g.tJ, nJ), nI)]);
  const c1 = compose(concatUnchecked([mode(inner, 1), mode(inner, 2)]), z);
  const c = compose(c1, concatUnchecked([...y, { shape: 2, stride: o }]));
  if (rank(c) !== 4) return null;
  const cm = modes(c);
  return finish(tensor, phi(cm[3]!, 1), concatUnchecked([...cm.slice(0, 3).map(coalesce), ...modes(inner).slice(2)]));
}

/**
 * partition_S/D of thread t of a tiled copy over tensor T (docs/atoms.md, "Partitions"; CuTe
 * `tiled_copy.get_slice(t).partition_S(T)`): modes (NX·V/NR, n_1/tiler_1, …, T's further
 * modes); element (w, q_1…q_r, e…) is T's element at (τ_1 + tiler_1·q_1, …, e…) with
 * (τ_i) = colex(X_TV(t, w), tiler). Errors as partitionMma (`domain` when rank(T) < rank(tiler)).
 */
export function partitionCopy(c: TiledCopy, side: 'S' | 'D', t: number, tensor: LayoutFunction): TensorResult {
  const what = `partition_${side.toLowerCase()}`;
  const inner = innerLayout(tensor);
  const ms = modes(inner);
  const ns = ms.map(size);
  checkCopyTensor(c, ns, what);
  checkThread(t, c.threads);
  return (
    exactOrNull(() => partitionCopyComposed(c, side, t, ns, tensor)) ??
    tabulatedTensor(
      tensor,
      () => copyIndexAt(c, side, t, ns),
      [size(mode(side === 'S' ? c.layoutS_TV : c.layoutD_TV, 2)), ...c.tiler.map((ti, i) => ns[i]! / ti)],
      ms.slice(c.tiler.length),
      what,
    )
  );
}

/**
 * partition_S/D as exact composites (null, or `not-composable` or `overflow`): the identity index of element (w, q…, e…) is
 * Et(X_TV(t, 0) + X_TV's value mode(w)) + Σ q_i·tiler_i·N_(i−1) + the further modes', Et =
 * (tiler):(N_0, N_1, …) placing the tile in the tensor (N the prefix products of its mode sizes);
 * the first term is the composite Et ∘ (value mode, 2:X_TV(t, 0)), the answer T ∘ that map.
 */
function partitionCopyComposed(c: TiledCopy, side: 'S' | 'D', t: number, ns: readonly number[], tensor: LayoutFunction): TensorResult | null {
  const tv = side === 'S' ? c.layoutS_TV : c.layoutD_TV;
  const r = c.tiler.length;
  const pre: number[] = [];
  ns.reduce((p, n) => (pre.push(p), p * n), 1);
  const et: Layout = { shape: [...c.tiler], stride: pre.slice(0, r) };
  const cv = compose(et, concatUnchecked([mode(tv, 2), { shape: 2, stride: phi(mode(tv, 1), t) }]));
  if (rank(cv) !== 2) return null;
  const [w, o] = modes(cv) as [Layout, Layout];
  const rest = ns.map((n, i): Layout => (i < r ? { shape: n / c.tiler[i]!, stride: c.tiler[i]! * pre[i]! } : { shape: n, stride: pre[i]! }));
  return composedTensor(tensor, [w, ...rest], phi(o, 1));
}

/** A tensor of mode sizes ns for a tiled copy: rank at least the tiler's (`domain`), each mode a
 *  multiple of its tile (`not-complementable`). */
export function checkCopyTensor(c: TiledCopy, ns: readonly number[], what: string): void {
  const r = c.tiler.length;
  if (ns.length < r) throw domainError(`${what}: the tensor has rank ${ns.length}, below the tiler's ${r}`);
  for (let i = 0; i < r; i++) checkMultiple(ns[i]!, c.tiler[i]!, `mode ${i + 1}`);
}

/**
 * The identity indices (column-major in a tensor of mode sizes `ns`, already checked against the
 * copy) of the elements that thread t holds in partition_S/D, as a function over the modes
 * (NX·V/NR, n_1/tiler_1, …, n_r/tiler_r) (colex); the tensor's further modes are not included.
 */
function copyIndexAt(c: TiledCopy, side: 'S' | 'D', t: number, ns: readonly number[]): (x: number) => number {
  const r = c.tiler.length;
  const tv = side === 'S' ? c.layoutS_TV : c.layoutD_TV;
  const W = size(mode(tv, 2));
  const qs = c.tiler.map((ti, i) => ns[i]! / ti);
  // per value w: the identity index of τ(w), found on the first tile; per tile j: Σ_i N_{i−1}·tiler_i·q_i
  const pre: number[] = [];
  ns.reduce((p, n) => (pre.push(p), p * n), 1);
  const tau = new Float64Array(W);
  const thr = phi(mode(tv, 1), t);
  const vm = flat(mode(tv, 2));
  let qOff = 0;
  return (x) => {
    const w = x % W;
    const j = (x - w) / W;
    if (j === 0) {
      let e = thr + phiFlat(vm.shapes, vm.strides, w);
      let id = 0;
      for (let i = 0; i < r; i++) {
        const ti = c.tiler[i]!;
        const ci = e % ti;
        e = (e - ci) / ti;
        id += pre[i]! * ci;
      }
      tau[w] = id;
    } else if (w === 0) {
      qOff = 0;
      let q = j;
      for (let i = 0; i < r; i++) {
        const qi = q % qs[i]!;
        q = (q - qi) / qs[i]!;
        qOff += qi * pre[i]! * c.tiler[i]!;
      }
    }
    return tau[w]! + qOff;
  };
}

/**
 * The tensor x ↦ Φ_T(o_S + Φ_S(x)) over S's top-level modes, S an index map into T's domain
 * (the rule of the identity). First as the composite T ∘ (S, 2:o_S) (exact when it exists:
 * dropping its last mode leaves the function, whose offset is its last mode's value); otherwise
 * evaluated and decided at every x.
 */
export function tensorOfMap(t: LayoutFunction, s: Layout, oS: number, what: string): TensorResult {
  const sm = typeof s.shape === 'number' ? [s] : modes(s);
  return (
    exactOrNull(() => composedTensor(t, sm, oS)) ??
    tabulatedTensor(
      t,
      () => {
        const { shapes, strides } = flat(s);
        return (x) => oS + phiFlat(shapes, strides, x);
      },
      sm.map(size),
      [],
      what,
    )
  );
}

/** The composite T ∘ (S, 2:o_S) without its last mode (offset: its last mode's value), each of
 *  S's modes coalesced; null (or `not-composable`, `overflow`) when the composite does not exist. */
function composedTensor(t: LayoutFunction, sm: readonly Layout[], oS: number): TensorResult | null {
  const r = sm.length;
  const c = compose(innerLayout(t), concatUnchecked([...sm, { shape: 2, stride: oS }]));
  if (rank(c) !== r + 1) return null;
  const cm = modes(c);
  return finish(t, phi(cm[r]!, 1), concatUnchecked(cm.slice(0, r).map(coalesce)));
}

/** A projection (CuTe `Step<_1,X,_1>`): a flat tuple of `1` and `X` (or `_`); true where 1. */
export function parseProjection(text: string): boolean[] {
  const m = /^\s*\(([^()]*)\)\s*$/.exec(text);
  const items = (m ? m[1]! : text).split(',').map((s) => s.trim());
  return items.map((it, i) => {
    if (it === '1' || it === '_1') return true;
    if (it === 'X' || it === '_') return false;
    throw new LayoutError('parse', `projection: item ${i + 1} is '${it}'; each item is 1 or X (or _)`);
  });
}

/** The members of a coordinate where proj is 1 (CuTe `dice`); a coordinate of another length is `domain`. */
function diceCoord(c: SliceCoord, proj: readonly boolean[], what: string): SliceCoord[] {
  if (!Array.isArray(c) || c.length !== proj.length) {
    throw domainError(`${what}: the coordinate must be a tuple of ${proj.length} members, the projection's length`);
  }
  return c.filter((_, i) => proj[i]);
}

/** The tiler's items where proj is 1; a tiler that is not by-mode or of another length is `domain`. */
function diceTiler(t: Tiler, proj: readonly boolean[], what: string): Tiler {
  if (!isByMode(t) || t.length !== proj.length) throw domainError(`${what}: the tiler must have ${proj.length} modes, the projection's length`);
  return t.filter((_, i) => proj[i]);
}

/**
 * local_tile(T, tiler, c[, proj]) = slice(zipped_divide(T, tiler), ((_,…,_), c′)) (docs/atoms.md,
 * "Partitions"; CuTe `local_tile`, `inner_partition`): the tile whole, the rest indexed by c
 * (a coordinate padded with `_`, or a flat index into the whole rest). Errors: `domain` (a
 * coordinate that does not fit, a bad projection), `not-complementable`, `not-composable`.
 * Example: localTile((128,64):(64,1), (32,64,16), (1,0,_), (1,X,1)) is {offset 2048, (32,16,4):(64,1,16)}.
 */
export function localTile(t: LayoutFunction, tiler: Tiler, c: SliceCoord, proj?: readonly boolean[]): TensorResult {
  const what = 'local_tile';
  const tl = proj ? diceTiler(tiler, proj, what) : tiler;
  const cc: SliceCoord = proj ? diceCoord(c, proj, what) : c;
  const z = zippedDivide(identityOf(innerLayout(t)), tl);
  const rest = mode(z, 2);
  const nRest = rank(rest);
  let restCoord: SliceCoord;
  if (Array.isArray(cc)) {
    if (cc.length > nRest) throw domainError(`${what}: the coordinate has ${cc.length} members, the rest of the division ${nRest} modes`);
    const padded: SliceCoord[] = [...cc];
    while (padded.length < nRest) padded.push('_');
    restCoord = typeof rest.shape === 'number' && padded.length === 1 ? padded[0]! : padded;
  } else restCoord = cc;
  const tileCoord: SliceCoord = isByMode(tl) ? tl.map(() => '_' as const) : '_';
  const coord: SliceCoord = [tileCoord, restCoord];
  return tensorOfMap(t, sliceLayout(z, coord), sliceOffset(z, coord), what);
}

/**
 * local_partition(T, thr, i[, proj]) = slice(zipped_divide(T, (size(thr_1), …)), (c, (_,…)))
 * (docs/atoms.md, "Partitions"; CuTe `local_partition`, `outer_partition`), c the per-mode
 * coordinate of thr⁻¹(i). Errors: `domain` (thr not compact, i outside [0, size(thr))), those
 * of local_tile. Example: localPartition((16,64):(1,16), (2,16):(1,2), 5) is {offset 33, (8,4):(2,256)}.
 */
export function localPartition(t: LayoutFunction, thr: Layout, i: number, proj?: readonly boolean[]): TensorResult {
  const what = 'local_partition';
  if (!isCompact(thr)) throw domainError(`${what}: the thread layout ${formatLayout(thr)} is not compact`);
  const n = size(thr);
  if (!Number.isSafeInteger(i) || i < 0 || i >= n) throw domainError(`${what}: index ${intText(i)} is outside [0, ${n})`);
  const tm = typeof thr.shape === 'number' ? [thr] : modes(thr);
  if (proj && proj.length !== tm.length) throw domainError(`${what}: the projection has ${proj.length} members, the thread layout ${tm.length} modes`);
  let x = phi(rightInverse(thr), i);
  const coord: number[] = [];
  for (const m of tm) {
    const s = size(m);
    coord.push(x % s);
    x = Math.floor(x / s);
  }
  const tiler: Tiler = tm.filter((_, j) => !proj || proj[j]!).map((m) => ({ shape: size(m), stride: 1 }) as Layout);
  const c = coord.filter((_, j) => !proj || proj[j]!);
  const z = zippedDivide(identityOf(innerLayout(t)), tiler);
  const rest = mode(z, 2);
  const sc: SliceCoord = [c, typeof rest.shape === 'number' ? '_' : rest.shape.map(() => '_' as const)];
  return tensorOfMap(t, sliceLayout(z, sc), sliceOffset(z, sc), what);
}
