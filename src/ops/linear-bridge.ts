/**
 * The ops of the bridge between CuTe and Triton (spread into src/ops/table.ts; docs/linear.md,
 * "Encodings" and "The bridge to CuTe"): ll_from_encoding, check_linear, to_ll, from_ll and
 * ll_bank_conflicts. LL arguments are any form of docs/linear.md, "Forms"; LL results are the
 * canonical JSON object; CuTe arguments are layout functions (plain or `Sw<B,M,S> o K o L`).
 */
import { LayoutError, badRequestError } from '../algebra/errors.js';
import type { LayoutFunction } from '../cute/composed.js';
import { formatLayoutFunction } from '../cute/composed.js';
import type { Json, OpSpec } from './spec.js';
import type { BridgeKind } from '../linear/bridge.js';
import { lazyModule, runningIn } from './lazy.js';
import { bankOptionsArg, bankTarget } from './memory.js';
import { jsonArg as jsonValue } from './args.js';

/** the linear layouts' room, loaded by the first of these ops that runs (ops/lazy.ts) */
const LL = lazyModule(async () => ({
  ...(await import('../linear/banks.js')),
  ...(await import('../linear/bridge.js')),
  ...(await import('../linear/encodings.js')),
  ...(await import('../linear/forms.js')),
  ...(await import('../linear/attr.js')),
}));

/** An array of JSON integers (a shape or a tile), or a string in the one shape syntax (`16x8`, `[16,8]`,
 *  `tensor<16x8xf16>`: linear/attr.ts), else `bad-request`; the values are checked by the callee. */
function intArray(op: string, what: string, v: unknown): number[] {
  if (typeof v === 'string') return LL.get().parseShapeText(v, `${op}: ${what}`).shape;
  const x = jsonValue(op, what, v);
  if (!Array.isArray(x) || !x.every((n) => typeof n === 'number' && Number.isInteger(n))) throw badRequestError(`${op}: ${what} must be an array of integers`);
  return x as number[];
}

/** The kind of to_ll / from_ll: a string, one of function, tv, shared. */
function kindArg(op: string, v: unknown): BridgeKind {
  if (typeof v !== 'string') throw badRequestError(`${op}: the kind must be the string "function", "tv" or "shared"`);
  if (v !== 'function' && v !== 'tv' && v !== 'shared') throw new LayoutError('domain', `${op}: unknown kind '${v}' (function, tv or shared)`);
  return v;
}

/** The CLI's reading of an LL result: Triton's print without its leading newline. */
const humanLL = (r: Json): string => LL.get().tritonString(LL.get().parseLL(r)).slice(1);

export const linearBridgeOps: OpSpec[] = runningIn(LL, [
  {
    name: 'll_from_encoding',
    summary: "Triton's toLinearLayout(shape, attr) of a #ttg encoding (blocked, slice, nvidia_mma, dot_op, amd_mfma, swizzled_shared, nvmma_shared, linear)",
    args: [
      { name: 'attr', kind: 'json' },
      { name: 'shape', kind: 'json' },
    ],
    run: ([attr, shape]) => {
      if (typeof attr !== 'string') throw badRequestError('ll_from_encoding: attr must be a string (#ttg.NAME<{…}>)');
      return LL.get().toCanonicalJson(LL.get().llFromEncoding(attr, intArray('ll_from_encoding', 'shape', shape)));
    },
    human: humanLL,
  },
  {
    name: 'check_linear',
    summary: 'whether a CuTe layout is F2-linear: {linear, reason: size|offset|carry, witness [x, y]}',
    // linearity needs the strides alone, never the cosize: any layout (docs/linear.md, "Deciding linearity")
    args: [{ name: 'C', kind: 'any-layout-fn' }],
    run: ([c]) => {
      const r = LL.get().checkLinear(c as LayoutFunction);
      return { linear: r.linear, reason: r.reason, witness: r.witness === null ? null : [...r.witness] };
    },
  },
  {
    name: 'to_ll',
    summary: 'a linear CuTe layout as a linear layout: kind function (default), tv [tile, lanes, warps] or shared [tile]',
    args: [
      { name: 'C', kind: 'layout-fn' },
      { name: 'kind', kind: 'json', optional: true },
      { name: 'tile', kind: 'json', optional: true },
      { name: 'lanes', kind: 'int', optional: true },
      { name: 'warps', kind: 'int', optional: true },
    ],
    run: ([c, kind, tile, lanes, warps]) => {
      const k = kind === undefined ? 'function' : kindArg('to_ll', kind);
      const opts = {
        ...(tile !== undefined ? { tile: intArray('to_ll', 'the tile', tile) } : {}),
        ...(lanes !== undefined ? { lanes: lanes as number } : {}),
        ...(warps !== undefined ? { warps: warps as number } : {}),
      };
      return LL.get().toCanonicalJson(LL.get().toLL(c as LayoutFunction, k, opts));
    },
    human: humanLL,
  },
  {
    name: 'from_ll',
    summary: 'the simplest exact CuTe layout of a linear layout (strides, or Sw<B,M,S> o L); kind function, tv or shared',
    args: [
      { name: 'L', kind: 'json' },
      { name: 'kind', kind: 'json', optional: true },
    ],
    run: ([l, kind]) => formatLayoutFunction(LL.get().fromLL(LL.get().parseLL(l), kind === undefined ? undefined : kindArg('from_ll', kind))),
  },
  {
    name: 'll_bank_conflicts',
    summary: 'bank conflicts of a register LL R writing a shared LL S: bank_conflicts on their functions (e bytes, v values)',
    args: [{ name: 'R', kind: 'json' }, { name: 'S', kind: 'json' }, { name: 'e', kind: 'int' }, { name: 'v', kind: 'int', optional: true }, bankOptionsArg],
    run: ([r, s, e, v, o]) => {
      const target = bankTarget('ll_bank_conflicts', o);
      const report = LL.get().llBankConflicts(LL.get().parseLL(r), LL.get().parseLL(s), e as number, v as number | undefined, target);
      return report as unknown as Json;
    },
  },
]);
