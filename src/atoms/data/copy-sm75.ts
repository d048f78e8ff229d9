/** SM75 copy atoms: ldmatrix, movmatrix (CuTe `include/cute/atom/copy_traits_sm75.hpp`). */
import type { CopyAtomData } from '../types.js';

const src = 'include/cute/atom/copy_traits_sm75.hpp';

export const sm75Copy: readonly CopyAtomData[] = [
  {
    name: 'SM75_U32x4_LDSM_N',
    thrID: '32:1',
    src: '(32,128):(128,1)',
    dst: '(32,(32,4)):(32,(1,1024))',
    ref: '(32,(32,4)):(32,(1,1024))',
    source: src,
  },
];
