/**
 * The batch op `verify`: args [property, [layout, …]] → one boolean per candidate, in order.
 * The property is a string ("compact", "injective", "law:coalesce", …) or an array with its
 * operands after the name: ["complement-of", A], ["compose-equals", C, B] (B the outer layout),
 * ["law:compose", B] (candidates A, checked as B∘A), ["law:divide", B] (A ⊘ B),
 * ["law:product", B] (A ⊗ B). Laws answer true when no counterexample was found.
 * The backend: `cpu` → the CPU engine; otherwise ctx.backend(), and the interpreter on its
 * device when that backend is the GPU's.
 */
import { currentDeadline, withDeadline } from '../algebra/deadline.js';
import { LayoutError } from '../algebra/errors.js';
import type { Layout } from '../algebra/layout.js';
import { isComposed, type LayoutFunction } from '../cute/composed.js';
import { plainNeeded } from './args.js';
import type { Json, OpContext, OpSpec } from './spec.js';
import type { VerifyEngine } from '../verify/engine.js';

// The engines load on first use: the ops table (and so `batch`) starts without them.
const engines = new WeakMap<object, VerifyEngine>();
let cpu: VerifyEngine | null = null;

/** the verification engine for an op context */
export async function engineFor(ctx: OpContext): Promise<VerifyEngine> {
  if (ctx.backendChoice === 'cpu') return (cpu ??= new (await import('../verify/cpu.js')).CpuVerifyEngine());
  const b = await ctx.backend();
  const device = (b as unknown as { device?: GPUDevice }).device;
  if (b.info.backend !== 'gpu' || !device) return (cpu ??= new (await import('../verify/cpu.js')).CpuVerifyEngine());
  let e = engines.get(device);
  if (!e) {
    const { GpuVerifyEngine } = await import('../verify/gpu.js');
    e = new GpuVerifyEngine(device, { adapter: b.info.adapter, software: b.info.software });
    engines.set(device, e);
  }
  return e;
}

export const verifyOp: OpSpec = {
  name: 'verify',
  summary: 'bulk verification: one boolean per candidate for a property (compact, injective, complement-of A, compose-equals C B, law:…)',
  args: [
    { name: 'property', kind: 'json' },
    { name: 'candidates', kind: 'json' },
  ],
  async run([prop, cands], ctx): Promise<Json> {
    // the request's deadline (batch --request-timeout), carried across the awaits below
    const at = currentDeadline();
    // ["conflict-free", TV, e(, v)]: the memory system's search (src/ops/verify-conflicts.ts)
    const mem = await import('./verify-conflicts.js');
    if (mem.isConflictFreeProperty(prop)) return withDeadline(at - performance.now(), () => mem.conflictFreeVerify(prop as unknown[], cands, ctx));
    const { candidateArity, checkChunk, propertyFromJson, propertyText } = await import('../verify/run.js');
    const p = propertyFromJson(prop);
    if (!Array.isArray(cands)) throw new LayoutError('bad-request', 'verify: the candidates must be an array of layout strings');
    if (candidateArity(p) !== 1) throw new LayoutError('bad-request', `verify: ${propertyText(p)} needs its other operand, e.g. ["${propertyText(p)}", B]`);
    // compact and injective take composed candidates Sw o K o L (docs/semantics.md §9.1: Φ is
    // their layout function); the other properties need plain layouts
    const fns: LayoutFunction[] = cands.map((c, i) => {
      const l = mem.parseCandidate(c, i);
      if (isComposed(l) && p.kind !== 'compact' && p.kind !== 'injective') throw plainNeeded(`verify ${propertyText(p)}`, `candidate ${i + 1}`, l);
      return l;
    });
    if (fns.length === 0) return [];
    const engine = await engineFor(ctx);
    const chunk = fns.some(isComposed)
      ? { first: 0, count: fns.length, flat: (await import('../verify/packed.js')).batchOfFunctions(fns) }
      : { first: 0, count: fns.length, items: fns.map((l) => [l as Layout]) };
    const r = await withDeadline(at - performance.now(), () => checkChunk(p, chunk, engine));
    return Array.from(r.ok, (v) => v === 1);
  },
};

export const verifyOps: OpSpec[] = [verifyOp];
