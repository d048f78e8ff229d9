/**
 * The memory-system ops of the table (spread into src/ops.ts): `bank_conflicts` (docs/semantics.md §9.2).
 */
import { counted } from '../algebra/errors.js';
import type { Json, OpSpec } from './spec.js';
import type { LayoutFunction } from '../cute/composed.js';
import { bankConflicts, type BankReport } from '../memory/banks.js';

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
  summary: 'shared-memory wavefronts of a TV access to memory layout M with e-byte elements (docs/semantics.md §9.2)',
  args: [
    { name: 'M', kind: 'layout-fn' },
    { name: 'TV', kind: 'layout-fn' },
    { name: 'e', kind: 'int' },
    { name: 'v', kind: 'int', optional: true },
  ],
  run: ([m, tv, e, v]) => bankConflicts(m as LayoutFunction, tv as LayoutFunction, e as number, v as number | undefined) as unknown as Json,
  human: (r) => formatBankReport(r as unknown as BankReport),
};

export const memoryOps: OpSpec[] = [bankConflictsOp];
