/**
 * The batch form of the conflict-free search: `verify` with the property
 * ["conflict-free", TV, e] or ["conflict-free", TV, e, v] over candidate memory layouts (plain or
 * composed) answers one boolean per candidate: whether every instruction of the access takes
 * exactly its phases (docs/semantics.md §9.2). `--backend gpu` runs shaders/conflicts.wgsl, otherwise the CPU.
 */
import { carryDeadline } from '../algebra/deadline.js';
import { LayoutError } from '../algebra/errors.js';
import type { LayoutFunction } from '../cute/composed.js';
import { readLayout, readLayoutFunction } from './args.js';
import type { Json, OpContext } from './spec.js';
import type { AccessPattern } from '../memory/search.js';
import { bankTarget } from './memory.js';

/** Whether a verify property is the conflict-free one. */
export const isConflictFreeProperty = (p: unknown): boolean => Array.isArray(p) && p[0] === 'conflict-free';

/** The access pattern of ["conflict-free", TV, e(, v)]; `bad-request` for a malformed one. */
export function patternOf(prop: readonly unknown[]): AccessPattern {
  // a trailing options object: the machine and direction (docs/protocol.md "Machines")
  const last = prop[prop.length - 1];
  const hasOpts = prop.length >= 4 && typeof last === 'object' && last !== null && !Array.isArray(last);
  const target = hasOpts ? bankTarget('verify conflict-free', last) : undefined;
  const bare = hasOpts ? prop.slice(0, -1) : prop;
  const plain = patternOfBare(bare);
  return target === undefined ? plain : { ...plain, target };
}

/** The access pattern of ["conflict-free", TV, e(, v)] without options. */
function patternOfBare(prop: readonly unknown[]): AccessPattern {
  const [, tv, e, v] = prop;
  if (
    prop.length < 3 ||
    prop.length > 4 ||
    typeof tv !== 'string' ||
    typeof e !== 'number' ||
    !Number.isInteger(e) ||
    (v !== undefined && (typeof v !== 'number' || !Number.isInteger(v)))
  ) {
    throw new LayoutError(
      'bad-request',
      'verify: the property is ["conflict-free", TV, e] or ["conflict-free", TV, e, v], optionally followed by {"arch", "access"} (TV a layout string, e and v integers)',
    );
  }
  const text = tv.trim();
  if (text.startsWith('Sw')) readLayoutFunction(text, 'TV'); // a malformed swizzle answers as such
  if (text.startsWith('Sw')) throw new LayoutError('domain', `the TV layout must be a plain layout; ${text} is a composed layout`);
  return v === undefined ? { tv: readLayout(tv, 'TV'), e } : { tv: readLayout(tv, 'TV'), e, v: v as number };
}

/** The GPU device of the context's backend, when it is the GPU's. */
async function deviceOf(ctx: OpContext): Promise<GPUDevice | null> {
  if (ctx.backendChoice === 'cpu') return null;
  const b = await ctx.backend();
  const device = (b as unknown as { device?: GPUDevice }).device;
  return b.info.backend === 'gpu' && device ? device : null;
}

/**
 * Candidate i (0-based) of a `verify` request as a layout function. A candidate that is no string is `bad-request`;
 * one that does not parse, or whose values cannot be represented exactly (`overflow`), fails the request with an
 * error that names it (`candidate 2: …`): the answer is a boolean per candidate, and none is guessed.
 */
export function parseCandidate(c: unknown, i: number): LayoutFunction {
  const what = `candidate ${i + 1}`;
  if (typeof c !== 'string') throw new LayoutError('bad-request', `verify: ${what} must be a string`);
  try {
    return readLayoutFunction(c, what);
  } catch (e) {
    if (e instanceof LayoutError && !e.message.startsWith(what)) throw new LayoutError(e.kind, `${what}: ${e.message}`);
    throw e;
  }
}

/** verify ["conflict-free", TV, e(, v)] [candidates]: one boolean per candidate, in order. */
export async function conflictFreeVerify(prop: readonly unknown[], cands: unknown, ctx: OpContext): Promise<Json> {
  // the request's deadline, carried across the awaits below (the search's loops check it)
  const due = carryDeadline('verify conflict-free');
  const pattern = patternOf(prop);
  if (!Array.isArray(cands)) throw new LayoutError('bad-request', 'verify: the candidates must be an array of layout strings');
  const layouts: LayoutFunction[] = cands.map(parseCandidate);
  if (layouts.length === 0) return [];
  const device = await deviceOf(ctx);
  const search = await import('../memory/search.js');
  due();
  const results = device
    ? await new (await import('../engine/conflicts-gpu.js')).GpuConflictSearch(device).search(layouts, [pattern], due)
    : due.within(() => search.searchCpu(layouts, [pattern]));
  return results.map((r) => r.conflictFree);
}
