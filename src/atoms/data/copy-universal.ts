/** One-thread copies (CuTe `include/cute/atom/copy_traits.hpp`): `UniversalCopy<T>` moves sizeof_bits(T) bits
 *  (`Layout<Shape<_1,Int<bits>>>`, size-1 modes stride 0); `DefaultCopy` and `AutoVectorizingCopy`
 *  (`AutoVectorizingCopyWithAssumedAlignment<…>`) are `Layout<Shape<_1,_1>,Stride<_0,_0>>`. */
import type { CopyAtomData } from '../types.js';

const source = 'include/cute/atom/copy_traits.hpp';

/** A one-thread atom moving `bits` bits, the same layout on both sides (Ref = Src). */
const oneThread = (name: string, bits: number): CopyAtomData => {
  const l = `(1,${bits}):(0,1)`;
  return { name, thrID: '1:0', src: l, dst: l, ref: l, source };
};

const any = (name: string): CopyAtomData => ({
  name,
  thrID: '1:0',
  src: '(1,1):(0,0)',
  dst: '(1,1):(0,0)',
  ref: '(1,1):(0,0)',
  source,
});

export const universalCopy: readonly CopyAtomData[] = [
  oneThread('UniversalCopy<uint8_t>', 8),
  oneThread('UniversalCopy<uint16_t>', 16),
  oneThread('UniversalCopy<uint32_t>', 32),
  oneThread('UniversalCopy<uint64_t>', 64),
  oneThread('UniversalCopy<uint128_t>', 128),
  any('DefaultCopy'),
  any('AutoVectorizingCopy'),
];
