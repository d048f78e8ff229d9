/** SM90 copy atoms: stmatrix (`STSM`), the mirror of ldmatrix: Src is ldmatrix's Dst (registers), Dst is its
 *  rows (shared memory), Ref = Src (CuTe `include/cute/atom/copy_traits_sm90.hpp`). */
import type { CopyAtomData } from '../types.js';

const source = 'include/cute/atom/copy_traits_sm90.hpp';

/** ldmatrix's layouts (copy-sm75.ts), written again so that each data file stands alone: the rows in shared memory, the registers. */
const LDSM_ROWS_X1 = '((8,4),128):((128,0),1)';
const LDSM_ROWS_X2 = '((16,2),128):((128,0),1)';
const LDSM_ROWS_X4 = '(32,128):(128,1)';
const LDSM_N_X1 = '(32,32):(32,1)';
const LDSM_N_X2 = '(32,(32,2)):(32,(1,1024))';
const LDSM_N_X4 = '(32,(32,4)):(32,(1,1024))';
const LDSM_T_X2 = '((4,8),(16,2)):((256,16),(1,128))';
const LDSM_T_X4 = '((4,8),(16,2,2)):((256,16),(1,128,1024))';
const LDSM_T_X8 = '((4,8),(16,2,4)):((256,16),(1,128,1024))';

const store = (name: string, src: string, dst: string): CopyAtomData => ({ name, thrID: '32:1', src, dst, ref: src, source });

export const sm90Copy: readonly CopyAtomData[] = [
  store('SM90_U32x1_STSM_N', LDSM_N_X1, LDSM_ROWS_X1),
  store('SM90_U32x2_STSM_N', LDSM_N_X2, LDSM_ROWS_X2),
  store('SM90_U32x4_STSM_N', LDSM_N_X4, LDSM_ROWS_X4),
  store('SM90_U16x2_STSM_T', LDSM_T_X2, LDSM_ROWS_X1),
  store('SM90_U16x4_STSM_T', LDSM_T_X4, LDSM_ROWS_X2),
  store('SM90_U16x8_STSM_T', LDSM_T_X8, LDSM_ROWS_X4),
];
