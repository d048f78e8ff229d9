/**
 * The atoms' ops of the table (spread into src/ops/table.ts; docs/atoms.md, "Atoms"): `atoms` (the names),
 * `mma_atom` and `copy_atom` (an atom's layouts, CuTe `MMA_Traits<Op>` and `Copy_Atom<Op, T>`).
 */
import type { Json, OpSpec } from './spec.js';
import type { Layout } from '../algebra/layout.js';
import { domainError, badRequestError } from '../algebra/errors.js';
import { formatLayout } from '../algebra/notation.js';
import { lazyModule, runningIn } from './lazy.js';

/** the atoms' room, loaded by the first of these ops that runs (ops/lazy.ts) */
const atoms = lazyModule(async () => ({ ...(await import('../atoms/atom.js')), ...(await import('../atoms/registry.js')) }));

const show = (l: Layout): string => formatLayout(l);
/** A wrong JSON value for a message: scalars as JSON, an array or object only named (it may be nested 100,000 deep). */
const shown = (v: unknown): string => (Array.isArray(v) ? 'an array' : typeof v === 'object' && v !== null ? 'an object' : JSON.stringify(v));

/** An atom name argument: a JSON string (anything else is `bad-request`). */
function atomName(op: string, v: unknown): string {
  if (typeof v !== 'string') throw badRequestError(`${op} argument name must be a string (an atom name), got ${shown(v)}`);
  return v;
}

/** The names, `{"mma": […], "copy": […]}`, or only the key of `kind` ("mma" or "copy"). */
export function atomsList(kind?: unknown): { mma?: string[]; copy?: string[] } {
  const { copyAtomNames, mmaAtomNames } = atoms.get();
  if (kind === undefined) return { mma: mmaAtomNames(), copy: copyAtomNames() };
  if (typeof kind !== 'string') throw badRequestError(`atoms argument kind must be the string "mma" or "copy", got ${shown(kind)}`);
  if (kind === 'mma') return { mma: mmaAtomNames() };
  if (kind === 'copy') return { copy: copyAtomNames() };
  throw domainError(`atoms: kind must be "mma" or "copy", got '${kind}'`);
}

const mmaResults = new Map<string, Json>();

/** The `mma_atom` result of an atom: thrID, shapeMNK and the three TV layouts, canonical (cached per name). */
export function mmaAtomResult(name: string): Json {
  const hit = mmaResults.get(name);
  if (hit) return hit;
  const a = atoms.get().mmaAtom(name);
  const r: Json = Object.freeze({
    thrID: show(a.thrID),
    shapeMNK: `(${a.shapeMNK.join(',')})`,
    layoutA_TV: show(a.A),
    layoutB_TV: show(a.B),
    layoutC_TV: show(a.C),
  }) as Json;
  mmaResults.set(name, r);
  return r;
}

const copyResults = new Map<string, Json>();

/** The `copy_atom` result of an atom in bits, or in values of `bits` bits (cached where copyAtom caches). */
export function copyAtomResult(name: string, bits?: number): Json {
  const key = `${name}\u0000${bits ?? 1}`;
  const hit = copyResults.get(key);
  if (hit) return hit;
  const { copyAtom } = atoms.get();
  const a = copyAtom(name, bits);
  const r: Json = Object.freeze({ thrID: show(a.thrID), layoutSrc: show(a.src), layoutDst: show(a.dst), layoutRef: show(a.ref) }) as Json;
  if (a === copyAtom(name, bits)) copyResults.set(key, r);
  return r;
}

/** The CLI's rendering of `atoms`: each list under a heading, in columns. */
export function formatAtomsList(r: Json): string {
  const o = r as { mma?: string[]; copy?: string[] };
  const parts: string[] = [];
  if (o.mma) parts.push(section(`MMA atoms (${o.mma.length})`, o.mma));
  if (o.copy) parts.push(section(`copy atoms (${o.copy.length})`, o.copy));
  return parts.join('\n\n');
}

/** The architecture a name belongs to (`SM80`, …), or `universal` for the architecture-independent ones. */
const archOf = (name: string): string => /^SM\d+/.exec(name)?.[0] ?? 'universal';

/** A titled list: one group per architecture, the names of a group in columns. */
function section(title: string, names: readonly string[]): string {
  if (names.length === 0) return `${title}: none`;
  const width = Math.max(...names.map((n) => n.length)) + 2;
  const perLine = Math.max(1, Math.floor(120 / width));
  const groups = new Map<string, string[]>();
  for (const n of names) groups.set(archOf(n), [...(groups.get(archOf(n)) ?? []), n]);
  const lines = [title];
  const archNumber = (a: string): number => (a === 'universal' ? 0 : Number(a.slice(2)));
  for (const [arch, group] of [...groups].sort(([a], [b]) => archNumber(a) - archNumber(b))) {
    lines.push(`  ${arch} (${group.length})`);
    for (let i = 0; i < group.length; i += perLine) {
      lines.push(
        '    ' +
          group
            .slice(i, i + perLine)
            .map((n, j, row) => (j === row.length - 1 ? n : n.padEnd(width)))
            .join(''),
      );
    }
  }
  return lines.join('\n');
}

/** The CLI's rendering of an object of layouts: one `key  value` line each. */
function formatFields(r: Json): string {
  const o = r as Record<string, Json>;
  const width = Math.max(...Object.keys(o).map((k) => k.length)) + 2;
  return Object.entries(o)
    .map(([k, v]) => `${k.padEnd(width)}${String(v)}`)
    .join('\n');
}

export const atomsOps: OpSpec[] = runningIn(atoms, [
  {
    name: 'atoms',
    summary: 'the names of the hardware atoms: {"mma": […], "copy": […]}, or one kind ("mma" or "copy")',
    args: [{ name: 'kind', kind: 'json', optional: true }],
    run: ([kind]) => atomsList(kind) as Json,
    human: formatAtomsList,
  },
  {
    name: 'mma_atom',
    summary: "an MMA atom's thrID, (M,N,K) and TV layouts of A (M×K), B (N×K), C (M×N) (CuTe MMA_Traits)",
    args: [{ name: 'name', kind: 'json' }],
    run: ([name]) => mmaAtomResult(atomName('mma_atom', name)),
    human: formatFields,
  },
  {
    name: 'copy_atom',
    summary: "a copy atom's thrID and Src/Dst/Ref TV layouts, in bits or in values of `bits` bits (CuTe Copy_Atom<Op,T>)",
    args: [
      { name: 'name', kind: 'json' },
      { name: 'bits', kind: 'int', optional: true },
    ],
    run: ([name, bits]) => copyAtomResult(atomName('copy_atom', name), bits as number | undefined),
    human: formatFields,
  },
]);
