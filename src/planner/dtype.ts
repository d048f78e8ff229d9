/**
 * Element types of a plan (CuTe's type names): a CuTe type name and its size e in bytes.
 */
import { LayoutError } from '../algebra/errors.js';

const SIZES: Readonly<Record<string, number>> = {
  half_t: 2,
  bfloat16_t: 2,
  float: 4,
  tfloat32_t: 4,
  double: 8,
  int8_t: 1,
  uint8_t: 1,
  float_e4m3_t: 1,
  float_e5m2_t: 1,
  uint16_t: 2,
  int32_t: 4,
  uint32_t: 4,
  int64_t: 8,
  uint64_t: 8,
};

/** The CuTe type names of the planner (CuTe's to_CUtensorMapDataType's). */
export const DTYPES: readonly string[] = Object.keys(SIZES);

/**
 * The size in bytes of a CuTe type name. Errors: `domain` for any other name.
 * @example elementBytes('half_t') // 2
 */
export function elementBytes(dtype: string): number {
  const e = SIZES[dtype];
  if (e === undefined) throw new LayoutError('domain', `unknown dtype '${dtype.slice(0, 24)}': one of ${DTYPES.join(', ')}`);
  return e;
}
