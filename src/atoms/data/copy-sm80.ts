/** SM80 copy atoms: cp.async, global → shared, one thread per instruction (CuTe `include/cute/atom/copy_traits_sm80.hpp`,
 *  `Layout<Shape<_1,Int<sizeof_bits<S>>>>` on both sides, Ref = Src). The element type is part of the name because
 *  it sets the width. */
import type { CopyAtomData } from '../types.js';
import { oneThread } from './copy-universal.js';

const source = 'include/cute/atom/copy_traits_sm80.hpp';

const widths = (op: string, bits: readonly number[]): CopyAtomData[] => bits.map((b) => oneThread(`${op}<uint${b}_t>`, b, source));

export const sm80Copy: readonly CopyAtomData[] = [
  ...widths('SM80_CP_ASYNC_CACHEALWAYS', [32, 64, 128]),
  ...widths('SM80_CP_ASYNC_CACHEALWAYS_ZFILL', [32, 64, 128]),
  ...widths('SM80_CP_ASYNC_CACHEGLOBAL', [128]),
  ...widths('SM80_CP_ASYNC_CACHEGLOBAL_ZFILL', [128]),
];
