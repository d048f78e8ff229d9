/**
 * Every benchmark kernel's output is checked once per run, before it is timed, against Φ
 * applied on the CPU (plan.ts referenceOffsets: a division per index, no code shared with the
 * kernels). Source arrays hold a known pattern: word w of element j is j·W + w + 1 (mod 2^32,
 * W = words per element), never 0, so an element left untouched (0) is told apart too.
 */
export class BenchVerifyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BenchVerifyError';
  }
}

export const pattern = (j: number, w: number, W: number): number => (j * W + w + 1) >>> 0;

/** the source array of n elements of W words */
export function patternArray(n: number, W: number): Uint32Array {
  const a = new Uint32Array(n * W);
  for (let k = 0; k < a.length; k++) a[k] = (k + 1) >>> 0;
  return a;
}

export type CheckKind = 'copy' | 'gather' | 'scatter' | 'tile' | 'eval' | 'reduce' | 'compact';

function fail(kind: string, what: string): never {
  throw new BenchVerifyError(`${kind}: output differs from Φ on the CPU: ${what}`);
}

/**
 * Checks a kernel's output. `offsets`: Φ(i) for i < n (the reference); `W`: words per
 * element; `out`: what the kernel wrote (dst; for reduce, out[0]).
 */
export function checkOutput(kind: CheckKind, out: Uint32Array, offsets: Uint32Array, W: number, dstElems?: number): void {
  const n = offsets.length;
  switch (kind) {
    case 'copy':
      if (out.length < n * W) fail(kind, `only ${out.length / W} elements`);
      for (let k = 0; k < n * W; k++) if (out[k] !== (k + 1) >>> 0) fail(kind, `dst word ${k} = ${out[k]}, expected ${(k + 1) >>> 0}`);
      return;
    case 'gather':
    case 'tile':
      if (out.length < n * W) fail(kind, `only ${out.length / W} elements`);
      for (let i = 0; i < n; i++) {
        const o = offsets[i]!;
        for (let w = 0; w < W; w++) {
          const e = pattern(o, w, W);
          if (out[i * W + w] !== e) fail(kind, `dst[${i}] word ${w} = ${out[i * W + w]}, expected src[Φ(${i}) = ${o}] = ${e}`);
        }
      }
      return;
    case 'scatter': {
      const m = dstElems ?? 0;
      const expect = new Uint32Array(m * W);
      for (let i = 0; i < n; i++) for (let w = 0; w < W; w++) expect[offsets[i]! * W + w] = pattern(i, w, W);
      if (out.length < m * W) fail(kind, `only ${out.length / W} elements`);
      for (let k = 0; k < m * W; k++) if (out[k] !== expect[k]) fail(kind, `dst[${Math.floor(k / W)}] word ${k % W} = ${out[k]}, expected ${expect[k]}`);
      return;
    }
    case 'eval':
      if (out.length < n) fail(kind, `only ${out.length} offsets`);
      for (let i = 0; i < n; i++) if (out[i] !== offsets[i]) fail(kind, `out[${i}] = ${out[i]}, expected Φ(${i}) = ${offsets[i]}`);
      return;
    case 'compact': {
      // out-of-range count and collisions (offsets already seen) from the reference
      const seen = new Set<number>();
      let oor = 0;
      let coll = 0;
      for (let i = 0; i < n; i++) {
        const o = offsets[i]!;
        if (o >= n) oor++;
        else if (seen.has(o)) coll++;
        else seen.add(o);
      }
      if (out[0] !== oor || out[1] !== coll) fail(kind, `out of range ${out[0]}, collisions ${out[1]}; expected ${oor}, ${coll}`);
      return;
    }
    case 'reduce': {
      let s = 0;
      for (let i = 0; i < n; i++) s = (s + offsets[i]!) >>> 0;
      if (out[0] !== s) fail(kind, `Σ Φ (mod 2^32) = ${out[0]}, expected ${s}`);
      return;
    }
  }
}
