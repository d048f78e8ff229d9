/** SM50 copy atoms: 2x2 transposes by warp shuffle (CuTe `include/cute/atom/copy_traits_sm50.hpp`). */
import type { CopyAtomData } from '../types.js';

const source = 'include/cute/atom/copy_traits_sm50.hpp';
const src = '(32,64):(64,1)';

export const sm50Copy: readonly CopyAtomData[] = [
  { name: 'SM50_Shuffle_U32_2x2Trans_XOR1', thrID: '32:1', src, dst: '((2,16),(32,2)):((32,128),(1,64))', ref: src, source },
  { name: 'SM50_Shuffle_U32_2x2Trans_XOR4', thrID: '32:1', src, dst: '((4,2,4),(32,2)):((64,32,512),(1,256))', ref: src, source },
];
