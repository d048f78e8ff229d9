/**
 * Element types of the descriptors (docs/descriptors.md §1.1): a CuTe type name, its size e in
 * bytes and the TMA data type CuTe's `to_CUtensorMapDataType` gives it (fp8 travels as UINT8).
 */
import { domainError } from '../algebra/errors.js';
import { didYouMean } from '../algebra/names.js';

/** One element type: CuTe's name, its bytes e, log2 e, and the driver's `CU_TENSOR_MAP_DATA_TYPE_…` name without the prefix. */
export interface DType {
  readonly name: string;
  readonly bytes: 1 | 2 | 4 | 8;
  readonly log2Bytes: 0 | 1 | 2 | 3;
  readonly tmaDataType: string;
}

const dtype = (name: string, bytes: 1 | 2 | 4 | 8, tmaDataType: string): DType => ({
  name,
  bytes,
  log2Bytes: (bytes === 1 ? 0 : bytes === 2 ? 1 : bytes === 4 ? 2 : 3) as DType['log2Bytes'],
  tmaDataType,
});

/** The table of docs/descriptors.md §1, in its order. */
export const DTYPES: readonly DType[] = [
  dtype('half_t', 2, 'FLOAT16'),
  dtype('bfloat16_t', 2, 'BFLOAT16'),
  dtype('float', 4, 'FLOAT32'),
  dtype('tfloat32_t', 4, 'TFLOAT32'),
  dtype('double', 8, 'FLOAT64'),
  dtype('int8_t', 1, 'UINT8'),
  dtype('uint8_t', 1, 'UINT8'),
  dtype('float_e4m3_t', 1, 'UINT8'),
  dtype('float_e5m2_t', 1, 'UINT8'),
  dtype('uint16_t', 2, 'UINT16'),
  dtype('int32_t', 4, 'INT32'),
  dtype('uint32_t', 4, 'UINT32'),
  dtype('int64_t', 8, 'INT64'),
  dtype('uint64_t', 8, 'UINT64'),
];

const BY_NAME: ReadonlyMap<string, DType> = new Map(DTYPES.map((d) => [d.name, d]));

/** The CuTe type names of §12.1. */
export const dtypeNames = (): string[] => DTYPES.map((d) => d.name);

/**
 * The element type named `name` (docs/descriptors.md §1). Errors: `domain` for any other name, with "did you mean" where one is
 * close. Example: dtypeOf('bfloat16_t').bytes is 2; dtypeOf('bf16') fails naming 'bfloat16_t'.
 */
export function dtypeOf(name: string): DType {
  const d = BY_NAME.get(name);
  if (d !== undefined) return d;
  const shown = name.length > 40 ? `${name.slice(0, 40)}…` : name;
  throw domainError(`unknown dtype '${shown}'${didYouMean(name, dtypeNames())}: a CuTe type name, one of ${dtypeNames().join(', ')}`);
}
