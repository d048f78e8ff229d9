/**
 * Triton's encodings as linear layouts (src/linear/encodings.ts) against expectations derived by
 * hand from Triton's LinearLayoutConversions.cpp (the derivation is in each case's comment), and
 * properties every fitted register encoding has: out-dim sizes = the shape, and every element
 * of the tile held by some (register, lane, warp, block) (surjective), checked by evaluating the
 * LL on every input.
 */
import { describe, expect, it } from 'vitest';
import { llFromEncoding } from '../../src/linear/encodings.js';
import { toCanonicalJson } from '../../src/linear/forms.js';
import type { LinearLayout } from '../../src/linear/value.js';
import { inBitsOf, unflattenIn, llValueAt } from './_ll.js';
import { kindOf } from '../helpers/kind.js';

type Bases = number[][];
/** Bases written out: 'a,b c,d' is [[a, b], [c, d]], one vector per space; '' is none. */
const bases = (s: string): Bases => (s === '' ? [] : s.split(' ').map((v) => v.split(',').map(Number)));
const outDims = (shape: number[]): unknown => shape.map((s, d) => [`dim${d}`, s]);
/** The expected LL of a register encoding. */
const reg = (r: string, lane: string, warp: string, block: string, shape: number[]): unknown => ({
  bases: [
    ['register', bases(r)],
    ['lane', bases(lane)],
    ['warp', bases(warp)],
    ['block', bases(block)],
  ],
  outDims: outDims(shape),
});
/** The expected LL of a shared encoding. */
const shared = (offset: string, block: string, shape: number[]): unknown => ({
  bases: [
    ['offset', bases(offset)],
    ['block', bases(block)],
  ],
  outDims: outDims(shape),
});

const enc = (attr: string, shape: number[]): unknown => toCanonicalJson(llFromEncoding(attr, shape));
/** Every element of the tile is reached (by evaluating the LL on every input). */
function coversTile(l: LinearLayout): boolean {
  const seen = new Set<string>();
  for (let x = 0; x < 2 ** inBitsOf(l); x++) seen.add(llValueAt(l, unflattenIn(x, l)).join(','));
  return seen.size === l.outDims.reduce((a, o) => a * o.size, 1);
}

const B14 = '#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>';

describe('#ttg.blocked', () => {
  it('is the identity over order, fitted to the shape', () => {
    // C over order [1, 0]: registers dim1 1, 2; lanes dim1 4, 8 then dim0 1, 2, 4; warps dim0 8, 16 (sizes dim1 16, dim0 32)
    expect(enc(B14, [32, 32])).toEqual(reg('0,1 0,2 0,16', '0,4 0,8 1,0 2,0 4,0', '8,0 16,0', '', [32, 32]));
    // growing: dim1 first (C's out-dim order), 16 → 64 by registers 16, 32; then dim0 32 → 64 by register 32
    expect(enc(B14, [64, 64])).toEqual(reg('0,1 0,2 0,16 0,32 32,0', '0,4 0,8 1,0 2,0 4,0', '8,0 16,0', '', [64, 64]));
    // shrinking (broadcast): dim1 16 → 8 zeroes lane 8; dim0 32 → 16 zeroes warp 16
    expect(enc(B14, [16, 8])).toEqual(reg('0,1 0,2', '0,4 0,0 1,0 2,0 4,0', '8,0 0,0', '', [16, 8]));
    // order [0, 1]: registers dim0 1; lanes dim0 2, 4 then dim1 1, 2, 4; warps dim1 8
    const b01 = '#ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 2], order = [0, 1]}>';
    expect(enc(b01, [8, 16])).toEqual(reg('1,0', '2,0 4,0 0,1 0,2 0,4', '0,8', '', [8, 16]));
  });

  it('takes a CGA layout: block bases in units of one CTA tile, shrunk to the shape', () => {
    const b = '#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0], CGALayout = [[1]]}>';
    // G: block → dim0 1 (size 2); per-CTA 64 = lanes 1..16, warp 32; block scaled by 64
    expect(enc(b, [128])).toEqual(reg('', '1 2 4 8 16', '32', '64', [128]));
    // per-CTA 16: the warp and lane 16 broadcast
    expect(enc(b, [32])).toEqual(reg('', '1 2 4 8 0', '0', '16', [32]));
    // shape 1: G itself shrinks to size 1
    expect(enc(b, [1])).toEqual(reg('', '0 0 0 0 0', '0', '0', [1]));
  });

  it('has the shape and covers it, for many shapes', () => {
    for (const s0 of [1, 2, 8, 32, 128]) {
      for (const s1 of [1, 4, 16, 256]) {
        const l = llFromEncoding(B14, [s0, s1]);
        expect(l.outDims.map((o) => o.size)).toEqual([s0, s1]);
        expect(coversTile(l)).toBe(true);
      }
    }
  });

  it('refuses bad parameters and shapes', () => {
    expect(kindOf(() => llFromEncoding(B14, [32, 24]))).toBe('domain');
    expect(kindOf(() => llFromEncoding(B14, [32]))).toBe('domain');
    expect(kindOf(() => llFromEncoding(B14.replace('[1, 4]', '[1, 3]'), [32, 32]))).toBe('domain');
    expect(kindOf(() => llFromEncoding(B14.replace('[1, 0]', '[1, 1]'), [32, 32]))).toBe('domain');
    expect(kindOf(() => llFromEncoding(B14.replace('order', 'orders'), [32, 32]))).toBe('parse');
    expect(kindOf(() => llFromEncoding(B14.replace(', order = [1, 0]', ''), [32, 32]))).toBe('parse');
    expect(kindOf(() => llFromEncoding('#ttg.amd_wmma<{version = 1}>', [16, 16]))).toBe('parse');
    expect(kindOf(() => llFromEncoding('#ttg.blocked<{sizePerThread = [1}>', [16]))).toBe('parse');
  });
});

const MMA2 = '#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>';

describe('#ttg.nvidia_mma', () => {
  it('v2: the accumulator tile, warps inner dim first', () => {
    const tileR = '0,1 8,0';
    const tileL = '0,2 0,4 1,0 2,0 4,0';
    // warps: dim1 first (×8, the tile's dim1), then dim0 (×16)
    expect(enc(MMA2, [32, 16])).toEqual(reg(tileR, tileL, '0,8 16,0', '', [32, 16]));
    // growing: dim1 (C's first out-dim) 16 → 32 by register 16, then dim0 32 → 64 by register 32
    expect(enc(MMA2, [64, 32])).toEqual(reg(`${tileR} 0,16 32,0`, tileL, '0,8 16,0', '', [64, 32]));
  });

  it('v3: registers up to N on the inner dim, warps outer dim first', () => {
    const v3 = '#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>';
    expect(enc(v3, [64, 64])).toEqual(reg('0,1 8,0 0,8 0,16 0,32', '0,2 0,4 1,0 2,0 4,0', '16,0 32,0', '', [64, 64]));
    expect(kindOf(() => llFromEncoding(v3.replace('64, 16]', '24, 16]'), [64, 64]))).toBe('domain');
    // v2 reads instrShape as the tile (Triton's verifier does not check it): 16 × 16 holds two register repeats on dim1;
    // a tile whose N is not a multiple of 8 is one Triton asserts on
    expect(enc(MMA2.replace('[16, 8]', '[16, 16]'), [32, 32])).toEqual(reg('0,1 8,0 0,8', '0,2 0,4 1,0 2,0 4,0', '0,16 16,0', '', [32, 32]));
    expect(kindOf(() => llFromEncoding(MMA2.replace('[16, 8]', '[16, 4]'), [64, 64]))).toBe('domain');
  });
});

describe('#ttg.dot_op', () => {
  it('nvidia_mma v2 operand A: 16 × 8·kWidth, warps broadcast along K', () => {
    // tile 16 × 16: register dim1 1 (kWidth 2), lanes dim1 2, 4 then dim0 1, 2, 4, register dim0 8, register dim1 8;
    // warps: dim1 (K) zeros, dim0 ×16, shrunk away by the shape
    const a = `#ttg.dot_op<{opIdx = 0, parent = ${MMA2}, kWidth = 2}>`;
    expect(enc(a, [16, 16])).toEqual(reg('0,1 8,0 0,8', '0,2 0,4 1,0 2,0 4,0', '0,0 0,0', '', [16, 16]));
  });

  it('nvidia_mma v2 operand B: 8·kWidth × 8, K the inner dim', () => {
    const mma11 = '#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>';
    const b = `#ttg.dot_op<{opIdx = 1, parent = ${mma11}, kWidth = 2}>`;
    expect(enc(b, [16, 8])).toEqual(reg('1,0 8,0', '2,0 4,0 0,1 0,2 0,4', '', '', [16, 8]));
    const v3 = '#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>';
    expect(kindOf(() => llFromEncoding(`#ttg.dot_op<{opIdx = 1, parent = ${v3}, kWidth = 2}>`, [16, 64]))).toBe('domain');
  });

  it('blocked parent (FMA): K whole per thread, lanes and warps broadcast along K', () => {
    // opIdx 0, K = dim1 = 8 held by each thread; lanes: dim1 zeros (4), dim0 1, 2, 4 (8); warps dim0 8 (4 → fitted to 16)
    const p = '#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [2, 1], order = [1, 0]}>';
    expect(enc(`#ttg.dot_op<{opIdx = 0, parent = ${p}}>`, [16, 8])).toEqual(reg('0,1 0,2 0,4', '0,0 0,0 1,0 2,0 4,0', '8,0', '', [16, 8]));
    expect(kindOf(() => llFromEncoding(`#ttg.dot_op<{opIdx = 0, parent = ${p}, kWidth = 2}>`, [16, 8]))).toBe('domain');
  });
});

describe('#ttg.amd_mfma', () => {
  it('32x32 and 16x16 instructions, 64 lanes', () => {
    // 32x32: registers M 1, 2 (4 rows) then M 8, 16 (the tiles); lanes N 1..16 then M 4
    const m32 = '#ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 1], instrShape = [32, 32, 8], isTransposed = false}>';
    expect(enc(m32, [32, 32])).toEqual(reg('1,0 2,0 8,0 16,0', '0,1 0,2 0,4 0,8 0,16 4,0', '', '', [32, 32]));
    // 16x16: registers M 1, 2; lanes N 1..8 then M 4, 8
    const m16 = '#ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 1], instrShape = [16, 16, 16], isTransposed = false}>';
    expect(enc(m16, [16, 16])).toEqual(reg('1,0 2,0', '0,1 0,2 0,4 0,8 4,0 8,0', '', '', [16, 16]));
    // transposed: the roles of M and N swapped
    expect(enc(m16.replace('false', 'true'), [16, 16])).toEqual(reg('0,1 0,2', '1,0 2,0 4,0 8,0 0,4 0,8', '', '', [16, 16]));
  });
});

describe('shared encodings', () => {
  it('#ttg.swizzled_shared: columns, then rows with the phase XORed into the columns', () => {
    // col dim1 (8): 1, 2, 4; rows: row 1 → col 2·(1 mod 4) = 2, row 2 → col 4
    const sw = (p: string): string => `#ttg.swizzled_shared<{${p}}>`;
    expect(enc(sw('vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]'), [4, 8])).toEqual(shared('0,1 0,2 0,4 1,2 2,4', '', [4, 8]));
    // col dim0 (8), row dim1: row 1 → (1/2) mod 4 = 0, row 2 → 1
    expect(enc(sw('vec = 1, perPhase = 2, maxPhase = 4, order = [0, 1]'), [8, 4])).toEqual(shared('1,0 2,0 4,0 0,1 1,2', '', [8, 4]));
    expect(enc('#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>', [8])).toEqual(shared('1 2 4', '', [8]));
  });

  it('#ttg.nvmma_shared: one swizzle atom, the remaining rows and column atoms', () => {
    const n = (w: number, b: number, t: boolean): string => `#ttg.nvmma_shared<{swizzlingByteWidth = ${w}, transposed = ${t}, elementBitWidth = ${b}}>`;
    // 128-byte fp16 over 8 × 64: vec 8, rows 1, 2, 4 → columns 8, 16, 32
    expect(enc(n(128, 16, false), [8, 64])).toEqual(shared('0,1 0,2 0,4 0,8 0,16 0,32 1,8 2,16 4,32', '', [8, 64]));
    // 64-byte fp16 over 16 × 32: atom 32 columns; (perPhase, maxPhase) = (2, 4): rows 1, 2, 4 → 0, 8, 16; row 8 plain
    expect(enc(n(64, 16, false), [16, 32])).toEqual(shared('0,1 0,2 0,4 0,8 0,16 1,0 2,8 4,16 8,0', '', [16, 32]));
    // 32-byte fp32 transposed over 16 × 8: columns are dim0 (atom 8), rows dim1; row 4 → 4·1; the next column atom 8
    expect(enc(n(32, 32, true), [16, 8])).toEqual(shared('1,0 2,0 4,0 0,1 0,2 4,4 8,0', '', [16, 8]));
    // no swizzle: every column, then the rows
    expect(enc(n(0, 16, false), [2, 4])).toEqual(shared('0,1 0,2 1,0', '', [2, 4]));
    expect(kindOf(() => llFromEncoding(n(128, 16, false), [4, 64]))).toBe('domain');
    expect(kindOf(() => llFromEncoding(n(128, 16, false), [8, 32]))).toBe('domain');
    expect(kindOf(() => llFromEncoding(n(96, 16, false), [8, 64]))).toBe('domain');
  });
});

describe('#ttg.slice, #ttg.linear, #ttg.shared_linear', () => {
  it('slice: the parent over the shape with a 1 inserted, that dim dropped, zero registers removed', () => {
    // parent over [32, 1]: dim1 shrinks to 1 (lane 8, lane 4, register 2, register 1 zeroed); registers then all zero
    expect(enc(`#ttg.slice<{dim = 1, parent = ${B14}}>`, [32])).toEqual(reg('', '0 0 1 2 4', '8 16', '', [32]));
    expect(kindOf(() => llFromEncoding(`#ttg.slice<{dim = 2, parent = ${B14}}>`, [32]))).toBe('domain');
  });

  it('linear: verified, grown by registers and shrunk with registers removed', () => {
    const lin = '#ttg.linear<{register = [[1]], lane = [[2], [4], [8], [16], [32]], warp = [], block = []}>';
    expect(enc(lin, [64])).toEqual(reg('1', '2 4 8 16 32', '', '', [64]));
    expect(enc(lin, [256])).toEqual(reg('1 64 128', '2 4 8 16 32', '', '', [256]));
    expect(enc(lin, [16])).toEqual(reg('1', '2 4 8 0 0', '', '', [16]));
    // shape 1: the register basis goes, the lanes are zeroed
    expect(enc(lin, [1])).toEqual(reg('', '0 0 0 0 0', '', '', [1]));
    expect(kindOf(() => llFromEncoding('#ttg.linear<{register = [[1, 1]], lane = [], warp = [], block = []}>', [2, 2]))).toBe('domain');
    expect(kindOf(() => llFromEncoding('#ttg.linear<{register = [[1], [1]], lane = [], warp = [], block = []}>', [2]))).toBe('domain');
  });

  it('shared_linear: its own LL over its own sizes', () => {
    const s = '#ttg.shared_linear<{offset = [[0, 1], [1, 0]]}, alignment = 16>';
    expect(enc(s, [2, 2])).toEqual(shared('0,1 1,0', '', [2, 2]));
    expect(kindOf(() => llFromEncoding(s, [4, 2]))).toBe('domain');
  });
});
