/**
 * Descriptor operands printed and drawn as what they are (docs/atoms.md, "Descriptor operands"; src/atoms/descriptor-
 * operand.ts, src/render/tv.ts): an SM90 GMMA or SM100 UMMA operand in shared memory is one line of text and one
 * block per part of its tile in `mma`, `mma --thread`, `--ascii/--svg/--tikz` and `show <atom>`, while the layouts
 * (`--json`, batch) stay exact; the parts against the TV layout by brute force.
 */
import { describe, expect, it } from 'vitest';
import { parseL, phiB, sizeB } from '../helpers/brute.js';
import { main } from '../../src/cli/main.js';
import { makeTiledMma } from '../../src/atoms/tiled-mma.js';
import { descriptorParts } from '../../src/atoms/descriptor-operand.js';
import { formatLayout, parseLayout } from '../../src/algebra/notation.js';

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { stdout: (s) => void (out += s), stderr: (s) => void (err += s), isTTY: false }, (async function* () {})());
  return { code, out, err };
}
const count = (text: string, re: RegExp): number => [...text.matchAll(re)].length;

const SS = 'SM90_64x128x16_F32F16F16_SS';

describe('descriptor operands', () => {
  it('mma prints the exact layouts and one line per descriptor operand; --json is the protocol object as before', async () => {
    const r = await run(['mma', SS]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^layoutA_TV\s+\(128,1024\):\(0,1\)$/m);
    expect(r.out.trimEnd().split('\n').slice(-2)).toEqual([
      'A: descriptor operand (smem), the whole 64×16 tile, every thread',
      'B: descriptor operand (smem), the whole 128×16 tile, every thread',
    ]);
    const j = JSON.parse((await run(['mma', SS, '--json'])).out) as Record<string, unknown>;
    expect(j.layoutA_TV).toBe('(128,1024):(0,1)');
    expect(j.layoutB_TV).toBe('(128,2048):(0,1)');
    const rs = await run(['mma', 'SM90_64x128x16_F32F16F16_RS']);
    expect(rs.out).not.toMatch(/^A: descriptor/m);
    expect(rs.out).toMatch(/^B: descriptor operand \(smem\), the whole 128×16 tile, every thread$/m);
  });

  it('mma --thread says what the thread reads of each descriptor operand instead of 3,072 values', async () => {
    const r = await run(['mma', SS, '--thread', '5']);
    const lines = r.out.trimEnd().split('\n');
    expect(lines[1]).toBe('A (m,k)  descriptor operand (smem): thread 5 reads the whole 64×16 tile');
    expect(lines[2]).toBe('B (n,k)  descriptor operand (smem): thread 5 reads the whole 128×16 tile');
    expect(r.out.length).toBeLessThan(2000);
    const t = await run(['mma', 'SM90_64x16x16_F32F16F16_SS', '--layout', '(2,2,1)', '--thread', '130']);
    expect(t.out).toMatch(/^A \(m,k\) {2}descriptor operand \(smem\): thread 130 reads m 64–127 × k 0–15 of the 128×16 tile, whole$/m);
  });

  it('--ascii, --svg and --tikz draw each descriptor operand as one block of its tile (C stays cell by cell)', async () => {
    const a = await run(['mma', SS, '--ascii']);
    const blocks = a.out.split('\n\n');
    expect(blocks[1]).toBe('A (M×K = 64×16)\nA: descriptor operand (smem), the whole 64×16 tile, every thread');
    expect(blocks[2]).toBe('B (shown K×N = 16×128)\nB: descriptor operand (smem), the whole 128×16 tile, every thread');
    expect(count(a.out, /T0V/g)).toBe(64); // thread 0's 64 values of C (64×128 over 128 threads); none of A or B
    const svg = (await run(['mma', SS, '--svg', '-'])).out;
    expect(count(svg, /class="tv-part"/g)).toBe(2);
    expect(count(svg, /<use href="#t\d+"/g)).toBe(64 * 128); // C's cells, compact (render/svg.ts svgUseGrid)
    expect(svg).toMatch(/<g class="tv-part" data-threads="0-127" data-rows="0-63" data-cols="0-15"/);
    expect(svg).toMatch(/<g class="tv-part" data-threads="0-127" data-rows="0-15" data-cols="0-127"/);
    const shown = (await run(['show', SS, '--svg', '-'])).out;
    expect(shown).toBe(svg);
    const tikz = (await run(['mma', SS, '--tikz', '-'])).out;
    expect(count(tikz, / rectangle /g)).toBe(2);
    expect(count(tikz, /^\\node\[fill=thr\d[^\]]*,draw\]/gm)).toBe(64 * 128);
    expect(tikz).toContain('{descriptor operand (smem)\\\\threads 0--127}');
  });

  it('SM100 UMMA: SS operands of one CTA are one block; a CTA pair splits each by rows; a TS A (TMEM) is drawn by cells', async () => {
    const one = await run(['mma', 'SM100_MMA_F16BF16_SS<64,8>', '--ascii']);
    expect(one.out).toContain('A (M×K = 64×16)\nA: descriptor operand (smem), the whole 64×16 tile, every thread');
    expect(one.out).toContain('B (shown K×N = 16×8)\nB: descriptor operand (smem), the whole 8×16 tile, every thread');
    const pair = await run(['mma', 'SM100_MMA_F16BF16_2x1SM_SS<128,16>']);
    expect(pair.out).toMatch(
      /^A: descriptor operand \(smem\), the 128×16 tile in 2 parts, each read whole: m 0–63 × k 0–15 by thread 0; m 64–127 × k 0–15 by thread 1$/m,
    );
    const svg = (await run(['mma', 'SM100_MMA_F16BF16_2x1SM_SS<128,16>', '--svg', '-'])).out;
    expect(count(svg, /class="tv-part"/g)).toBe(4);
    expect(count(svg, /<use href="#t\d+"/g)).toBe(128 * 16);
    const ts = (await run(['mma', 'SM100_MMA_F16BF16_TS<64,8>', '--svg', '-'])).out;
    expect(count(ts, /class="tv-part"/g)).toBe(1);
    expect(count(ts, /<use href="#t\d+"/g)).toBe(64 * 16 + 64 * 8);
  });

  it("the parts are the TV layout's: each a rectangle that every one of its threads reads whole, once per cell", () => {
    for (const [atom, layout] of [
      [SS, '1'],
      ['SM90_64x16x16_F32F16F16_SS', '(2,2,1)'],
      ['SM90_64x32x8_F32TF32TF32_SS_TN', '(1,2,1)'],
      ['SM100_MMA_TF32_2x1SM_SS<256,32>', '1'],
    ] as const) {
      const m = makeTiledMma(atom, parseLayout(layout));
      for (const x of ['A', 'B'] as const) {
        const parts = descriptorParts(m, x)!;
        const tv = parseL(formatLayout(x === 'A' ? m.layoutA_TV : m.layoutB_TV));
        const [tI, tK] = [m.tileShape[x === 'A' ? 0 : 1], m.tileShape[2]];
        const T = m.T;
        // brute force: reads[t·n + c] = how many values of thread t are cell c
        const n = tI * tK;
        const reads = new Uint8Array(T * n);
        for (let p = 0; p < sizeB(tv); p++) reads[(p % T) * n + phiB(tv, p)]!++;
        const partOf = new Int32Array(n).fill(-1);
        parts.forEach((q, k) => {
          for (let i = q.i[0]; i <= q.i[1]; i++) for (let j = q.j[0]; j <= q.j[1]; j++) partOf[i + tI * j] = partOf[i + tI * j] === -1 ? k : -2;
        });
        expect(
          partOf.every((k) => k >= 0),
          `${atom} ${x}: the parts tile the ${tI}×${tK} tile`,
        ).toBe(true);
        const threadsOf = parts.map((q) => new Set(q.threads));
        let wrong = 0;
        for (let t = 0; t < T; t++) {
          for (let c = 0; c < n; c++) {
            const inPart = threadsOf[partOf[c]!]!.has(t);
            if (reads[t * n + c] !== (inPart ? 1 : 0)) wrong++; // its threads read it once, no other thread at all
          }
        }
        expect(wrong, `${atom} ${x}`).toBe(0);
      }
    }
  });

  it('an operand held by threads has no parts', () => {
    const m = makeTiledMma('SM80_16x8x16_F32F16F16F32_TN');
    expect(descriptorParts(m, 'A')).toBeNull();
    expect(descriptorParts(makeTiledMma('SM90_64x8x16_F16F16F16_RS'), 'A')).toBeNull();
    expect(descriptorParts(makeTiledMma(SS), 'C')).toBeNull();
  });
});
