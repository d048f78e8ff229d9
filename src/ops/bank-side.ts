/**
 * The side of a bank analysis in each of its forms (issue 25, item 5; docs/memory.md, docs/atoms.md "Bank
 * conflicts of a tiled copy", docs/linear.md "Bank conflicts of a conversion"): the accesses that one side of a
 * transfer makes to a shared-memory layout M, read from
 *
 * - `tv`: a TV layout (thread, value) → tile index of M, priced by `bank_conflicts`;
 * - `copy`: a tiled copy (the protocol's JSON object), priced by `copy_bank_conflicts` over the whole tile:
 *   every thread's partition of make_layout(shape(M)), the atom's value size and vector width;
 * - `mma`: an operand of a tiled MMA (its JSON object) read straight from shared memory: every thread's
 *   partition_A/B/C of make_layout(shape(M)), priced by `bank_conflicts` at the widest vector;
 * - `ll`: a Triton register layout (an LL in any form, or a `#ttg` encoding over shape(M)), priced by
 *   `ll_bank_conflicts` against M's linear layout.
 *
 * Each form answers the report its op answers (the CLI's and batch's numbers) and the accesses themselves, for
 * pictures. The atoms' and the linear layouts' rooms are loaded on first use (`loadBankSide`, ops/lazy.ts).
 */
import { LayoutError } from '../algebra/errors.js';
import { modes, size } from '../algebra/layout.js';
import { innerLayout, parseLayoutFunction, type LayoutFunction } from '../cute/composed.js';
import { makeOrderedLayout } from '../cute/make.js';
import { phiTable, threadValues, type ThreadValues } from '../memory/access.js';
import { bankConflicts, bankConflictsOf, type BankReport } from '../memory/banks.js';
import { injectiveInner, NOT_INJECTIVE, type CandidateResult } from '../memory/search.js';
import type { CopySide } from '../atoms/conflicts.js';
import type { Operand } from '../atoms/tiled-mma.js';
import { lazyModule } from './lazy.js';
import { loadTiled, tiledCopyArg, tiledMmaArg } from './tiled.js';

/** The forms a side takes. */
export type SideForm = 'tv' | 'copy' | 'mma' | 'll';

/** Every form, in the order the page offers them. */
export const SIDE_FORMS: readonly SideForm[] = ['tv', 'copy', 'mma', 'll'];

/** One side of a transfer, as text in its form. */
export interface SideRequest {
  readonly form: SideForm;
  /** a TV layout; a tiled copy's JSON object; a tiled MMA's JSON object; an LL or a #ttg encoding */
  readonly text: string;
  /** element size in bytes (not for `copy`: its atom's value size decides) */
  readonly e: number;
  /** `copy`: which side of the copy is shared memory (default: by the atom, as copy_bank_conflicts) */
  readonly side?: CopySide;
  /** `mma`: the operand (A, B or C) */
  readonly operand?: Operand;
}

/** A priced side: the report of its op, its accesses (t + T·j → tile index of M) and how they are priced. */
export interface SideAnalysis {
  readonly report: BankReport;
  readonly tvs: ThreadValues;
  /** element size in bytes */
  readonly e: number;
  /** live[t] = 0: thread t accesses nothing (an ldmatrix .x1/.x2 row repeated); absent: every thread does */
  readonly live?: Uint8Array;
  /** what was priced, in words (the side, the atom, the whole tile) */
  readonly priced: string;
}

const atoms = lazyModule(async () => ({ ...(await import('../atoms/conflicts.js')), ...(await import('../atoms/partition.js')) }));
const linear = lazyModule(async () => ({
  ...(await import('../linear/forms.js')),
  ...(await import('../linear/encodings.js')),
  ...(await import('../linear/bridge.js')),
  ...(await import('../linear/banks.js')),
}));

const loaded = new Set<SideForm>(['tv']);

/** A Promise that settles once the rooms `form` needs are loaded (before `bankSide`); undefined once they are. */
export function loadBankSide(form: SideForm): Promise<void> | undefined {
  if (loaded.has(form)) return undefined;
  const rooms = form === 'll' ? [linear.load()] : [loadTiled(), atoms.load()];
  return Promise.all(rooms).then(() => {
    loaded.add(form);
  });
}

/**
 * The accesses of side `r` to the shared-memory layout M and their report (see the module comment). Errors: the
 * errors of each form's op (`parse`, `bad-request`, `domain`, `overflow`, …); a side the form cannot read is
 * `bad-request` or `parse` naming it. Pre-condition: `loadBankSide(r.form)` has settled.
 */
export function bankSide(m: LayoutFunction, r: SideRequest): SideAnalysis {
  switch (r.form) {
    case 'tv':
      return tvSide(m, r);
    case 'copy':
      return copySide(m, r);
    case 'mma':
      return mmaSide(m, r);
    case 'll':
      return llSide(m, r);
  }
  throw new LayoutError('bad-request', `a side is one of ${SIDE_FORMS.join(', ')}, got '${String(r.form)}'`);
}

/**
 * Every candidate M priced as `bankSide` prices side `r` over it (the page's swizzle search for a side that is no TV
 * layout; a TV layout has memory/search.ts's): a candidate whose inner layout is not injective is excluded, one the
 * side cannot access (a vector split, a shape it does not tile) carries the error's message.
 */
export function searchSide(cands: readonly LayoutFunction[], r: SideRequest): CandidateResult[] {
  return cands.map((m) => {
    if (!injectiveInner(innerLayout(m))) return NOT_INJECTIVE;
    try {
      const { report: x } = bankSide(m, r);
      return { wavefronts: x.wavefronts, phases: x.phases, conflictFree: x.wavefronts === x.phases, vectors: [x.vector], instructions: x.instructions };
    } catch (e) {
      if (!(e instanceof LayoutError) || e.kind === 'timeout') throw e;
      return { wavefronts: null, phases: null, conflictFree: false, error: e.message };
    }
  });
}

function tvSide(m: LayoutFunction, r: SideRequest): SideAnalysis {
  const tv = parseLayoutFunction(r.text, 'TV');
  if ('kind' in tv) throw new LayoutError('domain', 'the TV layout must be a plain layout');
  return { report: bankConflicts(m, tv, r.e), tvs: threadValues(tv), e: r.e, priced: 'the TV layout' };
}

/** copy_bank_conflicts's side: the whole tile's accesses (atoms/conflicts.ts tileAccesses), its live threads. */
function copySide(m: LayoutFunction, r: SideRequest): SideAnalysis {
  const a = atoms.get();
  const c = tiledCopyArg(r.text);
  const side = r.side ?? a.defaultSide(c.atom.name);
  const report = a.copyBankConflicts(c, m, side);
  const acc = a.tileAccesses(c, side, m);
  const x = side === 'src' ? c.atom.src : c.atom.dst;
  const at = size(c.atom.thrID);
  const active = a.activeAtomThreads(x, at);
  const live = active.every(Boolean) ? undefined : Uint8Array.from({ length: acc.threads }, (_, t) => (active[t % at] ? 1 : 0));
  const tvs = { threads: acc.threads, values: acc.values, index: Float64Array.from(acc.index) };
  const priced = `the ${side} side of ${c.atom.name} (${c.atom.bits}-bit values, ${c.threads} threads) over the whole tile`;
  return { report, tvs, e: c.atom.bits / 8, ...(live ? { live } : {}), priced };
}

/** Every thread's partition_X of make_layout(shape(M)) (docs/atoms.md, "Partitions"): the tile indices it holds. */
function mmaSide(m: LayoutFunction, r: SideRequest): SideAnalysis {
  const mma = tiledMmaArg(r.text);
  const x = r.operand ?? 'A';
  const id = makeOrderedLayout(modes(innerLayout(m)).map(size), 'col');
  const T = mma.T;
  const parts = Array.from({ length: T }, (_, t) => atoms.get().partitionMma(mma, x, t, id));
  const V = size(innerLayout(parts[0]!.layout));
  const index = new Float64Array(T * V);
  parts.forEach((p, t) => {
    // the identity tensor: the offsets the partition holds are the tile indices
    const own = phiTable(innerLayout(p.layout));
    for (let j = 0; j < V; j++) index[t + T * j] = p.offset + own[j]!;
  });
  const tvs = { threads: T, values: V, index };
  return { report: bankConflictsOf(m, tvs, r.e), tvs, e: r.e, priced: `operand ${x} of ${mma.atom.name} (${T} threads) over the whole tile` };
}

/** A register layout R (an LL, or a #ttg encoding over shape(M)) writing or reading M's linear layout. */
function llSide(m: LayoutFunction, r: SideRequest): SideAnalysis {
  const L = linear.get();
  const text = r.text.trim();
  const shape = modes(innerLayout(m)).map(size);
  const isEncoding = text.startsWith('#') && !/^#(ttg|triton_gpu)\.(shared_)?linear\b/.test(text);
  const reg = isEncoding ? L.llFromEncoding(text, shape) : L.parseLL(text);
  const s = L.toLL(m, 'shared');
  const report = L.llBankConflicts(reg, s, r.e);
  const acc = L.conversionAccesses(reg, s);
  const tvs = { threads: acc.threads, values: acc.values, index: acc.index };
  return { report, tvs, e: r.e, priced: `the register layout${isEncoding ? ' of the encoding' : ''} (${acc.threads} threads)` };
}
