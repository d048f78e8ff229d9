/** Seeded property runs for the CuTe vocabulary tests (as test/algebra/properties.test.ts). */
import type { BL } from '../helpers/brute.js';
import { formatLayout, parseLayout } from '../../src/algebra/notation.js';
import type { Layout } from '../../src/algebra/layout.js';
import { seededRuns } from '../helpers/seeds.js';

/** Run `body` on `n` seeded generators; a failure names the seed (and body's messages). */
export const forSeeds = seededRuns(0x5eed2026);

/** A brute-side layout as a validated library Layout (through the parser). */
export const lib = (l: BL): Layout => parseLayout(formatLayout(l as Layout));

export { kindOf } from '../helpers/kind.js';
