/**
 * The atoms as layouts (docs/atoms.md, "Atoms"; CuTe `MMA_Atom`, `Copy_Atom`): the data of
 * src/atoms/data/ parsed once and cached, and a copy atom at a value size (CuTe `Copy_Atom<Op, T>`
 * with T of b bits: every layout recast by `upcast<b>`).
 */
import type { Layout } from '../algebra/layout.js';
import { mode, size } from '../algebra/layout.js';
import { formatLayout, parseLayout } from '../algebra/notation.js';
import { domainError, isLayoutError, type LayoutError, counted } from '../algebra/errors.js';
import { upcast } from '../cute/cast.js';
import { atomSpelling, copyAtomData, copyAtomNames, mmaAtomData, mmaAtomNames } from './registry.js';

/**
 * An MMA atom (docs/atoms.md; CuTe `MMA_Traits<Op>`): `thrID` maps the logical thread id to the
 * thread index in the warp or warpgroup; A, B and C map (logical thread, value) to the column-major
 * index in the M×K, N×K and M×N tiles; their thread modes have size(thrID) threads.
 */
export interface MmaAtom {
  readonly name: string;
  readonly thrID: Layout;
  readonly shapeMNK: readonly [number, number, number];
  readonly A: Layout;
  readonly B: Layout;
  readonly C: Layout;
  /** The operands given by a shared-memory matrix descriptor (GMMA, UMMA): read whole by every thread of the atom
   *  (docs/atoms.md, "Descriptor operands"); '' for an atom whose operands are all register- or TMEM-held. */
  readonly descriptors: 'AB' | 'B' | '';
}

/**
 * A copy atom at a value size (docs/atoms.md; CuTe `Copy_Traits<Op>`, `Copy_Atom<Op, T>`): `src`,
 * `dst` and `ref` map (thread, value) to the index of a value of `bits` bits in the atom's block
 * (bits = 1: the traits themselves, in bits); `ref` is one of the other two (`refIsSrc` says which).
 */
export interface CopyAtom {
  readonly name: string;
  readonly bits: number;
  readonly thrID: Layout;
  readonly src: Layout;
  readonly dst: Layout;
  readonly ref: Layout;
  readonly refIsSrc: boolean;
}

const mmaCache = new Map<string, MmaAtom>();
const copyCache = new Map<string, CopyAtom>();
/** Value sizes up to this many bits are cached (a bounded cache whatever the callers ask). */
const CACHED_BITS = 1024;

/**
 * The MMA atom named `name` (CuTe's operation struct, e.g. `SM80_16x8x16_F32F16F16F32_TN`), its layouts
 * parsed once. Errors: `domain` for an unknown name (with a suggestion when a close name exists).
 * @example formatLayout(mmaAtom('SM80_16x8x16_F32F16F16F32_TN').C) // '((4,8),(2,2)):((32,1),(16,8))'
 */
export function mmaAtom(name: string): MmaAtom {
  const hit = mmaCache.get(name);
  if (hit) return hit;
  const d = mmaAtomData(name);
  if (!d) throw unknownAtom('MMA', name);
  const atom: MmaAtom = Object.freeze({
    name: d.name,
    thrID: parseLayout(d.thrID),
    shapeMNK: d.shapeMNK,
    A: parseLayout(d.A),
    B: parseLayout(d.B),
    C: parseLayout(d.C),
    descriptors: d.descriptors ?? '',
  });
  mmaCache.set(name, atom);
  return atom;
}

/**
 * The copy atom named `name` (e.g. `SM75_U32x4_LDSM_N`, `UniversalCopy<uint128_t>`), in bits, or at a value
 * size of `bits` bits: Src, Dst and Ref each become upcast(L, bits) (docs/atoms.md, "Copy atom at a value
 * size"). Errors: `domain` for an unknown name, a value size that is not a positive integer, an upcast that
 * is not defined (a stride and `bits` that do not divide one another), or an upcast layout whose thread mode
 * no longer has size(thrID) threads (CuTe: "CopyOperation is not valid for Src of ValType").
 * @example formatLayout(copyAtom('SM75_U32x4_LDSM_N', 16).dst) // '(32,(2,4)):(2,(1,64))'
 */
export function copyAtom(name: string, bits = 1): CopyAtom {
  const key = `${name}\u0000${bits}`;
  const hit = copyCache.get(key);
  if (hit) return hit;
  if (!Number.isSafeInteger(bits) || bits < 1) throw domainError(`a copy atom's value size must be a positive integer of bits, got ${bits}`);
  const d = copyAtomData(name);
  if (!d) throw unknownAtom('copy', name);
  const thrID = parseLayout(d.thrID);
  const threads = size(thrID);
  const refIsSrc = d.ref === d.src;
  const src = atValueSize(d.name, 'source', parseLayout(d.src), bits, threads);
  const dst = atValueSize(d.name, 'destination', parseLayout(d.dst), bits, threads);
  const atom: CopyAtom = Object.freeze({ name: d.name, bits, thrID, src, dst, ref: refIsSrc ? src : dst, refIsSrc });
  if (bits <= CACHED_BITS) copyCache.set(key, atom);
  return atom;
}

/** One side of a copy atom recast to values of b bits, its thread mode checked. */
function atValueSize(name: string, side: string, l: Layout, b: number, threads: number): Layout {
  if (b === 1) return l;
  let u: Layout;
  try {
    u = upcast(l, b);
  } catch (e) {
    if (isLayoutError(e) && e.kind !== 'timeout')
      throw domainError(`${name} is not valid for ${b}-bit values: its ${side} layout ${formatLayout(l)} has no upcast (${e.message})`);
    throw e;
  }
  const t = size(mode(u, 1));
  if (t !== threads) {
    throw domainError(
      `${name} is not valid for ${b}-bit values: its ${side} layout in values ${formatLayout(u)} has ${counted(t, 'thread')}, the atom ${threads}`,
    );
  }
  return u;
}

/** The `domain` error of an unknown name: says when the name is an atom of the other kind, or suggests a close one. */
function unknownAtom(kind: 'MMA' | 'copy', name: string): LayoutError {
  const other = kind === 'MMA' ? copyAtomData(name) : mmaAtomData(name);
  const shown = name.length > 80 ? `${name.slice(0, 77)}...` : name;
  if (other) return domainError(`'${shown}' is a ${kind === 'MMA' ? 'copy' : 'MMA'} atom, not an ${kind === 'MMA' ? 'MMA' : 'copy'} atom`);
  const names = kind === 'MMA' ? mmaAtomNames() : copyAtomNames();
  // a templated operation written without its argument: every instance is what it may mean
  const base = atomSpelling(name)?.name ?? name.trim();
  const instances = names.filter((n) => n.startsWith(`${base}<`));
  const close = instances.length > 0 ? instances.map((n) => `'${n}'`).join(', ') : closestName(base, names);
  const hint =
    close === undefined ? '' : instances.length > 1 ? `; did you mean one of ${close}?` : `; did you mean ${instances.length ? close : `'${close}'`}?`;
  return domainError(`unknown ${kind} atom '${shown}' (the op \`atoms\` lists them)${hint}`);
}

/** The name nearest to `name` by edit distance (case-insensitive first), if near enough to be a likely typo. */
export function closestName(name: string, names: readonly string[]): string | undefined {
  if (name.length > 200) return undefined;
  const lower = name.toLowerCase();
  const same = names.find((n) => n.toLowerCase() === lower);
  if (same !== undefined) return same;
  const limit = Math.max(2, Math.floor(name.length / 4));
  let best: string | undefined;
  let bestD = limit + 1;
  for (const n of names) {
    if (Math.abs(n.length - name.length) >= bestD) continue;
    const dist = editDistance(lower, n.toLowerCase(), bestD);
    if (dist < bestD) {
      bestD = dist;
      best = n;
    }
  }
  return best;
}

/** Levenshtein distance of a and b, or any value ≥ cap once it is known to reach cap. */
function editDistance(a: string, b: string, cap: number): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin >= cap) return cap;
    prev = cur;
  }
  return prev[b.length]!;
}
