/** SM90 copy atoms: stmatrix (`STSM`), the mirror of ldmatrix: Src is ldmatrix's Dst (registers), Dst is its
 *  rows (shared memory), Ref = Src (CuTe `include/cute/atom/copy_traits_sm90.hpp`). */
import type { CopyAtomData } from '../types.js';
import * as L from './copy-sm75.js';

const source = 'include/cute/atom/copy_traits_sm90.hpp';

const store = (name: string, src: string, dst: string): CopyAtomData => ({ name, thrID: '32:1', src, dst, ref: src, source });

export const sm90Copy: readonly CopyAtomData[] = [
  store('SM90_U32x1_STSM_N', L.LDSM_N_X1, L.LDSM_ROWS_X1),
  store('SM90_U32x2_STSM_N', L.LDSM_N_X2, L.LDSM_ROWS_X2),
  store('SM90_U32x4_STSM_N', L.LDSM_N_X4, L.LDSM_ROWS_X4),
  store('SM90_U16x2_STSM_T', L.LDSM_T_X2, L.LDSM_ROWS_X1),
  store('SM90_U16x4_STSM_T', L.LDSM_T_X4, L.LDSM_ROWS_X2),
  store('SM90_U16x8_STSM_T', L.LDSM_T_X8, L.LDSM_ROWS_X4),
];
