/**
 * The atoms by name: every architecture's data file feeds these two maps (docs/atoms.md).
 */
import type { CopyAtomData, MmaAtomData } from './types.js';
import { sm80Mma } from './data/mma-sm80.js';
import { sm75Copy } from './data/copy-sm75.js';

const mma: ReadonlyMap<string, MmaAtomData> = new Map([...sm80Mma].map((a) => [a.name, a]));
const copy: ReadonlyMap<string, CopyAtomData> = new Map([...sm75Copy].map((a) => [a.name, a]));

/** The MMA atom named exactly `name` (CuTe's operation struct), or undefined. */
export const mmaAtomData = (name: string): MmaAtomData | undefined => mma.get(name);
/** The copy atom named exactly `name`, or undefined. */
export const copyAtomData = (name: string): CopyAtomData | undefined => copy.get(name);
/** Every MMA atom name, ascending in code-point order. */
export const mmaAtomNames = (): string[] => [...mma.keys()].sort();
/** Every copy atom name, ascending in code-point order. */
export const copyAtomNames = (): string[] => [...copy.keys()].sort();
