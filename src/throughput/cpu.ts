/**
 * The CPU side of the benchmark: the same kernels as generated, specialised JavaScript (the
 * coalesced modes as nested loops, shapes and strides inlined, elements as 1, 2 or 4 u32 words),
 * checked once against the reference and timed with the wall clock. The plain copy is
 * TypedArray.prototype.set (memcpy).
 */
import { makeFlat } from '../algebra/layout.js';
import { bitsBelow, swizzleWithin, targetLow } from '../cute/swizzle.js';
import { prepare } from '../engine/prep.js';
import { reachOf, type Outer } from './plan.js';
import { checkOutput, patternArray } from './verify.js';
import type { GpuKernelKind, KernelSpec } from './wgsl.js';
import type { PreparedKernel, Reference } from './gpu.js';

type Kernel = (src: Uint32Array, dst: Uint32Array) => number;

/** The JavaScript of the outer function Sw(K + q) of a composed layout on an inner offset `q`, as
 *  `o` (docs/semantics.md §9.1): the swizzle cut to the bits of the offsets reached (below 2^32 in
 *  a benchmark), on 32-bit unsigned integers. */
function outerStatement(outer: Outer, cosize: number): string {
  const sw = swizzleWithin(outer.swizzle, bitsBelow(reachOf(cosize, outer)));
  const y = outer.offset ? `(q + ${outer.offset})` : 'q';
  if (sw.bits === 0) return `const o = ${y};`;
  const mask = ((2 ** sw.bits - 1) * 2 ** targetLow(sw)) >>> 0;
  // the target field of y XOR the source field moved onto it
  const moved = sw.shift >= 0 ? `(y >>> ${sw.shift})` : `(y << ${-sw.shift})`;
  return `const y = ${y} >>> 0; const o = (y ^ (${moved} & ${mask})) >>> 0;`;
}

/** nested loops over the coalesced modes; `inner(o, j)` is the innermost statement, with the
 *  offset `o` and the running index `j`; a composed layout's outer function maps the inner
 *  offset first (and a unit-stride run is no block move then) */
function loops(shapes: readonly number[], strides: readonly number[], inner: string, step: number, unitRun?: (s0: number) => string, outer?: Outer): string {
  const p = prepare(makeFlat([...shapes], [...strides]));
  const s = p.shapes.length ? [...p.shapes] : [1];
  const d = p.strides.length ? [...p.strides] : [0];
  const m = s.length;
  const L: string[] = ['let j = 0;', 'let s = 0;'];
  for (let k = m - 1; k >= 1; k--) {
    L.push(`for (let c${k} = 0, o${k} = ${k === m - 1 ? '0' : 'o' + (k + 1)}; c${k} < ${s[k]}; c${k}++, o${k} += ${d[k]}) {`);
  }
  if (outer) {
    L.push(`for (let c0 = 0, q = ${m > 1 ? 'o1' : '0'}; c0 < ${s[0]}; c0++, q += ${d[0]}, j += ${step}) { ${outerStatement(outer, p.cosize)} ${inner} }`);
  } else if (unitRun && d[0] === 1 && s[0]! >= 64) {
    // a unit-stride run of the innermost mode: one block move (memcpy)
    L.push(`{ const o = ${m > 1 ? 'o1' : '0'}; ${unitRun(s[0]!)} j += ${s[0]! * step}; }`);
  } else {
    L.push(`for (let c0 = 0, o = ${m > 1 ? 'o1' : '0'}; c0 < ${s[0]}; c0++, o += ${d[0]}, j += ${step}) { ${inner} }`);
  }
  for (let k = m - 1; k >= 1; k--) L.push('}');
  L.push('return s >>> 0;');
  return L.join('\n');
}

function words(W: number, dst: string, src: string): string {
  const out: string[] = [];
  for (let w = 0; w < W; w++) out.push(`dst[${dst}${w ? ' + ' + w : ''}] = src[${src}${w ? ' + ' + w : ''}];`);
  return out.join(' ');
}

export function cpuKernelSource(spec: KernelSpec): string {
  const W = spec.elemBytes / 4;
  switch (spec.kind) {
    case 'copy':
      return 'dst.set(src.subarray(0, dst.length)); return 0;';
    case 'gather':
    case 'tile':
      return loops(
        spec.shapes,
        spec.strides,
        W === 1 ? 'dst[j] = src[o];' : `const b = o * ${W}; ${words(W, 'j', 'b')}`,
        W,
        (s0) => `dst.set(src.subarray(o * ${W}, (o + ${s0}) * ${W}), j);`,
        spec.outer,
      );
    case 'scatter':
      return loops(
        spec.shapes,
        spec.strides,
        W === 1 ? 'dst[o] = src[j];' : `const b = o * ${W}; ${words(W, 'b', 'j')}`,
        W,
        (s0) => `dst.set(src.subarray(j, j + ${s0 * W}), o * ${W});`,
        spec.outer,
      );
    case 'eval':
      return loops(spec.shapes, spec.strides, 'dst[j] = o;', 1, undefined, spec.outer);
    case 'reduce':
      return loops(spec.shapes, spec.strides, 's = (s + o) | 0;', 1, undefined, spec.outer);
    case 'compact':
      return loops(
        spec.shapes,
        spec.strides,
        `if (o >= ${spec.n}) dst[0]++; else { const w = 4 + (o >>> 5), b = 1 << (o & 31); if ((dst[w] & b) !== 0) dst[1]++; else dst[w] |= b; }`,
        1,
        undefined,
        spec.outer,
      );
  }
}

export function compileCpuKernel(spec: KernelSpec, mutate?: (s: string) => string): Kernel {
  let src = cpuKernelSource(spec);
  if (mutate) src = mutate(src);
  return new Function('src', 'dst', src) as Kernel;
}

export interface CpuRunOptions {
  samples: number;
  targetSeconds: number;
  maxReps: number;
  mutate?: (source: string) => string;
  checkOnly?: boolean;
}

function elemsOf(kind: GpuKernelKind, n: number, cosize: number): { src: number; dst: number } {
  switch (kind) {
    case 'copy':
      return { src: n, dst: n };
    case 'gather':
    case 'tile':
      return { src: cosize, dst: n };
    case 'scatter':
      return { src: n, dst: cosize };
    case 'eval':
      return { src: 1, dst: n };
    case 'reduce':
      return { src: 1, dst: 1 };
    case 'compact':
      return { src: 1, dst: 4 + Math.ceil(n / 32) };
  }
}

export async function prepareCpuKernel(spec: KernelSpec, ref: Reference, opts: CpuRunOptions): Promise<PreparedKernel | null> {
  const W = spec.kind === 'eval' || spec.kind === 'reduce' || spec.kind === 'compact' ? 1 : spec.elemBytes / 4;
  const f = compileCpuKernel(spec, opts.mutate);
  const e = elemsOf(spec.kind, spec.n, ref.cosize);
  let src = patternArray(e.src, W);
  let dst = new Uint32Array(e.dst * W);
  const r = f(src, dst);
  if (spec.kind === 'reduce') dst[0] = r;
  checkOutput(spec.kind, dst, ref.offsets, W, e.dst);
  if (opts.checkOnly) return null;
  let sink = 0;
  // the compactness check starts every repetition on a cleared bitmap and counters (timed with it), as the GPU's does
  const clears = spec.kind === 'compact';
  const once = (): number => {
    const t0 = performance.now();
    if (clears) dst.fill(0);
    sink ^= f(src, dst);
    return (performance.now() - t0) / 1000;
  };
  const per = Math.max(1e-7, Math.min(once(), once()));
  const reps = Math.max(1, Math.min(opts.maxReps, Math.round(opts.targetSeconds / per)));
  const secs: number[] = [];
  const sample = (): number => {
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) {
      if (clears) dst.fill(0);
      sink ^= f(src, dst);
    }
    return (performance.now() - t0) / 1000 / reps;
  };
  sample();
  return {
    reps,
    async sample() {
      secs.push(sample());
      // let the event loop breathe (progress, signals) between samples
      await new Promise((res) => setTimeout(res, 0));
    },
    async times() {
      return { secs: [...secs], method: 'cpu' };
    },
    async recheck() {
      if (spec.kind !== 'reduce') checkOutput(spec.kind, dst, ref.offsets, W, e.dst);
    },
    dispose() {
      if (sink === 0.5) console.log(sink);
      src = new Uint32Array(0);
      dst = new Uint32Array(0);
    },
  };
}
