/**
 * Bank conflicts of a Triton conversion (docs/linear.md, "Bank conflicts of a conversion"): a
 * register layout R writing into (or reading from) a shared layout S, priced by the memory
 * model of `bank_conflicts` (docs/memory.md): TV(t, j) = the tile index of R(register = j,
 * lane = t mod lanes, warp = ⌊t / lanes⌋), M(c) = the smallest offset o with S(o) = c.
 *
 * Both maps are F2-linear, so the element offset of every (thread, value) is the XOR of the
 * offsets of the set bits of its index t + T·j: the table is built bit by bit, without asking
 * for a CuTe form of R or S (which may not exist), and handed to the memory model directly.
 */
import { checkDeadline } from '../algebra/deadline.js';
import { LayoutError } from '../algebra/errors.js';
import { checkElementSize, vectorWidth, type ThreadValues } from '../memory/access.js';
import { BankScratch, bankCounts, instructions, onMachine, worstBank, type BankReport, type Instructions } from '../memory/banks.js';
import type { BankTarget } from '../memory/machines.js';
import { MAX_ACCESSES } from '../memory/access.js';
import { smallestPreimages } from './bridge.js';
import { isSurjective } from './operations.js';
import { log2, type LinearLayout } from './value.js';

const domain = (msg: string): LayoutError => new LayoutError('domain', msg);

const REGISTER_DIMS = ['register', 'lane', 'warp', 'block'];

/** The out-dims of a layout by index (dim0 … dim(k−1), any order): their positions in L, or null. */
function dimPositions(l: LinearLayout): number[] | null {
  const k = l.outDims.length;
  const at = new Array<number>(k).fill(-1);
  for (let j = 0; j < k; j++) {
    const m = /^dim(0|[1-9][0-9]*)$/.exec(l.outDims[j]!.name);
    const d = m ? Number(m[1]) : -1;
    if (d < 0 || d >= k) return null;
    at[d] = j;
  }
  return at;
}

/** The tile index (dim0 fastest) of a basis, the dims taken by name. */
function tileIndex(basis: readonly number[], pos: readonly number[], sizes: readonly number[]): number {
  let v = 0;
  let scale = 1;
  for (let d = 0; d < pos.length; d++) {
    v += basis[pos[d]!]! * scale;
    scale *= sizes[d]!;
  }
  return v;
}

/** XOR of the images of the set bits of x (x below 2^31). */
function xorImages(images: readonly number[], x: number): number {
  let v = 0;
  for (let i = 0; x !== 0; i++, x >>>= 1) if ((x & 1) !== 0) v ^= images[i]!;
  return v;
}

/** The accesses of R into S: the tile index and the element offset of (t, j) at t + T·j. */
export interface ConversionAccesses {
  readonly threads: number;
  readonly values: number;
  readonly index: Float64Array;
  readonly offsets: Float64Array;
}

/**
 * The accesses of a register LL R to a shared LL S (docs/linear.md): R's in-dims among register,
 * lane, warp, block and S's offset and block (block of size 1 in both), the same out-dims dim0 …
 * with the same sizes, S surjective; else `domain`. Beyond 2^24 (thread, value) pairs: `overflow`.
 */
export function conversionAccesses(r: LinearLayout, s: LinearLayout): ConversionAccesses {
  const rPos = dimPositions(r);
  const sPos = dimPositions(s);
  if (rPos === null || rPos.length === 0) throw domain("ll_bank_conflicts: R's out-dims must be exactly dim0 … dim(k-1)");
  if (sPos === null || sPos.length !== rPos.length) throw domain('ll_bank_conflicts: S must have the same out-dims as R (dim0 … dim(k-1))');
  const sizes = rPos.map((j) => r.outDims[j]!.size);
  sPos.forEach((j, d) => {
    if (s.outDims[j]!.size !== sizes[d]) throw domain(`ll_bank_conflicts: dim${d} has size ${sizes[d]} in R but ${s.outDims[j]!.size} in S`);
  });
  for (const d of r.inDims) {
    if (!REGISTER_DIMS.includes(d.name)) throw domain(`ll_bank_conflicts: R's in-dim '${d.name}' is not one of register, lane, warp, block`);
  }
  for (const d of s.inDims) if (d.name !== 'offset' && d.name !== 'block') throw domain(`ll_bank_conflicts: S's in-dim '${d.name}' is not offset or block`);
  const bases = (l: LinearLayout, name: string): readonly (readonly number[])[] => l.inDims.find((d) => d.name === name)?.bases ?? [];
  if (bases(r, 'block').length > 0 || bases(s, 'block').length > 0) {
    throw domain('ll_bank_conflicts: the model is per CTA, so the block in-dims must have size 1');
  }
  const offset = s.inDims.find((d) => d.name === 'offset');
  if (offset === undefined) throw domain('ll_bank_conflicts: S has no offset in-dim');
  if (!isSurjective(s)) throw domain('ll_bank_conflicts: S is not surjective, so some element of the tile has no offset');
  const tileBits = sizes.reduce((a, n) => a + log2(n), 0);
  const lane = bases(r, 'lane');
  const warp = bases(r, 'warp');
  const reg = bases(r, 'register');
  if (lane.length + warp.length + reg.length > log2(MAX_ACCESSES)) {
    throw new LayoutError('overflow', `ll_bank_conflicts: ${2 ** (lane.length + warp.length + reg.length)} (thread, value) pairs; at most 2^24 are analysed`);
  }
  // S's in-bits as tile indices (below 2^30: surjective means no more out-bits than offset bits)
  const m = smallestPreimages(
    offset.bases.map((b) => tileIndex(b, sPos, sizes)),
    tileBits,
  )!;
  const idxImg = [...lane, ...warp, ...reg].map((b) => tileIndex(b, rPos, sizes));
  const offImg = idxImg.map((c) => xorImages(m, c));
  const threads = 2 ** (lane.length + warp.length);
  const values = 2 ** reg.length;
  const n = threads * values;
  const index = new Float64Array(n);
  const offsets = new Float64Array(n);
  for (let k = 0, p = 1; k < idxImg.length; k++, p *= 2) {
    const ci = idxImg[k]!;
    const oi = offImg[k]!;
    for (let x = 0; x < p; x++) {
      index[p + x] = (index[x]! ^ ci) >>> 0;
      offsets[p + x] = (offsets[x]! ^ oi) >>> 0;
      if ((x & 0xffff) === 0xffff) checkDeadline('the accesses of ll_bank_conflicts');
    }
  }
  return { threads, values, index, offsets };
}

/**
 * The accesses of a register LL R alone (as conversionAccesses reads R): TV(t, j) = the tile index (dim0 fastest) of
 * R(register = j, lane = t mod lanes, warp = ⌊t / lanes⌋), for a search over the shared layouts R may write.
 * Errors: `domain` (out-dims not dim0 …, in-dims not register, lane, warp, a block of more than one), `overflow`.
 */
export function registerAccesses(r: LinearLayout): { threads: number; values: number; index: Float64Array } {
  const rPos = dimPositions(r);
  if (rPos === null || rPos.length === 0) throw domain("R's out-dims must be exactly dim0 … dim(k-1)");
  for (const d of r.inDims) if (!REGISTER_DIMS.includes(d.name)) throw domain(`R's in-dim '${d.name}' is not one of register, lane, warp, block`);
  const bases = (name: string): readonly (readonly number[])[] => r.inDims.find((d) => d.name === name)?.bases ?? [];
  if (bases('block').length > 0) throw domain('the model is per CTA, so the block in-dim must have size 1');
  const sizes = rPos.map((j) => r.outDims[j]!.size);
  const imgs = [...bases('lane'), ...bases('warp'), ...bases('register')].map((b) => tileIndex(b, rPos, sizes));
  if (imgs.length > log2(MAX_ACCESSES)) throw new LayoutError('overflow', `${2 ** imgs.length} (thread, value) pairs; at most 2^24 are analysed`);
  const index = new Float64Array(2 ** imgs.length);
  for (let k = 0, p = 1; k < imgs.length; k++, p *= 2) {
    for (let x = 0; x < p; x++) {
      index[p + x] = (index[x]! ^ imgs[k]!) >>> 0;
      if ((x & 0xffff) === 0xffff) checkDeadline('the accesses of R');
    }
  }
  return { threads: 2 ** (bases('lane').length + bases('warp').length), values: 2 ** bases('register').length, index };
}

/**
 * ll_bank_conflicts (docs/linear.md, "Bank conflicts of a conversion"): `bank_conflicts` on the
 * functions TV and M of a register LL R and a shared LL S, with e bytes per element and v values
 * per instruction (default: the widest contiguous, aligned vector); T = lanes · warps threads in
 * warps of 32, or in the target's waves (docs/memory.md "Machines"). Same result and errors as bank_conflicts; it answers also when R or S has no CuTe
 * form. Errors of the LLs: `domain` (conversionAccesses).
 * @example llBankConflicts(mmaAccumulator, rowMajorShared16x8, 2).wavefronts // 2
 */
export function llBankConflicts(r: LinearLayout, s: LinearLayout, e: number, v?: number, target?: BankTarget): BankReport {
  return llBankAnalysis(r, s, e, v, target).report;
}

/** llBankConflicts with what it priced: the accesses and the instructions (for the per-instruction table). */
export function llBankAnalysis(
  r: LinearLayout,
  s: LinearLayout,
  e: number,
  v?: number,
  target?: BankTarget,
): { report: BankReport; accesses: ConversionAccesses; instructions: Instructions } {
  checkElementSize(e);
  const acc = conversionAccesses(r, s);
  const tvs: ThreadValues = { threads: acc.threads, values: acc.values, index: acc.index };
  const vector = vectorWidth(acc.offsets, tvs, e, v);
  const ins = instructions(acc.offsets, tvs, e, vector);
  const on = onMachine(ins, target);
  if (on) return { report: on, accesses: acc, instructions: ins };
  const { phases, wavefronts, worst, sectors, minSectors } = bankCounts(ins, new BankScratch());
  let w: BankReport['worst'] = null;
  if (wavefronts > phases) {
    const { bank, threads } = worstBank(ins, worst.warp, worst.instruction, worst.phase, worst.wavefronts);
    w = { instruction: worst.instruction, warp: worst.warp, phase: worst.phase, bank, wavefronts: worst.wavefronts, threads };
  }
  const report = { vector, instructions: ins.warps * ins.perWarp, phases, wavefronts, conflicts: wavefronts - phases, worst: w, sectors, minSectors };
  return { report, accesses: acc, instructions: ins };
}
