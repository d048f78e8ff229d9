/**
 * Tiled copies (docs/atoms.md, "Tiled copy"; CuTe `make_tiled_copy`, `make_tiled_copy_A/B/C`,
 * `TiledCopy` of include/cute/atom/copy_atom.hpp): a copy atom at a value size and a tiler TV
 * layout (thread, value) → column-major index in the tile, from thread and value layouts or
 * from a tiled MMA's operand; the source and destination TV layouts follow through the atom's
 * reference (σ, the Ref's inverse).
 */
import { checkDeadline } from '../algebra/deadline.js';
import { domainError, isLayoutError, counted } from '../algebra/errors.js';
import { compose } from '../algebra/compose.js';
import { coalesce } from '../algebra/coalesce.js';
import { mode, modes, rank, size, TRIVIAL, concatUnchecked, type Layout } from '../algebra/layout.js';
import { isCompact } from '../algebra/properties.js';
import { formatLayout } from '../algebra/notation.js';
import { phiTable } from '../memory/access.js';
import { rightInverse } from '../cute/inverse.js';
import { copyAtom, type CopyAtom } from './atom.js';
import { exactOrTabulated, layoutOfTable } from './function-layout.js';
import type { Operand, TiledMma } from './tiled-mma.js';
import { operandModes } from './tiled-mma.js';

/** A tiled copy (docs/atoms.md, "Tiled copy"). */
export interface TiledCopy {
  readonly atom: CopyAtom;
  /** the tile's mode sizes */
  readonly tiler: readonly number[];
  /** T and V of the tiler TV layout */
  readonly threads: number;
  readonly values: number;
  readonly layoutTV: Layout;
  readonly layoutS_TV: Layout;
  readonly layoutD_TV: Layout;
}

/** L padded with 1:0 modes to rank r. */
function padded(l: Layout, r: number): Layout[] {
  const ms = modes(l);
  while (ms.length < r) ms.push(TRIVIAL);
  return ms;
}

/** Per index i < size(L) of a compact L: colex(L⁻¹(i)) over L's mode sizes, at k·i … k·i+k−1. */
function inverseCoords(l: Layout, sizes: readonly number[]): Int32Array {
  const inv = phiTable(rightInverse(l));
  const k = sizes.length;
  const out = new Int32Array(k * inv.length);
  for (let i = 0; i < inv.length; i++) {
    if ((i & 0xffff) === 0xffff) checkDeadline('the tiled copy');
    let x = inv[i]!;
    for (let j = 0; j < k; j++) {
      out[k * i + j] = x % sizes[j]!;
      x = Math.floor(x / sizes[j]!);
    }
  }
  return out;
}

/**
 * The tiler TV layout of make_tiled_copy(atom, thr, val) (CuTe
 * `right_inverse(raked_product(thr, val)).with_shape(T, V)`): TV(t, v) is the column-major index
 * of c with c_i = v_i + size(val_i)·t_i, (t_i) = colex(thr⁻¹(t)), (v_i) = colex(val⁻¹(v)); as the
 * exact composites (A ∘ thr⁻¹, B ∘ val⁻¹) with A, B the strides of the coordinates in the tile, else
 * evaluated at every (t, v). Errors: `domain` when thr or val is not compact.
 */
export function copyTilerTV(thr: Layout, val: Layout): { tiler: number[]; layoutTV: Layout } {
  if (!isCompact(thr)) throw domainError(`the thread layout ${formatLayout(thr)} is not compact`);
  if (!isCompact(val)) throw domainError(`the value layout ${formatLayout(val)} is not compact`);
  const r = Math.max(rank(thr), rank(val));
  const ts = padded(thr, r).map(size);
  const vs = padded(val, r).map(size);
  const tiler = ts.map((t, i) => t * vs[i]!);
  const T = size(thr);
  const V = size(val);
  // as composites: TV(t, v) = A(thr⁻¹(t)) + B(val⁻¹(v)), A and B the strides of the coordinates
  const pre: number[] = [];
  tiler.reduce((p, n) => (pre.push(p), p * n), 1);
  const layoutTV = exactOrTabulated(
    (): Layout | null => {
      const lt = coalesce(compose({ shape: ts, stride: ts.map((_, i) => pre[i]! * vs[i]!) }, rightInverse(thr)));
      const lv = coalesce(compose({ shape: vs, stride: pre }, rightInverse(val)));
      return size(lt) === T && size(lv) === V ? concatUnchecked([lt, lv]) : null;
    },
    () => {
      const tc = inverseCoords(thr, ts);
      const vc = inverseCoords(val, vs);
      return (x) => {
        const t = x % T;
        const v = (x - t) / T;
        let idx = 0;
        let stride = 1;
        for (let i = 0; i < r; i++) {
          idx += stride * (vc[r * v + i]! + vs[i]! * tc[r * t + i]!);
          stride *= tiler[i]!;
        }
        return idx;
      };
    },
    [T, V],
    'the tiled copy',
  );
  return { tiler, layoutTV };
}

/**
 * σ of one side X (docs/atoms.md, "Tiled copy"): σ(a, s) = the Ref index ρ = a′ + AT·v′ with
 * Φ_Ref(ρ) = Φ_X(a, s) (CuTe `right_inverse(Ref).compose(X)`). A broadcast Ref, one block that every
 * thread of the atom addresses whole (Φ_Ref(a, v) = Φ_Ref(0, v): the TMEM side of `SM100_TMEM_LOAD/STORE`),
 * is read as thread 0's, the ρ CuTe's right_inverse picks (docs/atoms.md, "SM100 tensor-memory copies").
 * Errors: `domain` when the Ref is otherwise not injective or X leaves its image.
 */
export function sigma(atom: CopyAtom, x: Layout, side: string): Int32Array {
  const ref = phiTable(atom.ref);
  const AT = size(atom.thrID);
  const where = new Map<number, number>();
  for (let r = 0; r < ref.length; r++) {
    if ((r & 0xffff) === 0xffff) checkDeadline(`the σ of ${atom.name}`);
    if (where.has(ref[r]!)) {
      if (r % AT !== 0 && ref[r] === ref[r - (r % AT)]) continue; // a broadcast thread: thread 0 of its value holds it
      throw domainError(`${atom.name}: its reference layout ${formatLayout(atom.ref)} is not injective`);
    }
    where.set(ref[r]!, r);
  }
  const xs = phiTable(x);
  const out = new Int32Array(xs.length);
  for (let i = 0; i < xs.length; i++) {
    if ((i & 0xffff) === 0xffff) checkDeadline(`the σ of ${atom.name}`);
    const r = where.get(xs[i]!);
    if (r === undefined) throw domainError(`${atom.name}: its ${side} layout reaches ${xs[i]}, which the reference layout does not`);
    out[i] = r;
  }
  return out;
}

/** σ of side X as a layout over (AT, NX) followed by ρ ↦ ρ mod AT + T·⌊ρ/AT⌋, or null when σ is no
 *  layout (cached per atom side and T). */
function sigmaLayout(atom: CopyAtom, x: Layout, side: string, T: number): Layout | null {
  let per = sigmaCache.get(x);
  if (!per) sigmaCache.set(x, (per = new Map()));
  const hit = per.get(T);
  if (hit !== undefined) return hit;
  const AT = size(atom.thrID);
  const NX = size(mode(x, 2));
  const NR = size(mode(atom.ref, 2));
  let out: Layout | null = null;
  try {
    const sg = layoutOfTable(sigma(atom, x, side), [AT, NX], 'sigma');
    out = compose({ shape: [AT, NR], stride: [1, T] }, sg);
  } catch (e) {
    if (!isLayoutError(e) || e.kind === 'domain' || e.kind === 'timeout') throw e;
  }
  per.set(T, out);
  return out;
}

const sigmaCache = new WeakMap<Layout, Map<number, Layout | null>>();

/**
 * X_TV(t, w) = TV(ρ mod AT + AT·⌊t/AT⌋, ⌊ρ/AT⌋ + NR·⌊w/NX⌋), ρ = σ(t mod AT, w mod NX): first as
 * the composite TV ∘ H, H = ((σ's thread mode, (T/AT):AT), (σ's value mode, (V/NR):(T·NR))) (exact,
 * algebra/compose.ts); where a composite does not exist, evaluated at every (t, w) and decided
 * (exactOrTabulated).
 */
function sideTV(atom: CopyAtom, x: Layout, side: string, layoutTV: Layout, T: number, V: number): Layout {
  const AT = size(atom.thrID);
  const NR = size(mode(atom.ref, 2));
  const NX = size(mode(x, 2));
  return exactOrTabulated(
    (): Layout | null => {
      const sg = sigmaLayout(atom, x, side, T);
      if (sg === null || rank(sg) !== 2) return null;
      const [st, sv] = modes(sg) as [Layout, Layout];
      const h = concatUnchecked([concatUnchecked([st, { shape: T / AT, stride: AT }]), concatUnchecked([sv, { shape: V / NR, stride: T * NR }])]);
      const l = compose(layoutTV, h);
      return rank(l) === 2 ? concatUnchecked(modes(l).map(coalesce)) : null;
    },
    () => {
      const tv = phiTable(layoutTV);
      const sg = sigma(atom, x, side);
      return (i) => {
        const t = i % T;
        const w = (i - t) / T;
        const a = t % AT;
        const s = w % NX;
        const rho = sg[a + AT * s]!;
        const ra = rho % AT;
        const rv = (rho - ra) / AT;
        return tv[ra + t - a + T * (rv + NR * ((w - s) / NX))]!;
      };
    },
    [T, (NX * V) / NR],
    `the ${side} TV layout`,
  );
}

/** A tiled copy from its atom, tiler and tiler TV layout (T, V checked against the atom). */
function tiledCopyOf(atom: CopyAtom, tiler: readonly number[], layoutTV: Layout): TiledCopy {
  const T = size(mode(layoutTV, 1));
  const V = size(mode(layoutTV, 2));
  const AT = size(atom.thrID);
  const NR = size(mode(atom.ref, 2));
  if (T % AT !== 0) throw domainError(`the tiled copy has ${counted(T, 'thread')}, not a multiple of the atom's ${AT}`);
  if (V % NR !== 0) throw domainError(`the tiled copy has ${counted(V, 'value')} per thread, not a multiple of the atom's ${NR}`);
  return {
    atom,
    tiler,
    threads: T,
    values: V,
    layoutTV,
    layoutS_TV: sideTV(atom, atom.src, 'source', layoutTV, T, V),
    layoutD_TV: sideTV(atom, atom.dst, 'destination', layoutTV, T, V),
  };
}

/**
 * make_tiled_copy(atom at bits, thr, val = 1) (docs/atoms.md, "Tiled copy"; CuTe
 * `make_tiled_copy`). Errors: `domain` (atom, bits, a non-compact thr or val, too few threads
 * or values for the atom), `not-composable`.
 * Example: makeTiledCopy({ atom: 'SM80_CP_ASYNC_CACHEALWAYS<uint128_t>', bits: 16, thr: (32,8):(8,1), val: (1,8) }).tiler is [32, 64].
 */
export function makeTiledCopy(a: { atom: string; bits: number; thr: Layout; val?: Layout }): TiledCopy {
  const atom = copyAtom(a.atom, a.bits);
  const { tiler, layoutTV } = copyTilerTV(a.thr, a.val ?? TRIVIAL);
  return tiledCopyOf(atom, tiler, layoutTV);
}

/**
 * make_tiled_copy_A/B/C(atom at bits, tiled MMA) (docs/atoms.md, "Tiled copy"): the tiler TV
 * layout is the operand's TV layout, the tiler (t_I, t_J). Errors as makeTiledCopy.
 */
export function makeTiledCopyFromMma(a: { atom: string; bits: number; mma: TiledMma; operand: Operand }): TiledCopy {
  const atom = copyAtom(a.atom, a.bits);
  const [I, J] = operandModes[a.operand];
  const tv = a.operand === 'A' ? a.mma.layoutA_TV : a.operand === 'B' ? a.mma.layoutB_TV : a.mma.layoutC_TV;
  return tiledCopyOf(atom, [a.mma.tileShape[I]!, a.mma.tileShape[J]!], tv);
}
