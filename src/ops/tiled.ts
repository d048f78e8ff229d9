/**
 * The tiled MMAs, tiled copies, partitions and conflicts by name of the ops table (spread into
 * src/ops/table.ts; docs/atoms.md): make_tiled_mma, make_tiled_copy, partition_a/b/c, partition_s/d,
 * local_tile, local_partition, copy_bank_conflicts, with the protocol's JSON arguments
 * (a tiled MMA `{"atom", "layout"?, "permutation"?}`, a tiled copy `{"atom", "bits", "thr",
 * "val"?}` or `{"atom", "bits", "mma", "operand"}`).
 */
import type { Json, OpSpec } from './spec.js';
import { domainError, badRequestError } from '../algebra/errors.js';
import { intText } from '../algebra/int-text.js';
import { formatLayout } from '../algebra/notation.js';
import type { Layout } from '../algebra/layout.js';
import { formatLayoutFunction, type LayoutFunction } from '../cute/composed.js';
import type { Tiler } from '../cute/tiler.js';
import type { Operand, TiledMma } from '../atoms/tiled-mma.js';
import type { TiledCopy } from '../atoms/tiled-copy.js';
import type { TensorResult } from '../atoms/partition.js';
import type { CopySide } from '../atoms/conflicts.js';
import { lazyModule, runningIn } from './lazy.js';
import { objectArg, plainLayoutArg, readTiler, sliceCoordArg } from './args.js';
import { bankOptionsArg, bankTarget, formatBankReport } from './memory.js';
import type { BankReport } from '../memory/banks.js';

/** the atoms' room, loaded by the first of these ops that runs (ops/lazy.ts) */
const atoms = lazyModule(async () => ({
  ...(await import('../atoms/tiled-mma.js')),
  ...(await import('../atoms/tiled-copy.js')),
  ...(await import('../atoms/partition.js')),
  ...(await import('../atoms/conflicts.js')),
  ...(await import('../atoms/registry.js')),
}));
/** Settles once the atoms' room is loaded (for callers of tiledMmaArg and tiledCopyArg outside the table). */
export const loadTiled = async (): Promise<void> => atoms.load();

function checkKeys(o: Record<string, unknown>, allowed: readonly string[], what: string): void {
  const unknown = Object.keys(o).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) throw badRequestError(`unknown key(s) in the ${what}: [${unknown.map((k) => `'${k}'`).join(', ')}]`);
}

function stringField(o: Record<string, unknown>, key: string, what: string, required: boolean): string | undefined {
  const v = o[key];
  if (v === undefined) {
    if (required) throw badRequestError(`the ${what} needs the key '${key}'`);
    return undefined;
  }
  if (typeof v !== 'string') throw badRequestError(`the ${what}'s '${key}' must be a string`);
  return v;
}

/** A small bounded cache of built values by their argument text (cleared when full). */
class Memo<V> {
  private readonly m = new Map<string, V>();
  get(key: string, make: () => V): V {
    const hit = this.m.get(key);
    if (hit !== undefined) return hit;
    const v = make();
    if (this.m.size >= 512) this.m.clear();
    this.m.set(key, v);
    return v;
  }
}

const mmas = new Memo<TiledMma>();
const copies = new Memo<TiledCopy>();

/** A tiled MMA argument `{"atom", "layout"?, "permutation"?}`. Errors: `bad-request`, `parse`, `domain`, `not-composable`. */
export function tiledMmaArg(v: unknown): TiledMma {
  const o = objectArg(v, 'the tiled MMA');
  checkKeys(o, ['atom', 'layout', 'permutation'], 'tiled MMA');
  const atom = stringField(o, 'atom', 'tiled MMA', true)!;
  const layout = stringField(o, 'layout', 'tiled MMA', false);
  const perm = stringField(o, 'permutation', 'tiled MMA', false);
  // the key tells an absent layout or permutation (the default, U+0001, which no layout text holds) from an empty text
  // (a parse error); a string key, not JSON.stringify (the batch path's cost)
  return mmas.get(`${atom}\u0000${layout ?? '\u0001'}\u0000${perm ?? '\u0001'}`, () => {
    const l: Layout | undefined = layout === undefined ? undefined : plainLayoutArg(layout, 'the tiled MMA', 'layout');
    const p: Tiler | undefined = perm === undefined ? undefined : readTiler(perm, 'permutation', 'the tiled MMA');
    return atoms.get().makeTiledMma(atom, l, p);
  });
}

/**
 * The bits of the value type a C++ spelling `Copy_Atom<Op, T>` names (registry.ts atomSpelling), for a tiled copy that
 * gives no 'bits'; undefined for a plain name. A type the registry does not know is `domain` (give the bits).
 */
function valueBits(atom: string): number | undefined {
  const s = atom.includes('<') ? atoms.get().atomSpelling(atom) : null;
  if (s === null || s.valueType === undefined) return undefined;
  if (s.valueBits === undefined) throw domainError(`unknown value type '${s.valueType}' in ${atom.trim()}: give the value size in bits ('bits', --bits)`);
  return s.valueBits;
}

/** A tiled copy argument. Errors: `bad-request`, `parse`, `domain`, `not-composable`. */
export function tiledCopyArg(v: unknown): TiledCopy {
  const o = objectArg(v, 'the tiled copy');
  checkKeys(o, ['atom', 'bits', 'thr', 'val', 'mma', 'operand'], 'tiled copy');
  const atom = stringField(o, 'atom', 'tiled copy', true)!;
  const bits = o.bits ?? valueBits(atom);
  if (bits === undefined) throw badRequestError("the tiled copy needs the key 'bits'");
  if (typeof bits !== 'number' || !Number.isInteger(bits)) throw badRequestError("the tiled copy's 'bits' must be a JSON integer");
  if (!Number.isSafeInteger(bits)) throw domainError(`the tiled copy's 'bits' is ${intText(bits)}: a value size is a positive integer of bits`);
  if (o.thr !== undefined && o.mma !== undefined) throw badRequestError("the tiled copy has both 'thr' and 'mma'; give one");
  if (o.mma !== undefined) {
    if (o.val !== undefined) throw badRequestError("the tiled copy's 'val' goes with 'thr', not with 'mma'");
    const operand = stringField(o, 'operand', 'tiled copy', true)!;
    // a value outside the argument's set is bad-request (docs/protocol.md), before the MMA is built
    if (operand !== 'A' && operand !== 'B' && operand !== 'C') throw badRequestError(`the tiled copy's 'operand' must be "A", "B" or "C", got '${operand}'`);
    const mma = tiledMmaArg(o.mma);
    const key = JSON.stringify([atom, bits, o.mma, operand]);
    return copies.get(key, () => atoms.get().makeTiledCopyFromMma({ atom, bits, mma, operand: operand as Operand }));
  }
  if (o.operand !== undefined) throw badRequestError("the tiled copy's 'operand' goes with 'mma'");
  const thr = stringField(o, 'thr', 'tiled copy', false);
  if (thr === undefined) throw badRequestError("the tiled copy needs 'thr' (with 'val') or 'mma' (with 'operand')");
  const val = stringField(o, 'val', 'tiled copy', false);
  const plain = (text: string, key: string): Layout => plainLayoutArg(text, 'the tiled copy', key);
  return copies.get(`${atom}\u0000${bits}\u0000${thr}\u0000${val ?? '\u0001'}`, () =>
    atoms.get().makeTiledCopy({ atom, bits, thr: plain(thr, 'thr'), ...(val === undefined ? {} : { val: plain(val, 'val') }) }),
  );
}

/** The `make_tiled_mma` result object. */
export function tiledMmaResult(m: TiledMma): Json {
  return {
    thrLayoutVMNK: formatLayout(m.thrLayoutVMNK),
    tileShape: `(${m.tileShape.join(',')})`,
    threads: m.threads,
    layoutA_TV: formatLayout(m.layoutA_TV),
    layoutB_TV: formatLayout(m.layoutB_TV),
    layoutC_TV: formatLayout(m.layoutC_TV),
  };
}

/** The `make_tiled_copy` result object. */
export function tiledCopyResult(c: TiledCopy): Json {
  return {
    tiler: `(${c.tiler.join(',')})`,
    threads: c.threads,
    values: c.values,
    layoutTV: formatLayout(c.layoutTV),
    layoutS_TV: formatLayout(c.layoutS_TV),
    layoutD_TV: formatLayout(c.layoutD_TV),
  };
}

const tensorJson = (r: TensorResult): Json => ({ offset: r.offset, layout: formatLayoutFunction(r.layout) });

/** The CLI's rendering of an object of fields: one `key  value` line each. */
function formatFields(r: Json): string {
  const o = r as Record<string, Json>;
  const width = Math.max(...Object.keys(o).map((k) => k.length)) + 2;
  return Object.entries(o)
    .map(([k, v]) => `${k.padEnd(width)}${String(v)}`)
    .join('\n');
}

const formatTensor = (r: Json): string => {
  const o = r as { offset: number; layout: string };
  return `offset ${o.offset}\nlayout ${o.layout}`;
};

function projArg(v: unknown): boolean[] | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw badRequestError('the projection must be a string such as "(1,X,1)"');
  return atoms.get().parseProjection(v);
}

function sideArg(v: unknown): CopySide | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw badRequestError('the side must be the string "src" or "dst"');
  if (v !== 'src' && v !== 'dst') throw domainError(`the side must be "src" or "dst", got '${v}'`);
  return v;
}

const partitionMmaOp = (x: Operand): OpSpec => ({
  name: `partition_${x.toLowerCase()}`,
  summary: `thread t's part of tensor T for operand ${x} of a tiled MMA: {offset, layout} (CuTe get_slice(t).partition_${x})`,
  args: [
    { name: 'tiled_mma', kind: 'json' },
    { name: 't', kind: 'int' },
    { name: 'T', kind: 'layout-fn' },
  ],
  run: ([m, t, tensor]) => tensorJson(atoms.get().partitionMma(tiledMmaArg(m), x, t as number, tensor as LayoutFunction)),
  human: formatTensor,
});

const partitionCopyOp = (s: 'S' | 'D'): OpSpec => ({
  name: `partition_${s.toLowerCase()}`,
  summary: `thread t's part of tensor T on the ${s === 'S' ? 'source' : 'destination'} side of a tiled copy: {offset, layout} (CuTe partition_${s})`,
  args: [
    { name: 'tiled_copy', kind: 'json' },
    { name: 't', kind: 'int' },
    { name: 'T', kind: 'layout-fn' },
  ],
  run: ([c, t, tensor]) => tensorJson(atoms.get().partitionCopy(tiledCopyArg(c), s, t as number, tensor as LayoutFunction)),
  human: formatTensor,
});

export const tiledOps: OpSpec[] = runningIn(atoms, [
  {
    name: 'make_tiled_mma',
    summary: 'a tiled MMA {"atom","layout","permutation"}: thrLayoutVMNK, tileShape, threads and the TV layouts of A, B, C',
    args: [{ name: 'tiled_mma', kind: 'json' }],
    run: ([m]) => tiledMmaResult(tiledMmaArg(m)),
    human: formatFields,
  },
  {
    name: 'make_tiled_copy',
    summary: 'a tiled copy {"atom","bits","thr","val"} or {"atom","bits","mma","operand"}: tiler, threads, values, TV, S and D TV layouts',
    args: [{ name: 'tiled_copy', kind: 'json' }],
    run: ([c]) => tiledCopyResult(tiledCopyArg(c)),
    human: formatFields,
  },
  partitionMmaOp('A'),
  partitionMmaOp('B'),
  partitionMmaOp('C'),
  partitionCopyOp('S'),
  partitionCopyOp('D'),
  {
    name: 'local_tile',
    summary: 'slice(zipped_divide(T, tiler), ((_,…), coord)) with an optional projection like (1,X,1): {offset, layout}',
    args: [
      { name: 'T', kind: 'layout-fn' },
      { name: 'tiler', kind: 'tiler' },
      { name: 'coord', kind: 'json' },
      { name: 'proj', kind: 'json', optional: true },
    ],
    run: ([t, tiler, c, p]) => tensorJson(atoms.get().localTile(t as LayoutFunction, tiler as Tiler, sliceCoordArg(c), projArg(p))),
    human: formatTensor,
  },
  {
    name: 'local_partition',
    summary: 'slice(zipped_divide(T, shape(thr)), (thr⁻¹(i), _)) with an optional projection: {offset, layout}',
    args: [
      { name: 'T', kind: 'layout-fn' },
      { name: 'thr', kind: 'layout' },
      { name: 'i', kind: 'int' },
      { name: 'proj', kind: 'json', optional: true },
    ],
    run: ([t, thr, i, p]) => tensorJson(atoms.get().localPartition(t as LayoutFunction, thr as Layout, i as number, projArg(p))),
    human: formatTensor,
  },
  {
    name: 'copy_bank_conflicts',
    summary: 'the bank_conflicts object of a tiled copy over a shared-memory layout M (side "src" or "dst", by default from the atom)',
    args: [{ name: 'tiled_copy', kind: 'json' }, { name: 'M', kind: 'layout-fn' }, { name: 'side', kind: 'json', optional: true }, bankOptionsArg],
    run: ([c, m, side, o]) =>
      atoms
        .get()
        .copyBankConflicts(tiledCopyArg(c), m as LayoutFunction, sideArg(side), bankTarget('copy_bank_conflicts', o, ['arch'])?.machine) as unknown as Json,
    human: (r) => formatBankReport(r as unknown as BankReport),
  },
]);
