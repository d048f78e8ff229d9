/**
 * The linear-layout ops of the table (spread into src/ops/table.ts; docs/linear.md, "Operations"): every
 * `ll_*` op of the batch protocol, receiver first as Triton calls them. LL arguments are any form
 * of docs/linear.md, "Forms"; LL results are the canonical JSON object.
 */
import { badRequestError } from '../algebra/errors.js';
import type { ArgSpec, Json, OpSpec } from './spec.js';
import type { LinearLayout } from '../linear/value.js';
import { lazyModule, runningIn } from './lazy.js';
import { jsonArg as jsonValue } from './args.js';

/** the linear layouts' room, loaded by the first of these ops that runs (ops/lazy.ts) */
const LL = lazyModule(async () => ({ ...(await import('../linear/forms.js')), ...(await import('../linear/operations.js')) }));

const ll = (name: string): ArgSpec => ({ name, kind: 'json' });

/** An array of strings (dim names), else `bad-request`. */
function names(op: string, what: string, v: unknown): string[] {
  const x = jsonValue(op, what, v);
  if (!Array.isArray(x) || !x.every((s) => typeof s === 'string')) throw badRequestError(`${op}: ${what} must be an array of dim names (strings)`);
  return x as string[];
}

/** An object of integers {in-dim: value}, else `bad-request`. */
function inputs(op: string, v: unknown): Record<string, number> {
  const x = jsonValue(op, 'the inputs', v);
  if (typeof x !== 'object' || x === null || Array.isArray(x)) throw badRequestError(`${op}: the inputs must be an object {in-dim: integer}`);
  for (const [k, n] of Object.entries(x)) {
    if (typeof n !== 'number' || !Number.isInteger(n)) {
      // an array or object is named, not printed: it may be nested 100,000 deep
      const shown = Array.isArray(n) ? 'an array' : typeof n === 'object' && n !== null ? 'an object' : JSON.stringify(n);
      throw badRequestError(`${op}: input '${k}' must be a JSON integer, got ${shown}`);
    }
  }
  return x as Record<string, number>;
}

const canon = (l: LinearLayout): Json => LL.get().toCanonicalJson(l);
/** The CLI's reading of an LL result: Triton's print (without its leading newline). */
const humanLL = (r: Json): string => (r === null ? 'null' : LL.get().tritonString(LL.get().parseLL(r)).slice(1));

const unaryLL = (name: string, summary: string, f: (l: LinearLayout) => Json, human?: (r: Json) => string): OpSpec => ({
  name,
  summary,
  args: [ll('L')],
  run: ([l]) => f(LL.get().parseLL(l)),
  ...(human ? { human } : {}),
});

const binaryLL = (name: string, summary: string, a: string, b: string, f: (x: LinearLayout, y: LinearLayout) => LinearLayout | null): OpSpec => ({
  name,
  summary,
  args: [ll(a), ll(b)],
  run: ([x, y]) => {
    const r = f(LL.get().parseLL(x), LL.get().parseLL(y));
    return r === null ? null : canon(r);
  },
  human: humanLL,
});

export const linearOps: OpSpec[] = runningIn(LL, [
  unaryLL('ll_parse', 'a linear layout in any form (JSON, Triton print, Gluon repr, #ttg.linear) → the canonical JSON object', canon, humanLL),
  {
    name: 'll_format',
    summary: 'a linear layout printed as Triton ("triton"), Gluon ("gluon") or MLIR ("mlir") print it; alignment for shared layouts',
    args: [ll('L'), { name: 'form', kind: 'json' }, { name: 'alignment', kind: 'int', optional: true }],
    run: ([l, form, alignment]) => {
      if (typeof form !== 'string') throw badRequestError('ll_format: form must be the string "triton", "gluon" or "mlir"');
      return LL.get().formatLL(LL.get().parseLL(l), form, alignment as number | undefined);
    },
    human: (r) => String(r).replace(/^\n/, ''),
  },
  {
    name: 'll_apply',
    summary: 'L(x) for one input {in-dim: value} (Triton apply) → {out-dim: value}',
    args: [ll('L'), { name: 'inputs', kind: 'json' }],
    run: ([l, x]) => LL.get().apply(LL.get().parseLL(l), inputs('ll_apply', x)),
  },
  binaryLL('ll_compose', 'L.compose(O) = O∘L (Triton compose; receiver first)', 'L', 'O', (x, y) => LL.get().compose(x, y)),
  binaryLL('ll_product', 'I * O, the direct sum (Triton operator*, supremum dim order)', 'I', 'O', (x, y) => LL.get().product(x, y)),
  unaryLL('ll_invert', 'the inverse of an invertible L (Triton invert)', (l) => canon(LL.get().invert(l)), humanLL),
  unaryLL(
    'll_pseudoinvert',
    'the pseudo-inverse of a surjective L: out → the smallest input (Triton pseudoinvert)',
    (l) => canon(LL.get().pseudoinvert(l)),
    humanLL,
  ),
  binaryLL('ll_invert_and_compose', 'A.invertAndCompose(B): the C with B(C(x)) = A(x) (Triton invertAndCompose)', 'A', 'B', (x, y) =>
    LL.get().invertAndCompose(x, y),
  ),
  unaryLL('ll_is_injective', 'whether rank = number of in-bits (Triton isInjective)', (l) => LL.get().isInjective(l)),
  unaryLL('ll_is_surjective', 'whether rank = number of out-bits (Triton isSurjective)', (l) => LL.get().isSurjective(l)),
  unaryLL('ll_is_invertible', 'whether surjective with as many in-bits as out-bits (Triton isInvertible)', (l) => LL.get().isInvertible(l)),
  binaryLL('ll_divide_left', 'the C with A = B * C, or null (Triton divideLeft)', 'A', 'B', (x, y) => LL.get().divideLeft(x, y)),
  binaryLL('ll_divide_right', 'the C with A = C * B, or null (Triton divideRight)', 'A', 'B', (x, y) => LL.get().divideRight(x, y)),
  {
    name: 'll_sublayout',
    summary: 'the named in-dims and out-dims of L, in its order (Triton sublayout)',
    args: [ll('L'), { name: 'inDims', kind: 'json' }, { name: 'outDims', kind: 'json' }],
    run: ([l, ins, outs]) => canon(LL.get().sublayout(LL.get().parseLL(l), names('ll_sublayout', 'inDims', ins), names('ll_sublayout', 'outDims', outs))),
    human: humanLL,
  },
  unaryLL('ll_free_variable_masks', '{in-dim: mask} of the in-bits whose image is in the span of those before (Triton getFreeVariableMasks)', (l) =>
    LL.get().freeVariableMasks(l),
  ),
]);
