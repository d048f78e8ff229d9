/**
 * The benchmark kernels in WGSL. Φ comes from the evaluator's code generator (genPhi: shapes and
 * strides folded in as constants); the element count is folded in too, so a kernel has no
 * uniforms: bindings 0 (read) and 1 (read_write) only. One thread per element, 2-D dispatch
 * (rows of at most maxComputeWorkgroupsPerDimension workgroups).
 *
 * Kernels (E = u32, vec2<u32> or vec4<u32>: elements of 4, 8 or 16 bytes):
 *   copy        dst[i] = src[i]                      the plain reference of the same byte count
 *                                                    (in 16-byte words when the bytes allow)
 *   gather      dst[i] = src[Φ(i)]
 *   scatter     dst[Φ(i)] = src[i]                   (injective layouts only)
 *   tile        workgroup k: dst[k·T + j] = src[Φ_{A⊘B}(k·T + j)] for j < T (loop over the tile)
 *   eval        out[i] = Φ(i)                        (u32 offsets)
 *   reduce      out[0] += Σ Φ(i) (mod 2^32): per-thread sums, a workgroup atomic, one global
 *               atomic per workgroup
 *   compact     the compactness check: dst[0] += #{i : Φ(i) ≥ N}, a bitmap of the offsets below
 *               N from dst[4] on, dst[1] += the offsets found already set (collisions)
 *
 * Kept here (not in shaders/*.wgsl) so that the engine's generated shader table is untouched;
 * plain strings, no file system: browser-safe.
 */
import { makeFlat } from '../algebra/layout.js';
import { makeComposed } from '../cute/composed.js';
import { genPhi } from '../engine/codegen.js';
import { prepare } from '../engine/prep.js';
import type { Outer } from './plan.js';

export type GpuKernelKind = 'copy' | 'gather' | 'scatter' | 'tile' | 'eval' | 'reduce' | 'compact';

export const BENCH_WG = 256;
/** indices per thread of the reduce kernel */
export const REDUCE_PER_THREAD = 16;

export function elemType(elemBytes: number): string {
  if (elemBytes === 4) return 'u32';
  if (elemBytes === 8) return 'vec2<u32>';
  if (elemBytes === 16) return 'vec4<u32>';
  throw new Error(`element size ${elemBytes}`);
}

export interface KernelSpec {
  kind: GpuKernelKind;
  /** flat layout of Φ (ignored by copy) */
  shapes: readonly number[];
  strides: readonly number[];
  /** elements (indices) processed */
  n: number;
  elemBytes: number;
  /** tile: elements per tile (one workgroup each) */
  tileSize?: number;
  /** workgroups of the grid-stride kernels (copy, gather, scatter, eval); default 256 */
  groups?: number;
  /** the outer function of a composed layout: Φ(x) = Sw(K + Φ_L(x)) (absent: plain) */
  outer?: Outer;
}

/** workgroups of the grid of copy / gather / scatter / eval when the spec names none */
export const BENCH_GROUPS = 256;

/** threads per workgroup of the tile kernel: the tile size rounded up to a power of two, ≤ 256 */
export function tileWorkgroup(tileSize: number): number {
  let w = 32;
  while (w < tileSize && w < BENCH_WG) w *= 2;
  return w;
}

/** workgroups to dispatch for a kernel */
export function workgroupsOf(spec: KernelSpec): number {
  if (spec.kind === 'tile') return Math.max(1, spec.n / spec.tileSize!);
  if (spec.kind === 'reduce') return Math.max(1, Math.ceil(Math.ceil(spec.n / REDUCE_PER_THREAD) / BENCH_WG));
  return Math.max(1, Math.min(spec.groups ?? BENCH_GROUPS, Math.ceil(spec.n / BENCH_WG)));
}

function phiSource(shapes: readonly number[], strides: readonly number[], outer?: Outer): string {
  const inner = makeFlat([...shapes], [...strides]);
  // a composed layout: the evaluator's code generator applies Sw(K + ·) after Φ_L
  const p = prepare(outer ? makeComposed(outer.swizzle, outer.offset, inner, false) : inner);
  if (p.wideOffset || p.size > 2 ** 32) throw new Error('benchmark layouts have 32-bit indices and offsets');
  return genPhi('phi', p, false).source;
}

/** A grid-stride kernel: the bindings, then main with thread t visiting t, t + G, … below
 *  `limit` (G = num_workgroups.x · BENCH_WG), running `body` for each. */
function gridStride(bindings: string[], body: string[], limit = 'N'): string[] {
  return [
    ...bindings,
    `@compute @workgroup_size(${BENCH_WG})`,
    'fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {',
    `  let grid = nwg.x * ${BENCH_WG}u;`,
    `  for (var t = gid.x; t < ${limit}; t = t + grid) {`,
    ...body,
    '  }',
    '}',
  ];
}

export function kernelSource(spec: KernelSpec): string {
  const E = elemType(spec.elemBytes);
  const n = spec.n;
  const head = [
    `// layoutgpu bench: kernel "${spec.kind}", ${n} elements of ${spec.elemBytes} bytes`,
    spec.kind === 'copy' ? '' : `// layout (${spec.shapes.join(',')}):(${spec.strides.join(',')})`,
    `const N: u32 = ${n}u;`,
  ];
  const idx = [`fn flat_wg(wid: vec3<u32>, nwg: vec3<u32>) -> u32 { return wid.y * nwg.x + wid.x; }`];
  const args = '@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32';
  const body: string[] = [];
  switch (spec.kind) {
    case 'copy':
    case 'gather':
    case 'scatter': {
      // the copy, the reference, moves the same bytes as fast as this loop can: in 16-byte
      // words when the byte count allows (a copy of 4-byte elements ran at 0.43–0.53× of that
      // on lavapipe: bench/copy.ts)
      const words = spec.kind === 'copy' && (n * spec.elemBytes) % 16 === 0;
      const T = words ? 'vec4<u32>' : E;
      body.push(
        ...gridStride(
          [`@group(0) @binding(0) var<storage, read> src: array<${T}>;`, `@group(0) @binding(1) var<storage, read_write> dst: array<${T}>;`],
          [spec.kind === 'copy' ? '    dst[t] = src[t];' : spec.kind === 'gather' ? '    dst[t] = src[phi(t)];' : '    dst[phi(t)] = src[t];'],
          words ? `${(n * spec.elemBytes) / 16}u` : 'N',
        ),
      );
      break;
    }
    case 'tile': {
      const T = spec.tileSize!;
      const W = tileWorkgroup(T);
      body.push(
        `const T: u32 = ${T}u;`,
        `const TILES: u32 = ${n / T}u;`,
        `@group(0) @binding(0) var<storage, read> src: array<${E}>;`,
        `@group(0) @binding(1) var<storage, read_write> dst: array<${E}>;`,
        `@compute @workgroup_size(${W})`,
        `fn main(${args}) {`,
        '  let k = flat_wg(wid, nwg);',
        '  if (k >= TILES) { return; }',
        '  let base = k * T;',
        `  for (var j = lid; j < T; j = j + ${W}u) {`,
        '    let x = base + j;',
        '    dst[x] = src[phi(x)];',
        '  }',
        '}',
      );
      break;
    }
    case 'eval':
      body.push(
        ...gridStride(
          ['@group(0) @binding(0) var<storage, read> unused: array<u32>;', '@group(0) @binding(1) var<storage, read_write> out: array<u32>;'],
          ['    out[t] = phi(t);'],
        ),
      );
      break;
    case 'compact':
      body.push(
        ...gridStride(
          ['@group(0) @binding(0) var<storage, read> unused: array<u32>;', '@group(0) @binding(1) var<storage, read_write> dst: array<atomic<u32>>;'],
          [
            '    let v = phi(t);',
            '    if (v >= N) { atomicAdd(&dst[0], 1u); continue; }',
            '    let m = 1u << (v & 31u);',
            '    let old = atomicOr(&dst[4u + (v >> 5u)], m);',
            '    if ((old & m) != 0u) { atomicAdd(&dst[1], 1u); }',
          ],
        ),
      );
      break;
    case 'reduce': {
      const threads = workgroupsOf(spec) * BENCH_WG;
      body.push(
        `const THREADS: u32 = ${threads}u;`,
        '@group(0) @binding(0) var<storage, read> unused: array<u32>;',
        '@group(0) @binding(1) var<storage, read_write> out: array<atomic<u32>>;',
        'var<workgroup> wsum: atomic<u32>;',
        `@compute @workgroup_size(${BENCH_WG})`,
        `fn main(${args}) {`,
        `  let t = flat_wg(wid, nwg) * ${BENCH_WG}u + lid;`,
        '  var s = 0u;',
        `  for (var j = 0u; j < ${REDUCE_PER_THREAD}u; j = j + 1u) {`,
        '    let x = t + j * THREADS;',
        '    if (x < N) { s = s + phi(x); }',
        '  }',
        '  atomicAdd(&wsum, s);',
        '  workgroupBarrier();',
        '  if (lid == 0u) { atomicAdd(&out[0], atomicLoad(&wsum)); }',
        '}',
      );
      break;
    }
  }
  const phi = spec.kind === 'copy' ? '' : phiSource(spec.shapes, spec.strides, spec.outer);
  return [...head, ...idx, phi, ...body].filter((s) => s !== '').join('\n') + '\n';
}
