/**
 * What the planner needs of a machine beyond its bank model (docs/planner.md, "Machines"). The
 * bank model itself is memory/machines.ts's (MACHINES: NVIDIA's sm80, sm90, sm100 with §9.2's
 * 32-thread warps, AMD's gfx942, gfx950 with 64-lane waves and their ds_read/ds_write phase
 * groups); here only the matrix instructions a side may use, and the direction of a side's access.
 */
import { machineByName, type Access, type Machine } from '../memory/machines.js';

export type { Machine } from '../memory/machines.js';

/** The matrix instructions of a machine (PTX ISA): ldmatrix from sm75, stmatrix from sm90; neither on AMD. */
export interface MatrixInstructions {
  readonly ldmatrix: boolean;
  readonly stmatrix: boolean;
}

/**
 * The matrix instructions `m` has: every NVIDIA machine of the model is sm80 or later (ldmatrix),
 * sm90 and sm100 also have stmatrix; AMD's LDS has neither.
 * @example matrixInstructions(machineOf('sm80')).stmatrix // false
 */
export function matrixInstructions(m: Machine): MatrixInstructions {
  const nvidia = m.vendor === 'nvidia';
  return { ldmatrix: nvidia, stmatrix: nvidia && m.name !== 'sm80' };
}

/** The access of a side's role on the bank model: the write side stores (`write`), the read side loads (`read`). */
export const roleAccess = (role: 'write' | 'read'): Access => role;

/**
 * The machine of an `arch` name: memory/machines.ts's machineByName (`bad-request` listing the
 * machines for any other name).
 * @example machineOf('gfx942').wave // 64
 */
export const machineOf = (arch: string): Machine => machineByName(arch);
