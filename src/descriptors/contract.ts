/**
 * The CUDA driver's contract of `cuTensorMapEncodeTiled` (docs/descriptors.md §2.2), clause by clause over the fields of a tensor map: the map CuTe's `make_tma_copy_desc` passes, checked as the
 * driver checks it before it accepts it (CuTe asserts most of these; the swizzle span it does not: the driver refuses
 * the map at run time). Each clause is one named function; `checkTensorMap` runs them in order.
 */
import { domainError, LayoutError } from '../algebra/errors.js';

/** The fields of a tensor map as the driver takes them (lists innermost first; globalStrides in bytes, rank − 1 of them). */
export interface TensorMapFields {
  readonly rank: number;
  readonly globalDim: readonly number[];
  readonly globalStrides: readonly number[];
  readonly boxDim: readonly number[];
  readonly elementStrides: readonly number[];
  readonly interleave: string;
  readonly swizzle: string;
  readonly l2Promotion: string;
  readonly oobFill: string;
}

/** One clause: its name (docs/descriptors.md lists them) and the check, throwing `domain` with the rule and the numbers. */
export interface Clause {
  readonly name: string;
  check(m: TensorMapFields, elementBytes: number): void;
}

const fail = (message: string): never => {
  throw domainError(`tma_desc: ${message} (cuTensorMapEncodeTiled)`);
};

/** the failures of the clauses on G alone (globalDim, globalStrides): no smem layout mends them */
const gmemFailures = new WeakSet<LayoutError>();

/** G's own clauses: their failure is marked (isGmemRule) */
function failGmem(message: string): never {
  try {
    return fail(message);
  } catch (e) {
    gmemFailures.add(e as LayoutError);
    throw e;
  }
}

/** Whether an error is the failure of a clause on the global tensor alone (globalDim, globalStrides), which no choice of
 *  smem layout mends (the atom suggestions skip it). */
export const isGmemRule = (e: unknown): boolean => e instanceof LayoutError && gmemFailures.has(e);

/** the largest row of a box the swizzle takes, in bytes (0: no swizzle, no limit) */
const SPAN: Readonly<Record<string, number>> = { NONE: 0, '32B': 32, '64B': 64, '128B': 128, '128B_ATOM_32B': 128, '128B_ATOM_64B': 128 };

/** The clauses, in the order the driver's documentation states them. */
export const CONTRACT: readonly Clause[] = [
  {
    name: 'rank',
    check: (m) => {
      if (!Number.isInteger(m.rank) || m.rank < 1 || m.rank > 5) fail(`tensorRank = ${m.rank} must be 1 to 5`);
      if (m.globalDim.length !== m.rank || m.boxDim.length !== m.rank || m.elementStrides.length !== m.rank || m.globalStrides.length !== m.rank - 1) {
        fail(`globalDim, boxDim and elementStrides must have rank = ${m.rank} entries and globalStrides rank - 1`);
      }
    },
  },
  {
    name: 'globalDim',
    check: (m) =>
      m.globalDim.forEach((g, i) => {
        if (g < 1 || g > 2 ** 32) failGmem(`globalDim[${i}] = ${g} must be 1 to 2^32`);
      }),
  },
  {
    name: 'globalStrides < 2^40',
    check: (m) =>
      m.globalStrides.forEach((s, i) => {
        if (s >= 2 ** 40) failGmem(`globalStrides[${i}] = ${s} bytes must be below 2^40`);
      }),
  },
  {
    name: 'globalStrides multiple of 16',
    check: (m) =>
      m.globalStrides.forEach((s, i) => {
        if (s % 16 !== 0) failGmem(`globalStrides[${i}] = ${s} bytes must be a multiple of 16`);
      }),
  },
  {
    name: 'boxDim',
    check: (m) =>
      m.boxDim.forEach((b, i) => {
        if (b < 1 || b > 256) fail(`boxDim[${i}] = ${b} must be 1 to 256`);
      }),
  },
  {
    name: 'boxDim[0]·e multiple of 16',
    check: (m, e) => {
      const inner = m.boxDim[0]! * e;
      if (m.interleave === 'NONE' && inner % 16 !== 0) fail(`boxDim[0]·e = ${m.boxDim[0]}·${e} = ${inner} bytes must be a multiple of 16`);
    },
  },
  {
    name: 'elementStrides',
    check: (m) =>
      m.elementStrides.forEach((s, i) => {
        if (s < 1 || s > 8) fail(`elementStrides[${i}] = ${s} must be 1 to 8`);
      }),
  },
  {
    name: 'interleave',
    check: (m) => {
      if (m.interleave !== 'NONE') fail(`interleave ${m.interleave}: CuTe's maps are INTERLEAVE_NONE`);
    },
  },
  {
    name: 'swizzle span',
    check: (m, e) => {
      const span = SPAN[m.swizzle];
      if (span === undefined) fail(`swizzle ${m.swizzle} is no swizzle mode`);
      const inner = m.boxDim[0]! * e;
      if (span! > 0 && inner > span!) fail(`inner box ${inner} bytes exceeds the ${m.swizzle} swizzle span: boxDim[0]·e = ${inner} bytes > ${span}`);
    },
  },
  {
    name: 'l2Promotion',
    check: (m) => {
      if (!['NONE', 'L2_64B', 'L2_128B', 'L2_256B'].includes(m.l2Promotion)) fail(`l2Promotion ${m.l2Promotion} is no promotion mode`);
    },
  },
  {
    name: 'oobFill',
    check: (m) => {
      if (m.oobFill !== 'NONE' && m.oobFill !== 'NAN_REQUEST_ZERO_FMA') fail(`oobFill ${m.oobFill} is no fill mode`);
    },
  },
];

/**
 * Whether the driver accepts the map: every clause of CONTRACT in order. Errors: `domain` naming the first clause
 * that fails and its numbers. Example: a 128B map with boxDim [128, 8] of 2-byte elements fails "swizzle span"
 * (256 bytes > 128).
 */
export function checkTensorMap(m: TensorMapFields, elementBytes: number): void {
  for (const c of CONTRACT) c.check(m, elementBytes);
}
