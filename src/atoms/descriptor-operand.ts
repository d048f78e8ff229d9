/**
 * Descriptor operands (docs/atoms.md, "Descriptor operands"): an MMA operand that the instruction reads from shared
 * memory through a matrix descriptor (GMMA `_SS` A and every GMMA B, UMMA `_SS` A and every UMMA B) is not held by
 * threads: every thread of the atom sees the whole tile, which its TV layout says with a stride-0 thread mode
 * (`(128,(64,16)):(0,(1,64))`). The layouts stay exact; this module says what they mean, for the pictures and the
 * CLI's text: the operand's tile split into the parts that one set of threads reads whole (one part for one atom;
 * one per atom tile of a tiled MMA; one per CTA of a `_2x1SM` atom).
 */
import { mode, size } from '../algebra/layout.js';
import { phiTable } from '../memory/access.js';
import type { Operand, TiledMma } from './tiled-mma.js';

/** One part of a descriptor operand's tile: the rectangle [i0, i1] × [j0, j1] of its (I, J) coordinates, read whole
 *  by each of `threads` (ascending). */
export interface DescriptorPart {
  readonly i: readonly [number, number];
  readonly j: readonly [number, number];
  readonly threads: readonly number[];
}

/** True when operand `x` of the tiled MMA's atom is given by a shared-memory descriptor. */
export const isDescriptorOperand = (m: TiledMma, x: Operand): boolean => x !== 'C' && m.atom.descriptors.includes(x);

/** (thread, cell) pairs checked at most (a byte each); beyond, the operand is drawn cell by cell as any other. */
const MAX_PAIRS = 1 << 24;

/**
 * The parts of descriptor operand `x` (A: (m, k), B: (n, k)) over the tile: the cells grouped by the lowest thread
 * that reads them, each group a rectangle that every one of its threads reads whole, exactly once per cell, ordered
 * by that lowest thread. Null when `x` is no descriptor operand, or the TV layout is not of this form (a permutation
 * that scatters an atom's tile, a thread that reads part of a group): the picture then draws its cells.
 */
export function descriptorParts(m: TiledMma, x: Operand): DescriptorPart[] | null {
  if (!isDescriptorOperand(m, x)) return null;
  const tv = x === 'A' ? m.layoutA_TV : m.layoutB_TV;
  const tI = m.tileShape[x === 'A' ? 0 : 1];
  const tJ = m.tileShape[2];
  const T = size(mode(tv, 1));
  const n = tI * tJ;
  if (size(tv) > MAX_PAIRS || T * n > MAX_PAIRS) return null;
  const tab = phiTable(tv);
  const low = new Int32Array(n).fill(-1);
  for (let p = 0; p < tab.length; p++) {
    const c = tab[p]!;
    const t = p % T;
    if (c >= n) return null;
    if (low[c] === -1 || t < low[c]!) low[c] = t;
  }
  // each group (by lowest thread): its bounding box, cells, and how many cells each of its threads reads
  const groups = new Map<number, { i0: number; i1: number; j0: number; j1: number; cells: number; reads: Map<number, number> }>();
  for (let c = 0; c < n; c++) {
    const g = low[c]!;
    if (g < 0) return null; // a cell no thread reads
    const i = c % tI;
    const j = (c - i) / tI;
    const h = groups.get(g);
    if (!h) groups.set(g, { i0: i, i1: i, j0: j, j1: j, cells: 1, reads: new Map() });
    else {
      h.i0 = Math.min(h.i0, i);
      h.i1 = Math.max(h.i1, i);
      h.j0 = Math.min(h.j0, j);
      h.j1 = Math.max(h.j1, j);
      h.cells++;
    }
  }
  const seen = new Uint8Array(T * n);
  for (let p = 0; p < tab.length; p++) {
    const c = tab[p]!;
    const t = p % T;
    const at = t * n + c;
    if (seen[at] !== 0) return null; // a thread that reads a cell twice
    seen[at] = 1;
    const r = groups.get(low[c]!)!.reads;
    r.set(t, (r.get(t) ?? 0) + 1);
  }
  const parts: DescriptorPart[] = [];
  for (const [, h] of [...groups.entries()].sort((a, b) => a[0] - b[0])) {
    if (h.cells !== (h.i1 - h.i0 + 1) * (h.j1 - h.j0 + 1)) return null;
    for (const k of h.reads.values()) if (k !== h.cells) return null;
    parts.push({ i: [h.i0, h.i1], j: [h.j0, h.j1], threads: [...h.reads.keys()].sort((a, b) => a - b) });
  }
  return parts;
}

/** Ascending integers as runs: `0–127, 256–383`. */
export function runsText(xs: readonly number[]): string {
  const out: string[] = [];
  for (let k = 0; k < xs.length; ) {
    let e = k;
    while (e + 1 < xs.length && xs[e + 1] === xs[e]! + 1) e++;
    out.push(e === k ? `${xs[k]}` : `${xs[k]}–${xs[e]}`);
    k = e + 1;
  }
  return out.join(', ');
}

/**
 * The one line that says what descriptor operand `x` is, e.g. `A: descriptor operand (smem), the whole 64×16 tile,
 * every thread`; for several parts, each part's rows and columns (m, k or n, k) and its threads. Undefined when `x`
 * is no descriptor operand or its parts are not of that form.
 */
export function descriptorLine(m: TiledMma, x: Operand): string | undefined {
  const parts = descriptorParts(m, x);
  if (!parts) return undefined;
  const tI = m.tileShape[x === 'A' ? 0 : 1];
  const tJ = m.tileShape[2];
  const head = `${x}: descriptor operand (smem)`;
  if (parts.length === 1 && parts[0]!.threads.length === m.T) return `${head}, the whole ${tI}×${tJ} tile, every thread`;
  const [iName, jName] = x === 'A' ? ['m', 'k'] : ['n', 'k'];
  const range = (r: readonly [number, number]): string => (r[0] === r[1] ? `${r[0]}` : `${r[0]}–${r[1]}`);
  const by = (ts: readonly number[]): string => `${ts.length === 1 ? 'thread' : 'threads'} ${runsText(ts)}`;
  const each = parts.map((p) => `${iName} ${range(p.i)} × ${jName} ${range(p.j)} by ${by(p.threads)}`);
  return `${head}, the ${tI}×${tJ} tile in ${parts.length} parts, each read whole: ${each.join('; ')}`;
}
