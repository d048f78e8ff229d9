/**
 * GPU (the interpreter on the real adapter, lavapipe here) and CPU verdicts are identical for
 * 10,000 random candidates, for every search property; and a law run agrees on both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDeadline } from '../../src/algebra/deadline.js';
import type { LayoutError } from '../../src/algebra/errors.js';
import type { Layout } from '../../src/algebra/layout.js';
import { parseLayout } from '../../src/algebra/notation.js';
import type { NodeDevice } from '../../src/engine/node/device-node.js';
import { adapterLine } from '../../src/engine/select.js';
import { CpuVerifyEngine } from '../../src/verify/cpu.js';
import { GpuVerifyEngine } from '../../src/verify/gpu.js';
import { batchOf } from '../../src/verify/packed.js';
import { checkChunk, runVerify, type Property } from '../../src/verify/run.js';
import { chunkItem, type Chunk } from '../../src/verify/sources.js';
import { randomSource } from '../../src/verify/source-random.js';
import { verifyTestDevice } from './device.js';

let dev: NodeDevice;
let gpu: GpuVerifyEngine;
let small: GpuVerifyEngine;
const cpu = new CpuVerifyEngine();

beforeAll(async () => {
  dev = await verifyTestDevice();
  const adapter = adapterLine(dev.adapter);
  gpu = new GpuVerifyEngine(dev.device, { adapter });
  // forced small batches (many dispatches), bitmap budget exceeded (CPU fallbacks), ranges of 3
  small = new GpuVerifyEngine(dev.device, { adapter, indexBudget: 5000, bitmapBytes: 256, range: 3 });
  process.stderr.write(`verify GPU tests on ${adapter}\n`);
});

afterAll(() => {
  gpu?.dispose();
  small?.dispose();
  dev?.release();
});

function chunkOf(count: number, seed: number, extra: object = {}): Chunk {
  const src = randomSource({ count, seed, maxDepth: 2, maxRank: 4, maxShape: 8, maxStride: 40, maxSize: 1024, ...extra });
  const items: Layout[][] = [];
  for (const c of src.chunks(count)) for (let i = 0; i < c.count; i++) items.push(chunkItem(c, i));
  return { first: 0, count: items.length, items };
}

describe('GPU and CPU verdicts are identical', () => {
  const props: [string, Property][] = [
    ['compact', { kind: 'compact' }],
    ['injective', { kind: 'injective' }],
    ['complement-of (4,2):(2,16)', { kind: 'complement-of', a: parseLayout('(4,2):(2,16)') }],
    ['compose-equals', { kind: 'compose-equals', c: parseLayout('(4,4):(1,4)'), outer: parseLayout('(16,8,8):(1,16,128)') }],
  ];
  for (const [name, p] of props) {
    it(`${name}: 10,000 random candidates`, async () => {
      const chunk = chunkOf(
        10_000,
        name.length * 7919,
        p.kind === 'compose-equals' ? { maxSize: 16, maxStride: 8 } : p.kind === 'complement-of' ? { maxSize: 128 } : {},
      );
      const g = await checkChunk(p, chunk, gpu);
      const c = await checkChunk(p, chunk, cpu);
      const s = await checkChunk(p, chunk, small);
      expect(g.ok.length).toBe(10_000);
      let differ = 0;
      for (let i = 0; i < chunk.count; i++) if (g.ok[i] !== c.ok[i] || s.ok[i] !== c.ok[i]) differ++;
      expect(differ).toBe(0);
      // the property is neither always true nor always false on this sample
      const yes = c.ok.reduce((a, b) => a + b, 0);
      expect(yes).toBeGreaterThan(0);
      expect(yes).toBeLessThan(chunk.count);
    });
  }

  it('law:coalesce and law:compose give the same summary on both backends', async () => {
    for (const law of ['coalesce', 'compose'] as const) {
      const source = () => randomSource({ count: 1500, seed: 5, arity: law === 'compose' ? 2 : 1, composable: law === 'compose', maxSize: 256, maxStride: 16 });
      const a = await runVerify({ property: { kind: 'law', law }, source: source(), engine: gpu });
      const b = await runVerify({ property: { kind: 'law', law }, source: source(), engine: cpu });
      expect({ ...a, seconds: 0, backend: '', adapter: '', fallbacks: 0 }).toEqual({ ...b, seconds: 0, backend: '', adapter: '', fallbacks: 0 });
      expect(a.failed).toBe(0);
    }
  });

  it('follows the request deadline between its dispatches (batch --request-timeout), and answers after it', async () => {
    // small candidates: no CPU fallback, many dispatches of the small engine's 5,000 indices
    const c = chunkOf(20_000, 41, { maxSize: 256 });
    const batch = batchOf(c.items!.map((x) => x[0]!));
    const fallbacks = small.fallbacks;
    const t0 = performance.now();
    const err = await withDeadline(5, () => small.bitmapCheck('compact', batch)).catch((e: unknown) => e);
    expect((err as LayoutError).kind).toBe('timeout');
    expect((err as LayoutError).message).toMatch(/verify on the GPU ran past its deadline of 5 ms/);
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(small.fallbacks).toBe(fallbacks);
    // the engine is whole afterwards
    expect(Array.from(await small.bitmapCheck('compact', batch))).toEqual(Array.from(cpu.bitmapCheckSync('compact', batch)));
  }, 120_000);
});
