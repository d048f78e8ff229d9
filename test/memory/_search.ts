/** What the swizzle search must equal, for its tests: bank_conflicts once per candidate and
 *  pattern (the loop the search replaces), and results without their error text. */
import { LayoutError } from '../../src/algebra/errors.js';
import type { LayoutFunction } from '../../src/cute/composed.js';
import { bankConflicts } from '../../src/memory/banks.js';
import type { AccessPattern, CandidateResult } from '../../src/memory/search.js';

/** the loop the search must equal: bank_conflicts once per candidate and pattern */
export function loop(cands: readonly LayoutFunction[], patterns: readonly AccessPattern[]): CandidateResult[] {
  return cands.map((c) => {
    let wavefronts = 0;
    let phases = 0;
    let free = true;
    try {
      for (const p of patterns) {
        const r = bankConflicts(c, p.tv, p.e, p.v);
        wavefronts += r.wavefronts;
        phases += r.phases;
        if (r.conflicts > 0) free = false;
      }
    } catch (e) {
      if (e instanceof LayoutError) return { wavefronts: null, phases: null, conflictFree: false };
      throw e;
    }
    return { wavefronts, phases, conflictFree: free };
  });
}

/** results as the loop gives them (an error's text dropped) */
export const strip = (rs: CandidateResult[]): CandidateResult[] => rs.map(({ wavefronts, phases, conflictFree }) => ({ wavefronts, phases, conflictFree }));
