/**
 * The ops whose rooms load on first use (src/ops/lazy.ts): before the load, runOpDirect and `batch` answer with a
 * Promise of the same answer as after it, the request's integer texts carried across the load; the table's files
 * import the atoms' and linear layouts' rooms only lazily (start-up of every `batch` and CLI call).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerLine } from '../../src/cli/batch.js';
import { makeContext } from '../../src/cli/context.js';
import { integerTexts, withIntTexts } from '../../src/algebra/int-text.js';
import { LayoutError } from '../../src/algebra/errors.js';
import { loadOp, opsByName, runOpDirect } from '../../src/ops/table.js';
import { lazyModule } from '../../src/ops/lazy.js';

const ctx = makeContext('cpu');
const MMA = 'SM80_16x8x16_F32F16F16F32_TN';

describe('ops loaded on first use', () => {
  // one test, in order: this file's module state starts with nothing loaded
  it('answer through a Promise until loaded, then synchronously, the same answer', async () => {
    expect(opsByName.get('mma_atom')!.load).toBeTypeOf('function');
    expect(opsByName.get('compose')!.load).toBeUndefined();
    expect(loadOp('compose')).toBeUndefined();

    // a batch line of an unloaded op: a Promise of its response line
    const line = `{"id":7,"op":"mma_atom","args":["${MMA}"]}`;
    const first = answerLine(line, ctx);
    expect(first).toBeInstanceOf(Promise);
    const firstText = await first;
    expect(JSON.parse(firstText)).toMatchObject({ id: 7, ok: true, result: { thrID: '32:1', shapeMNK: '(16,8,16)' } });
    const again = answerLine(line, ctx);
    expect(again).toBe(firstText);

    // the library path: runOpDirect before the linear layouts' room is loaded, under the request's integer texts
    const huge = '9007199254740993';
    const ll = { bases: [['register', [[1]]]], outDims: [['dim0', 2]] };
    const pending = withIntTexts(integerTexts(`[${huge}]`), () => runOpDirect('ll_apply', [ll, { register: Number(huge) }], ctx));
    expect(pending).toBeInstanceOf(Promise);
    const e = await (pending as Promise<unknown>).then(
      () => null,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(LayoutError);
    expect((e as LayoutError).message).toContain(huge);
    expect(loadOp('ll_apply')).toBeUndefined();
    expect(runOpDirect('ll_is_injective', [ll], ctx)).toBe(true);
  });

  it('a lazy module: get before load is an error; load settles once', async () => {
    let imports = 0;
    const m = lazyModule(async () => {
      imports++;
      return { x: 1 };
    });
    expect(() => m.get()).toThrow(/before its module was loaded/);
    const p1 = m.load();
    const p2 = m.load();
    expect(p1).toBe(p2);
    await p1;
    expect(m.load()).toBeUndefined();
    expect(m.get().x).toBe(1);
    expect(imports).toBe(1);
  });

  it("the table's files import the atoms', the linear layouts', the descriptors' and the planner's rooms only with import() or as types", () => {
    const dir = join(__dirname, '../../src/ops');
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
      const text = readFileSync(join(dir, f), 'utf8');
      const statics = [...text.matchAll(/^import\s+(?!type\b)[^;]*?from\s+'\.\.\/(atoms|linear|descriptors|planner)\/[^']*'/gms)].map((m) => m[0]);
      expect(statics, f).toEqual([]);
      // of verify/, only the shards' arithmetic (its sources, laws and reports are the verify command's)
      const verify = [...text.matchAll(/^import\s+(?!type\b)[^;]*?from\s+'\.\.\/verify\/([^']*)'/gms)].map((m) => m[1]);
      expect(
        verify.filter((v) => v !== 'shard-range.js'),
        f,
      ).toEqual([]);
    }
  });
});
