/**
 * The machine a plan prices on (docs/planner.md, "Machines"): its bank model and the
 * instructions a side may use. NVIDIA's sm80, sm90 and sm100 share §9.2's model (32 banks of 4
 * bytes, 32-thread warps, phases of 32, 32, 32, 16, 8 threads for 1 … 16 bytes), which
 * memory/banks.ts counts; they differ in the matrix instructions (ldmatrix from sm75, stmatrix
 * from sm90). AMD's CDNA3/CDNA4 (gfx942, gfx950: 64-lane waves, their own phase groups) are named
 * here and answer `domain` until their bank model joins memory/.
 */
import { LayoutError } from '../algebra/errors.js';

/** A machine of the planner: its name, its bank model's constants and its matrix instructions. */
export interface Machine {
  readonly arch: string;
  /** banks of 4 bytes */
  readonly banks: number;
  /** threads of a warp (a wave) */
  readonly warp: number;
  /** ldmatrix (sm75 and later) */
  readonly ldmatrix: boolean;
  /** stmatrix (sm90 and later) */
  readonly stmatrix: boolean;
}

const NVIDIA: Readonly<Record<string, Machine>> = {
  sm80: { arch: 'sm80', banks: 32, warp: 32, ldmatrix: true, stmatrix: false },
  sm90: { arch: 'sm90', banks: 32, warp: 32, ldmatrix: true, stmatrix: true },
  sm100: { arch: 'sm100', banks: 32, warp: 32, ldmatrix: true, stmatrix: true },
};

/** The archs of docs/planner.md, "Machines". */
export const ARCHS: readonly string[] = ['sm80', 'sm90', 'sm100', 'gfx942', 'gfx950'];

/**
 * The machine of an `arch` name (default sm90). Errors: `domain` for gfx942/gfx950 (their phase
 * tables are not in this build yet) and for any other name, listing the known ones.
 * @example machineOf('sm80').stmatrix // false
 */
export function machineOf(arch: string): Machine {
  const m = NVIDIA[arch];
  if (m !== undefined) return m;
  if (arch === 'gfx942' || arch === 'gfx950') {
    throw new LayoutError('domain', `arch ${arch}: the AMD bank model (64-lane waves, ds_read/ds_write phase groups) is not yet in the planner`);
  }
  throw new LayoutError('domain', `unknown arch '${arch.slice(0, 24)}': one of ${ARCHS.join(', ')}`);
}
