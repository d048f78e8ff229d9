/**
 * The bank model per machine (docs/semantics.md §9.2 and §13.1, docs/memory.md "Machines"): the
 * threads of a warp or wave, the banks and their width, and for each access instruction and width
 * the lanes that one phase serves. NVIDIA `sm80`, `sm90`, `sm100`: 32-thread warps, 32 banks of
 * 4 bytes, phases of 32/32/32/16/8 consecutive threads for 1/2/4/8/16-byte accesses (the model of
 * §9.2, unchanged). AMD `gfx942` (CDNA3) and `gfx950` (CDNA4): 64-lane waves over 32 / 64 banks of
 * 4 bytes, with the phase groups of ds_read / ds_write as AMD and Triton publish them, each row
 * citing its source; an instruction whose grouping is not published answers `domain`, never a guess.
 */
import { LayoutError } from '../algebra/errors.js';

/** The machines of the model, in the order `--help` and errors list them. */
export const MACHINE_NAMES = ['sm80', 'sm90', 'sm100', 'gfx942', 'gfx950'] as const;
export type MachineName = (typeof MACHINE_NAMES)[number];

/** The machine every bank analysis assumes when none is named (NVIDIA's model: sm80, sm90 and sm100 agree). */
export const DEFAULT_MACHINE: MachineName = 'sm90';

/** Which way an access goes: a load from shared memory or a store into it. */
export type Access = 'read' | 'write';

/** One row of a machine's table: an instruction, its bytes per thread, and the lanes of each phase
 *  (null where no grouping is published: the analysis answers `domain` with `missing`). */
export interface PhaseRow {
  readonly instruction: string;
  /** the direction it serves; `any` for NVIDIA's ld/st.shared, whose phases do not depend on it */
  readonly access: Access | 'any';
  readonly bytes: number;
  /** lanes of phase 0, 1, …, in the source's numbering; every lane of the wave exactly once */
  readonly phases: readonly (readonly number[])[] | null;
  readonly source: string;
  /** why the row has no phases (shown in the `domain` message) */
  readonly missing?: string;
  /** a row chosen only by its name (the `_tr` reads), never as `read` of its width */
  readonly byName?: boolean;
}

/** A machine of the bank model: its name, vendor, threads per warp (wave), banks, bank width and table. */
export interface Machine {
  readonly name: MachineName;
  readonly vendor: 'nvidia' | 'amd';
  /** threads of one warp (NVIDIA) or wave (AMD): the TV layout's threads group by this many */
  readonly wave: number;
  readonly banks: number;
  readonly bankBytes: number;
  readonly rows: readonly PhaseRow[];
}

/** Lanes `from` … `from + n − 1`. */
const run = (from: number, n: number): number[] => Array.from({ length: n }, (_, i) => from + i);

/** `wave` lanes in consecutive phases of `size` lanes (lanes 0 … size−1 first). */
const runs = (wave: number, size: number): number[][] => Array.from({ length: wave / size }, (_, f) => run(f * size, size));

/** A phase written as its lane ranges, e.g. '0-3 20-23' (as the sources write them). */
const lanes = (text: string): number[] =>
  text.split(' ').flatMap((r) => {
    const [a, b] = r.split('-').map(Number) as [number, number];
    return run(a, b - a + 1);
  });

const SPEC = 'docs/semantics.md §9.2; NVIDIA CUDA C++ Programming Guide, compute capabilities, "Shared Memory"';
/** Triton #9662: phases = wave · bits / (banks · 32), the high lane bases dropped (consecutive lanes per phase) */
const T9662 = 'triton-lang/triton#9662 (GenericSwizzling: phases = 64·bits/(banks·32), lanes consecutive)';
const CK_WRITE = 'ROCm Composable Kernel docs, "Understanding AMD GPU LDS and Bank Conflicts" (ds_write_b128: lane0~7 … lane56~63)';
const T_READ_942 = 'triton-lang/triton#9662 SwizzleTest.cpp (numBanks 32) and #11365 "For MI300" (phase = t5, t2^t4, t3^t4)';
const T_READ_950 = 'triton-lang/triton#11365 "For MI350" (ds_read_b128, 64 banks)';
const NO_SUBWORD = 'no phase grouping of sub-dword LDS accesses is published (the sources cover b32, b64, b128)';
const NO_TR = 'no phase grouping of the transposing LDS reads is published';

/** NVIDIA's rows: ld.shared / st.shared of w bytes (§9.2). */
const nvidiaRows: readonly PhaseRow[] = [1, 2, 4, 8, 16].map((w) => ({
  instruction: w <= 4 ? 'ld/st.shared' : `ld/st.shared.v${w / 4}`,
  access: 'any',
  bytes: w,
  phases: runs(32, w <= 4 ? 32 : 128 / w),
  source: SPEC,
}));

const nvidia = (name: MachineName): Machine => ({ name, vendor: 'nvidia', wave: 32, banks: 32, bankBytes: 4, rows: nvidiaRows });

/** The sub-dword and transposing rows every AMD machine lists without phases. */
const unpublished = (tr: boolean): PhaseRow[] => [
  ...['ds_read_u8', 'ds_write_b8', 'ds_read_u16', 'ds_write_b16'].map(
    (instruction): PhaseRow => ({
      instruction,
      access: instruction.startsWith('ds_read') ? 'read' : 'write',
      bytes: instruction.endsWith('8') ? 1 : 2,
      phases: null,
      source: '',
      missing: NO_SUBWORD,
    }),
  ),
  ...(tr
    ? [
        { name: 'ds_read_b64_tr_b4', bytes: 8 },
        { name: 'ds_read_b64_tr_b8', bytes: 8 },
        { name: 'ds_read_b64_tr_b16', bytes: 8 },
        { name: 'ds_read_b96_tr_b6', bytes: 12 },
      ].map((r): PhaseRow => ({ instruction: r.name, access: 'read', bytes: r.bytes, phases: null, source: '', missing: NO_TR, byName: true }))
    : []),
];

const gfx942: Machine = {
  name: 'gfx942',
  vendor: 'amd',
  wave: 64,
  banks: 32,
  bankBytes: 4,
  rows: [
    { instruction: 'ds_read_b32', access: 'read', bytes: 4, phases: runs(64, 32), source: T9662 }, // 2 phases
    { instruction: 'ds_write_b32', access: 'write', bytes: 4, phases: runs(64, 32), source: T9662 },
    { instruction: 'ds_read_b64', access: 'read', bytes: 8, phases: runs(64, 16), source: T9662 }, // 4 phases (its table's row)
    { instruction: 'ds_write_b64', access: 'write', bytes: 8, phases: runs(64, 16), source: T9662 },
    {
      instruction: 'ds_read_b128',
      access: 'read',
      bytes: 16,
      phases: ['0-3 20-23', '32-35 52-55', '4-7 16-19', '36-39 48-51', '8-11 28-31', '40-43 60-63', '12-15 24-27', '44-47 56-59'].map(lanes),
      source: T_READ_942,
    },
    { instruction: 'ds_write_b128', access: 'write', bytes: 16, phases: runs(64, 8), source: CK_WRITE }, // 8 phases
    ...unpublished(false),
  ],
};

const gfx950: Machine = {
  name: 'gfx950',
  vendor: 'amd',
  wave: 64,
  banks: 64,
  bankBytes: 4,
  rows: [
    { instruction: 'ds_read_b32', access: 'read', bytes: 4, phases: runs(64, 64), source: T9662 }, // 1 phase
    { instruction: 'ds_write_b32', access: 'write', bytes: 4, phases: runs(64, 64), source: T9662 },
    { instruction: 'ds_read_b64', access: 'read', bytes: 8, phases: runs(64, 32), source: T9662 }, // 2 phases (its table's row)
    { instruction: 'ds_write_b64', access: 'write', bytes: 8, phases: runs(64, 32), source: T9662 },
    {
      instruction: 'ds_read_b128',
      access: 'read',
      bytes: 16,
      phases: ['0-3 12-15 20-23 24-27', '32-35 44-47 52-55 56-59', '4-7 8-11 16-19 28-31', '36-39 40-43 48-51 60-63'].map(lanes),
      source: T_READ_950,
    },
    { instruction: 'ds_write_b128', access: 'write', bytes: 16, phases: runs(64, 16), source: T9662 }, // 4 phases
    ...unpublished(true),
  ],
};

/** Every machine of the model, by name. */
export const MACHINES: ReadonlyMap<MachineName, Machine> = new Map([nvidia('sm80'), nvidia('sm90'), nvidia('sm100'), gfx942, gfx950].map((m) => [m.name, m]));

/** The machine named `name`; `bad-request` listing the names otherwise (a value outside the argument's set). */
export function machineByName(name: unknown): Machine {
  const m = typeof name === 'string' ? MACHINES.get(name as MachineName) : undefined;
  if (m === undefined) {
    const shown = typeof name === 'string' ? `'${name}'` : JSON.stringify(name);
    throw new LayoutError('bad-request', `unknown arch ${shown}: the machines are ${MACHINE_NAMES.join(', ')}`);
  }
  return m;
}

/**
 * An access as named (CLI --access, batch "access"): `read`, `write`, or an instruction of some machine's table (which
 * machine has it is phaseGroups' question: `domain` there); anything else is `bad-request` listing the names.
 */
export function accessByName(access: string): Access | string {
  if (access === 'read' || access === 'write') return access;
  const names = new Set([...MACHINES.values()].flatMap((m) => m.rows.map((r) => r.instruction)));
  if (!names.has(access)) throw new LayoutError('bad-request', `unknown access '${access}': read, write or an instruction (${[...names].join(', ')})`);
  return access;
}

/** The phases of one access of a machine, ready for counting: lanes in phase order, and each lane's phase. */
export interface PhaseGroups {
  readonly machine: MachineName;
  readonly instruction: string;
  readonly bytes: number;
  readonly wave: number;
  readonly banks: number;
  /** lanes per phase (every phase of one row has as many) */
  readonly perPhase: number;
  /** the lanes of phase f at [f·perPhase, (f+1)·perPhase), in ascending order */
  readonly order: Int32Array;
  /** the phase of each lane */
  readonly phaseOf: Int32Array;
  /** whether phase f is lanes f·perPhase … (f+1)·perPhase − 1 (NVIDIA's and the consecutive rows) */
  readonly consecutive: boolean;
}

const groupCache = new Map<string, PhaseGroups>();

/**
 * The phase groups of a `bytes`-byte access on `machine` (docs/memory.md "Machines"). `access` is
 * `read`, `write`, an instruction name of the machine's table (`ds_read_b128`), or absent: then
 * any row of that width, if they all agree. Errors (`domain`): no row for the width or name, a
 * row with no published grouping (sub-dword and `_tr` LDS accesses on AMD), a name whose width
 * is not `bytes`, and an AMD access whose read and write rows differ (16 bytes) with no direction.
 * Example: phaseGroups(gfx942, 16, 'read').order.subarray(0, 8) is 0,1,2,3,20,21,22,23.
 */
export function phaseGroups(machine: Machine, bytes: number, access?: Access | string): PhaseGroups {
  const key = `${machine.name} ${bytes} ${access ?? ''}`;
  const hit = groupCache.get(key);
  if (hit) return hit;
  const row = rowOf(machine, bytes, access);
  const phases = row.phases!;
  const perPhase = phases[0]!.length;
  const order = Int32Array.from(phases.flatMap((p) => [...p].sort((a, b) => a - b)));
  const phaseOf = new Int32Array(machine.wave);
  phases.forEach((p, f) => {
    for (const l of p) phaseOf[l] = f;
  });
  const g: PhaseGroups = {
    machine: machine.name,
    instruction: row.instruction,
    bytes,
    wave: machine.wave,
    banks: machine.banks,
    perPhase,
    order,
    phaseOf,
    consecutive: order.every((l, i) => l === i),
  };
  groupCache.set(key, g);
  return g;
}

/** The row phaseGroups counts by, or the `domain` error saying why there is none. */
function rowOf(machine: Machine, bytes: number, access?: Access | string): PhaseRow {
  const byName = access !== undefined && access !== 'read' && access !== 'write';
  const rows = machine.rows.filter((r) =>
    byName ? r.instruction === access : !r.byName && r.bytes === bytes && (access === undefined || r.access === 'any' || r.access === access),
  );
  const m = machine.name;
  if (rows.length === 0) {
    if (byName)
      throw new LayoutError(
        'domain',
        `${m} has no instruction ${access} in the bank model (${[...new Set(machine.rows.map((r) => r.instruction))].join(', ')})`,
      );
    throw new LayoutError('domain', `${m} has no ${access ?? ''}${access ? ' ' : ''}instruction of ${bytes} bytes per thread in the bank model`);
  }
  const row = rows[0]!;
  if (byName && row.bytes !== bytes) throw new LayoutError('domain', `${m}: ${row.instruction} moves ${row.bytes} bytes per thread, not ${bytes}`);
  const none = rows.find((r) => r.phases === null);
  if (none) throw new LayoutError('domain', `${m}: ${none.instruction}: ${none.missing ?? 'no phase grouping is published'}; the model does not guess one`);
  if (rows.some((r) => !samePhases(r.phases!, row.phases!))) {
    const names = rows.map((r) => r.instruction).join(' and ');
    throw new LayoutError('domain', `${m}: ${names} serve different lanes per phase; say which with access "read" or "write" (--access)`);
  }
  return row;
}

const samePhases = (a: readonly (readonly number[])[], b: readonly (readonly number[])[]): boolean =>
  a.length === b.length && a.every((p, f) => p.length === b[f]!.length && p.every((l, i) => l === b[f]![i]));

/** What a bank analysis runs on: the machine and the direction of the access (absent: either, where they agree). */
export interface BankTarget {
  readonly machine: Machine;
  readonly access?: Access | string;
}

/** Whether a target counts exactly as §9.2's NVIDIA model (32-thread warps, 32 banks, consecutive phases). */
export const isNvidia = (t: BankTarget | undefined): boolean => t === undefined || t.machine.vendor === 'nvidia';
