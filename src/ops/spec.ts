/**
 * The shape of one entry of the operations table (src/ops/table.ts). The CLI, `batch` and the page
 * all read the same row, so argument checking (ops/args.ts), composed layouts (ops/composed.ts),
 * the page's chooser, results and printing never drift.
 */
import type { Json } from '../algebra/json.js';
import type { ComposedLayout } from '../cute/composed.js';
import type { Backend, BackendChoice } from '../engine/backend.js';
import type { PlanRequest, PlanResult } from '../planner/plan.js';

/** How an argument arrives (a JSON value in `batch`, a string on the command line). */
export type ArgKind =
  | 'layout' //  a string in layout notation, parsed to a Layout (size and cosize ≤ 2^53 − 1)
  | 'any-layout' // the same, of any size: for the structural ops and the exact BigInt ones
  | 'layout-fn' // a layout function: a plain layout or a composed Sw<B,M,S> o K o L (cute/composed.ts)
  | 'any-layout-fn' // the same, of any size
  | 'tuple' //   a string in tuple notation, parsed to a Tuple (e.g. S̄ of relative coalesce)
  | 'profile' // a string such as (*,(*,*))
  | 'coord' //   a string such as (1,(2,0)): a nested coordinate (entries ≥ 0)
  | 'tiler' //   a string: a layout, an integer, `_`, a shape tuple or `<T1,…,Tk>` (docs/semantics.md §8.2)
  | 'order' //   a string: "col", "row" or a nested tuple of integers (make_layout's O, docs/semantics.md §8.4)
  | 'int' //     a JSON integer (a string or a fraction is bad-request)
  | 'json' //   any JSON value, checked by the op itself
  | 'options'; // a trailing JSON object of named options (the bank analyses' {"arch", "access"}): taken only when the
//               last argument is an object (on the command line, text starting with '{'), else left undefined

/** One argument of an op: its name (for messages and --help), how it arrives, and whether it may be left out or repeat. */
export interface ArgSpec {
  name: string;
  kind: ArgKind;
  optional?: boolean;
  /** the last argument may repeat (concat) */
  variadic?: boolean;
  /** an integer beyond 2^53 − 1: an index or bound out of range (`domain`, the default), or a
   *  size the implementation cannot represent (`overflow`, e.g. N of comp(A, N)) */
  huge?: 'domain' | 'overflow';
}

/** A JSON value as it goes out in a response. */
export type { Json };

/**
 * What an op may use besides its arguments: the backend the caller chose, created on first use
 * (the CLI's makeContext, batch, the page's CPU/GPU engines).
 */
export interface OpContext {
  /** the backend the caller asked for (batch --backend, CLI --backend) */
  readonly backendChoice: BackendChoice;
  /** the backend to use for bulk checks; created lazily and shared */
  backend(): Promise<Backend>;
  /** worker threads the caller allows for bulk work (batch and CLI --threads; absent: 1) */
  readonly threads?: number;
  /** Node only (the CLI, batch): plan_smem's candidates priced on worker threads (planner/parallel.ts); absent in the page */
  readonly planThreaded?: (req: PlanRequest, threads: number) => Promise<PlanResult>;
}

/**
 * How an op takes a composed layout Sw o K o L as its first argument (docs/semantics.md §9.1; CuTe's
 * layout_composed.hpp); an op without one refuses it (`domain`, ops/args.ts):
 * - `inner`: the result on L, behind the same outer function Sw o K (compose, the divides and products, …);
 * - `shape`: the answer depends on L's shape alone, so it is the answer on L (size, rank, …);
 * - `slice`: as `inner`, the slice's offset added to K's (CuTe's slice of a ComposedLayout);
 * - a function: an answer of the outer function itself (cosize, eval, eval_coord), given the composed
 *   layout and the other arguments as parsed.
 */
export type OnComposed = 'inner' | 'shape' | 'slice' | ((c: ComposedLayout, rest: readonly unknown[]) => Json);

/** The groups of the page's chooser, in its order (docs/page.md); an op in none lands in "More". */
export const PAGE_GROUPS = ['Operations', 'CuTe', 'Properties', 'Measures and Φ'] as const;
/** Where an op stands on the page: a group of the chooser, or `check`, a button of the GPU card (the bulk checks). */
export type PagePlace = (typeof PAGE_GROUPS)[number] | 'check';

/**
 * One operation of the table (src/ops/table.ts): its protocol name, a summary, its arguments and how it
 * runs; the CLI, `batch` and the page all read it. See runOp for the errors.
 */
export interface OpSpec {
  /** protocol name, e.g. `logical_divide` */
  name: string;
  /** one line for --help */
  summary: string;
  /** the arguments, in order (parsed and checked by parseArgs before run) */
  args: readonly ArgSpec[];
  /** Runs on parsed arguments (Layout, Tuple, Profile, number or raw JSON per ArgSpec.kind) and
   *  returns the protocol's `result` value. Throws LayoutError for failures. */
  run(args: readonly unknown[], ctx: OpContext): Json | Promise<Json>;
  /** for an op whose implementation is loaded on first use (ops/lazy.ts): a Promise while it is not loaded yet,
   *  undefined once it is; runOpDirect and `batch` settle it before calling `run` */
  load?(): Promise<void> | undefined;
  /** the CLI's human rendering of a result; defaults to the canonical JSON/string */
  human?(result: Json): string;
  /** how the op takes a composed layout as its first argument (ops/composed.ts); absent: it refuses one */
  composed?: OnComposed;
  /** its place on the page (the chooser's group, or the GPU card's checks); absent: the chooser's "More" */
  page?: PagePlace;
  /** the paper's symbol, shown beside the op's name in the page's chooser (coal, comp, ∘, ⊘, ⊗) */
  symbol?: string;
  /** the label of the op's chip among the page's facts of the main layout (size, compact, …) */
  fact?: string;
  /** which of the page's pictures are coloured by tile (docs/semantics.md §8.3): `argument`, A's, by the tile of B
   *  each index divides into; `result`, the result's, its mode 1 being the tile */
  tiling?: { readonly argument?: boolean; readonly result?: boolean };
}
