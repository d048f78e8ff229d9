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

/** The MMA atom named exactly `name` (CuTe's operation struct), or undefined. */
export const mmaAtomData = (name: string): MmaAtomData | undefined => mma.get(name);
/** The copy atom named exactly `name`, or undefined. */
export const copyAtomData = (name: string): CopyAtomData | undefined => copy.get(name);
/** Every MMA atom name, ascending in code-point order (a fresh array). */
export const mmaAtomNames = (): string[] => [...mmaNames];
/** Every copy atom name, ascending in code-point order (a fresh array). */
export const copyAtomNames = (): string[] => [...copyNames];
