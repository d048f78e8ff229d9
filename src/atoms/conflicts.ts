/**
 * Bank conflicts of a tiled copy (docs/atoms.md, "Bank conflicts of a tiled copy"): the bank
 * model of docs/memory.md for a tiled copy over a shared-memory layout M, with the side, the
 * element size and the vector width taken from the atom. TV(t, w) is the column-major index in
 * shape(M) of the element that partition_{S|D}(C, t, make_layout(shape(M))) holds at flat
 * position w; e = b/8 bytes; v = NX, the values one thread moves per atom call. A thread whose
 * row in its atom call repeats a lower thread's (ldmatrix/stmatrix .x1 and .x2 take the
 * addresses of threads 0–7 and 0–15 only) does not access memory and is left out of every count.
 */
import { checkDeadline } from '../algebra/deadline.js';
import { LayoutError, domainError, counted as countedText } from '../algebra/errors.js';
import { flat, mode, modes, size, type Layout } from '../algebra/layout.js';
import { innerLayout, isComposed, type LayoutFunction } from '../cute/composed.js';
import { sourceLow, targetLow, topBit } from '../cute/swizzle.js';
import { accessOffsets, phiTable, phiTable32, Pool, Pool32, vectorWidth, type ThreadValues } from '../memory/access.js';
import { BankScratch, BANKS, bankCounts, instructions, onMachine, threadsPerPhase, type BankReport, type Instructions } from '../memory/banks.js';
import type { BankTarget, Machine } from '../memory/machines.js';
import { checkPoints } from './function-layout.js';
import { checkCopyTensor } from './partition.js';
import type { TiledCopy } from './tiled-copy.js';

/** Which side of a copy is shared memory. */
export type CopySide = 'src' | 'dst';

/** `domain` for a copy with no shared-memory side: SM100's tensor-memory loads and stores move data between TMEM
 *  and registers (docs/atoms.md, "SM100 tensor-memory copies"). */
function refuseTmem(name: string): void {
  if (name.startsWith('SM100_TMEM_')) throw domainError(`${name} moves data between tensor memory and registers: neither side is shared memory`);
}

/** The side by the atom's name: ldmatrix reads shared memory, stmatrix and cp.async write it. */
export function defaultSide(name: string): CopySide {
  refuseTmem(name);
  if (name.includes('LDSM')) return 'src';
  if (name.includes('STSM') || name.includes('CP_ASYNC')) return 'dst';
  throw domainError(`${name} does not say which side is shared memory: pass "src" or "dst"`);
}

/**
 * The side of a copy that is shared memory, checked against the atom: ldmatrix reads it (src; its
 * destination is registers), stmatrix and cp.async write it (dst; their source is registers and
 * global memory), movmatrix and shuffles move registers and SM100's LOAD/STORE global memory (no
 * side is); a universal copy may be either, so it needs the side. Else `domain` naming the memory.
 */
export function sharedSide(name: string, side?: CopySide): CopySide {
  const only: CopySide | null | undefined = name.includes('LDSM')
    ? 'src'
    : name.includes('STSM') || name.includes('CP_ASYNC')
      ? 'dst'
      : /MOVM|Shuffle|SM100_(?:LOAD|STORE)/.test(name)
        ? null
        : undefined;
  if (only === null)
    throw domainError(
      `${name} does not access shared memory (it moves ${/LOAD|STORE/.test(name) ? 'global memory' : 'registers'}): no bank conflicts to price`,
    );
  if (only === undefined) return side ?? defaultSide(name);
  if (side !== undefined && side !== only) {
    const what = name.includes('CP_ASYNC') ? 'global memory (cp.async reads global, writes shared)' : 'registers';
    throw domainError(`the ${side === 'src' ? 'source' : 'destination'} of ${name} is ${what}, not shared memory: its shared side is ${only}`);
  }
  return only;
}

/** Per atom thread a: whether it accesses memory (its row on that side repeats no lower thread's). */
export function activeAtomThreads(x: Layout, at: number): boolean[] {
  const hit = activeCache.get(x);
  if (hit) return hit;
  const out = activeOf(x, at);
  activeCache.set(x, out);
  return out;
}

const activeCache = new WeakMap<Layout, boolean[]>();

function activeOf(x: Layout, at: number): boolean[] {
  const tab = phiTable(x);
  const nx = tab.length / at;
  const rows = new Set<string>();
  const out: boolean[] = [];
  for (let a = 0; a < at; a++) {
    const row: number[] = [];
    for (let s = 0; s < nx; s++) row.push(tab[a + at * s]!);
    const key = row.join(',');
    out.push(!rows.has(key));
    rows.add(key);
  }
  return out;
}

/** The TV table of the whole tile: thread t's partition of make_layout(shape(M)), flattened:
 *  index[t + T·(w + W·j)] = the identity index of (τ(t, w) + tiler·q_j, e…) (partition.ts's map,
 *  for every thread at once: τ through a table of the tile, the rest as offsets). */
export function tileAccesses(c: TiledCopy, side: CopySide, m: LayoutFunction): TileAccesses {
  refuseTmem(c.atom.name);
  const inner = innerLayout(m);
  const ns = modes(inner).map(size);
  const what = 'copy_bank_conflicts';
  const s = side === 'src' ? 'S' : 'D';
  checkCopyTensor(c, ns, what);
  const key = `${s} ${ns.join(',')}`;
  const hit = accessCache.get(c);
  if (hit && hit.key === key) return hit.tvs;
  const tv = s === 'S' ? c.layoutS_TV : c.layoutD_TV;
  const T = c.threads;
  const W = size(mode(tv, 2));
  const r = c.tiler.length;
  // tile index → identity index, and the offsets of the rest (the tiles, then T's further modes)
  const tileSize = c.tiler.reduce((a, b) => a * b, 1);
  const idMap = new Float64Array(tileSize);
  for (let e = 0; e < tileSize; e++) {
    if ((e & 0xffff) === 0xffff) checkDeadline(what);
    let x = e;
    let id = 0;
    let p = 1;
    for (let i = 0; i < r; i++) {
      const ti = c.tiler[i]!;
      const ci = x % ti;
      x = (x - ci) / ti;
      id += p * ci;
      p *= ns[i]!;
    }
    idMap[e] = id;
  }
  const restShape = [...c.tiler.map((ti, i) => ns[i]! / ti), ...ns.slice(r)];
  const restStride: number[] = [];
  let p = 1;
  for (let i = 0; i < ns.length; i++) {
    restStride.push(i < r ? p * c.tiler[i]! : p);
    p *= ns[i]!;
  }
  const rest = phiTable({ shape: restShape, stride: restStride });
  const V = W * rest.length;
  checkPoints(T * V, what);
  const tab = phiTable(tv);
  const index = new Int32Array(T * V);
  let work = 0;
  for (let j = 0; j < rest.length; j++) {
    if ((work += T * W) >= 1 << 16) {
      work = 0;
      checkDeadline(what);
    }
    const off = rest[j]!;
    const base = T * W * j;
    for (let x = 0; x < T * W; x++) index[base + x] = idMap[tab[x]!]! + off;
  }
  const byThread = new Int32Array(T * V);
  for (let t = 0; t < T; t++) {
    if ((work += V) >= 1 << 16) {
      work = 0;
      checkDeadline(what);
    }
    for (let j = 0; j < V; j++) byThread[t * V + j] = index[t + T * j]!;
  }
  const tvs = { threads: T, values: V, index, byThread };
  accessCache.set(c, { key, tvs });
  return tvs;
}

/** The last tile's accesses of each tiled copy (a copy is analysed over many memory layouts of one
 *  shape, e.g. swizzle candidates): the side and shape they are for, and the table. */
const accessCache = new WeakMap<TiledCopy, { key: string; tvs: TileAccesses }>();

/** The identity indices of every (thread, value) of the tile: value-major (t + T·j) and thread-major (t·V + j). */
export interface TileAccesses {
  readonly threads: number;
  readonly values: number;
  readonly index: Int32Array;
  readonly byThread: Int32Array;
}

/**
 * copy_bank_conflicts(C, M[, side]) (docs/atoms.md, "Bank conflicts of a tiled copy"): the
 * `bank_conflicts` object. Errors: `domain` (no side for this atom or a TMEM copy, a value size that is not
 * 8, 16, 32, 64 or 128 bits, vectors that are not contiguous and aligned in M), those of
 * partition_S/D.
 */
export function copyBankConflicts(c: TiledCopy, m: LayoutFunction, side?: CopySide, machine?: Machine): BankReport {
  return copyBankAnalysis(c, m, side, machine).report;
}

/** What copyBankConflicts priced: the side, the tile's accesses and the instructions (live lanes marked; their
 *  addresses are scratch, valid until the next analysis), for the per-instruction table and the picture. */
export interface CopyBankAnalysis {
  readonly report: BankReport;
  readonly side: CopySide;
  readonly accesses: TileAccesses;
  readonly instructions: Instructions;
}

/** copyBankConflicts with what it priced (CopyBankAnalysis); the same errors. */
export function copyBankAnalysis(c: TiledCopy, m: LayoutFunction, side?: CopySide, machine?: Machine): CopyBankAnalysis {
  refuseTmem(c.atom.name);
  const sd = sharedSide(c.atom.name, side);
  // on another machine than NVIDIA's, only the universal copies (a plain load or store of each thread's values) exist;
  // the direction is the side's: shared memory as the source is a read (docs/memory.md "Machines")
  if (machine !== undefined && machine.vendor !== 'nvidia' && !/^(UniversalCopy|DefaultCopy|AutoVectorizingCopy)/.test(c.atom.name))
    throw domainError(`${c.atom.name} is an NVIDIA instruction; ${machine.name} has only the universal copies (ds_read / ds_write)`);
  // an NVIDIA atom needs its compute capability: SM90_…_STSM (stmatrix) is no instruction of sm80
  const need = /^SM(\d+)_/.exec(c.atom.name);
  if (machine !== undefined && machine.vendor === 'nvidia' && need && Number(need[1]) > Number(machine.name.slice(2)))
    throw domainError(`${c.atom.name} needs sm${need[1]} or later; ${machine.name} does not have it`);
  const target: BankTarget | undefined = machine && { machine, access: sd === 'src' ? 'read' : 'write' };
  const bits = c.atom.bits;
  const e = bits / 8;
  if (!Number.isInteger(e) || ![1, 2, 4, 8, 16].includes(e)) {
    throw domainError(`a ${bits}-bit value is not 1, 2, 4, 8 or 16 bytes: the bank model needs one of them`);
  }
  const x = sd === 'src' ? c.atom.src : c.atom.dst;
  const at = size(c.atom.thrID);
  const nx = size(mode(x, 2));
  if (nx * e > 16) throw domainError(`${c.atom.name} moves ${nx * e} bytes per thread per call; the bank model covers accesses of at most 16 bytes`);
  const tvs = tileAccesses(c, sd, m);
  if (tvs.values % nx !== 0) throw new LayoutError('domain', `each thread holds ${countedText(tvs.values, 'value')}, not a multiple of the atom's ${nx}`);
  const ins = fastInstructions(m, tvs, e, nx) ?? generalInstructions(m, tvs, e, nx);
  const v = nx;
  const active = activeAtomThreads(x, at);
  const live = (t: number): boolean => active[t % at]!;
  // a thread whose row repeats a lower one's accesses nothing (Instructions.live): left out of every count
  let counted = ins;
  if (!active.every((a) => a)) {
    const mask = new Uint8Array(ins.threads);
    for (let t = 0; t < ins.threads; t++) mask[t] = active[t % at] ? 1 : 0;
    const { width, vector, threads, warps, perWarp, addr } = ins; // (an object spread here costs more than the rest)
    counted = { width, vector, threads, warps, perWarp, addr, live: mask };
  }
  const on = onMachine(counted, target);
  if (on) return { report: on, side: sd, accesses: tvs, instructions: counted };
  const { phases, wavefronts, worst, sectors, minSectors } = bankCounts(counted, scratch);
  const w = wavefronts > phases ? worstPhase(ins, worst, live) : null;
  const report = { vector: v, instructions: ins.warps * ins.perWarp, phases, wavefronts, conflicts: wavefronts - phases, worst: w, sectors, minSectors };
  return { report, side: sd, accesses: tvs, instructions: counted };
}

/** Threads per warp (memory/banks.ts's WARP, a local constant in the hot loops). */
const WARP = 32;

// scratch of one analysis, reused by the next (copyBankConflicts is synchronous)
const pools = { table: new Pool32(), addr: new Pool() };
const scratch = new BankScratch();

/** The fused paths (as memory/banks.ts's, over the thread-major table: each thread's values in a
 *  row): the byte address of every vector, checked contiguous and aligned; null when they do not
 *  apply (then the general path decides and names the culprit). */
function fastInstructions(m: LayoutFunction, tvs: TileAccesses, e: number, v: number): Instructions | null {
  if ((v & (v - 1)) !== 0 || v * e > 16) return null; // the general path names the width's problem
  return vectorInstructions(m, tvs, e, v) ?? tableInstructions(m, tvs, e, v);
}

/**
 * The vectors' first values in M's flat coordinates, for the layouts of one flat shape (cached per tile of accesses:
 * a copy is analysed over many swizzles of one tile). Vector j = (t, q) holds the values t·V + q·v + i, i < v.
 * `steps`: the flat modes along which some vector's v values step by one coordinate without leaving the mode (their
 * identity indices idx₀ + i·σ_k, σ_k = n₀⋯n_{k−1}, c_k(idx₀) + v − 1 < n_k); `allStep` whether every vector does.
 */
interface VectorStarts {
  readonly key: string;
  readonly rank: number;
  readonly coords: Int32Array;
  readonly steps: readonly number[];
  readonly allStep: boolean;
}

const vectorCache = new WeakMap<TileAccesses, VectorStarts>();

function vectorStarts(tvs: TileAccesses, shapes: readonly number[], v: number): VectorStarts {
  const key = `${shapes.join(',')}/${v}`;
  const hit = vectorCache.get(tvs);
  if (hit && hit.key === key) return hit;
  const r = shapes.length;
  const sigma: number[] = [];
  let p = 1;
  for (const n of shapes) {
    sigma.push(p);
    p *= n;
  }
  const { byThread } = tvs;
  const nVec = byThread.length / v;
  const coords = new Int32Array(nVec * r);
  const used = new Set<number>();
  let allStep = true;
  for (let j = 0; j < nVec; j++) {
    if ((j & 0xfff) === 0xfff) checkDeadline('copy_bank_conflicts');
    const at = j * v;
    let x = byThread[at]!;
    for (let k = 0; k < r; k++) {
      const c = x % shapes[k]!;
      coords[j * r + k] = c;
      x = (x - c) / shapes[k]!;
    }
    if (v === 1) continue;
    const step = byThread[at + 1]! - byThread[at]!;
    let k = -1;
    for (let q = 0; q < r && k < 0; q++) if (sigma[q] === step && shapes[q]! > 1) k = q;
    let ok = k >= 0 && coords[j * r + k]! + v - 1 < shapes[k]!;
    for (let i = 2; i < v && ok; i++) ok = byThread[at + i]! === byThread[at]! + i * step;
    if (!ok) {
      allStep = false; // the table path decides every vector: the rest need no coordinates
      break;
    }
    used.add(k);
  }
  const out = { key, rank: r, coords, steps: [...used], allStep };
  vectorCache.set(tvs, out);
  return out;
}

/**
 * The structural path: Φ_M at each vector's first value only, from its flat coordinates. Its v values are then
 * contiguous in M without being evaluated when each steps by one along a flat mode of stride 1 (vectorStarts) and the
 * swizzle neither reads nor writes the bits below log₂ v: with K + Φ(idx₀) aligned to v, adding i < v changes only
 * those bits, so Sw(K + Φ(idx₀ + i·σ_k)) = Sw(K + Φ(idx₀)) + i. Null when it does not apply (the table path decides).
 */
export function vectorInstructions(m: LayoutFunction, tvs: TileAccesses, e: number, v: number): Instructions | null {
  const { shapes, strides } = flat(innerLayout(m));
  const vs = vectorStarts(tvs, shapes, v);
  if (!vs.allStep || vs.steps.some((k) => strides[k] !== 1)) return null;
  const sw32 = swizzle32(m, Math.log2(v));
  if (sw32 === null) return null;
  const { k: k0, mask, r: rs, l: ls } = sw32;
  const { threads: T, values: V } = tvs;
  const { rank: r, coords } = vs;
  const warps = Math.ceil(T / WARP);
  const perWarp = V / v;
  const addr = pools.addr.get(warps * perWarp * WARP);
  for (let t = 0; t < T; t++) {
    if ((t & 0x3f) === 0x3f) checkDeadline('copy_bank_conflicts');
    const g = (t / WARP) | 0;
    const lane = t & (WARP - 1);
    for (let q = 0; q < perWarp; q++) {
      const j = t * perWarp + q;
      let y = k0;
      for (let i = 0; i < r; i++) y += coords[j * r + i]! * strides[i]!;
      if (!(y >= 0 && y < 2 ** 30)) return null;
      const o = y ^ (((y & mask) >>> rs) << ls);
      if ((o & (v - 1)) !== 0) return null;
      addr[((g * perWarp + q) << 5) + lane] = e * o;
    }
  }
  return { width: v * e, vector: v, threads: T, warps, perWarp, addr };
}

/**
 * M's offset K and swizzle as 32-bit operations: Sw(y) = y ^ (((y & mask) >>> r) << l) for y < 2^30 (a plain M: the
 * identity, K = 0). Null when the swizzle reaches past bit 30, or reads or writes a bit below `low` (the structural
 * path needs the bits below log₂ v untouched; the table path passes 0).
 */
function swizzle32(m: LayoutFunction, low: number): { k: number; mask: number; r: number; l: number } | null {
  if (!isComposed(m)) return { k: 0, mask: 0, r: 0, l: 0 };
  const sw = m.swizzle;
  if (sw.bits === 0) return { k: m.offset, mask: 0, r: 0, l: 0 };
  if (topBit(sw) > 30 || sourceLow(sw) < low || targetLow(sw) < low) return null;
  return { k: m.offset, mask: ((1 << sw.bits) - 1) << sourceLow(sw), r: Math.max(0, sw.shift), l: Math.max(0, -sw.shift) };
}

/** The table path: Φ_M by a 32-bit table, the vector check and the byte addresses in one pass. */
export function tableInstructions(m: LayoutFunction, tvs: TileAccesses, e: number, v: number): Instructions | null {
  const inner = innerLayout(m);
  const table = phiTable32(inner, pools.table);
  if (table === null) return null;
  const sw32 = swizzle32(m, 0);
  if (sw32 === null) return null;
  const { k, mask, r, l } = sw32;
  const { threads: T, values: V, byThread } = tvs;
  const warps = Math.ceil(T / WARP);
  const perWarp = V / v;
  const addr = pools.addr.get(warps * perWarp * WARP);
  let steps = 0;
  for (let t = 0; t < T; t++) {
    const g = (t / WARP) | 0;
    const lane = t & (WARP - 1);
    for (let q = 0; q < perWarp; q++) {
      if ((++steps & 0xfff) === 0) checkDeadline('copy_bank_conflicts');
      const at = t * V + q * v;
      const y = table[byThread[at]!]! + k;
      if (!(y >= 0 && y < 2 ** 30)) return null;
      const o = y ^ (((y & mask) >>> r) << l);
      if ((o & (v - 1)) !== 0) return null;
      for (let i = 1; i < v; i++) {
        const yi = table[byThread[at + i]!]! + k;
        if (!(yi >= 0 && yi < 2 ** 30) || (yi ^ (((yi & mask) >>> r) << l)) !== o + i) return null;
      }
      addr[((g * perWarp + q) << 5) + lane] = e * o;
    }
  }
  return { width: v * e, vector: v, threads: T, warps, perWarp, addr };
}

/** The general path: offsets, the vector check (`domain` naming the thread), the instructions. */
function generalInstructions(m: LayoutFunction, tvs: TileAccesses, e: number, v: number): Instructions {
  const t: ThreadValues = { threads: tvs.threads, values: tvs.values, index: Float64Array.from(tvs.index) };
  const offsets = accessOffsets(m, t);
  return instructions(offsets, t, e, vectorWidth(offsets, t, e, v));
}

/** The lanes of instruction row `row` of warp g in phase f (first, count). */
function phaseLanes(ins: Instructions, g: number, f: number): { first: number; n: number } {
  const tpp = threadsPerPhase(ins.width);
  const lanes = Math.min(WARP, ins.threads - g * WARP);
  return { first: f * tpp, n: Math.min(tpp, lanes - f * tpp) };
}

/** The worst phase's lowest bank with that many distinct words, and the live threads on it. */
function worstPhase(
  ins: Instructions,
  worst: { warp: number; instruction: number; phase: number; wavefronts: number },
  live: (t: number) => boolean,
): NonNullable<BankReport['worst']> {
  const { warp: g, instruction: k, phase: f, wavefronts: c } = worst;
  const row = (g * ins.perWarp + k) * WARP;
  const { first, n } = phaseLanes(ins, g, f);
  const per = ins.width <= 4 ? 1 : ins.width / 4;
  const wordsOf = (lane: number): number[] => {
    const w0 = Math.floor(ins.addr[row + lane]! / 4);
    return Array.from({ length: per }, (_, q) => w0 + q);
  };
  const byBank = new Map<number, Set<number>>();
  const lanes: number[] = [];
  for (let i = first; i < first + n; i++) if (live(g * WARP + i)) lanes.push(i);
  for (const i of lanes) {
    for (const w of wordsOf(i)) {
      const b = w % BANKS;
      if (!byBank.has(b)) byBank.set(b, new Set());
      byBank.get(b)!.add(w);
    }
  }
  let bank = -1;
  for (let b = 0; b < BANKS && bank < 0; b++) if ((byBank.get(b)?.size ?? 0) === c) bank = b;
  const threads = lanes.filter((i) => wordsOf(i).some((w) => w % BANKS === bank)).map((i) => g * WARP + i);
  return { instruction: k, warp: g, phase: f, bank, wavefronts: c, threads };
}
