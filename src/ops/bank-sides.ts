/**
 * Every side form of a bank analysis, read by one function (docs/memory.md; docs/atoms.md, "Bank
 * conflicts of a tiled copy"; docs/linear.md, "Bank conflicts of a conversion"), so that `conflicts`,
 * `verify conflict-free` and the page price the same access the same way:
 * - `tv`: a TV layout (thread, value) → tile index into a memory layout M, e bytes, v values;
 * - `copy`: a tiled copy over the whole tile of M (copy_bank_conflicts: the side, e and v from the atom);
 * - `mma`: an MMA operand over the whole tile of M: TV(t, j) = the tile index that value j of thread t's
 *   partition_A/B/C of make_layout(shape(M)) holds (e from the atom's value type unless given);
 * - `ll`: a register LL (or #ttg encoding) R writing a shared LL (or #ttg shared encoding) S (ll_bank_conflicts);
 *   an encoding takes the tensor shape (`128x64`, `[128,64]`, `tensor<128x64xf16>`, whose type also gives e).
 * M (and S) is its text, or a layout already read (the page's M, a search's candidate): S then is its shared LL
 * (to_ll M shared) and is drawn as M. The atoms' and linear layouts' rooms are reached through import()
 * (ops/lazy.ts): `loadBankSides` first.
 */
import { checkDeadline } from '../algebra/deadline.js';
import { LayoutError, domainError, counted, badRequestError } from '../algebra/errors.js';
import { makeLayout, modes, phi, size, type Layout } from '../algebra/layout.js';
import { colMajorStride } from '../algebra/notation.js';
import { formatLayoutFunction, innerLayout, type LayoutFunction } from '../cute/composed.js';
import { readLayoutFunction } from './args.js';
import { accessOffsets, threadValues, vectorWidth, type ThreadValues } from '../memory/access.js';
import { injectiveInner, NOT_INJECTIVE, type CandidateResult, type TablePattern } from '../memory/search.js';
import {
  bankConflicts,
  bankReportOf,
  bankWays,
  instructionRows,
  instructions,
  tileBanks,
  type BankReport,
  type InstructionRow,
  type Instructions,
} from '../memory/banks.js';
import type { Operand } from '../atoms/tiled-mma.js';
import type { CopySide } from '../atoms/conflicts.js';
import type { LinearLayout } from '../linear/value.js';
import type { BankTarget } from '../memory/machines.js';
import { lazyModule } from './lazy.js';
import { loadTiled, tiledCopyArg, tiledMmaArg } from './tiled.js';

/** the rooms of the copy, MMA and LL forms, loaded on first use */
const rooms = lazyModule(async () => ({
  ...(await import('../atoms/partition.js')),
  ...(await import('../atoms/conflicts.js')),
  ...(await import('../linear/banks.js')),
  ...(await import('../linear/bridge.js')),
  ...(await import('../linear/encodings.js')),
  ...(await import('../linear/forms.js')),
  ...(await import('../linear/attr.js')),
}));

let loaded = false;

/**
 * Settles once every side form can be read (bankSide is synchronous after it); undefined once it has, or for `tv`, a
 * TV layout, which needs neither room (the page reads its default form without loading them).
 */
export function loadBankSides(form?: BankSideForm['form']): Promise<void> | undefined {
  if (loaded || form === 'tv') return undefined;
  return Promise.all([rooms.load(), loadTiled()]).then(() => {
    loaded = true;
  });
}

/** A memory layout: its text, or the layout read (see the header). */
type Memory = string | LayoutFunction;
/** A tiled copy's or tiled MMA's JSON object (the protocol's), or its text. */
type Tiled = string | Readonly<Record<string, unknown>>;

/** A side as written: the texts and options of one of the four forms (see the header). */
export type BankSideForm =
  | { readonly form: 'tv'; readonly m: Memory; readonly tv: string; readonly elem?: number; readonly vec?: number }
  | { readonly form: 'copy'; readonly copy: Tiled; readonly m: Memory; readonly side?: string }
  | { readonly form: 'mma'; readonly mma: Tiled; readonly operand: string; readonly m: Memory; readonly elem?: number; readonly vec?: number }
  | { readonly form: 'll'; readonly r: string; readonly s: Memory; readonly shape?: string; readonly elem?: number; readonly vec?: number };

/** Every side form, in the order the page offers them. */
export const SIDE_FORMS: readonly BankSideForm['form'][] = ['tv', 'copy', 'mma', 'll'];

/** A picture of the analysis over M: the bank of every cell, the conflict it met, and the accesses (for `--label tv`). */
export interface BankSidePicture {
  readonly memory: LayoutFunction;
  readonly bank: Int32Array;
  readonly ways: Int32Array;
  readonly accesses: ThreadValues;
}

/** What a side form priced: one line saying what and which side, the report, the per-instruction table, e. */
export interface BankSide {
  readonly heading: string;
  /** the pictures' caption: `banks of M, e-byte elements` (as the page's memory panel writes it) and what priced it */
  readonly caption: string;
  readonly report: BankReport;
  readonly rows: InstructionRow[];
  readonly elem: number;
  /** null where the memory has no CuTe layout to draw (an LL S without one) or no picture was asked for */
  readonly picture: BankSidePicture | null;
}

const memoryOf = (m: Memory, what: string): LayoutFunction => (typeof m === 'string' ? readLayoutFunction(m, what) : m);

/** The bits of an MMA atom's operand from its name's types (D, A, B[, C]: `F32F16F16F32`, GMMA's `F32F16F16`), else null. */
export function mmaOperandBits(atom: string, x: Operand): number | null {
  const types = /_((?:BF16|TF32|F64|F32|F16|E4M3|E5M2|E3M2|E2M3|E2M1|S32|S8|U8|S4|U4|B1)+)(?:_|$)/.exec(atom)?.[1];
  if (types === undefined) return null;
  const ts = types.match(/BF16|TF32|F64|F32|F16|E4M3|E5M2|E3M2|E2M3|E2M1|S32|S8|U8|S4|U4|B1/g)!;
  if (ts.length !== 3 && ts.length !== 4) return null;
  const t = x === 'A' ? ts[1]! : x === 'B' ? ts[2]! : (ts[3] ?? ts[0]!);
  const fp = /^E(\d)M(\d)$/.exec(t);
  return fp ? 1 + Number(fp[1]) + Number(fp[2]) : Number(/\d+$/.exec(t)![0]);
}

/** e bytes from bits, when they are a whole element size of the bank model. */
function bytesOf(bits: number, what: string): number {
  const e = bits / 8;
  if (![1, 2, 4, 8, 16].includes(e)) throw domainError(`${what} are ${bits}-bit values, not 1, 2, 4, 8 or 16 bytes: give the element size (--elem)`);
  return e;
}

/** The analysis of instructions over the tile accesses `tvs` of M (the picture only when asked: the addresses are scratch). */
function priced(
  heading: string,
  m: LayoutFunction | null,
  tvs: ThreadValues,
  ins: Instructions,
  report: BankReport,
  e: number,
  draw: boolean,
  by: string,
  target: BankTarget | undefined,
): BankSide {
  const rows = instructionRows(ins, target);
  let picture: BankSidePicture | null = null;
  if (draw && m !== null) {
    const n = size(innerLayout(m));
    picture = { memory: m, bank: tileBanks(m, e, n, target), ways: bankWays(ins, tvs.index, n, target), accesses: tvs };
  }
  const caption = m === null ? `banks of ${heading}` : `banks of ${formatLayoutFunction(m)}, ${e}-byte elements${by}`;
  return { heading, caption, report, rows, elem: e, picture };
}

/** The TV table of an MMA operand over the whole tile of M: value j of thread t is the tile index of its partition's j. */
function mmaAccesses(
  form: Omit<Extract<BankSideForm, { form: 'mma' }>, 'm'>,
  m: LayoutFunction,
): { tvs: ThreadValues; x: Operand; atom: string; threads: number } {
  if (form.operand !== 'A' && form.operand !== 'B' && form.operand !== 'C') throw badRequestError(`the operand must be A, B or C, got '${form.operand}'`);
  const x = form.operand;
  const tiled = tiledMmaArg(form.mma);
  const shape = modes(innerLayout(m)).map(size);
  const identity: Layout = makeLayout(shape.length === 1 ? shape[0]! : shape, colMajorStride(shape.length === 1 ? shape[0]! : shape));
  const T = tiled.threads;
  const parts = Array.from({ length: T }, (_, t) => rooms.get().partitionMma(tiled, x, t, identity));
  const V = size(innerLayout(parts[0]!.layout));
  const index = new Float64Array(T * V);
  parts.forEach((p, t) => {
    const l = innerLayout(p.layout);
    for (let j = 0; j < V; j++) index[t + T * j] = p.offset + phi(l, j);
  });
  return { tvs: { threads: T, values: V, index }, x, atom: tiled.atom.name, threads: T };
}

/** An LL argument: any LL form, or a #ttg encoding over the shape (an encoding needs it). */
function llOf(text: string, shape: number[] | undefined, what: string): LinearLayout {
  const R = rooms.get();
  const t = text.trim();
  if (t.startsWith('#')) {
    const a = R.parseAttr(t, what);
    if (a.dialect === 'ttg' && a.name !== 'linear' && a.name !== 'shared_linear') {
      if (shape === undefined) throw badRequestError(`${what} is the encoding #ttg.${a.name}: give the tensor shape (--shape 128x64 or tensor<128x64xf16>)`);
      return R.llFromEncoding(t, shape);
    }
  }
  return R.parseLL(text);
}

/**
 * Prices one side form (see the header) on the target's machine (docs/memory.md "Machines"; absent: §9.2's NVIDIA
 * model; a tiled copy's direction is its side's); `draw` also makes the picture over M where M is a CuTe layout.
 * Errors: those of bank_conflicts, copy_bank_conflicts (a side that is not shared memory: `domain`), partition_A/B/C
 * and ll_bank_conflicts; `bad-request` for an element size that is neither given nor said by the form.
 * @example bankSide({ form: 'tv', m: '(8,64):(64,1)', tv: '(32,4):(4,1)', elem: 2 }).report.vector // 4
 */
export function bankSide(form: BankSideForm, draw = false, target?: BankTarget): BankSide {
  checkDeadline('the bank analysis');
  if (form.form === 'tv') {
    const m = memoryOf(form.m, 'M');
    const tv = readLayoutFunction(form.tv, 'TV');
    if (form.elem === undefined) throw badRequestError('a TV layout needs the element size (--elem <bytes>)');
    const report = bankConflicts(m, tv, form.elem, form.vec, target);
    const tvs = threadValues(tv);
    const ins = instructions(accessOffsets(m, tvs), tvs, form.elem, report.vector);
    const head = `${formatLayoutFunction(m)} accessed through ${formatLayoutFunction(tv)}, ${form.elem}-byte elements`;
    return priced(head, m, tvs, ins, report, form.elem, draw, '', target);
  }
  if (form.form === 'copy') {
    const c = tiledCopyArg(form.copy);
    const m = memoryOf(form.m, 'M');
    if (form.side !== undefined && form.side !== 'src' && form.side !== 'dst') throw domainError(`the side must be "src" or "dst", got '${form.side}'`);
    const a = rooms.get().copyBankAnalysis(c, m, form.side as CopySide | undefined, target?.machine);
    const e = c.atom.bits / 8;
    const sideText = a.side === 'src' ? 'the source side (shared memory, read)' : 'the destination side (shared memory, written)';
    const head = `${formatLayoutFunction(m)} through ${c.atom.name} (${c.atom.bits}-bit values, ${counted(c.threads, 'thread')}): ${sideText}`;
    const tvs: ThreadValues = { threads: a.accesses.threads, values: a.accesses.values, index: Float64Array.from(a.accesses.index) };
    const on = target && { machine: target.machine, access: a.side === 'src' ? 'read' : 'write' };
    return priced(head, m, tvs, a.instructions, a.report, e, draw, `, ${c.atom.name} ${a.side}`, on);
  }
  if (form.form === 'mma') {
    const m = memoryOf(form.m, 'M');
    const { tvs, x, atom, threads } = mmaAccesses(form, m);
    const bits = mmaOperandBits(atom, x);
    const e = form.elem ?? (bits === null ? undefined : bytesOf(bits, `${atom}'s ${x}`));
    if (e === undefined) throw badRequestError(`${atom} does not say its ${x} type in its name: give the element size (--elem <bytes>)`);
    const offsets = accessOffsets(m, tvs);
    const ins = instructions(offsets, tvs, e, vectorWidth(offsets, tvs, e, form.vec));
    const head = `${formatLayoutFunction(m)} as operand ${x} of ${atom} (${counted(threads, 'thread')}), ${e}-byte elements`;
    return priced(head, m, tvs, ins, bankReportOf(ins, target), e, draw, `, operand ${x} of ${atom}`, target);
  }
  const R = rooms.get();
  const st = form.shape === undefined ? undefined : R.parseShapeText(form.shape, 'the shape');
  const r = llOf(form.r, st?.shape, 'R');
  const s = typeof form.s === 'string' ? llOf(form.s, st?.shape, 'S') : R.toLL(form.s, 'shared');
  const e = form.elem ?? (st?.elementBits === undefined ? undefined : bytesOf(st.elementBits, `the ${st.elementType} elements`));
  if (e === undefined) throw badRequestError('an LL conversion needs the element size (--elem <bytes>, or a shape tensor<…xf16> that says it)');
  const a = R.llBankAnalysis(r, s, e, form.vec, target);
  const tvs: ThreadValues = { threads: a.accesses.threads, values: a.accesses.values, index: a.accesses.index };
  // the shared LL drawn through its CuTe layout, where it has one
  let m: LayoutFunction | null = typeof form.s === 'string' ? null : form.s;
  if (draw && m === null) {
    try {
      m = R.fromLL(s, 'shared');
    } catch (err) {
      if (!(err instanceof LayoutError)) throw err;
      throw domainError(`S has no CuTe layout to draw (${err.message}); run without --svg/--tikz for the analysis`);
    }
  }
  const head = `the conversion of R (${counted(tvs.threads, 'thread')}, ${counted(tvs.values, 'value')} each) into S, ${e}-byte elements`;
  return priced(head, m, tvs, a.instructions, a.report, e, draw, ', an LL conversion', target);
}

/** A side form without its memory layout: the access a search prices over every candidate memory layout. */
export type BankPatternForm =
  | Omit<Extract<BankSideForm, { form: 'copy' }>, 'm'>
  | Omit<Extract<BankSideForm, { form: 'mma' }>, 'm'>
  | Omit<Extract<BankSideForm, { form: 'll' }>, 's'>;

/**
 * The access pattern of a side form over a tile of `tile`'s shape (`verify conflict-free --copy|--mma|--ll`), with a
 * line saying what it is: the table of every (thread, value) (as bankSide prices them), e and v (a copy's from its atom).
 * Errors as bankSide; a copy whose atom leaves lanes out (ldmatrix .x1/.x2: their rows repeat) is `domain`, as the
 * search prices every thread (conflicts --copy prices it per layout).
 */
export function bankPattern(form: BankPatternForm, tile: LayoutFunction, target?: BankTarget): { pattern: TablePattern; heading: string } {
  checkDeadline('the bank analysis');
  const R = rooms.get();
  if (form.form === 'copy') {
    const c = tiledCopyArg(form.copy);
    if (form.side !== undefined && form.side !== 'src' && form.side !== 'dst') throw domainError(`the side must be "src" or "dst", got '${form.side}'`);
    const side = R.sharedSide(c.atom.name, form.side as CopySide | undefined);
    const x = side === 'src' ? c.atom.src : c.atom.dst;
    const at = size(c.atom.thrID);
    if (!R.activeAtomThreads(x, at).every((a) => a)) {
      throw domainError(`${c.atom.name} takes the addresses of some lanes only (the rest repeat their rows): price it per layout with conflicts --copy`);
    }
    const a = R.tileAccesses(c, side, tile);
    const e = bytesOf(c.atom.bits, `${c.atom.name}'s values`);
    const v = size(modes(x)[1]!);
    return {
      pattern: {
        table: { threads: a.threads, values: a.values, index: Float64Array.from(a.index) },
        e,
        v,
        ...(target ? { target: { machine: target.machine, access: side === 'src' ? 'read' : 'write' } } : {}),
      },
      heading: `${c.atom.name} (${c.atom.bits}-bit values, ${counted(c.threads, 'thread')}), ${side === 'src' ? 'its source' : 'its destination'} side`,
    };
  }
  if (form.form === 'mma') {
    const { tvs, x, atom } = mmaAccesses(form, tile);
    const bits = mmaOperandBits(atom, x);
    const e = form.elem ?? (bits === null ? undefined : bytesOf(bits, `${atom}'s ${x}`));
    if (e === undefined) throw badRequestError(`${atom} does not say its ${x} type in its name: give the element size (--elem <bytes>)`);
    return {
      pattern: { table: tvs, e, ...(form.vec !== undefined ? { v: form.vec } : {}), ...(target ? { target } : {}) },
      heading: `operand ${x} of ${atom}`,
    };
  }
  const st = form.shape === undefined ? undefined : R.parseShapeText(form.shape, 'the shape');
  const tvs = R.registerAccesses(llOf(form.r, st?.shape, 'R'));
  const e = form.elem ?? (st?.elementBits === undefined ? undefined : bytesOf(st.elementBits, `the ${st.elementType} elements`));
  if (e === undefined) throw badRequestError('an LL needs the element size (--elem <bytes>, or a shape tensor<…xf16> that says it)');
  return {
    pattern: { table: tvs, e, ...(form.vec !== undefined ? { v: form.vec } : {}), ...(target ? { target } : {}) },
    heading: `the register LL R (${counted(tvs.threads, 'thread')})`,
  };
}

/** A side form without its memory: a BankPatternForm, or a TV layout's. */
export type SideWithoutMemory = BankPatternForm | Omit<Extract<BankSideForm, { form: 'tv' }>, 'm'>;

/** The side form over the memory `m`: M, or for an LL conversion S (its shared LL, drawn as `m`). */
export const sideOver = (form: SideWithoutMemory, m: LayoutFunction): BankSideForm => (form.form === 'll' ? { ...form, s: m } : { ...form, m });

/**
 * Every candidate memory layout priced as bankSide prices the side form over it (the page's swizzle search for a side
 * that is no TV layout; a TV layout has memory/search.ts's): a candidate whose inner layout is not injective is
 * excluded, one the side cannot access (a vector split, a shape it does not tile) carries its error's message.
 * Errors: `timeout` (the request's deadline); every other error is the candidate's.
 * @example searchSide(swizzleCandidates(M), { form: 'copy', copy }).filter((r) => r.conflictFree)
 */
export function searchSide(cands: readonly LayoutFunction[], form: BankPatternForm, target?: BankTarget): CandidateResult[] {
  return cands.map((m) => {
    if (!injectiveInner(innerLayout(m))) return NOT_INJECTIVE;
    try {
      const { report: x } = bankSide(sideOver(form, m), false, target);
      return { wavefronts: x.wavefronts, phases: x.phases, conflictFree: x.wavefronts === x.phases, vectors: [x.vector], instructions: x.instructions };
    } catch (e) {
      if (!(e instanceof LayoutError) || e.kind === 'timeout') throw e;
      return { wavefronts: null, phases: null, conflictFree: false, error: e.message };
    }
  });
}
