/**
 * The SM100 atoms (docs/atoms.md, "SM100 UMMA", "SM100 tensor-memory copies"): every name of CuTe's list present
 * (test/atoms/_sm100.ts writes it out from CUTLASS's static_asserts), shapes as the names say, the TV layouts against
 * their meaning by brute force (each operand tile covered once per value; a CTA pair splitting it by rows), spot
 * literals read from CUTLASS's headers (NVIDIA/cutlass 7107b05, file and line cited), and the TMEM copies through
 * `copy_atom`, `make_tiled_copy` and the CLI, against the σ of their definition.
 */
import { describe, expect, it } from 'vitest';
import { flatB, imageB, parseL, type BL } from '../helpers/brute.js';
import { COPY_ATOMS, MMA_ATOMS, copyAtomData, mmaAtomData } from '../../src/atoms/registry.js';
import { runOp, type OpContext } from '../../src/ops/table.js';
import { main } from '../../src/cli/main.js';
import { requiredTmem, requiredUmma } from './_sm100.js';

const ctx: OpContext = {
  backendChoice: 'cpu',
  backend: async () => {
    throw new Error('the atoms need no backend');
  },
};

/** Whether TV layout `tv` with T threads maps its (t, v) onto [0, n) once each, thread t onto `rowsOf(t)` of the
 *  column-major P×Q tile (P = rows): the brute-force meaning of a UMMA operand. */
function coversOnce(tv: BL, T: number, P: number, Q: number, rowsOf: (t: number) => [number, number]): boolean {
  const im = imageB(tv);
  if (im.length !== P * Q) return false;
  const seen = new Uint8Array(P * Q);
  for (let x = 0; x < im.length; x++) {
    const i = im[x]!;
    const t = x % T;
    const [lo, hi] = rowsOf(t);
    if (i < 0 || i >= P * Q || seen[i] || i % P < lo || i % P >= hi) return false;
    seen[i] = 1;
  }
  return true;
}

const umma = requiredUmma();
const sm100Mma = MMA_ATOMS.filter((a) => a.name.startsWith('SM100_MMA_'));

describe('SM100 UMMA atoms', () => {
  it("are CuTe's list: every family at every legal (M, N), each once", () => {
    expect(umma).toHaveLength(692);
    expect(sm100Mma.map((a) => a.name).sort()).toEqual(umma.map((u) => u.name).sort());
    expect(new Set(sm100Mma.map((a) => a.name)).size).toBe(sm100Mma.length);
    // not legal: M = 64 for a pair, N = 8 for M = 128 from TMEM, N = 24 for S8, M = 64 for MXF4
    for (const n of ['SM100_MMA_F16BF16_2x1SM_SS<64,64>', 'SM100_MMA_F16BF16_TS<128,8>', 'SM100_MMA_S8_SS<64,24>', 'SM100_MMA_MXF4_SS<64,64>'])
      expect(mmaAtomData(n), n).toBeUndefined();
  });

  it('have the shapes their names say, ThrID 1 (one CTA) or 2 (the pair), A in smem for _SS and in TMEM for _TS', () => {
    for (const u of umma) {
      const a = mmaAtomData(u.name)!;
      expect(a.shapeMNK, u.name).toEqual([u.M, u.N, u.K]);
      expect(a.thrID, u.name).toBe(u.pair ? '2:1' : '1:0');
      expect(a.descriptors, u.name).toBe(u.ts ? 'B' : 'AB');
      expect(a.source).toBe('include/cute/atom/mma_traits_sm100.hpp');
    }
  });

  it('cover each tile once per value: one CTA the whole of A, B and C, a pair by halves of the rows', () => {
    const checked = new Set<string>();
    for (const u of umma) {
      const a = mmaAtomData(u.name)!;
      const key = `${a.thrID} ${a.A} ${a.B} ${a.C}`;
      if (checked.has(key)) continue; // the same layouts in another family
      checked.add(key);
      const T = u.pair ? 2 : 1;
      const half = (P: number) => (t: number) => (u.pair ? ([(t * P) / 2, ((t + 1) * P) / 2] as [number, number]) : ([0, P] as [number, number]));
      expect(coversOnce(parseL(a.A), T, u.M, u.K, half(u.M)), `${u.name} A`).toBe(true);
      expect(coversOnce(parseL(a.B), T, u.N, u.K, half(u.N)), `${u.name} B`).toBe(true);
      expect(coversOnce(parseL(a.C), T, u.M, u.N, half(u.M)), `${u.name} C`).toBe(true);
    }
    expect(checked.size).toBeGreaterThan(100);
  });

  it("are CUTLASS's literals (mma_traits_sm100.hpp)", () => {
    // :175–181, SM100_MMA_TF32_SS: ThrID Layout<_1>, ALayout (_1,(M,K)):(_0,(_1,M)), CLayout (_1,(M,N)):(_0,(_1,M)); K = 256/32
    expect(mmaAtomData('SM100_MMA_TF32_SS<128,64>')).toMatchObject({
      thrID: '1:0',
      shapeMNK: [128, 64, 8],
      A: '(1,(128,8)):(0,(1,128))',
      B: '(1,(64,8)):(0,(1,64))',
      C: '(1,(128,64)):(0,(1,128))',
    });
    // :1113–1119, SM100_MMA_TF32_2x1SM_SS: ThrID Layout<_2>, ALayout (_2,(M/2,K)):(M/2,(_1,M)), BLayout (_2,(N/2,K)):(N/2,(_1,N))
    expect(mmaAtomData('SM100_MMA_F16BF16_2x1SM_SS<256,256>')).toMatchObject({
      thrID: '2:1',
      shapeMNK: [256, 256, 16],
      A: '(2,(128,16)):(128,(1,256))',
      B: '(2,(128,16)):(128,(1,256))',
      C: '(2,(128,256)):(128,(1,256))',
    });
    // :3310 and :3326–3332, SM100_MMA_MXF4_SS: K = 64, ThrID Layout<_1>
    expect(mmaAtomData('SM100_MMA_MXF4_SS<128,256>')).toMatchObject({ thrID: '1:0', shapeMNK: [128, 256, 64], B: '(1,(256,64)):(0,(1,256))' });
  });

  it('and the two vectorized FMAs (mma_traits_sm100.hpp:3686–3714): one thread, two values along M or N', () => {
    expect(mmaAtomData('SM100_2x1x1_F32F32F32F32')).toMatchObject({ thrID: '1:0', shapeMNK: [2, 1, 1], A: '(1,2):(0,1)', C: '(1,2):(0,1)' });
    expect(mmaAtomData('SM100_1x2x1_F32F32F32F32')).toMatchObject({ thrID: '1:0', shapeMNK: [1, 2, 1], B: '(1,2):(0,1)', C: '(1,2):(0,1)' });
  });

  it('through mma_atom answer as the data says', async () => {
    expect(await runOp('mma_atom', ['SM100_MMA_S8_2x1SM_TS<128,32>'], ctx)).toEqual({
      thrID: '2:1',
      shapeMNK: '(128,32,32)',
      layoutA_TV: '(2,(64,32)):(64,(1,128))',
      layoutB_TV: '(2,(16,32)):(16,(1,32))',
      layoutC_TV: '(2,(64,32)):(64,(1,128))',
    });
  });
});

const tmem = COPY_ATOMS.filter((a) => a.name.startsWith('SM100_TMEM_'));
const byName = (n: string) => copyAtomData(n)!;

describe('SM100 tensor-memory copies', () => {
  it("are CuTe's list, each once", () => {
    expect(tmem.map((a) => a.name).sort()).toEqual(requiredTmem().sort());
    expect(tmem).toHaveLength(150);
  });

  it('move a block between a broadcast TMEM side and registers that hold each of its bits once', () => {
    for (const a of tmem) {
      const load = a.name.includes('_LOAD_');
      const tm = parseL(load ? a.src : a.dst);
      const regs = parseL(load ? a.dst : a.src);
      expect(a.thrID, a.name).toBe('32:1');
      expect(load ? a.ref === a.src : a.ref === a.dst, `${a.name}: Ref is the TMEM side`).toBe(true);
      // the TMEM side: (32, bits):(0, 1), every lane the whole block
      const { s, d } = flatB(tm);
      expect([s, d], a.name).toEqual([
        [32, s[1]],
        [0, 1],
      ]);
      const bits = s[1]!;
      // the register side: each bit of [0, bits) at exactly one (lane, value)
      const im = imageB(regs);
      expect(im.length, a.name).toBe(bits);
      const seen = new Uint8Array(bits);
      let twice = -1;
      for (const b of im) {
        if (b < 0 || b >= bits || seen[b] !== 0) twice = b;
        seen[b] = 1;
      }
      expect(twice, `${a.name}: a bit outside the block or held twice`).toBe(-1);
    }
  });

  it('a store is its load reversed (Copy_Traits<SM100_TMEM_STORE_x> takes the load’s Dst, Src and Ref)', () => {
    for (const s of tmem.filter((a) => a.name.includes('_STORE_'))) {
      const l = byName(s.name.replace('_STORE_', '_LOAD_'));
      expect([s.src, s.dst, s.ref], s.name).toEqual([l.dst, l.src, l.ref]);
    }
  });

  it("are CUTLASS's literals (copy_traits_sm100.hpp)", () => {
    // :470–481, SM100_TMEM_LOAD_16dp256b1x: Src (_32,_4096):(_0,_1), Dst ((_4,_8),(_64,_2)):((_64,_256),(_1,_2048)), Ref = Src
    expect(byName('SM100_TMEM_LOAD_16dp256b1x')).toMatchObject({
      thrID: '32:1',
      src: '(32,4096):(0,1)',
      dst: '((4,8),(64,2)):((64,256),(1,2048))',
      ref: '(32,4096):(0,1)',
    });
    // :1460–1467, SM100_TMEM_LOAD_32dp32b1x: Src (_32,_1024):(_0,_1), Dst (_32,_32):(_32,_1)
    expect(byName('SM100_TMEM_LOAD_32dp32b1x')).toMatchObject({ src: '(32,1024):(0,1)', dst: '(32,32):(32,1)' });
    // :2550–2557, SM100_TMEM_STORE_32dp32b1x: the load's Dst, Src, Ref
    expect(byName('SM100_TMEM_STORE_32dp32b1x')).toMatchObject({ src: '(32,32):(32,1)', dst: '(32,1024):(0,1)', ref: '(32,1024):(0,1)' });
  });

  it('copy_atom takes them by name, at a value size', async () => {
    expect(await runOp('copy_atom', ['SM100_TMEM_LOAD_32dp32b8x', 32], ctx)).toEqual({
      thrID: '32:1',
      layoutSrc: '(32,256):(0,1)',
      layoutDst: '(32,8):(8,1)',
      layoutRef: '(32,256):(0,1)',
    });
    expect(await runOp('copy_atom', ['SM100_TMEM_STORE_16dp256b1x', 32], ctx)).toEqual({
      thrID: '32:1',
      layoutSrc: '((4,8),(2,2)):((2,8),(1,64))',
      layoutDst: '(32,128):(0,1)',
      layoutRef: '(32,128):(0,1)',
    });
  });

  it("make_tiled_copy reads the broadcast Ref as thread 0's (CuTe's right_inverse): D_TV(t, w) = TV(0, Φ_Dst(t, w))", async () => {
    // 32dp32b4x at 32 bits: Dst (32,4):(4,1), lane t holds words 4t … 4t+3; Ref (32,128):(0,1) is thread 0's 128 words
    const r = (await runOp('make_tiled_copy', [{ atom: 'SM100_TMEM_LOAD_32dp32b4x', bits: 32, thr: '(32,1)', val: '(1,128)' }], ctx)) as Record<string, string>;
    expect(r.layoutTV).toBe('(32,128):(1,32)');
    const tv = (t: number, v: number): number => t + 32 * v; // the tiler TV (32,128):(1,32)
    const d = imageB(parseL(r.layoutD_TV!));
    const s = imageB(parseL(r.layoutS_TV!));
    for (let t = 0; t < 32; t++) {
      for (let w = 0; w < 4; w++) expect(d[t + 32 * w], `D(${t}, ${w})`).toBe(tv(0, 4 * t + w));
      for (let w = 0; w < 128; w++) expect(s[t + 32 * w], `S(${t}, ${w})`).toBe(tv(0, w));
    }
  });

  it('have no shared-memory side: copy_bank_conflicts is domain, with or without a side', async () => {
    const c = { atom: 'SM100_TMEM_LOAD_32dp32b1x', bits: 32, thr: '(32,1)', val: '(1,32)' };
    for (const args of [
      [c, '(32,32):(1,32)'],
      [c, '(32,32):(1,32)', 'dst'],
      [c, '(32,32):(1,32)', 'src'],
    ]) {
      await expect(runOp('copy_bank_conflicts', args, ctx)).rejects.toThrow(/neither side is shared memory/);
    }
  });

  it('the CLI takes them by name: copy-atom and copy', async () => {
    const run = async (argv: string[]) => {
      let out = '';
      let err = '';
      const code = await main(argv, { stdout: (x) => void (out += x), stderr: (x) => void (err += x), isTTY: false }, (async function* () {})());
      return { code, out, err };
    };
    const a = await run(['copy-atom', 'SM100_TMEM_LOAD_32dp32b8x', '32']);
    expect(a.code, a.err).toBe(0);
    expect(a.out).toMatch(/^layoutDst\s+\(32,8\):\(8,1\)$/m);
    const c = await run(['copy', 'SM100_TMEM_STORE_32dp32b1x', '--bits', '32', '--thr', '(32,1)', '--val', '(1,32)', '--json']);
    expect(c.code, c.err).toBe(0);
    expect(JSON.parse(c.out)).toMatchObject({ tiler: '(32,32)', threads: 32, values: 32, layoutS_TV: '(32,1):(32,0)', layoutD_TV: '(32,32):(0,32)' });
  });
});
