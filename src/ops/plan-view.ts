/**
 * What the page's planner panel shows of a plan beyond plan_smem's answer (docs/page.md, "The planner panel";
 * docs/planner.md): the request's fields read as `layoutgpu plan` reads its options, and for one entry of the front
 * both sides' banks on its layout (planner/side-banks.ts: the pattern each side moves the tile by, priced as the
 * plan prices it), which render/banks.ts and the page's canvas draw. The plan itself is the table's plan_smem, as the CLI and `batch` run
 * it. The planner's rooms load on first use (ops/lazy.ts).
 */
import { LayoutError } from '../algebra/errors.js';
import { makeLayout, type Layout } from '../algebra/layout.js';
import type { PlanRequest } from '../planner/plan.js';
import type { SidePrice } from '../planner/price.js';
import type { Role } from '../planner/sides.js';
import { accessorsOf, type Accessors } from '../render/banks.js';
import { gridShape, type Picture } from '../render/grid.js';
import { lazyModule } from './lazy.js';
import { loadPlanner, planRequest } from './planner.js';

const B = lazyModule(() => import('../planner/side-banks.js'));

/** Settles once the planner and the side pictures are loaded (before planEntryView). */
export async function loadPlanView(): Promise<void> {
  await loadPlanner();
  await B.load();
}

/** Most cells a side's bank picture draws (the memory panel's canvas limit; beyond, the figures alone). */
export const MAX_PLAN_PICTURE = 1 << 18;

/**
 * A plan's tile as `layoutgpu plan --tile` reads it: `128x64` is the shape `(128,64)`; any other text is the
 * protocol's shape string as it is (plan_smem reads it).
 * @example planTileText('16 x 16') // '(16,16)'
 */
export const planTileText = (text: string): string =>
  /^\s*\d+(\s*x\s*\d+)+\s*$/.test(text)
    ? `(${text
        .split('x')
        .map((s) => s.trim())
        .join(',')})`
    : text.trim();

/**
 * A plan's side as `layoutgpu plan --write/--read` reads it: JSON text for an object (`{"ll": …}`, a tiled copy, an
 * MMA operand, `{"wgmma": "K"}`), else the string itself (a TV layout, `tma`). Errors: `parse` for an object that is
 * not valid JSON.
 * @example planSideText('{"wgmma": "K"}', 'read') // { wgmma: 'K' }
 */
export function planSideText(text: string, role: Role): unknown {
  if (!text.trim().startsWith('{')) return text.trim();
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new LayoutError('parse', `the ${role} side is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** One side of an entry as the panel shows it. */
export interface PlanSideView {
  readonly role: Role;
  /** what the side is (`LL`, `st.shared`, the copy atom, `tma`) */
  readonly what: string;
  /** the side's price on the layout where it moves the tile through the banks (null: a descriptor side) */
  readonly price: SidePrice | null;
  /** per tile index its bank and ways (planner/side-banks.ts), the accessors of the side's stated (thread, value)
   *  table; null for a descriptor side */
  readonly banks: { readonly bank: Int32Array; readonly ways: Int32Array; readonly accessors: Accessors } | null;
  /** cells whose bank held more than one word in a phase that accessed them */
  readonly conflicted: number;
  /** the bank picture's caption */
  readonly caption: string;
}

/** An entry as the panel shows it: the picture of its layout over the tile's grid, and both sides. */
export interface PlanEntryView {
  /** the tile's grid (column-major tile index, first mode down) with the entry's offsets; null beyond MAX_PLAN_PICTURE */
  readonly picture: Picture | null;
  /** the tile's column-major layout (the picture's grid: a cell's coordinate is its tile coordinate) */
  readonly grid: Layout;
  readonly sides: readonly PlanSideView[];
}

let last: { key: string; req: PlanRequest } | null = null;

/** The request read once per request text (the sides' accesses are tabulated once, reused from entry to entry). */
function requestOf(request: unknown): PlanRequest {
  const key = JSON.stringify(request);
  if (last?.key !== key) last = { key, req: planRequest(request) };
  return last.req;
}

/**
 * Both sides of plan_smem's `request` (the object the op took) on the entry whose printed layout is `layout` (a front
 * entry's or Triton's): each side's price and, per tile index, its banks and ways, for render/banks.ts's pictures over
 * the tile's grid. Errors: those of the request (as plan_smem's) and of the layout's text. Pre-condition: loadPlanView
 * has settled.
 * @example planEntryView(req, 'Sw<1,3,3> o (16,16):(16,1)').sides[0].price?.wavefronts // 4
 */
export function planEntryView(request: unknown, layout: string): PlanEntryView {
  const req = requestOf(request);
  const b = B.get();
  const { tile, machine } = req;
  const offsets = b.entryOffsets(layout, tile);
  const grid = makeLayout(
    [...tile.shape],
    tile.shape.map((_, d) => tile.shape.slice(0, d).reduce((x, y) => x * y, 1)),
  );
  const drawn = tile.size <= MAX_PLAN_PICTURE;
  const picture: Picture | null = drawn ? { layout: grid, grid: gridShape(grid), offsets: Float64Array.from(offsets), name: layout } : null;
  const sides = [req.write, req.read].map((side): PlanSideView => {
    const caption = `banks of the ${side.role} side (${side.what}) on ${layout}, ${tile.e}-byte elements`;
    const banks = drawn ? b.sideBanks(side, offsets, tile, machine) : null;
    if (banks === null) return { role: side.role, what: side.what, price: null, banks: null, conflicted: 0, caption };
    let conflicted = 0;
    for (const w of banks.ways) if (w > 1) conflicted++;
    const accessors = accessorsOf(banks.accesses.index, banks.accesses.threads, tile.size);
    return { role: side.role, what: side.what, price: banks.price, banks: { bank: banks.bank, ways: banks.ways, accessors }, conflicted, caption };
  });
  return { picture, grid, sides };
}
