/** One-thread copies (CuTe `include/cute/atom/copy_traits.hpp`): `UniversalCopy<T>` moves sizeof_bits(T) bits
 *  (`Layout<Shape<_1,Int<bits>>>`, size-1 modes stride 0); `DefaultCopy` and `AutoVectorizingCopy`
 *  (`AutoVectorizingCopyWithAssumedAlignment<…>`) are `Layout<Shape<_1,_1>,Stride<_0,_0>>`. */
import type { CopyAtomData } from '../types.js';

const source = 'include/cute/atom/copy_traits.hpp';

/** A one-thread atom moving `bits` bits, the same layout on both sides (Ref = Src). */
export const oneThread = (name: string, bits: number, from: string): CopyAtomData => {
  const l = `(1,${bits}):(0,1)`;
  return { name, thrID: '1:0', src: l, dst: l, ref: l, source: from };
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
  ...([8, 16, 32, 64, 128] as const).map((b) => oneThread(`UniversalCopy<uint${b}_t>`, b, source)),
  any('DefaultCopy'),
  any('AutoVectorizingCopy'),
];
