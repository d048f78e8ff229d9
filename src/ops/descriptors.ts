/**
 * The descriptor ops of the table (docs/descriptors.md, docs/protocol.md "Descriptors"): `tma_desc` and
 * `gmma_desc`, each one JSON object argument. The room (eight modules) loads on first use (ops/lazy.ts), as the atoms'
 * and the linear layouts' do: every `batch` and CLI call reads the table, and few of them ask for a descriptor.
 */
import type { GmmaDescriptor } from '../descriptors/gmma.js';
import type { TmaDescriptor } from '../descriptors/tma.js';
import type { Json, OpSpec } from './spec.js';
import { jsonText } from './args.js';
import { lazyModule, runningIn } from './lazy.js';

const descriptors = lazyModule(() => import('../descriptors/api.js'));

/** The object argument: as is from `batch` and the page, JSON text from the command line (`bad-request` if it is none). */
function objectArg(op: string, v: unknown): unknown {
  return jsonText(v, () => `${op}: the argument must be a JSON object, got '${(v as string).slice(0, 40)}'`);
}

const list = (xs: readonly number[]): string => `[${xs.join(', ')}]`;

/** The readable table of a tensor map (the CLI's default output). */
export function formatTmaDescriptor(d: TmaDescriptor): string {
  return [
    `dataType        ${d.dataType}`,
    `rank            ${d.rank}`,
    `globalDim       ${list(d.globalDim)}`,
    `globalStrides   ${list(d.globalStrides)} bytes`,
    `boxDim          ${list(d.boxDim)}`,
    `elementStrides  ${list(d.elementStrides)}`,
    `interleave      ${d.interleave}`,
    `swizzle         ${d.swizzle}`,
    `l2Promotion     ${d.l2Promotion}`,
    `oobFill         ${d.oobFill}`,
    `smemAlignment   ${d.smemAlignment} bytes (the smem tile's base address must be a multiple)`,
    `boxes           ${d.boxes} TMA instruction(s) per tile`,
  ].join('\n');
}

/** The readable table of a matrix descriptor (the CLI's default output). */
export function formatGmmaDescriptor(d: GmmaDescriptor): string {
  return [
    `layoutType      ${d.layoutType}`,
    `lbo             ${d.lbo} (${d.lbo * 16} bytes)`,
    `sbo             ${d.sbo} (${d.sbo * 16} bytes)`,
    `baseOffset      ${d.baseOffset}`,
    `smemAlignment   ${d.smemAlignment} bytes (the tile's base address must be a multiple)`,
    `desc            ${d.desc}`,
  ].join('\n');
}

/** tma_desc and gmma_desc (spread into the table, ops/table.ts). */
export const descriptorOps: OpSpec[] = runningIn(descriptors, [
  {
    name: 'tma_desc',
    summary: "the TMA tensor map CuTe's make_tma_copy builds for {gmem, smem, dtype[, tiler]}, every rule checked (docs/descriptors.md §2)",
    args: [{ name: '{gmem,smem,dtype[,tiler]}', kind: 'json' }],
    run: ([o]) => {
      const d = descriptors.get();
      return d.tmaDescChecked(d.readTmaArgs(objectArg('tma_desc', o))) as unknown as Json;
    },
    human: (r) => formatTmaDescriptor(r as unknown as TmaDescriptor),
  },
  {
    name: 'gmma_desc',
    summary: 'the wgmma (sm90) or UMMA (sm100) smem matrix descriptor of one k-block {smem, dtype, major[, arch]} (docs/descriptors.md §3)',
    args: [{ name: '{smem,dtype,major[,arch]}', kind: 'json' }],
    run: ([o]) => {
      const d = descriptors.get();
      return d.gmmaDescChecked(d.readGmmaArgs(objectArg('gmma_desc', o))) as unknown as Json;
    },
    human: (r) => formatGmmaDescriptor(r as unknown as GmmaDescriptor),
  },
]);
