/**
 * The one argument reader (src/ops/args.ts) and the rows that carry everything about an op (src/ops/spec.ts): what a
 * row's `composed` says is what the op does on a composed layout, checked against the op on the inner layout and Φ
 * by brute force; a row with no `composed` refuses one; the page's field reading gives the outcome the op gives; the
 * page's places name the GPU card's checks; the one integer text against its definition over every short string.
 */
import { describe, expect, it } from 'vitest';
import { LayoutError } from '../../src/algebra/errors.js';
import { isIntegerText } from '../../src/algebra/int-text.js';
import { size } from '../../src/algebra/layout.js';
import { innerLayout, phiLayoutFunctionBig } from '../../src/cute/composed.js';
import { readField, readLayoutFunction } from '../../src/ops/args.js';
import { PAGE_GROUPS, type OpContext } from '../../src/ops/spec.js';
import { ops, opsByName, runOpDirect, type Json } from '../../src/ops/table.js';
import { exampleText, extraArgs, formula } from '../../src/web/op-form.js';

const ctx: OpContext = { backendChoice: 'cpu', backend: () => Promise.reject(new Error('no backend in these tests')) };

/** op's answer on raw text arguments, or its error */
function outcome(op: string, args: string[]): Json | LayoutError {
  try {
    const r = runOpDirect(op, args, ctx, true);
    if (r instanceof Promise) throw new Error(`${op} answered asynchronously`);
    return r;
  } catch (e) {
    if (e instanceof LayoutError) return e;
    throw e;
  }
}

const SW = 'Sw<2,1,3> o 4 o ';
const L = '(4,(2,4)):(2,(1,8))';
/** the arguments after the layout, for the ops of the algebra and CuTe vocabulary that take a composed one */
const REST: Record<string, string[]> = {
  mode: ['2'],
  entry: ['2'],
  eval: ['13'],
  coord: ['13'],
  eval_coord: ['(1,(1,2))'],
  coalesce: [],
  compose: ['(2,4):(4,1)'],
  composition: ['(2,4):(4,1)'],
  get: ['1', '0'],
  logical_divide: ['2:2'],
  logical_product: ['2:1'],
  zipped_divide: ['<2,2>'],
  tiled_divide: ['<2,2>'],
  flat_divide: ['<2,2>'],
  zipped_product: ['2:1'],
  tiled_product: ['2:1'],
  flat_product: ['2:1'],
  blocked_product: ['2:1'],
  raked_product: ['2:1'],
  tile_to_shape: ['(8,16)'],
  slice: ['(_,(1,_))'],
  dice: ['(_,(1,_))'],
};

describe('a row says how its op takes a composed layout (docs/semantics.md §9.1)', () => {
  const rows = ops.filter((o) => o.composed !== undefined);
  it('every such row is covered here, and the rows without one that take a layout refuse it (domain)', () => {
    for (const o of rows) if (o.composed !== 'shape' && !['parse', 'flatten', 'cosize'].includes(o.name)) expect(REST, o.name).toHaveProperty(o.name);
    const plainFirst = ops.filter((o) => o.composed === undefined && (o.args[0]?.kind === 'layout' || o.args[0]?.kind === 'any-layout'));
    expect(plainFirst.length).toBeGreaterThan(10);
    for (const o of plainFirst) {
      if (o.args[0]!.variadic || o.load) continue;
      const n = o.args.filter((a) => !a.optional && !a.variadic).length;
      const e = outcome(o.name, [SW + L, ...Array.from({ length: n - 1 }, () => '1')]);
      expect(e, o.name).toBeInstanceOf(LayoutError);
      expect((e as LayoutError).kind, o.name).toBe('domain');
      expect((e as LayoutError).message, o.name).toContain('needs a plain layout');
    }
  });
  it("'shape': the answer on L; 'inner' and 'slice': Sw o K o the answer on L, with Φ by brute force", () => {
    for (const o of rows) {
      if (typeof o.composed === 'function') continue;
      const rest = REST[o.name] ?? [];
      const onL = outcome(o.name, [L, ...rest]);
      const onC = outcome(o.name, [SW + L, ...rest]);
      expect(onL, o.name).not.toBeInstanceOf(LayoutError);
      if (o.composed === 'shape' || typeof onL !== 'string') {
        expect(onC, o.name).toEqual(onL);
        continue;
      }
      const c = readLayoutFunction(onC as string, 'result');
      const inner = readLayoutFunction(onL, 'result');
      expect(formatInner(c), o.name).toBe(formatInner(inner));
      // Φ of the result: Sw(K' + Φ_inner(x)), K' = 4 plus the slice's offset
      const k = o.composed === 'slice' ? 4 + (outcome('eval_coord', [L, '(0,(1,0))']) as number) : 4;
      const sw = readLayoutFunction(`Sw<2,1,3> o ${k} o ${onL}`, 'want');
      for (let x = 0; x < size(innerLayout(c)); x++) expect(Number(phiLayoutFunctionBig(c, x)), `${o.name} at ${x}`).toBe(Number(phiLayoutFunctionBig(sw, x)));
    }
  });
  it('a function: the outer function’s own answer (cosize, eval, eval_coord), by brute force over Φ', () => {
    const c = readLayoutFunction(SW + L, 'C');
    const offsets = Array.from({ length: size(innerLayout(c)) }, (_, x) => Number(phiLayoutFunctionBig(c, x)));
    expect(outcome('cosize', [SW + L])).toBe(Math.max(...offsets) + 1);
    offsets.forEach((v, x) => expect(outcome('eval', [SW + L, String(x)])).toBe(v));
    expect(outcome('eval_coord', [SW + L, '(1,(1,2))'])).toBe(offsets[outcome('eval_coord', ['(4,(2,4)):(1,(4,8))', '(1,(1,2))']) as number]);
  });
});

const formatInner = (l: ReturnType<typeof readLayoutFunction>): string => JSON.stringify(innerLayout(l));

describe("the page's field reading (readField) gives the op's outcome", () => {
  const TEXTS = [
    '(4,8):(1,4)',
    ' (4, 8) : (1, 4) ',
    '<4>',
    '_',
    '(4,8):(1',
    'Sw<3,4,3> o (8,64):(64,1)',
    'Sw<9,9,9> o 4:1',
    '2^60:1',
    '(2^40,2^40):(1,2^40)',
    '',
    'x',
  ];
  it('an error where the op refuses its first argument in parsing, none where it reads (any size, composed)', () => {
    for (const op of ['coalesce', 'size', 'complement', 'is_compact', 'flatten', 'cosize', 'rank']) {
      for (const t of TEXTS) {
        if (t.trim() === '') continue;
        const arg = opsByName.get(op)!.args[0]!;
        const r = readField(t, arg.name, { op, arg });
        const o = outcome(op, [t]);
        const parsing = o instanceof LayoutError && (o.kind === 'parse' || o.message.includes(`${opsByName.get(op)!.args[0]!.name}:`));
        if (r.error) expect(o, `${op} '${t}'`).toBeInstanceOf(LayoutError);
        if (r.error && o instanceof LayoutError) expect(r.error.kind, `${op} '${t}'`).toBe(o.kind);
        if (!r.error && parsing) throw new Error(`${op} '${t}': the field reads, the op refuses it in parsing: ${o.message}`);
      }
    }
  });
  it('a tiler field takes <…> and _ with no picture, a layout with one; an empty field is neither', () => {
    const of = { op: 'logical_divide', arg: opsByName.get('logical_divide')!.args[1]! };
    expect(readField('<2,2>', 'B', of)).toEqual({ layout: null, error: null });
    expect(readField('_', 'B', of)).toEqual({ layout: null, error: null });
    expect(readField('2:2', 'B', of).layout).not.toBeNull();
    expect(readField('<Sw<1,0,1> o 2:1>', 'B', of).error?.kind).toBe('domain');
    expect(readField('  ', 'L')).toEqual({ layout: null, error: null });
  });
});

describe("the rows' places on the page", () => {
  it('the checks are the GPU card’s four buttons; every other place is a group of the chooser', () => {
    expect(
      ops
        .filter((o) => o.page === 'check')
        .map((o) => o.name)
        .sort(),
    ).toEqual(['check_compact', 'check_complement', 'check_compose', 'tile_map']);
    for (const o of ops) if (o.page !== undefined && o.page !== 'check') expect(PAGE_GROUPS, o.name).toContain(o.page);
    // every algebra operation the chooser offered before the rows carried their groups is in a group
    for (const name of ['coalesce', 'complement', 'compose', 'logical_divide', 'is_compact', 'size', 'eval_coord', 'zipped_divide', 'downcast'])
      expect(opsByName.get(name)!.page, name).toBeDefined();
    // the facts' chips and the tiled pictures, as the page listed them before the rows carried them
    const facts = Object.fromEntries(ops.filter((o) => o.fact !== undefined).map((o) => [o.name, o.fact]));
    expect(facts).toEqual({
      size: 'size',
      cosize: 'cosize',
      rank: 'rank',
      depth: 'depth',
      is_compact: 'compact',
      is_nondegenerate: 'non-degenerate',
      is_tractable: 'tractable',
      is_complementable: 'complementable',
      is_coalesced: 'coalesced',
    });
    const tiled = (k: 'argument' | 'result'): string[] =>
      ops
        .filter((o) => o.tiling?.[k])
        .map((o) => o.name)
        .sort();
    expect(tiled('argument')).toEqual(['flat_divide', 'logical_divide', 'tiled_divide', 'zipped_divide']);
    expect(tiled('result')).toEqual(['logical_divide', 'logical_product', 'tiled_divide', 'tiled_product', 'zipped_divide', 'zipped_product']);
    expect(['coal', 'comp', '∘', '⊘', '⊗']).toEqual(
      ['coalesce', 'complement', 'compose', 'logical_divide', 'logical_product'].map((n) => opsByName.get(n)!.symbol),
    );
  });
});

describe('the one integer text (isIntegerText)', () => {
  /** the definition: one or more decimal digits, after one `-` where signed */
  const digits = (s: string): boolean => s.length > 0 && [...s].every((c) => c >= '0' && c <= '9');
  const want = (s: string, signed: boolean): boolean => digits(s) || (signed && s.startsWith('-') && digits(s.slice(1)));
  it('agrees with its definition on every string of up to 4 characters over 0 7 - + space tab a ٣ (Arabic-Indic 3)', () => {
    const alphabet = ['0', '7', '-', '+', ' ', '\t', 'a', '٣'];
    let strings = [''];
    let checked = 0;
    for (let n = 0; n <= 4; n++) {
      for (const s of strings) {
        for (const signed of [false, true]) expect(isIntegerText(s, signed), JSON.stringify([s, signed])).toBe(want(s, signed));
        checked++;
      }
      strings = strings.flatMap((s) => alphabet.map((c) => s + c));
    }
    expect(checked).toBe(1 + 8 + 64 + 512 + 4096);
  });
  it("an 'int' argument on the command line: white space around it, a sign, and the messages as before", () => {
    expect(outcome('mode', ['(4,8):(1,4)', ' 2 '])).toBe('8:4');
    expect((outcome('mode', ['(4,8):(1,4)', '2.0']) as LayoutError).message).toBe("mode argument i must be an integer, got '2.0'");
    expect((outcome('mode', ['(4,8):(1,4)', '-1']) as LayoutError).kind).toBe('domain');
    expect((outcome('mode', ['(4,8):(1,4)', '- 1']) as LayoutError).kind).toBe('bad-request');
  });
});

describe("the page's formula and examples under the rows' symbols", () => {
  const f = (op: string, layout2: string, arg: string): string => {
    const spec = opsByName.get(op)!;
    return formula(op, spec, { layout2, arg }, extraArgs(spec));
  };
  it('infix for ∘ ⊘ ⊗, before the arguments for coal and comp, the op name otherwise', () => {
    expect([f('compose', '', ''), f('logical_divide', '', ''), f('logical_product', '', '')]).toEqual(['B ∘ A =', 'A ⊘ B =', 'A ⊗ B =']);
    expect([f('complement', '', ''), f('complement', '', '768'), f('coalesce', '', ''), f('coalesce', '', '(2,4)')]).toEqual([
      'comp(A) =',
      'comp(A, N) =',
      'coal(L) =',
      'coal(L, S̄) =',
    ]);
    expect(f('zipped_divide', '', '')).toBe('zipped_divide(A, T) =');
    expect(exampleText({ ref: '', title: '', op: 'logical_divide', layout: '(4,8):(1,4)', layout2: '(2,2):(1,4)' })).toBe('(4,8):(1,4) ⊘ (2,2):(1,4)');
    expect(exampleText({ ref: '', title: '', op: 'complement', layout: '4:1', arg: '768' })).toBe('comp(4:1, 768)');
    expect(exampleText({ ref: '', title: '', op: 'flatten', layout: '4:1' })).toBe('flatten 4:1');
  });
});
