/**
 * The atoms by name: every architecture's data file feeds these two maps (docs/atoms.md). Names are CuTe's
 * operation structs as the headers spell them, case-sensitive.
 */
import type { CopyAtomData, MmaAtomData } from './types.js';
import { sm61Mma } from './data/mma-sm61.js';
import { sm70Mma } from './data/mma-sm70.js';
import { sm75Mma } from './data/mma-sm75.js';
import { sm80Mma } from './data/mma-sm80.js';
import { sm89Mma } from './data/mma-sm89.js';
import { sm90Mma } from './data/mma-sm90.js';
import { sm90GmmaMma } from './data/mma-sm90-gmma.generated.js';
import { sm100Mma } from './data/mma-sm100.js';
import { sm100UmmaMma1Sm } from './data/mma-sm100-umma-1sm.generated.js';
import { sm100UmmaMma2Sm } from './data/mma-sm100-umma-2sm.generated.js';
import { sm120Mma } from './data/mma-sm120.js';
import { universalMma } from './data/mma-universal.js';
import { universalCopy } from './data/copy-universal.js';
import { sm50Copy } from './data/copy-sm50.js';
import { sm75Copy } from './data/copy-sm75.js';
import { sm80Copy } from './data/copy-sm80.js';
import { sm90Copy } from './data/copy-sm90.js';
import { sm100Copy } from './data/copy-sm100.js';
import { sm100TmemCopy } from './data/copy-sm100-tmem.js';

/** Every MMA atom entry, architecture by architecture (each name once). */
export const MMA_ATOMS: readonly MmaAtomData[] = [
  ...universalMma,
  ...sm61Mma,
  ...sm70Mma,
  ...sm75Mma,
  ...sm80Mma,
  ...sm89Mma,
  ...sm90Mma,
  ...sm90GmmaMma,
  ...sm100Mma,
  ...sm100UmmaMma1Sm,
  ...sm100UmmaMma2Sm,
  ...sm120Mma,
];
/** Every copy atom entry, architecture by architecture (each name once). */
export const COPY_ATOMS: readonly CopyAtomData[] = [...universalCopy, ...sm50Copy, ...sm75Copy, ...sm80Copy, ...sm90Copy, ...sm100Copy, ...sm100TmemCopy];

const mma: ReadonlyMap<string, MmaAtomData> = new Map(MMA_ATOMS.map((a) => [a.name, a]));
const copy: ReadonlyMap<string, CopyAtomData> = new Map(COPY_ATOMS.map((a) => [a.name, a]));
const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const mmaNames: readonly string[] = Object.freeze([...mma.keys()].sort(byCodePoint));
const copyNames: readonly string[] = Object.freeze([...copy.keys()].sort(byCodePoint));

/** The bits of CuTe's value types as `Copy_Atom<Op, T>` names them (`cute::` optional). */
const VALUE_BITS: Readonly<Record<string, number>> = {
  half_t: 16,
  bfloat16_t: 16,
  tfloat32_t: 32,
  float: 32,
  double: 64,
  float_e4m3_t: 8,
  float_e5m2_t: 8,
  int4_t: 4,
  uint4_t: 4,
  int8_t: 8,
  uint8_t: 8,
  int16_t: 16,
  uint16_t: 16,
  int32_t: 32,
  uint32_t: 32,
  int64_t: 64,
  uint64_t: 64,
  uint128_t: 128,
};

/** An atom as C++ spells it: the operation's name, and `Copy_Atom`'s value type with its bits (undefined: unknown type). */
export interface AtomSpelling {
  readonly kind: 'mma' | 'copy';
  readonly name: string;
  readonly valueType?: string;
  readonly valueBits?: number;
}

/**
 * `Copy_Atom<SM75_U32x4_LDSM_N, half_t>`, `MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>` (and the same with `cute::`, or
 * `Copy_Traits<Op>` / `MMA_Traits<Op>` around the operation) as the atom and value type they name; null for any other
 * text (a plain name included). Whitespace between the tokens is free, as in C++.
 * @example atomSpelling('Copy_Atom<SM75_U32x4_LDSM_N, half_t>') // { kind: 'copy', name: 'SM75_U32x4_LDSM_N', valueType: 'half_t', valueBits: 16 }
 */
export function atomSpelling(text: string): AtomSpelling | null {
  const t = text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\bcute::/g, '');
  const m = /^(Copy_Atom|MMA_Atom) ?< ?(.+?) ?>$/.exec(t);
  if (!m) return null;
  const kind = m[1] === 'MMA_Atom' ? 'mma' : 'copy';
  // Op, or Op with a value type for a copy: the last top-level comma splits them
  let inner = m[2]!;
  let type: string | undefined;
  let depth = 0;
  for (let i = inner.length - 1; i >= 0 && type === undefined; i--) {
    const c = inner[i]!;
    if (c === '>') depth++;
    else if (c === '<') depth--;
    else if (c === ',' && depth === 0) {
      type = inner.slice(i + 1).trim();
      inner = inner.slice(0, i).trim();
    }
  }
  const traits = /^(?:Copy_Traits|MMA_Traits) ?< ?(.+?) ?>$/.exec(inner);
  const name = (traits ? traits[1]! : inner).replace(/ ?([<>,]) ?/g, '$1').replace(/,/g, ', ');
  if (type === undefined || kind === 'mma') return { kind, name };
  const bits = VALUE_BITS[type];
  return bits === undefined ? { kind, name, valueType: type } : { kind, name, valueType: type, valueBits: bits };
}

/** The MMA atom named `name` (CuTe's operation struct, or `MMA_Atom<Op>`), or undefined. */
export const mmaAtomData = (name: string): MmaAtomData | undefined => mma.get(name) ?? spelled(name, 'mma', mma);
/** The copy atom named `name` (or `Copy_Atom<Op, T>`), or undefined. */
export const copyAtomData = (name: string): CopyAtomData | undefined => copy.get(name) ?? spelled(name, 'copy', copy);

function spelled<D>(text: string, kind: 'mma' | 'copy', by: ReadonlyMap<string, D>): D | undefined {
  const s = text.includes('<') ? atomSpelling(text) : null;
  return s !== null && s.kind === kind ? by.get(s.name) : undefined;
}
/** Every MMA atom name, ascending in code-point order (a fresh array). */
export const mmaAtomNames = (): string[] => [...mmaNames];
/** Every copy atom name, ascending in code-point order (a fresh array). */
export const copyAtomNames = (): string[] => [...copyNames];
