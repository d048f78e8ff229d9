/**
 * The hardware's atoms as data (docs/atoms.md; CuTe `MMA_Traits<Op>`, `Copy_Traits<Op>`).
 * Every layout is kept as its canonical text and parsed on first use; each entry names the CuTe
 * header it is taken from.
 */

/** An MMA atom: thrID, (M,N,K), and the TV layouts (logical thread, value) → column-major index
 *  into the M×K (A), N×K (B) and M×N (C) tiles. */
export interface MmaAtomData {
  readonly name: string;
  readonly thrID: string;
  readonly shapeMNK: readonly [number, number, number];
  readonly A: string;
  readonly B: string;
  readonly C: string;
  /** The operands given by a shared-memory matrix descriptor (GMMA `_SS`/`_RS`, UMMA `_SS`/`_TS`): the instruction
   *  reads the whole smem tile, not values held by threads (docs/atoms.md, "Descriptor operands"). */
  readonly descriptors?: 'AB' | 'B';
  /** the CuTe header it comes from, e.g. `include/cute/atom/mma_traits_sm80.hpp` */
  readonly source: string;
}

/** A copy atom: thrID and the TV layouts (thread, value) → bit index in the atom's block. */
export interface CopyAtomData {
  readonly name: string;
  readonly thrID: string;
  readonly src: string;
  readonly dst: string;
  readonly ref: string;
  readonly source: string;
}
