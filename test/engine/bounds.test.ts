/**
 * Bounded bulk checks (docs/protocol.md "Bulk checks"): beyond 2^40 indices check_compact,
 * check_complement and check_compose answer `overflow` at once; enumerations that cannot
 * finish in time answer `timeout` (RunOptions.timeoutMs, or the batch request's deadline set by
 * withDeadline) with what completed, on both backends. Outcomes are asserted, not wall times.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDeadline } from '../../src/algebra/deadline.js';
import type { LayoutError } from '../../src/algebra/errors.js';
import { concat, makeLayout } from '../../src/algebra/layout.js';
import { parseLayout } from '../../src/algebra/notation.js';
import type { Backend } from '../../src/engine/backend.js';
import { CpuBackend } from '../../src/engine/cpu.js';
import type { NodeDevice } from '../../src/engine/node/device-node.js';
import { GpuBackend } from '../../src/engine/gpu.js';
import { testDevice } from './gpu-device.js';
import { kindOfAsync as kindOf } from '../helpers/kind.js';

let dev: NodeDevice;
const backends: [string, () => Backend][] = [];
const cpu = new CpuBackend();
let gpu: GpuBackend;

beforeAll(async () => {
  dev = await testDevice();
  gpu = new GpuBackend(dev.device, { adapter: 'test', software: true });
});
afterAll(() => dev?.release());
backends.push(['cpu', () => cpu], ['gpu', () => gpu]);

describe.each(backends)('bounds on the %s backend', (_name, b) => {
  it('beyond 2^40 indices: overflow at once', async () => {
    const huge = parseLayout('9007199254740991:1');
    const big = parseLayout('(2097152,1048576):(1,2097152)'); // 2^41
    expect(await kindOf(b().checkCompact(huge))).toBe('overflow');
    expect(await kindOf(b().checkCompact(big))).toBe('overflow');
    expect(await kindOf(b().checkCompact(concat(parseLayout('(1048576):(1)'), parseLayout('(2097152):(1048576)'))))).toBe('overflow');
    expect(await kindOf(b().checkCompose(huge, big, big))).toBe('overflow');
  });

  it('digest_range of 9007199254740991:1 answers by the closed form', async () => {
    const d = await b().digestRange(parseLayout('9007199254740991:1'), 0, 9007199254740991);
    expect(d.sum).toBe((9007199254740991n * 9007199254740990n) / 2n);
    expect([d.min, d.max]).toEqual([0, 9007199254740990]);
  });

  it('2^32 indices: timeout with what completed, from RunOptions and from the request deadline', async () => {
    const l = makeLayout([65536, 65536], [65536, 1]);
    const e = await b()
      .checkCompact(l, { timeoutMs: 50 })
      .then(
        () => null,
        (x: unknown) => x,
      );
    expect((e as LayoutError).kind).toBe('timeout');
    expect((e as LayoutError).message).toMatch(/completed \d+ of \d+/);
    // the batch deadline is read when the call starts and holds across its awaits
    expect(await kindOf(withDeadline(50, () => b().checkCompact(l)))).toBe('timeout');
    // runs of 2 along mode 0: the CPU's closed form per run does not shortcut it
    const short = makeLayout([2, 2 ** 31], [2 ** 31, 1]);
    expect(await kindOf(withDeadline(50, () => b().digestRange(short, 0, 2 ** 32)))).toBe('timeout');
    expect(await kindOf(withDeadline(50, () => b().checkCompose(makeLayout(2 ** 32, 1), l, l)))).toBe('timeout');
  });
});
