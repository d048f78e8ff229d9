/**
 * Composed layouts Sw<B,M,S> o K o L in the evaluator's commands (wgsl, check, eval, digest,
 * tiles) and in `verify compact|injective` of batch: answers against Φ(x) = Sw(K + Φ_L(x))
 * computed here from the definition (docs/semantics.md §9.1), bit by bit.
 */
import { describe, expect, it } from 'vitest';
import { runCheck, runDigest, runEval, runTiles, runWgsl, briefAdapter } from '../../src/cli/evaluator.js';
import { runOp } from '../../src/ops/table.js';
import { makeContext } from '../../src/cli/context.js';
import { mulberry32, phiB, randInt, sizeB, type BL } from '../helpers/brute.js';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (s: string) => void out.push(s), stderr: (s: string) => void err.push(s), isTTY: false } };
}

/** Sw<B,M,S>(y), bit by bit: for each i of the target field, bit i ^= bit i + S */
function swizzleB(b: number, m: number, s: number, y: number): number {
  const bits = y.toString(2).split('').reverse().map(Number);
  const at = (i: number): number => bits[i] ?? 0;
  const out = [...bits];
  const lo = m + Math.max(0, -s);
  for (let i = lo; i < lo + b; i++) out[i] = at(i) ^ at(i + s);
  return out.reduce((acc, v, i) => acc + v * 2 ** i, 0);
}

interface Case {
  text: string;
  sw: [number, number, number];
  k: number;
  l: BL;
}

function randomCase(rng: () => number): Case {
  const shape = [randInt(rng, 1, 8), randInt(rng, 1, 16)];
  const stride = [randInt(rng, 0, 40), randInt(rng, 0, 5)];
  const b = randInt(rng, 0, 3);
  const m = randInt(rng, 0, 3);
  const s = randInt(rng, b, 4) * (rng() < 0.2 ? -1 : 1);
  const k = rng() < 0.5 ? 0 : randInt(rng, 1, 20);
  const text = `Sw<${b},${m},${s}> o ${k > 0 ? `${k} o ` : ''}(${shape.join(',')}):(${stride.join(',')})`;
  return { text, sw: [b, m, s], k, l: { shape, stride } };
}

const phiCase = (c: Case, x: number): number => swizzleB(c.sw[0], c.sw[1], c.sw[2], c.k + phiB(c.l, x));

describe('composed layouts in the evaluator commands', () => {
  it('eval, digest and check compact answer Φ = Sw(K + Φ_L) on random composed layouts', async () => {
    const rng = mulberry32(0x5e18);
    for (let run = 0; run < 25; run++) {
      const c = randomCase(rng);
      const n = sizeB(c.l);
      const want = Array.from({ length: n }, (_, x) => phiCase(c, x));
      const ev = io();
      expect(await runEval([c.text, '--backend', 'cpu', '--json'], ev.io), `${c.text}: ${ev.err.join('')}`).toBe(0);
      expect(JSON.parse(ev.out.join('')).values, c.text).toEqual(want);
      const dg = io();
      expect(await runDigest([c.text, '--backend', 'cpu', '--json'], dg.io)).toBe(0);
      const d = JSON.parse(dg.out.join(''));
      expect([d.count, d.sum, d.min, d.max], c.text).toEqual([n, String(want.reduce((a, v) => a + v, 0)), Math.min(...want), Math.max(...want)]);
      const ck = io();
      expect(await runCheck(['compact', c.text, '--backend', 'cpu', '--json'], ck.io)).toBe(0);
      const compact = new Set(want).size === n && want.every((v) => v < n);
      expect(JSON.parse(ck.out.join('')).compact, c.text).toBe(compact);
    }
  });

  it('the GPU backend answers the same (eval, check compact) on composed layouts', async () => {
    const rng = mulberry32(0x69b);
    for (let run = 0; run < 3; run++) {
      const c = randomCase(rng);
      const n = sizeB(c.l);
      const ev = io();
      expect(await runEval([c.text, '--backend', 'gpu', '--json'], ev.io), ev.err.join('')).toBe(0);
      const r = JSON.parse(ev.out.join(''));
      expect(r.backend).toBe('gpu');
      expect(r.values, c.text).toEqual(Array.from({ length: n }, (_, x) => phiCase(c, x)));
      const ck = io();
      expect(await runCheck(['compact', c.text, '--backend', 'gpu', '--json'], ck.io)).toBe(0);
      const cpu = io();
      expect(await runCheck(['compact', c.text, '--backend', 'cpu', '--json'], cpu.io)).toBe(0);
      const strip = (t: string[]) => ({ ...JSON.parse(t.join('')), backend: '', adapter: '', seconds: 0 });
      expect(strip(ck.out), c.text).toEqual(strip(cpu.out));
    }
  }, 60_000);

  it('check compose certifies Sw o K o (L∘A) = (Sw o K o L)∘A, and tiles divide the inner layout', async () => {
    const t = io();
    expect(await runCheck(['compose', 'Sw<3,3,3> o (8,64):(64,1)', '(4,2):(8,1)', '--backend', 'cpu', '--json'], t.io)).toBe(0);
    const r = JSON.parse(t.out.join(''));
    expect(r.equal).toBe(true);
    // the composite by the algebra: index 8j + i of (8,64) is coordinate (i, j): offset 64i + j
    expect(r.composite).toBe('Sw<3,3,3> o (4,2):(1,64)');
    const bad = io();
    expect(await runCheck(['compose', 'Sw<3,3,3> o (8,64):(64,1)', '(4,2):(8,1)', 'Sw<3,3,3> o (4,2):(1,65)', '--backend', 'cpu', '--json'], bad.io)).toBe(0);
    expect(JSON.parse(bad.out.join('')).equal).toBe(false);
    const tl = io();
    const c: Case = { text: 'Sw<3,3,3> o (8,64):(64,1)', sw: [3, 3, 3], k: 0, l: { shape: [8, 64], stride: [64, 1] } };
    expect(await runTiles([c.text, '(2,2):(1,8)', '--backend', 'cpu', '--json'], tl.io)).toBe(0);
    const tiles = JSON.parse(tl.out.join(''));
    expect(tiles.covers).toBe(true);
    // tile k, entry i: Φ of A at the index (B, comp(B)) maps i + 4k to; B = (2,2):(1,8) in A's indices
    const idx = (i: number, k: number): number => (i % 2) + 8 * Math.floor(i / 2) + 2 * (k % 4) + 16 * Math.floor(k / 4);
    expect(tiles.offsets[5]).toEqual([0, 1, 2, 3].map((i) => phiCase(c, idx(i, 5))));
  });

  it('wgsl shows the XOR after Φ_L; check complement and a composed tiler are domain', async () => {
    const t = io();
    expect(await runWgsl(['Sw<3,3,3> o (8,64):(64,1)'], t.io)).toBe(0);
    expect(t.out.join('')).toContain('Sw<3,3,3> o 0 o (8,64):(64,1)');
    for (const k of ['compose', 'tiles', 'compact', 'digest']) {
      const w = io();
      const args = k === 'tiles' ? ['Sw<3,3,3> o (8,64):(64,1)', '(2,2):(1,8)'] : ['Sw<3,3,3> o (8,64):(64,1)'];
      expect(await runWgsl([...args, '--kernel', k], w.io), `${k}: ${w.err.join('')}`).toBe(0);
    }
    const cc = io();
    expect(await runCheck(['complement', 'Sw<3,3,3> o (8,64):(64,1)', '4:1', '--backend', 'cpu'], cc.io)).toBe(2);
    expect(cc.err.join('')).toMatch(/domain: .*plain layout/);
    const tb = io();
    expect(await runTiles(['(8,64):(64,1)', 'Sw<1,0,1> o 4:1', '--backend', 'cpu'], tb.io)).toBe(2);
    expect(tb.err.join('')).toMatch(/domain: .*plain layout/);
  });

  it('names the adapter briefly on the human line', () => {
    const gpu = (adapter: string) => briefAdapter({ backend: 'gpu', adapter });
    expect(gpu('mesa / software / llvmpipe: Mesa 25.0.7-2~bpo12+1 (LLVM 15.0.6) 0.0.1 (software)')).toBe('llvmpipe, software');
    expect(gpu('nvidia / hopper / NVIDIA H200')).toBe('NVIDIA H200');
    expect(briefAdapter({ backend: 'cpu', adapter: 'cpu (generated JavaScript), 2 threads' })).toBe('2 threads');
    expect(briefAdapter({ backend: 'cpu', adapter: 'generated JavaScript; auto passed over the software adapter llvmpipe' })).toBe('JavaScript');
  });
});

describe('verify compact|injective of composed candidates (batch)', () => {
  it('answers from Φ = Sw(K + Φ_L), and refuses them for the other properties', async () => {
    const ctx = makeContext('cpu', 1);
    try {
      const rng = mulberry32(0x7e51f);
      const cases = Array.from({ length: 30 }, () => randomCase(rng));
      const values = cases.map((c) => Array.from({ length: sizeB(c.l) }, (_, x) => phiCase(c, x)));
      const injective = values.map((v) => new Set(v).size === v.length);
      const compact = values.map((v, i) => injective[i] && v.every((y) => y < v.length));
      expect(await runOp('verify', ['injective', cases.map((c) => c.text)], ctx)).toEqual(injective);
      expect(await runOp('verify', ['compact', [...cases.map((c) => c.text), '(8,64):(64,1)']], ctx)).toEqual([...compact, true]);
      await expect(runOp('verify', [['complement-of', '4:1'], ['Sw<1,0,1> o 8:4']], ctx)).rejects.toMatchObject({ kind: 'domain' });
    } finally {
      await ctx.dispose();
    }
  });
});

describe('verify compact|injective of composed candidates from a file (the CLI source)', () => {
  it('reads Sw o K o L lines, answers from Φ, prints the matches as written, and rebuilds in a worker', async () => {
    const { textSource } = await import('../../src/verify/source-text.js');
    const { sourceFromSpec } = await import('../../src/verify/source-spec.js');
    const { makeProperty, runVerify } = await import('../../src/verify/run.js');
    const { CpuVerifyEngine } = await import('../../src/verify/cpu.js');
    const rng = mulberry32(0xf11e);
    const cases = Array.from({ length: 40 }, () => randomCase(rng));
    const text = cases.map((c, i) => (i % 2 ? JSON.stringify(c.text) : c.text)).join('\n') + '\n"(8,64):(64,1)"\n';
    const values = cases.map((c) => Array.from({ length: sizeB(c.l) }, (_, x) => phiCase(c, x)));
    for (const kind of ['compact', 'injective'] as const) {
      const want = values.map((v) => new Set(v).size === v.length && (kind === 'injective' || v.every((y) => y < v.length)));
      const canon = (c: Case): string => c.text.replace(/ o 0 o /, ' o ');
      const expected = [...cases.filter((_, i) => want[i]).map(canon), '(8,64):(64,1)'];
      for (const source of [textSource(text, 'cands.jsonl'), sourceFromSpec(textSource(text, 'cands.jsonl').spec!)]) {
        const matches: string[] = [];
        const s = await runVerify({
          property: makeProperty(kind, []),
          source,
          engine: new CpuVerifyEngine(),
          chunkSize: 7,
          onMatch: (m) => void matches.push(m),
        });
        expect(matches, kind).toEqual(expected);
        expect(s.passed).toBe(expected.length);
      }
    }
    const plainOnly = runVerify({
      property: makeProperty('complement-of', ['4:1']),
      source: textSource('Sw<1,0,1> o 8:4\n', 'f'),
      engine: new CpuVerifyEngine(),
    });
    await expect(plainOnly).rejects.toMatchObject({ kind: 'domain' });
  });
});
