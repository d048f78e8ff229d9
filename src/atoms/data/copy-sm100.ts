/**
 * SM100 copy atoms other than TMEM (CuTe `include/cute/atom/copy_traits_sm100.hpp`): the 256-bit non-allocating
 * load and store (one thread), the 8-bit transposed ldmatrix (`U8x{8,16}_LDSM_T`), the 4- and 6-bit to 8-bit
 * unpacking ldmatrix (`SU4_DU8x16`, `SU6_DU8x16`, the layouts of SM75's `_N` loads) and the 8-bit transposed
 * stmatrix (`U8x{4,8,16}_STSM_T`).
 */
import type { CopyAtomData } from '../types.js';

const source = 'include/cute/atom/copy_traits_sm100.hpp';

/** ldmatrix's layouts (copy-sm75.ts), written again so that each data file stands alone: the rows in shared memory, the registers. */
const LDSM_ROWS_X1 = '((8,4),128):((128,0),1)';
const LDSM_ROWS_X2 = '((16,2),128):((128,0),1)';
const LDSM_ROWS_X4 = '(32,128):(128,1)';
const LDSM_N_X1 = '(32,32):(32,1)';
const LDSM_N_X2 = '(32,(32,2)):(32,(1,1024))';
const LDSM_N_X4 = '(32,(32,4)):(32,(1,1024))';

/** The register side of the 8-bit transposed loads/stores, by count of 32-bit registers. */
const U8_T_X1 = '((4,8),(8,2,2)):((256,8),(1,128,64))';
const U8_T_X2 = '((4,8),(8,2,2,2)):((256,8),(1,128,64,1024))';
const U8_T_X4 = '((4,8),(8,2,2,4)):((256,8),(1,128,64,1024))';

/** A one-thread 256-bit load or store, the same layout on both sides (Ref = Src). */
const oneThread = (name: string): CopyAtomData => ({ name, thrID: '1:0', src: '(1,256):(0,1)', dst: '(1,256):(0,1)', ref: '(1,256):(0,1)', source });

const warp = (name: string, src: string, dst: string, ref: 'src' | 'dst'): CopyAtomData => ({
  name,
  thrID: '32:1',
  src,
  dst,
  ref: ref === 'src' ? src : dst,
  source,
});

export const sm100Copy: readonly CopyAtomData[] = [
  oneThread('SM100_LOAD_256bit_CACHE_NOALLOCATION'),
  oneThread('SM100_STORE_256bit_CACHE_NOALLOCATION'),
  warp('SM100_U8x8_LDSM_T', '((2,2,4,2),128):((128,1024,256,0),1)', U8_T_X2, 'dst'),
  warp('SM100_U8x16_LDSM_T', '((2,2,4,2),128):((128,1024,256,2048),1)', U8_T_X4, 'dst'),
  warp('SM100_SU4_DU8x16_x1_LDSM_N', LDSM_ROWS_X1, LDSM_N_X1, 'dst'),
  warp('SM100_SU4_DU8x16_x2_LDSM_N', LDSM_ROWS_X2, LDSM_N_X2, 'dst'),
  warp('SM100_SU4_DU8x16_x4_LDSM_N', LDSM_ROWS_X4, LDSM_N_X4, 'dst'),
  warp('SM100_SU6_DU8x16_x1_LDSM_N', LDSM_ROWS_X1, LDSM_N_X1, 'dst'),
  warp('SM100_SU6_DU8x16_x2_LDSM_N', LDSM_ROWS_X2, LDSM_N_X2, 'dst'),
  warp('SM100_SU6_DU8x16_x4_LDSM_N', LDSM_ROWS_X4, LDSM_N_X4, 'dst'),
  warp('SM100_U8x4_STSM_T', U8_T_X1, LDSM_ROWS_X1, 'src'),
  warp('SM100_U8x8_STSM_T', U8_T_X2, LDSM_ROWS_X2, 'src'),
  warp('SM100_U8x16_STSM_T', U8_T_X4, LDSM_ROWS_X4, 'src'),
];
