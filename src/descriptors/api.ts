/**
 * The descriptors' library functions (docs/descriptors.md): `tmaDesc` and `gmmaDesc` take their
 * arguments as the batch protocol writes them (strings) or parsed (Layout, LayoutFunction, Tiler, DType), check the
 * object's keys and types (`bad-request`), parse the strings (`parse`), and answer, or fail with the rule and, where
 * one of CUTLASS's smem atoms would pass, which (atoms.ts).
 */
import { LayoutError, badRequestError } from '../algebra/errors.js';
import { rank, type Layout } from '../algebra/layout.js';
import * as T from '../algebra/tuple.js';
import type { Tuple } from '../algebra/tuple.js';
import { innerLayout, looksComposed, parseLayoutFunction, type LayoutFunction } from '../cute/composed.js';
import { parseLayoutArg, parseTiler, type Tiler } from '../cute/tiler.js';
import { SMEM_ATOMS, suggestAtom } from './atoms.js';
import { isGmemRule } from './contract.js';
import { dtypeOf, type DType } from './dtype.js';
import { gmmaDescriptor, type GmmaDescriptor, type GmmaInput, type Major, type MmaArch } from './gmma.js';
import { tmaDescriptor, type TmaDescriptor, type TmaInput } from './tma.js';

/** tma_desc's argument: strings as in `batch`, or parsed values. */
export interface TmaArgs {
  gmem: string | Layout;
  smem: string | LayoutFunction;
  dtype: string | DType;
  tiler?: string | Tiler | undefined;
}

/** gmma_desc's argument: strings as in `batch`, or parsed values. */
export interface GmmaArgs {
  smem: string | LayoutFunction;
  dtype: string | DType;
  major: Major | string;
  arch?: MmaArch | string | undefined;
}

/** The object's keys: each required one present, no other (`bad-request`). */
function checkKeys(op: string, o: unknown, required: readonly string[], optional: readonly string[]): Record<string, unknown> {
  if (typeof o !== 'object' || o === null || Array.isArray(o))
    throw badRequestError(`${op} takes one object {${[...required, ...optional.map((k) => `${k}?`)].join(', ')}}`);
  const r = o as Record<string, unknown>;
  for (const k of Object.keys(r)) {
    if (!required.includes(k) && !optional.includes(k))
      throw badRequestError(`${op}: unknown key '${k.length > 40 ? `${k.slice(0, 40)}…` : k}' (keys: ${[...required, ...optional].join(', ')})`);
  }
  for (const k of required) if (r[k] === undefined) throw badRequestError(`${op}: missing key '${k}'`);
  return r;
}

/** the JSON type of a value, for messages */
const typeName = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : typeof v);

const isLayout = (v: unknown): v is Layout => typeof v === 'object' && v !== null && 'shape' in v && 'stride' in v;

/** Whether a value has the JSON type (a string) or the parsed form its key takes; else `bad-request`. */
function typed(op: string, key: string, v: unknown, parsed: (v: object) => boolean, what: string): void {
  if (typeof v === 'string' || (typeof v === 'object' && v !== null && !Array.isArray(v) && parsed(v))) return;
  if (key === 'tiler' && Array.isArray(v)) return;
  throw badRequestError(`${op}: ${key} must be a string (${what}), got ${typeName(v)}`);
}

const asLayout = (v: object): boolean => isLayout(v) && !('kind' in v);
const asLayoutFunction = (v: object): boolean => isLayout(v) || 'kind' in v;
const asDType = (v: object): boolean => 'tmaDataType' in v;

function gmemOf(op: string, v: string | Layout): Layout {
  if (typeof v !== 'string') return v;
  if (looksComposed(v)) {
    parseLayoutFunction(v, 'gmem', true);
    throw new LayoutError('domain', `${op}: gmem must be a plain layout (a global tensor has no swizzle)`);
  }
  return parseLayoutArg(v, 'gmem', true);
}

const smemOf = (v: string | LayoutFunction): LayoutFunction => (typeof v === 'string' ? parseLayoutFunction(v, 'smem') : v);
const dtypeArg = (v: string | DType): DType => (typeof v === 'string' ? dtypeOf(v) : v);
const tilerOf = (v: string | Tiler | undefined): Tiler | undefined => (typeof v === 'string' && v !== '_' ? parseTiler(v, 'tiler') : v);

function choice<T extends string>(op: string, key: string, v: unknown, options: readonly T[]): T {
  const listed = options.map((o) => `"${o}"`).join(' or ');
  if (typeof v !== 'string') throw badRequestError(`${op}: ${key} must be a string, ${listed}; got ${typeName(v)}`);
  if (!options.includes(v as T)) throw badRequestError(`${op}: ${key} must be ${listed}, got "${v.slice(0, 40)}"`);
  return v as T;
}

/** tma_desc's object read (keys, JSON types, then the parses): the TmaInput. Errors: `bad-request`, `parse`, `domain` (dtype). */
export function readTmaArgs(o: unknown): TmaInput {
  const op = 'tma_desc';
  const r = checkKeys(op, o, ['gmem', 'smem', 'dtype'], ['tiler']);
  typed(op, 'gmem', r.gmem, asLayout, 'a plain layout');
  typed(op, 'smem', r.smem, asLayoutFunction, 'a layout or Sw<B,M,S> o L');
  typed(op, 'dtype', r.dtype, asDType, 'a CuTe type name');
  if (r.tiler !== undefined) typed(op, 'tiler', r.tiler, isLayout, 'a tiler');
  const a = r as unknown as TmaArgs;
  return { gmem: gmemOf(op, a.gmem), smem: smemOf(a.smem), dtype: dtypeArg(a.dtype), tiler: tilerOf(a.tiler) };
}

/** gmma_desc's object read: the GmmaInput. Errors: `bad-request` (keys, types, major and arch not of their values), `parse`, `domain` (dtype). */
export function readGmmaArgs(o: unknown): GmmaInput {
  const op = 'gmma_desc';
  const r = checkKeys(op, o, ['smem', 'dtype', 'major'], ['arch']);
  typed(op, 'smem', r.smem, asLayoutFunction, 'a layout or Sw<B,M,S> o L');
  typed(op, 'dtype', r.dtype, asDType, 'a CuTe type name');
  const major = choice(op, 'major', r.major, ['K', 'MN'] as const);
  const arch = r.arch === undefined ? undefined : choice(op, 'arch', r.arch, ['sm90', 'sm100'] as const);
  const a = r as unknown as GmmaArgs;
  return { smem: smemOf(a.smem), dtype: dtypeArg(a.dtype), major, arch };
}

/** the sizes of S's top-level modes (CuTe's product_each(shape(S))) */
const modeSizes = (s: Layout): Tuple => (typeof s.shape === 'number' ? s.shape : s.shape.map(T.size));

/** A failed rule's error with the atom that would pass, where one does (domain failures only). */
function withSuggestion(e: unknown, suggest: () => string): never {
  if (!(e instanceof LayoutError) || e.kind !== 'domain') throw e;
  let hint = '';
  try {
    hint = suggest();
  } catch {
    hint = '';
  }
  throw hint === '' ? e : new LayoutError('domain', `${e.message}; ${hint}`);
}

/** tmaDescriptor, and on a failure the atom that would pass. */
export function tmaDescChecked(input: TmaInput): TmaDescriptor {
  try {
    return tmaDescriptor(input);
  } catch (e) {
    return withSuggestion(e, () => {
      const s = innerLayout(input.smem);
      if (rank(s) < 2 || isGmemRule(e)) return '';
      return suggestAtom(SMEM_ATOMS, input.dtype, modeSizes(s), (smem) => tmaDescriptor({ ...input, smem }));
    });
  }
}

/** gmmaDescriptor, and on a failure the atom of that major that would pass. */
export function gmmaDescChecked(input: GmmaInput): GmmaDescriptor {
  try {
    return gmmaDescriptor(input);
  } catch (e) {
    return withSuggestion(e, () => {
      const s = innerLayout(input.smem);
      if (rank(s) !== 2) return '';
      const atoms = SMEM_ATOMS.filter((a) => a.major === input.major && (a.namespace === 'GMMA' || input.arch === 'sm100'));
      return suggestAtom(atoms, input.dtype, modeSizes(s), (smem) => gmmaDescriptor({ ...input, smem }));
    });
  }
}

/**
 * The TMA tensor map CuTe's make_tma_copy builds (docs/descriptors.md §2) for a global layout, a smem tile and a dtype (and a
 * tiler, default the smem tile's mode sizes): strings or parsed values. Errors: `bad-request` (keys, types), `parse`,
 * `domain` for every rule of §12 (naming the rule and the numbers; where a CUTLASS atom would pass, which),
 * `overflow`.
 * @example tmaDesc({ gmem: '(4096,4096):(4096,1)', smem: 'Sw<3,3,3> o ((8,16),(64,1)):((64,512),(1,0))', dtype: 'bfloat16_t' }).boxDim // [64, 128]
 */
export function tmaDesc(args: TmaArgs): TmaDescriptor {
  return tmaDescChecked(readTmaArgs(args));
}

/**
 * The wgmma (sm90, default) or UMMA (sm100) shared-memory matrix descriptor of one k-block's operand tile (docs/descriptors.md §3):
 * strings or parsed values. Errors: `bad-request`, `parse`, `domain` naming the canonical form and the stride found
 * (and an atom that would pass).
 * @example gmmaDesc({ smem: 'Sw<3,3,3> o ((8,8),16):((64,512),1)', dtype: 'bfloat16_t', major: 'K' }).desc // '0x4000004000010000'
 */
export function gmmaDesc(args: GmmaArgs): GmmaDescriptor {
  return gmmaDescChecked(readGmmaArgs(args));
}
