/**
 * Speed of the evaluator (issue 3, "Speed"): layouts a–d, in M indices/s, median of 3 runs.
 *
 * GPU: the generated kernels against plain hand-written kernels (a division chain with literal
 * constants, the same bindings, grid-stride over the same fixed grid), measured in the same run: eval without read-back and the
 * compactness check (bitmap cleared, counters reset and read once at the end); small layouts
 * batch many dispatches per submit. Shader-ready latency: a fresh source to a pipeline that
 * has run once.
 * CPU: the CPU backend (generated JavaScript, odometer) against the best plain V8 loop (a
 * division per index, or a nest of loops), eval into a typed array and the compactness check.
 *
 *   npx tsx bench/evaluator.ts [--runs 3] [--cpu-only] [--gpu-only] [--timestamps] [--dawn TOGGLE,...] [--groups N]
 *
 * --groups: workgroups of the grid (default: the backend's choice for the adapter).
 * The GPU digest (GpuBackend.digestRange, read-back included) is reported in M indices/s over
 * 16 copies of each layout's range (size·16 indices through the grid, a 2^32-index digest
 * extrapolated from it).
 *
 * --timestamps: eval of d against the memory-write limit in GPU time (timestamp queries, with
 * Dawn's quantization disabled), for a real GPU.
 */
import { parseLayout } from '../src/algebra/notation.js';
import { flat, size, type Layout } from '../src/algebra/layout.js';
import { CpuBackend } from '../src/engine/cpu.js';
import { genSingle, walkFor } from '../src/engine/codegen.js';
import { prepare } from '../src/engine/prep.js';
import { GpuBackend } from '../src/engine/gpu.js';
import { timeKernel, timeKernelGpu } from '../src/throughput/evaluator-timing.js';
import { acquireNodeDevice, type NodeDevice } from '../src/engine/node/device-node.js';
import { adapterLine } from '../src/engine/select.js';

const LAYOUTS: [string, string][] = [
  ['a', '(1024,1024):(1,1024)'],
  ['b', '((8,16),(32,8)):((1,256),(8,4096))'],
  ['c', '(11,13,15,17,19,21):(315,58905,1,3465,765765,15)'],
  ['d', '(32,64,128,256):(128,1048576,1,4096)'],
];

/** the figures on this machine's lavapipe (hand-written kernels) and V8 loops */
const TARGET = {
  gpuEval: { a: 267, b: 115, c: 293, d: 428 },
  gpuCompact: { a: 134, b: 83, c: 134, d: 118 },
  cpuEval: { a: 579, b: 336, c: 351, d: 342 },
} as const;

const argv = process.argv.slice(2);
const RUNS = Number(argv[argv.indexOf('--runs') + 1] ?? 3) || 3;
const median = (xs: number[]): number => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)]!;
const f0 = (v: number): string => v.toFixed(0);

// ------------------------------------------------------------------------------------------
// hand-written reference kernels: the straightforward WGSL a person writes for one layout

function plainPhiWgsl(l: Layout): string {
  const { shapes, strides } = flat(l);
  const terms: string[] = [];
  let div = 1;
  for (let i = 0; i < shapes.length; i++) {
    const q = div === 1 ? 'x' : `(x / ${div}u)`;
    terms.push(i === shapes.length - 1 ? `${q} * ${strides[i]}u` : `(${q} % ${shapes[i]}u) * ${strides[i]}u`);
    div *= shapes[i]!;
  }
  return terms.join(' + ');
}

const REF_HEAD = `
struct Params { base: vec2<u32>, count: u32, rel: u32, window: vec2<u32>, window_len: u32, flags: u32, }
@group(0) @binding(0) var<uniform> params: Params;`;

/** grid-stride, like the generated kernels: G = num_workgroups.x · 256 threads, each taking
 *  i, i + G, … (a division chain per index) */
function refEval(l: Layout): string {
  return `// hand-written reference: eval of ${l.shape}:${l.stride}, grid-stride${REF_HEAD}
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let grid = nwg.x * 256u;
  for (var i = gid.x; i < params.count; i = i + grid) {
    let x = params.base.x + i;
    out[i] = ${plainPhiWgsl(l)};
  }
}`;
}

/** the memory-write limit: every thread stores its index, nothing computed */
const FILL = `// memory-write limit: out[i] = x, grid-stride${REF_HEAD}
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let grid = nwg.x * 256u;
  for (var i = gid.x; i < params.count; i = i + grid) {
    out[i] = params.base.x + i;
  }
}`;

function refCompact(l: Layout): string {
  return `// hand-written reference: compactness of a layout of size ${size(l)}, grid-stride${REF_HEAD}
@group(0) @binding(1) var<storage, read_write> bits: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read_write> counters: array<atomic<u32>, 4>;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let grid = nwg.x * 256u;
  for (var i = gid.x; i < params.count; i = i + grid) {
    let x = params.base.x + i;
    let v = ${plainPhiWgsl(l)};
    if (v >= ${size(l)}u) { atomicAdd(&counters[0], 1u); continue; }
    let m = 1u << (v & 31u);
    let old = atomicOr(&bits[v >> 5u], m);
    if ((old & m) != 0u) { atomicAdd(&counters[1], 1u); }
  }
}`;
}

// ------------------------------------------------------------------------------------------
// plain V8 loops (the CPU reference): a division per index, and a nest of loops

type Fill = (out: Uint32Array) => void;

function v8Division(l: Layout): Fill {
  const { shapes, strides } = flat(l);
  const lines = ['return function (out) {', `  for (let x = 0; x < ${size(l)}; x++) {`, '    let r = x, o = 0, c = 0;'];
  shapes.forEach((s, i) => {
    if (i === shapes.length - 1) lines.push(`    o += r * ${strides[i]};`);
    else lines.push(`    c = r % ${s}; r = (r - c) / ${s}; o += c * ${strides[i]};`);
  });
  lines.push('    out[x] = o;', '  }', '};');
  return new Function(lines.join('\n'))() as Fill;
}

function v8Nest(l: Layout): Fill {
  const { shapes, strides } = flat(l);
  const m = shapes.length;
  const lines = ['return function (out) {', '  let x = 0;'];
  for (let i = m - 1; i >= 0; i--) {
    const outer = i === m - 1 ? '0' : `o${i + 1}`;
    lines.push(`${'  '.repeat(m - i)}for (let c${i} = 0, o${i} = ${outer}; c${i} < ${shapes[i]}; c${i}++, o${i} += ${strides[i]}) {`);
  }
  lines.push(`${'  '.repeat(m + 1)}out[x++] = o0;`);
  for (let i = 0; i < m; i++) lines.push(`${'  '.repeat(m - i)}}`);
  lines.push('};');
  return new Function(lines.join('\n'))() as Fill;
}

function v8Compact(l: Layout): () => boolean {
  const { shapes, strides } = flat(l);
  const n = size(l);
  const lines = ['return function () {', `  const seen = new Uint8Array(${n});`, `  for (let x = 0; x < ${n}; x++) {`, '    let r = x, o = 0, c = 0;'];
  shapes.forEach((s, i) => {
    if (i === shapes.length - 1) lines.push(`    o += r * ${strides[i]};`);
    else lines.push(`    c = r % ${s}; r = (r - c) / ${s}; o += c * ${strides[i]};`);
  });
  lines.push(`    if (o >= ${n} || seen[o]) return false;`, '    seen[o] = 1;', '  }', '  return true;', '};');
  return new Function(lines.join('\n'))() as () => boolean;
}

/** M indices/s of `f` over n indices, repeated for at least ~200 ms after a warm-up */
function rate(n: number, f: () => void): number {
  for (let i = 0; i < 3; i++) f();
  let reps = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < 200) {
    f();
    reps++;
    t = performance.now();
  }
  return (n * reps) / ((t - t0) / 1000) / 1e6;
}

async function cpuBench(): Promise<void> {
  const cpu = new CpuBackend();
  console.log('\nCPU (one thread): M indices/s, median of', RUNS, 'runs');
  console.log('layout  eval(generated)  best V8 loop  (division / nest)  ratio  target  | compact(generated)  V8 loop');
  for (const [name, text] of LAYOUTS) {
    const l = parseLayout(text);
    const n = size(l);
    const out = new Uint32Array(n);
    const c = cpu.compiled(l);
    const div = v8Division(l);
    const nest = v8Nest(l);
    const chk = v8Compact(l);
    const gen: number[] = [];
    const dv: number[] = [];
    const ns: number[] = [];
    const cg: number[] = [];
    const cv: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      gen.push(rate(n, () => c.fill(0, n, out)));
      dv.push(rate(n, () => div(out)));
      ns.push(rate(n, () => nest(out)));
      let ok = true;
      cg.push(rate(n, () => void cpu.checkCompact(l).then((x) => (ok &&= x.compact))));
      cv.push(rate(n, () => void (ok &&= chk())));
      if (!ok) throw new Error(`${name} should be compact`);
    }
    const best = Math.max(median(dv), median(ns));
    console.log(
      `${name}       ${f0(median(gen)).padStart(8)}        ${f0(best).padStart(8)}      (${f0(median(dv))} / ${f0(median(ns))})`.padEnd(62) +
        `${(median(gen) / best).toFixed(2)}   ${String(TARGET.cpuEval[name as 'a']).padStart(5)}   | ${f0(median(cg)).padStart(10)}          ${f0(median(cv)).padStart(6)}`,
    );
  }
}

async function gpuBench(dev: NodeDevice): Promise<void> {
  const gi = argv.indexOf('--groups');
  const groups = gi >= 0 ? Number(argv[gi + 1]) : undefined;
  const gpu = new GpuBackend(dev.device, { adapter: adapterLine(dev.adapter), software: dev.adapter.software, ...(groups ? { gridGroups: groups } : {}) });
  console.log(`grid: ${gpu.gridGroups} workgroups of 256 threads (every kernel below, generated and hand-written)`);
  console.log(`\nGPU: ${adapterLine(dev.adapter)}`);
  console.log('M indices/s, median of', RUNS, 'runs; generated vs hand-written reference in the same run');
  console.log('layout  eval gen   ref  ratio target | compact gen   ref  ratio target | shader ready ms | write limit | digest (backend, read-back incl.)');
  for (const [name, text] of LAYOUTS) {
    const l = parseLayout(text);
    const n = size(l);
    const reps = Math.max(2, Math.round(2 ** 27 / n));
    // the kernels the backend generates on this adapter (its walk: codegen walkFor)
    const walk = walkFor(prepare(l), dev.adapter.software);
    const ge = genSingle('eval', l, false, walk).source;
    const gc = genSingle('compact', l, false, walk).source;
    const re = refEval(l);
    const rcs = refCompact(l);
    // warm: compile every pipeline and run once
    for (const [k, s] of [
      ['eval', ge],
      ['eval', re],
      ['compact', gc],
      ['compact', rcs],
    ] as const)
      await timeKernel(gpu, k, s, n, 1);
    const E: number[] = [];
    const RE: number[] = [];
    const C: number[] = [];
    const RC: number[] = [];
    const ready: number[] = [];
    const W: number[] = [];
    const D: number[] = [];
    await gpu.digestRange(l, 0, n);
    for (let r = 0; r < RUNS; r++) {
      const td = performance.now();
      await gpu.digestRange(l, 0, n);
      D.push(n / ((performance.now() - td) / 1000) / 1e6);
      E.push((n * reps) / (await timeKernel(gpu, 'eval', ge, n, reps)) / 1e6);
      RE.push((n * reps) / (await timeKernel(gpu, 'eval', re, n, reps)) / 1e6);
      C.push((n * reps) / (await timeKernel(gpu, 'compact', gc, n, reps)) / 1e6);
      RC.push((n * reps) / (await timeKernel(gpu, 'compact', rcs, n, reps)) / 1e6);
      W.push((n * reps) / (await timeKernel(gpu, 'eval', FILL, n, reps)) / 1e6);
      // a fresh source (a nonce defeats every cache) until it has run once
      const fresh = `${ge}\n// nonce ${Math.random()}\n`;
      const t0 = performance.now();
      await timeKernel(gpu, 'eval', fresh, Math.min(n, 4096), 1);
      ready.push(performance.now() - t0);
    }
    const t = (k: 'gpuEval' | 'gpuCompact') => TARGET[k][name as 'a'];
    console.log(
      `${name}       ${f0(median(E)).padStart(5)} ${f0(median(RE)).padStart(5)}  ${(median(E) / median(RE)).toFixed(2)}  ${String(t('gpuEval')).padStart(4)}  |` +
        `     ${f0(median(C)).padStart(5)} ${f0(median(RC)).padStart(5)}  ${(median(C) / median(RC)).toFixed(2)}  ${String(t('gpuCompact')).padStart(4)}` +
        `  | ${f0(median(ready)).padStart(6)}          | ${f0(median(W)).padStart(5)} (eval gen at ${((100 * median(E)) / median(W)).toFixed(0)}%) | ${f0(median(D)).padStart(5)}`,
    );
  }
  if (argv.includes('--timestamps')) {
    // eval of d against the memory-write limit, in GPU time (timestamp queries)
    const l = parseLayout(LAYOUTS[3]![1]);
    const n = size(l);
    const reps = 4;
    const src = genSingle('eval', l, false, walkFor(prepare(l), dev.adapter.software)).source;
    const E: number[] = [];
    const W: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const e = await timeKernelGpu(gpu, src, n, reps);
      const w = await timeKernelGpu(gpu, FILL, n, reps);
      if (e === null || w === null) {
        console.log('timestamps: the device has no timestamp-query');
        break;
      }
      E.push((4 * n * reps) / e / 1e9);
      W.push((4 * n * reps) / w / 1e9);
    }
    if (E.length) {
      console.log(
        `timestamps: eval d writes ${median(E).toFixed(2)} GB/s, the write limit (out[i] = i) ${median(W).toFixed(2)} GB/s: ` +
          `${((100 * median(E)) / median(W)).toFixed(0)}% (goal ≥ 50%)`,
      );
    }
  }
  gpu.dispose();
}

async function main(): Promise<void> {
  console.log(`layoutgpu evaluator bench — node ${process.version}`);
  if (!argv.includes('--gpu-only')) await cpuBench();
  if (argv.includes('--cpu-only')) return;
  const i = argv.indexOf('--dawn');
  const dawn = i >= 0 ? (argv[i + 1] ?? '').split(',').filter((s) => s) : [];
  const timestamps = argv.includes('--timestamps');
  if (timestamps && !dawn.some((d) => d.includes('timestamp_quantization'))) dawn.push('disable-dawn-features=timestamp_quantization');
  let dev: NodeDevice;
  try {
    dev = await acquireNodeDevice({ dawn, timestamps });
  } catch (e) {
    console.log(`\nGPU: no adapter (${(e as Error).message}); GPU figures not measured`);
    return;
  }
  await gpuBench(dev);
}

await main();
