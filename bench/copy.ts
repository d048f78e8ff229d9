/**
 * Is `layoutgpu bench`'s plain copy an honest baseline? (issue 11: "the plain copy within 20%
 * of the best grid-stride copy you can write for this adapter"). The bench's own copy kernel
 * (src/throughput/wgsl.ts, as `layoutgpu bench` dispatches it) against hand-written copies of the
 * same bytes on the same device, samples interleaved round by round:
 *   - the same kernel (16-byte words, grid-stride) over other grid sizes;
 *   - element by element (the copy the bench ran before: 0.43–0.53× of the best on lavapipe);
 *   - two 16-byte words per iteration; four elements per iteration (t, t+G, t+2G, t+3G);
 *   - a contiguous block per thread (no coalescing: what a CPU-like adapter might prefer).
 * Every variant's output is checked against the source before it is timed (prepareGpuKernel).
 *
 *   npx tsx bench/copy.ts [--elems N] [--samples K] [--elem 4|16]
 */
import { acquireNodeDevice } from '../src/engine/node/device-node.js';
import { adapterLine } from '../src/engine/select.js';
import { prepareGpuKernel, type PreparedKernel } from '../src/throughput/gpu.js';
import { BENCH_GROUPS, BENCH_WG, elemType, type KernelSpec } from '../src/throughput/wgsl.js';

const argv = process.argv.slice(2);
const opt = (name: string, def: number): number => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : def;
};
const elemBytes = opt('--elem', 4);
const samples = opt('--samples', 11);
const dev = await acquireNodeDevice();
const software = dev.adapter.software;
// `layoutgpu bench`'s default cap of indices per layout: 2^22 on a software adapter, 2^26 on a GPU
const n = opt('--elems', software ? 2 ** 22 : 2 ** 26);
const E = elemType(elemBytes);

const head = (src: string, dst: string): string =>
  `@group(0) @binding(0) var<storage, read> src: array<${src}>;\n@group(0) @binding(1) var<storage, read_write> dst: array<${dst}>;\n`;
const main = '@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>';

/** hand-written variants: a name, the workgroups of the grid, the source (null: the bench's own) */
interface Variant {
  name: string;
  groups: number;
  source: string | null;
}

const variants: Variant[] = [{ name: `bench copy (${BENCH_GROUPS} workgroups, as \`layoutgpu bench\`)`, groups: BENCH_GROUPS, source: null }];
for (const g of [64, 1024, 4096]) variants.push({ name: `the bench's kernel, ${g} workgroups`, groups: g, source: null });
for (const g of [BENCH_GROUPS, 1024]) {
  variants.push({
    name: `element by element (${E}), ${g} workgroups`,
    groups: g,
    source: `${head(E, E)}@compute @workgroup_size(${BENCH_WG})\nfn main(${main}) {\n  let grid = nwg.x * ${BENCH_WG}u;\n  for (var t = gid.x; t < ${n}u; t = t + grid) { dst[t] = src[t]; }\n}`,
  });
}
if ((n * elemBytes) % 32 === 0) {
  const pairs = (n * elemBytes) / 32;
  variants.push({
    name: `two vec4<u32> per iteration, ${BENCH_GROUPS} workgroups`,
    groups: BENCH_GROUPS,
    source:
      `${head('vec4<u32>', 'vec4<u32>')}@compute @workgroup_size(${BENCH_WG})\nfn main(${main}) {\n  let grid = nwg.x * ${BENCH_WG}u;\n` +
      `  for (var t = gid.x; t < ${pairs}u; t = t + grid) { let a = src[2u * t]; let b = src[2u * t + 1u]; dst[2u * t] = a; dst[2u * t + 1u] = b; }\n}`,
  });
}
for (const g of [BENCH_GROUPS, 1024]) {
  variants.push({
    name: `4 per iteration (t, t+G, t+2G, t+3G), ${g} workgroups`,
    groups: g,
    source:
      `${head(E, E)}@compute @workgroup_size(${BENCH_WG})\nfn main(${main}) {\n  let grid = nwg.x * ${BENCH_WG}u;\n  var t = gid.x;\n` +
      `  for (; t + 3u * grid < ${n}u; t = t + 4u * grid) {\n` +
      `    let a = src[t]; let b = src[t + grid]; let c = src[t + 2u * grid]; let d = src[t + 3u * grid];\n` +
      `    dst[t] = a; dst[t + grid] = b; dst[t + 2u * grid] = c; dst[t + 3u * grid] = d;\n  }\n  for (; t < ${n}u; t = t + grid) { dst[t] = src[t]; }\n}`,
  });
}
{
  const g = BENCH_GROUPS;
  const threads = g * BENCH_WG;
  const per = Math.ceil(n / threads);
  variants.push({
    name: `a contiguous block of ${per} per thread, ${g} workgroups`,
    groups: g,
    source: `${head(E, E)}@compute @workgroup_size(${BENCH_WG})\nfn main(${main}) {\n  let lo = gid.x * ${per}u;\n  let hi = min(lo + ${per}u, ${n}u);\n  for (var t = lo; t < hi; t = t + 1u) { dst[t] = src[t]; }\n}`,
  });
}

console.log(`copy baselines — ${adapterLine(dev.adapter)}`);
console.log(
  `${n} elements of ${elemBytes} bytes (${((n * elemBytes) / 2 ** 20).toFixed(0)} MiB each way); GB/s of bytes moved (read + write), median of ${samples} interleaved samples`,
);
const ref = { offsets: new Uint32Array(0), cosize: n };
const prepared: { v: Variant; k: PreparedKernel }[] = [];
for (const v of variants) {
  const spec: KernelSpec = { kind: 'copy', shapes: [], strides: [], n, elemBytes, groups: v.groups };
  const k = await prepareGpuKernel({ device: dev.device, timestamps: false }, spec, ref, {
    samples,
    targetSeconds: 0.05,
    maxReps: 1000,
    ...(v.source ? { mutate: () => v.source! } : {}),
  });
  prepared.push({ v, k: k! });
}
for (let s = 0; s < samples; s++) for (const p of prepared) await p.k.sample();
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: { name: string; gbs: number }[] = [];
for (const p of prepared) {
  const t = await p.k.times();
  rows.push({ name: p.v.name, gbs: (2 * n * elemBytes) / median(t.secs) / 1e9 });
  p.k.dispose();
}
const best = Math.max(...rows.map((r) => r.gbs));
for (const r of rows) console.log(`  ${r.name.padEnd(58)} ${r.gbs.toFixed(2).padStart(7)} GB/s  ${(r.gbs / best).toFixed(2)}× the best`);
const plain = rows[0]!.gbs;
console.log(`\nthe bench's plain copy is at ${(plain / best).toFixed(2)}× the best copy written here (goal ≥ 0.80)`);
dev.release();
