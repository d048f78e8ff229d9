/**
 * The bulk-verification contract. Two implementations answer it identically:
 * `cpu.ts` (structural checks where they are exact, odometer walks otherwise) and `gpu.ts`
 * (one generic WGSL interpreter, shaders/interpret.wgsl, over packed layouts).
 */
import type { EqualJobs, FlatBatch } from './packed.js';

export type VerifyBackendName = 'cpu' | 'gpu';

export type BitmapKind = 'compact' | 'injective';

export interface VerifyEngine {
  readonly backend: VerifyBackendName;
  /** adapter description ('cpu' on the CPU) */
  readonly adapter: string;
  /** 1 for every candidate whose Φ is a bijection [0, size) → [0, size) ('compact') or
   *  injective on [0, size) ('injective'), else 0 */
  bitmapCheck(kind: BitmapKind, batch: FlatBatch): Promise<Uint8Array>;
  /** 1 for every job with Φ_B∘Φ_A = Φ_C on [0, size(A)) (see EqualJobs), else 0 */
  equalCheck(jobs: EqualJobs): Promise<Uint8Array>;
  /** Φ of every candidate over its whole domain, candidates one after the other (for tests) */
  evalAll(batch: FlatBatch): Promise<Float64Array>;
  /** candidates the GPU engine handed to the CPU (too large for the interpreter's u32 path) */
  readonly fallbacks: number;
  dispose(): void;
}
