/**
 * A side's banks on one layout (docs/planner.md, "The price"; the page's planner panel): the access pattern a side
 * moves the tile by on the layout — the cheapest of its patterns, as the side prices it — laid out as instructions
 * (memory/banks.ts), and per tile index its element's bank and the most distinct words that bank held in a phase that
 * accessed it (bankWays, on the machine). The offsets of a front entry come from its printed layout: a CuTe layout
 * function, or a `#ttg.shared_linear` (Triton's entry), read back to the function it prints.
 */
import { parseLayoutFunction } from '../cute/composed.js';
import { Pool32 } from '../memory/access.js';
import { bankWays, instructions } from '../memory/banks.js';
import { parseLL } from '../linear/forms.js';
import { offsetsOf, type Tile } from './families.js';
import type { Machine } from './machine.js';
import { holdsVectors, priceSide, PriceScratch, type AccessPattern, type SidePrice } from './price.js';
import type { Side } from './sides.js';
import { offsetsOfBases } from './triton.js';
import { domainError } from '../algebra/errors.js';

/** What a bank picture of a side on a layout draws (render/banks.ts): per tile index x, bank[x] and ways[x]. */
export interface SideBanks {
  /** the side's price on the layout (the pattern drawn: the cheapest, as Side.price chooses) */
  readonly price: SidePrice;
  /** the bank of the element at each tile index (of its first byte) */
  readonly bank: Int32Array;
  /** per tile index, the most distinct words its bank held in a phase that accessed it (0: never, 1: no conflict) */
  readonly ways: Int32Array;
  /** the side's stated (thread, value) table (its first pattern: tile index of (t, j) at t + threads·j) */
  readonly accesses: { readonly index: Float64Array; readonly threads: number };
}

/**
 * The banks of `side` on the layout whose element offsets by tile index are `offsets`, on machine `m`: null for a
 * descriptor side (no bank cost) or one that does not accept the layout. The pattern drawn is the side's cheapest
 * (fewest wavefronts, then instructions, then the first), at the first width of its widths that holds every vector.
 * @example sideBanks(req.write, offsets, req.tile, req.machine)?.price.wavefronts // the entry's write wavefronts
 */
export function sideBanks(side: Side, offsets: Int32Array, tile: Tile, m: Machine): SideBanks | null {
  if (side.pattern === null) return null;
  const s = new PriceScratch();
  let best: { p: AccessPattern; w: number; price: SidePrice } | null = null;
  for (const p of side.patterns) {
    const w = p.widths.find((x) => holdsVectors(p, offsets, x));
    const price = w === undefined ? null : priceSide(p, offsets, tile.size, tile.e, m, s);
    if (w === undefined || price === null) continue;
    const cheaper =
      best === null || price.wavefronts < best.price.wavefronts || (price.wavefronts === best.price.wavefronts && price.instructions < best.price.instructions);
    if (cheaper) best = { p, w, price };
  }
  if (best === null) return null;
  const { p, w } = best;
  const index = Float64Array.from(p.index);
  const laid = instructions(
    Float64Array.from(p.index, (x) => offsets[x]!),
    { threads: p.threads, values: p.values, index },
    tile.e,
    w,
  );
  const ins = p.live === undefined ? laid : { ...laid, live: p.live };
  const bank = Int32Array.from(offsets, (o) => Math.floor((tile.e * o) / 4) % m.banks);
  const stated = side.patterns[0]!;
  return {
    price: best.price,
    bank,
    ways: bankWays(ins, index, tile.size, { machine: m, access: p.access }),
    accesses: { index: Float64Array.from(stated.index), threads: stated.threads },
  };
}

/**
 * The element offsets by tile index (column-major, dim0 fastest) of a front entry's printed layout: a CuTe layout
 * function over the tile, or a `#ttg.shared_linear` whose offset bases are tile coordinates (offset o at the XOR of
 * the bases of its set bits, triton.ts sharedLL read back). Errors: `parse` for either text, `domain` for a layout
 * that is not over the tile.
 * @example entryOffsets('Sw<1,3,3> o (16,16):(16,1)', tile)[1] // 16
 */
export function entryOffsets(layout: string, tile: Tile): Int32Array {
  if (layout.trim().startsWith('#')) {
    const ll = parseLL(layout);
    const sigma = tile.shape.map((_, d) => tile.shape.slice(0, d).reduce((a, b) => a * b, 1));
    const pos = tile.shape.map((_, d) => ll.outDims.findIndex((o) => o.name === `dim${d}`));
    const bases = ll.inDims.find((d) => d.name === 'offset')?.bases ?? [];
    if (pos.some((j) => j < 0) || 2 ** bases.length !== tile.size) throw domainError(`the layout ${layout.slice(0, 40)} is not over the tile`);
    return offsetsOfBases(bases.map((b) => pos.reduce((x, j, d) => x + b[j]! * sigma[d]!, 0)));
  }
  const o = offsetsOf(parseLayoutFunction(layout, 'the entry'), new Pool32());
  if (o === null || o.offsets.length !== tile.size) throw domainError(`the layout ${layout.slice(0, 40)} is not over the tile`);
  return o.offsets.slice();
}
