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
 * The kernels are shaders/bench-<kind>.wgsl, taken from the one generated table
 * (src/engine/shaders.generated.ts: no file system, browser-safe); this file folds N, the element
 * type and Φ into them.
 */
import { makeFlat } from '../algebra/layout.js';
import { makeComposed } from '../cute/composed.js';
import { genPhi } from '../engine/codegen.js';
import { SHADERS } from '../engine/shaders.generated.js';
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

/**
 * A bench template of shaders/ (the generated table) with each placeholder NAME of `values` replaced by its value, as
 * a whole word and in code only (a template's comments name its placeholders: they stay as written).
 */
export function fillTemplate(template: string, values: Readonly<Record<string, string | number>>): string {
  const names = Object.keys(values);
  if (names.length === 0) return template;
  const re = new RegExp(`\\b(?:${names.join('|')})\\b`, 'g');
  return template
    .split('\n')
    .map((line) => {
      const c = line.indexOf('//');
      const code = c < 0 ? line : line.slice(0, c);
      return code.replace(re, (m) => String(values[m])) + (c < 0 ? '' : line.slice(c));
    })
    .join('\n');
}

/** the template of a kernel (shaders/bench-<kind>.wgsl) filled for `spec` */
function bodyOf(spec: KernelSpec): string {
  const n = spec.n;
  const ELEM = elemType(spec.elemBytes);
  switch (spec.kind) {
    case 'copy': {
      // the copy, the reference, moves the same bytes as fast as this loop can: in 16-byte
      // words when the byte count allows (a copy of 4-byte elements ran at 0.43–0.53× of that
      // on lavapipe: bench/copy.ts)
      const words = (n * spec.elemBytes) % 16 === 0;
      return fillTemplate(SHADERS['bench-copy'], { ELEM: words ? 'vec4<u32>' : ELEM, LIMIT: words ? `${(n * spec.elemBytes) / 16}u` : 'N', WG_SIZE: BENCH_WG });
    }
    case 'gather':
      return fillTemplate(SHADERS['bench-gather'], { ELEM, WG_SIZE: BENCH_WG });
    case 'scatter':
      return fillTemplate(SHADERS['bench-scatter'], { ELEM, WG_SIZE: BENCH_WG });
    case 'tile': {
      const T = spec.tileSize!;
      return fillTemplate(SHADERS['bench-tile'], { ELEM, TILE_SIZE: `${T}u`, TILE_COUNT: `${n / T}u`, WG_SIZE: tileWorkgroup(T) });
    }
    case 'eval':
      return fillTemplate(SHADERS['bench-eval'], { WG_SIZE: BENCH_WG });
    case 'compact':
      return fillTemplate(SHADERS['bench-compact'], { WG_SIZE: BENCH_WG });
    case 'reduce':
      return fillTemplate(SHADERS['bench-reduce'], {
        THREAD_COUNT: `${workgroupsOf(spec) * BENCH_WG}u`,
        PER_THREAD: `${REDUCE_PER_THREAD}u`,
        WG_SIZE: BENCH_WG,
      });
  }
}

/** A kernel's source: its header (the kind, the element count N, the layout), flat_wg, Φ, then its template. */
export function kernelSource(spec: KernelSpec): string {
  const n = spec.n;
  const head = [
    `// layoutgpu bench: kernel "${spec.kind}", ${n} elements of ${spec.elemBytes} bytes`,
    spec.kind === 'copy' ? '' : `// layout (${spec.shapes.join(',')}):(${spec.strides.join(',')})`,
    `const N: u32 = ${n}u;`,
  ];
  const idx = [`fn flat_wg(wid: vec3<u32>, nwg: vec3<u32>) -> u32 { return wid.y * nwg.x + wid.x; }`];
  const phi = spec.kind === 'copy' ? '' : phiSource(spec.shapes, spec.strides, spec.outer);
  return [...head, ...idx, phi, bodyOf(spec)].filter((s) => s !== '').join('\n');
}
