/**
 * A plan request as plain data (docs/planner.md "Scale"): what a worker thread needs to build the
 * same request again (structured-clone safe: the sides' access patterns as typed arrays, their
 * instruction names and bytes per width tabulated, the machine and dtype by name). A worker
 * prices its slice of the enumeration with the sides sideFromWire builds, the same code as this
 * thread's (sides.ts accessSide, descriptor-sides.ts descriptorSide).
 */
import { LayoutError } from '../algebra/errors.js';
import { dtypeOf } from '../descriptors/dtype.js';
import type { MachineName } from '../memory/machines.js';
import { descriptorSide } from './descriptor-sides.js';
import type { FamilyName, Tile } from './families.js';
import { machineOf, type Machine } from './machine.js';
import type { PlanRequest } from './plan.js';
import type { AccessPattern } from './price.js';
import { accessSide, type PatternWire, type Side, type SideWire } from './sides.js';

/** A PlanRequest as plain data. */
export interface RequestWire {
  readonly tile: Tile;
  readonly dtype: string;
  readonly machine: MachineName;
  readonly families: readonly FamilyName[];
  readonly top: number;
  readonly write: SideWire;
  readonly read: SideWire;
}

/** The request as plain data, or null when a side has no wire (a side built outside sides.ts and descriptor-sides.ts). */
export function requestWire(req: PlanRequest): RequestWire | null {
  const { write, read } = req;
  if (write.wire === undefined || read.wire === undefined) return null;
  return { tile: req.tile, dtype: req.dtype, machine: req.machine.name, families: req.families, top: req.top, write: write.wire, read: read.wire };
}

/** The access pattern of a PatternWire: its instruction and bytes looked up by width. */
function patternOf(w: PatternWire): AccessPattern {
  const at = (x: number): number => {
    const k = w.widths.indexOf(x);
    if (k < 0) throw new LayoutError('domain', `the pattern has no width ${x}`);
    return k;
  };
  return {
    threads: w.threads,
    values: w.values,
    index: w.index,
    access: w.access,
    ...(w.live === undefined ? {} : { live: w.live }),
    widths: w.widths,
    instruction: (x) => w.names[at(x)]!,
    vectorBytes: (x) => w.bytes[at(x)]!,
  };
}

/** The side a SideWire describes, built again over the tile on the machine. */
export function sideFromWire(w: SideWire, tile: Tile, dtype: string, m: Machine): Side {
  if (w.kind === 'descriptor') return descriptorSide(w.role, w.desc, tile, dtypeOf(dtype), m);
  return accessSide(w.role, w.what, w.patterns.map(patternOf), tile, m, w.registers, { least: w.least });
}

/** The PlanRequest a RequestWire describes. */
export function requestFromWire(w: RequestWire): PlanRequest {
  const m = machineOf(w.machine);
  const write = sideFromWire(w.write, w.tile, w.dtype, m);
  const read = sideFromWire(w.read, w.tile, w.dtype, m);
  return { tile: w.tile, dtype: w.dtype, write, read, machine: m, families: w.families, top: w.top };
}
