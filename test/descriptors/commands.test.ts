/**
 * `layoutgpu tma` and `layoutgpu gmma-desc` (src/cli/descriptors.ts), run in-process through main: the readable table,
 * --json the op's result, --help, and failures through the one error policy (one line on stderr, exit 2).
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { stdout: (s) => void (out += s), stderr: (s) => void (err += s), isTTY: false }, (async function* () {})());
  return { code, out, err };
}

const G = '(4096,4096):(4096,1)';
const S = 'Sw<3,3,3> o ((8,16),(64,1)):((64,512),(1,0))';

describe('layoutgpu tma', () => {
  it('prints the tensor map as a table, and the protocol object with --json', async () => {
    const t = await run(['tma', '--gmem', G, '--smem', S, '--dtype', 'bfloat16_t']);
    expect(t.code).toBe(0);
    expect(t.out).toContain('boxDim          [64, 128]');
    expect(t.out).toContain('swizzle         128B');
    expect(t.out).toContain('smemAlignment   1024 bytes');
    const j = await run(['tma', `--gmem=${G}`, '--smem', S, '--dtype', 'bfloat16_t', '--tiler', '(128,64)', '--json']);
    expect(j.code).toBe(0);
    expect(JSON.parse(j.out)).toMatchObject({ dataType: 'BFLOAT16', rank: 2, boxDim: [64, 128], boxes: 1 });
  });
  it('a failed rule: exit 2, one line naming it', async () => {
    const r = await run(['tma', '--gmem', '(1024,1024):(1024,1)', '--smem', 'Sw<3,3,3> o (8,128):(128,1)', '--dtype', 'half_t']);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toContain('domain: tma_desc: inner box 256 bytes exceeds the 128B swizzle span');
  });
  it('usage: a missing option, an unknown one, a positional argument; --help', async () => {
    expect((await run(['tma', '--gmem', G, '--dtype', 'half_t'])).err).toContain('tma needs --smem');
    expect((await run(['tma', '--gmem', G, '--smem', S, '--dtype', 'half_t', '--swizzle', '128B'])).code).toBe(2);
    expect((await run(['tma', G])).code).toBe(2);
    const h = await run(['tma', '--help']);
    expect(h.code).toBe(0);
    expect(h.out).toContain('layoutgpu tma --gmem G --smem S --dtype D [--tiler T] [--json] [--timeout DURATION]');
  });
  it('parse and bad dtype errors', async () => {
    expect((await run(['tma', '--gmem', '(4096,', '--smem', S, '--dtype', 'half_t'])).err).toMatch(/^layoutgpu: parse: /);
    expect((await run(['tma', '--gmem', G, '--smem', S, '--dtype', 'half'])).err).toContain("did you mean 'half_t'");
  });
});

describe('layoutgpu gmma-desc', () => {
  it('prints the descriptor as a table, and the object with --json; sm100', async () => {
    const t = await run(['gmma-desc', 'Sw<3,3,3> o ((8,8),16):((64,512),1)', '--dtype', 'bfloat16_t', '--major', 'K']);
    expect(t.code).toBe(0);
    expect(t.out).toContain('layoutType      B128');
    expect(t.out).toContain('sbo             64 (1024 bytes)');
    expect(t.out).toContain('desc            0x4000004000010000');
    const j = await run(['gmma-desc', 'Sw<3,3,3> o ((8,16),16):((64,512),1)', '--dtype', 'bfloat16_t', '--major', 'K', '--arch', 'sm100', '--json']);
    expect(JSON.parse(j.out)).toEqual({ layoutType: 'SWIZZLE_128B', lbo: 1, sbo: 64, baseOffset: 0, smemAlignment: 1024, desc: '0x4000404000010000' });
    const o = await run(['gmma-desc', '{"smem":"((8,8),(8,2)):((1,64),(8,512))","dtype":"half_t","major":"MN"}', '--json']);
    expect(JSON.parse(o.out).layoutType).toBe('INTERLEAVE');
  });
  it('failures: a canonical-form check (exit 2, the suggestion), a bad --major, usage', async () => {
    const r = await run(['gmma-desc', '(64,16):(16,1)', '--dtype', 'half_t', '--major', 'K']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('expected stride failure');
    expect(r.err).toContain('Layout_K_SW32_Atom<half_t>');
    expect((await run(['gmma-desc', '(64,16):(16,1)', '--dtype', 'half_t', '--major', 'X'])).err).toContain('bad-request');
    expect((await run(['gmma-desc', '--dtype', 'half_t', '--major', 'K'])).code).toBe(2);
    expect((await run(['gmma-desc', '--help'])).out).toContain('--arch A     sm90 (default) or sm100');
  });
  it('the table ops as subcommands too: tma-desc with its JSON object', async () => {
    const r = await run(['tma-desc', JSON.stringify({ gmem: G, smem: S, dtype: 'bfloat16_t' }), '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).boxDim).toEqual([64, 128]);
    expect((await run(['tma-desc', '{oops'])).err).toContain('bad-request');
  });
});
