/**
 * The evaluator's contract: everything that runs Φ in bulk. Two implementations answer it
 * identically: `cpu.ts` (generated, specialised JavaScript) and `gpu.ts` (generated WGSL on a
 * GPUDevice). Results have exactly the keys of BATCH-PROTOCOL.md "Bulk checks"; integers that
 * may exceed 2^53 − 1 are bigint here and printed by the protocol layer.
 */
import type { Layout } from '../algebra/layout.js';
import type { LayoutFunction } from '../cute/composed.js';

export type BackendName = 'cpu' | 'gpu';
export type BackendChoice = BackendName | 'auto';

export interface Digest {
  count: number;
  /** exact Σ Φ(x) over the range */
  sum: bigint;
  min: number | null;
  max: number | null;
}

export interface CompactReport {
  compact: boolean;
  /** distinct offsets below size(L) */
  image: number;
  /** #x with Φ(x) ≥ size(L) */
  outOfRange: number;
  /** size − outOfRange − image */
  collisions: number;
  /** [x, y] with x < y and Φ(x) = Φ(y), or [x] with Φ(x) ≥ size, or null exactly when compact */
  witness: [number, number] | [number] | null;
}

export interface ComposeReport<C extends LayoutFunction = LayoutFunction> {
  equal: boolean;
  /** #x < size(A) with Φ_C(x) ≠ Φ_B(Φ_A(x)) */
  mismatches: number;
  witness: number | null;
  /** C, the candidate composite */
  composite: C;
}

export interface TileMap {
  tileSize: number;
  tiles: number;
  /** offsets[k][i] = Φ_{A⊘B}(i + tileSize·k) */
  offsets: number[][];
  /** whether the tiles together hit A's image exactly as often as A does (not a protocol key) */
  covers?: boolean;
}

export interface RunOptions {
  /** abort after this many milliseconds (reported with what completed) */
  timeoutMs?: number;
  /** progress callback: done and total indices */
  onProgress?: (done: number, total: number) => void;
}

/** Which backend and adapter produced a result. */
export interface BackendInfo {
  backend: BackendName;
  adapter: string;
  /** whether the adapter is a software rasteriser (lavapipe, SwiftShader, WARP); false on the CPU */
  software?: boolean;
}

/** Receives Φ over [start, start + values.length) in order: a Uint32Array while cosize ≤ 2^32,
 *  else a Float64Array (exact below 2^53). */
export type EvalSink = (start: number, values: Uint32Array | Float64Array) => void | Promise<void>;

/**
 * Every method takes a layout function (SPEC §9.1): a plain Layout or a composed Sw o K o L,
 * whose Φ(x) = Sw(K + Φ_L(x)). Deadlines: RunOptions.timeoutMs and the batch request's
 * `currentDeadline()` (read when the method is called) stop a run with a LayoutError of kind
 * `timeout` that says what completed. The checks beyond 2^40 indices answer `overflow` at once.
 */
export interface Backend {
  readonly info: BackendInfo;
  /** Φ_L(lo..hi−1), as offsets (a Float64Array is exact below 2^53) */
  evalRange(l: LayoutFunction, lo: number, hi: number, opts?: RunOptions): Promise<Float64Array>;
  /** Φ_L over [lo, hi) of any length, streamed in chunks (for `eval --out`) */
  evalChunks(l: LayoutFunction, lo: number, hi: number, sink: EvalSink, opts?: RunOptions): Promise<void>;
  digestRange(l: LayoutFunction, lo: number, hi: number, opts?: RunOptions): Promise<Digest>;
  checkCompact(l: LayoutFunction, opts?: RunOptions): Promise<CompactReport>;
  /** Φ_C(x) vs Φ_B(Φ_A(x)) for x < size(A) */
  checkCompose<C extends LayoutFunction>(b: LayoutFunction, a: LayoutFunction, c: C, opts?: RunOptions): Promise<ComposeReport<C>>;
  /** the tile address map of A ⊘ B (the division itself is computed by the algebra; a composed A
   *  keeps its outer function) */
  tileMap(a: LayoutFunction, b: Layout, opts?: RunOptions): Promise<TileMap>;
  /** release GPU resources (no-op on the CPU) */
  dispose(): void;
}
