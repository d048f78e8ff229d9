/**
 * The evaluator's contract: everything that runs Φ in bulk. Two implementations answer it
 * identically: `cpu.ts` (generated, specialised JavaScript) and `gpu.ts` (generated WGSL on a
 * GPUDevice). Results have exactly the keys of docs/protocol.md "Bulk checks"; integers that
 * may exceed 2^53 − 1 are bigint here and printed by the protocol layer.
 */
import type { Layout } from '../algebra/layout.js';
import type { LayoutFunction } from '../cute/composed.js';

/** The two evaluators: `cpu` (generated JavaScript, cpu.ts) and `gpu` (generated WGSL, gpu.ts). */
export type BackendName = 'cpu' | 'gpu';
/** What a caller asks for: a backend, or `auto` (the GPU on a hardware adapter, else the CPU; see createBackend). */
export type BackendChoice = BackendName | 'auto';

/**
 * Count, exact sum, minimum and maximum of Φ_L over a range [lo, hi) (batch op `digest_range`).
 * @example await backend.digestRange(parseLayout('(4,8):(1,4)'), 0, 32) // { count: 32, sum: 496n, min: 0, max: 31 }
 */
export interface Digest {
  /** number of indices in the range (hi − lo) */
  count: number;
  /** exact Σ Φ(x) over the range */
  sum: bigint;
  /** least Φ(x) over the range; null for an empty range */
  min: number | null;
  /** greatest Φ(x) over the range; null for an empty range */
  max: number | null;
}

/**
 * The bulk compactness check of L (Def. 2.3.5.x: Φ_L a bijection onto [0, size L)), counted over
 * every index (batch op `check_compact`).
 * @example (await backend.checkCompact(parseLayout('(4,4):(1,2)'))).collisions // 6
 */
export interface CompactReport {
  /** whether Φ_L hits every offset below size(L) exactly once */
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

/**
 * The bulk check that C is B∘A: Φ_C(x) = Φ_B(Φ_A(x)) for every x < size(A) (Def. 2.3.7.1;
 * batch op `check_compose`).
 */
export interface ComposeReport<C extends LayoutFunction = LayoutFunction> {
  /** whether Φ_C(x) = Φ_B(Φ_A(x)) for every x < size(A) */
  equal: boolean;
  /** #x < size(A) with Φ_C(x) ≠ Φ_B(Φ_A(x)) */
  mismatches: number;
  /** the first x where they differ, or null when equal */
  witness: number | null;
  /** C, the candidate composite */
  composite: C;
}

/**
 * The tile address map of A ⊘ B (Def. 2.3.8.1, Remark 2.3.8.3): tile k, entry i at offset
 * Φ_{A⊘B}(i + size(B)·k) (batch op `tile_map`).
 */
export interface TileMap {
  /** entries per tile: size(B) */
  tileSize: number;
  /** number of tiles: size(A) / size(B) */
  tiles: number;
  /** offsets[k][i] = Φ_{A⊘B}(i + tileSize·k) */
  offsets: number[][];
  /** whether the tiles together hit A's image exactly as often as A does (not a protocol key) */
  covers?: boolean;
}

/** Options of every bulk run: a time limit and progress reports. */
export interface RunOptions {
  /** abort after this many milliseconds (reported with what completed) */
  timeoutMs?: number;
  /** progress callback: done and total indices */
  onProgress?: (done: number, total: number) => void;
}

/** Which backend and adapter produced a result. */
export interface BackendInfo {
  /** the backend that computed the result */
  backend: BackendName;
  /** the adapter in one line (vendor / architecture / description), or the CPU's description */
  adapter: string;
  /** whether the adapter is a software rasteriser (lavapipe, SwiftShader, WARP); false on the CPU */
  software?: boolean;
}

/** Receives Φ over [start, start + values.length) in order: a Uint32Array while cosize ≤ 2^32,
 *  else a Float64Array (exact below 2^53). */
export type EvalSink = (start: number, values: Uint32Array | Float64Array) => void | Promise<void>;

/**
 * The evaluator: Φ of a layout in bulk, on the CPU (CpuBackend) or a GPUDevice (GpuBackend), with
 * identical answers. Pre-condition of every method: sizes and cosizes ≤ 2^53 − 1 (else `overflow`).
 * Errors: LayoutError `domain` (range outside [0, size L]), `overflow`, `timeout` (opts.timeoutMs),
 * `gpu` (a lost device or failed shader, GPU only).
 *
 * Every method takes a layout function (docs/semantics.md §9.1): a plain Layout or a composed Sw o K o L,
 * whose Φ(x) = Sw(K + Φ_L(x)). Deadlines: RunOptions.timeoutMs and the batch request's
 * `currentDeadline()` (read when the method is called) stop a run with a LayoutError of kind
 * `timeout` that says what completed. The checks beyond 2^40 indices answer `overflow` at once.
 * @example
 *   const b = await createBackend('auto', nodeDeviceSource);
 *   (await b.checkCompact(parseLayout('(4,8):(1,4)'))).compact; // true
 *   b.dispose();
 */
export interface Backend {
  /** which backend and adapter answer */
  readonly info: BackendInfo;
  /** Φ_L(lo..hi−1), as offsets (a Float64Array is exact below 2^53) */
  evalRange(l: LayoutFunction, lo: number, hi: number, opts?: RunOptions): Promise<Float64Array>;
  /** Φ_L over [lo, hi) of any length, streamed in chunks (for `eval --out`) */
  evalChunks(l: LayoutFunction, lo: number, hi: number, sink: EvalSink, opts?: RunOptions): Promise<void>;
  /** count, exact Σ, min and max of Φ_L over [lo, hi) (see Digest) */
  digestRange(l: LayoutFunction, lo: number, hi: number, opts?: RunOptions): Promise<Digest>;
  /** whether Φ_L is a bijection onto [0, size L), with the counts and a witness (see CompactReport) */
  checkCompact(l: LayoutFunction, opts?: RunOptions): Promise<CompactReport>;
  /** Φ_C(x) vs Φ_B(Φ_A(x)) for x < size(A) */
  checkCompose<C extends LayoutFunction>(b: LayoutFunction, a: LayoutFunction, c: C, opts?: RunOptions): Promise<ComposeReport<C>>;
  /** the tile address map of A ⊘ B (the division itself is computed by the algebra; a composed A
   *  keeps its outer function) */
  tileMap(a: LayoutFunction, b: Layout, opts?: RunOptions): Promise<TileMap>;
  /** release GPU resources (no-op on the CPU) */
  dispose(): void;
}
