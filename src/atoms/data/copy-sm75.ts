/**
 * SM75 copy atoms: ldmatrix (`LDSM`, .x1/.x2/.x4, plain and .trans) and movmatrix (`MOVM`)
 * (CuTe `include/cute/atom/copy_traits_sm75.hpp`). The source side is shared memory: each thread
 * names one 128-bit row (the stride-0 thread modes of .x1 and .x2: only lanes 0–7 and 0–15 give
 * addresses); the destination is registers; Ref = Dst.
 */
import type { CopyAtomData } from '../types.js';

const source = 'include/cute/atom/copy_traits_sm75.hpp';

/** The row addresses of .x1, .x2 and .x4 (bits). */
const LDSM_ROWS_X1 = '((8,4),128):((128,0),1)';
const LDSM_ROWS_X2 = '((16,2),128):((128,0),1)';
const LDSM_ROWS_X4 = '(32,128):(128,1)';
/** The register side of the plain (`_N`) and transposed (`_T`) loads, by count. */
const LDSM_N_X1 = '(32,32):(32,1)';
const LDSM_N_X2 = '(32,(32,2)):(32,(1,1024))';
const LDSM_N_X4 = '(32,(32,4)):(32,(1,1024))';
const LDSM_T_X2 = '((4,8),(16,2)):((256,16),(1,128))';
const LDSM_T_X4 = '((4,8),(16,2,2)):((256,16),(1,128,1024))';
const LDSM_T_X8 = '((4,8),(16,2,4)):((256,16),(1,128,1024))';

const load = (name: string, src: string, dst: string): CopyAtomData => ({ name, thrID: '32:1', src, dst, ref: dst, source });

export const sm75Copy: readonly CopyAtomData[] = [
  load('SM75_U32x1_LDSM_N', LDSM_ROWS_X1, LDSM_N_X1),
  load('SM75_U32x2_LDSM_N', LDSM_ROWS_X2, LDSM_N_X2),
  load('SM75_U32x4_LDSM_N', LDSM_ROWS_X4, LDSM_N_X4),
  load('SM75_U16x2_LDSM_T', LDSM_ROWS_X1, LDSM_T_X2),
  load('SM75_U16x4_LDSM_T', LDSM_ROWS_X2, LDSM_T_X4),
  load('SM75_U16x8_LDSM_T', LDSM_ROWS_X4, LDSM_T_X8),
  load('SM75_U32x1_MOVM_T', '(32,32):(32,1)', '(32,32):(32,1)'),
];
