/** SM80 copy atoms: cp.async, global → shared, one thread per instruction (CuTe `include/cute/atom/copy_traits_sm80.hpp`,
 *  `Layout<Shape<_1,Int<sizeof_bits<S>>>>` on both sides, Ref = Src). The element type is part of the name because
 *  it sets the width. */
import type { CopyAtomData } from '../types.js';

const source = 'include/cute/atom/copy_traits_sm80.hpp';

/** A one-thread atom moving `bits` bits, the same layout on both sides (Ref = Src). */
const oneThread = (name: string, bits: number): CopyAtomData => {
  const l = `(1,${bits}):(0,1)`;
  return { name, thrID: '1:0', src: l, dst: l, ref: l, source };
};

export const sm80Copy: readonly CopyAtomData[] = [
  oneThread('SM80_CP_ASYNC_CACHEALWAYS<uint32_t>', 32),
  oneThread('SM80_CP_ASYNC_CACHEALWAYS<uint64_t>', 64),
  oneThread('SM80_CP_ASYNC_CACHEALWAYS<uint128_t>', 128),
  oneThread('SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint32_t>', 32),
  oneThread('SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint64_t>', 64),
  oneThread('SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint128_t>', 128),
  oneThread('SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>', 128),
  oneThread('SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>', 128),
];
