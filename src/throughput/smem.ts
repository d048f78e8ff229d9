/**
 * `layoutgpu bench --smem <M> --tv <TV> --elem <e>` (issue 12, item 6): shaders/smem.wgsl writes
 * a tile into workgroup memory through M and reads it back through M with the TV pattern,
 * verified (every read equals what was written), timed against the same kernel through the
 * unswizzled layout (M's inner layout; the identity of the tile for a plain M); the report puts the time per access beside the wavefronts
 * bank_conflicts predicts. Software adapters have no banks: the figures are reported, never
 * asserted. Accesses of at least 4 bytes per thread (v·e ≥ 4) only: the kernel moves words.
 */
import { LayoutError } from '../algebra/errors.js';
import { makeLayout, size } from '../algebra/layout.js';
import { isComposed, type LayoutFunction } from '../cute/composed.js';
import { accessOffsets, threadValues } from '../memory/access.js';
import { bankConflicts, type BankReport } from '../memory/banks.js';
import { SHADERS } from '../engine/shaders.generated.js';
import { pipelinesOf, readBack, submitAndWait, upload, USAGE } from '../engine/webgpu.js';

export interface SmemRun {
  layout: string;
  report: BankReport;
  /** nanoseconds per instruction (one warp-wide access), the median over the samples */
  nsPerInstruction: number;
  mismatches: number;
}

export interface SmemReport {
  adapter: string;
  software: boolean;
  threads: number;
  instructionsPerRound: number;
  rounds: number;
  workgroups: number;
  runs: SmemRun[];
}

/** The word addresses of every (thread, instruction) and the geometry, from bank_conflicts' model. */
function plan(
  m: LayoutFunction,
  tv: LayoutFunction,
  e: number,
  v: number | undefined,
): { addr: Uint32Array; report: BankReport; words: number; tileWords: number; threads: number; instr: number } {
  const report = bankConflicts(m, tv, e, v);
  const w = report.vector * e;
  if (w < 4) throw new LayoutError('domain', `bench --smem moves whole 4-byte words: v*e = ${w} bytes per thread is below 4`);
  const tvs = threadValues(tv);
  const off = accessOffsets(m, tvs);
  const instr = tvs.values / report.vector;
  const addr = new Uint32Array(tvs.threads * instr);
  let max = 0;
  for (let t = 0; t < tvs.threads; t++)
    for (let k = 0; k < instr; k++) {
      const a = (e * off[t + tvs.threads * k * report.vector]!) / 4;
      addr[t + tvs.threads * k] = a;
      max = Math.max(max, a + w / 4);
    }
  return { addr, report, words: w / 4, tileWords: max, threads: tvs.threads, instr };
}

/** Run the benchmark on a device: M against the identity layout of its tile. */
export async function runSmem(
  device: GPUDevice,
  adapter: { line: string; software: boolean },
  m: LayoutFunction,
  tv: LayoutFunction,
  e: number,
  v?: number,
  samples = 10,
): Promise<SmemReport> {
  // the baseline: M without its swizzle (the unswizzled layout), or for a plain M the
  // identity of its tile
  const baseline = isComposed(m) ? m.inner : makeLayout(size(m), 1);
  const plans = [
    { name: 'M', p: plan(m, tv, e, v) },
    { name: isComposed(m) ? 'unswizzled' : 'identity', p: plan(baseline, tv, e, v) },
  ];
  const threads = plans[0]!.p.threads;
  const maxWords = Math.floor((device.limits.maxComputeWorkgroupStorageSize ?? 16384) / 4);
  if (threads > (device.limits.maxComputeInvocationsPerWorkgroup ?? 256))
    throw new LayoutError('domain', `bench --smem: ${threads} threads exceed the workgroup limit`);
  const rounds = 64;
  const workgroups = 256;
  const runs: SmemRun[] = [];
  const pipelines = pipelinesOf(device);
  for (const { name, p } of plans) {
    if (p.tileWords > maxWords)
      throw new LayoutError('domain', `bench --smem: the tile needs ${p.tileWords} words of workgroup memory, the adapter has ${maxWords}`);
    const code = SHADERS.smem
      .replace(/THREADS/g, `${p.threads}u`)
      .replace(/INSTR/g, `${p.instr}u`)
      .replace(/WORDS_PER/g, `${p.words}u`)
      .replace(/TILE_WORDS/g, `${Math.max(1, p.tileWords)}`)
      .replace(/REPS/g, `${rounds}u`)
      .replace(/@workgroup_size\((\d+)u\)/, '@workgroup_size($1)');
    const pipe = pipelines.get(code, 'main', 'smem');
    const addrBuf = upload(device, p.addr as Uint32Array<ArrayBuffer>, USAGE.STORAGE, 'smem addresses', 16);
    const res = device.createBuffer({ size: 16, usage: USAGE.STORAGE | USAGE.COPY_SRC | USAGE.COPY_DST });
    const bind = device.createBindGroup({
      layout: pipe.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: addrBuf } },
        { binding: 1, resource: { buffer: res } },
      ],
    });
    const once = async (): Promise<number> => {
      const t0 = performance.now();
      const enc = device.createCommandEncoder();
      const cp = enc.beginComputePass();
      cp.setPipeline(pipe);
      cp.setBindGroup(0, bind);
      cp.dispatchWorkgroups(workgroups);
      cp.end();
      await submitAndWait(device, [enc.finish()]);
      return performance.now() - t0;
    };
    device.queue.writeBuffer(res, 0, new Uint32Array(4));
    await once(); // warm-up, and the verification below
    const mismatches = new Uint32Array(await readBack(device, res, 16, 'smem result'))[0]!;
    const times: number[] = [];
    for (let i = 0; i < samples; i++) times.push(await once());
    times.sort((a, b) => a - b);
    const warps = Math.ceil(p.threads / 32);
    const accesses = workgroups * rounds * 2 * p.instr * warps; // warp-wide instructions, write and read
    runs.push({ layout: name, report: p.report, nsPerInstruction: (times[times.length >> 1]! * 1e6) / accesses, mismatches });
    for (const b of [addrBuf, res]) b.destroy();
  }
  return { adapter: adapter.line, software: adapter.software, threads, instructionsPerRound: plans[0]!.p.instr, rounds, workgroups, runs };
}

/** The report as text: per layout, ns per warp instruction beside the predicted wavefronts. */
export function formatSmem(r: SmemReport, mText: string): string {
  const lines = [
    `bench --smem on ${r.adapter}${r.software ? ' (a software adapter has no banks: the times do not follow the model)' : ''}`,
    `${r.workgroups} workgroups × ${r.rounds} rounds of write + read, ${r.threads} threads, ${r.instructionsPerRound} instruction(s) per thread per direction`,
    '',
    'layout     wavefronts/instr  conflicts  ns/instr   verified',
  ];
  for (const run of r.runs) {
    const w = run.report.wavefronts / run.report.instructions;
    lines.push(
      `${run.layout.padEnd(10)} ${w.toFixed(2).padStart(16)}  ${String(run.report.conflicts).padStart(9)}  ${run.nsPerInstruction.toFixed(3).padStart(8)}   ${run.mismatches === 0 ? 'yes' : `NO (${run.mismatches} mismatches)`}`,
    );
  }
  const [a, b] = r.runs;
  if (a && b)
    lines.push(
      '',
      `M = ${mText}: ${(a.nsPerInstruction / b.nsPerInstruction).toFixed(2)}× the ${b.layout} layout's time per access; predicted ${(a.report.wavefronts / Math.max(1, b.report.wavefronts)).toFixed(2)}× its wavefronts`,
    );
  return lines.join('\n') + '\n';
}
