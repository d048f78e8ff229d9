/**
 * The memory-system ops of the table (spread into src/ops/table.ts): `bank_conflicts` (docs/semantics.md §9.2).
 */
import { counted } from '../algebra/errors.js';
import type { Json, OpSpec } from './spec.js';
import type { LayoutFunction } from '../cute/composed.js';
import { bankConflicts, type BankReport } from '../memory/banks.js';
import { accessByName, machineByName, type BankTarget } from '../memory/machines.js';
import { LayoutError } from '../algebra/errors.js';

/** The options argument of the bank analyses (docs/protocol.md "Machines"): `{"arch": name, "access": "read" | "write" |
 *  instruction}`, both optional. */
export const bankOptionsArg = { name: 'options', kind: 'options', optional: true } as const;

/**
 * The target of a bank analysis from its options object (undefined: §9.2's NVIDIA model, as before machines existed).
 * Errors (`bad-request`): a key other than `arch` (and `access` where the op takes it), an arch outside the machines
 * (the message lists them), an access that is no string or none of read, write and the instructions of the machines'
 * tables (accessByName). An instruction the named machine lacks is the model's `domain`.
 * Example: bankTarget('bank_conflicts', {arch: 'gfx942', access: 'read'}).machine.banks is 32.
 */
export function bankTarget(op: string, opts: unknown, keys: readonly string[] = ['arch', 'access']): BankTarget | undefined {
  if (opts === undefined) return undefined;
  const o = opts as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (!keys.includes(k)) throw new LayoutError('bad-request', `${op}: unknown option '${k}' (the options are ${keys.join(', ')})`);
  }
  const access = o.access;
  if (access !== undefined && typeof access !== 'string') throw new LayoutError('bad-request', `${op}: access must be "read", "write" or an instruction name`);
  const machine = machineByName(o.arch ?? 'sm90');
  return access === undefined ? { machine } : { machine, access: accessByName(access) };
}

/** A readable rendering of a bank_conflicts result (the CLI's default output). */
export function formatBankReport(r: BankReport): string {
  const lines = [
    `vector         ${counted(r.vector, 'value')} per instruction`,
    `instructions   ${r.instructions}`,
    `phases         ${r.phases}`,
    `wavefronts     ${r.wavefronts}${r.conflicts === 0 ? '  (conflict-free)' : `  (${r.conflicts} extra: ${(r.wavefronts / r.phases).toFixed(2)}× the conflict-free count)`}`,
  ];
  if (r.worst) {
    const w = r.worst;
    lines.push(
      `worst phase    warp ${w.warp}, instruction ${w.instruction}, phase ${w.phase}: ${w.wavefronts} wavefronts in bank ${w.bank}`,
      `               threads ${w.threads.join(', ')}`,
    );
  }
  lines.push(`sectors        ${r.sectors} (least possible ${r.minSectors})`);
  return lines.join('\n');
}

export const bankConflictsOp: OpSpec = {
  name: 'bank_conflicts',
  summary: 'shared-memory wavefronts of a TV access to memory layout M with e-byte elements, on a machine ({"arch", "access"}; docs/semantics.md §9.2)',
  args: [
    { name: 'M', kind: 'layout-fn' },
    { name: 'TV', kind: 'layout-fn' },
    { name: 'e', kind: 'int' },
    { name: 'v', kind: 'int', optional: true },
    bankOptionsArg,
  ],
  run: ([m, tv, e, v, o]) =>
    bankConflicts(m as LayoutFunction, tv as LayoutFunction, e as number, v as number | undefined, bankTarget('bank_conflicts', o)) as unknown as Json,
  human: (r) => formatBankReport(r as unknown as BankReport),
};

export const memoryOps: OpSpec[] = [bankConflictsOp];
