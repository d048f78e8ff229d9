/**
 * copy_bank_conflicts' structural path (vectorInstructions: Φ_M at each vector's first value only, contiguity
 * decided from the copy's index steps, M's strides and the swizzle's bits) held to the table path
 * (tableInstructions: Φ_M at every value, contiguity checked value by value) on random tiled copies over random
 * memory layouts: plain and swizzled, row- and column-major, nested, with offsets, aligned or not. Where the
 * structural path answers it must give the table path's addresses exactly; it must answer on the common tiles.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32, pick, randInt } from '../helpers/brute.js';
import { parseLayout } from '../../src/algebra/notation.js';
import { parseTiler } from '../../src/cute/tiler.js';
import { parseLayoutFunction } from '../../src/cute/composed.js';
import { makeTiledMma } from '../../src/atoms/tiled-mma.js';
import { makeTiledCopy, makeTiledCopyFromMma, type TiledCopy } from '../../src/atoms/tiled-copy.js';
import { tableInstructions, tileAccesses, vectorInstructions, copyBankConflicts, type CopySide } from '../../src/atoms/conflicts.js';
import { size, mode } from '../../src/algebra/layout.js';
import type { Instructions } from '../../src/memory/banks.js';

const snapshot = (ins: Instructions | null): unknown => (ins === null ? null : { ...ins, addr: Array.from(ins.addr) });

describe('copy_bank_conflicts: the structural path agrees with the table path', () => {
  const mma = makeTiledMma('SM80_16x8x16_F32F16F16F32_TN', parseLayout('(2,2,1)'), parseTiler('(32,32,16)'));
  const copies: [TiledCopy, CopySide][] = [
    [makeTiledCopyFromMma({ atom: 'SM75_U32x4_LDSM_N', bits: 16, mma, operand: 'A' }), 'src'],
    [makeTiledCopyFromMma({ atom: 'SM75_U32x2_LDSM_N', bits: 16, mma, operand: 'A' }), 'src'],
    [makeTiledCopyFromMma({ atom: 'SM75_U16x8_LDSM_T', bits: 16, mma, operand: 'B' }), 'src'],
    [makeTiledCopy({ atom: 'SM80_CP_ASYNC_CACHEALWAYS<uint128_t>', bits: 16, thr: parseLayout('(16,8):(8,1)'), val: parseLayout('(1,8)') }), 'dst'],
    [makeTiledCopy({ atom: 'SM80_CP_ASYNC_CACHEALWAYS<uint128_t>', bits: 16, thr: parseLayout('(32,4):(1,32)'), val: parseLayout('(8,1)') }), 'dst'],
    [makeTiledCopy({ atom: 'SM80_CP_ASYNC_CACHEALWAYS<uint64_t>', bits: 32, thr: parseLayout('(32,4):(4,1)'), val: parseLayout('(1,2)') }), 'dst'],
    [makeTiledCopy({ atom: 'UniversalCopy<uint32_t>', bits: 32, thr: parseLayout('(8,16):(16,1)') }), 'dst'],
  ];

  it('identical addresses wherever the structural path answers, over random memory layouts', () => {
    const rng = mulberry32(0xc0f1);
    let structural = 0;
    let cases = 0;
    for (let n = 0; n < 400; n++) {
      const [c, side] = pick(rng, copies);
      const [rows, cols] = [c.tiler[0]! * pick(rng, [1, 2, 4]), c.tiler[1]! * pick(rng, [1, 2, 4])];
      const inner = pick(rng, [
        `(${rows},${cols}):(${cols},1)`,
        `(${rows},${cols}):(1,${rows})`,
        `(${rows},${cols}):(${cols + pick(rng, [0, 8, 1])},1)`,
        `(${rows},${cols}):(${cols * 16},16)`, // aligned vector starts, values 16 apart: not contiguous
        `(${rows},${cols}):(16,${rows * 16})`,
        ...(cols % 8 === 0 ? [`(${rows},(8,${cols / 8})):(${cols},(1,${rows * 8}))`] : []),
        ...(rows % 8 === 0 ? [`((8,${rows / 8}),${cols}):((${cols},${cols * 8 * 2}),1)`] : []),
        ...(cols % 4 === 0 ? [`(${rows},(4,${cols / 4})):(${cols * 2},(1,8))`] : []), // runs of 4 with gaps: a vector of 8 wraps its mode
        ...(cols % 2 === 0 ? [`(${rows},(2,${cols / 2})):(${cols},(${cols / 2},1))`] : []),
      ]);
      const bits = randInt(rng, 0, 3);
      const base = randInt(rng, 0, 4);
      const shift = pick(rng, [-1, 1]) * Math.max(bits, randInt(rng, 0, 4)) || bits;
      const swizzle = bits === 0 && rng() < 0.5 ? '' : `Sw<${bits},${base},${shift}> o `;
      const offset = swizzle && rng() < 0.3 ? `${pick(rng, [8, 16, 3, 64])} o ` : '';
      const m = parseLayoutFunction(`${swizzle}${offset}${inner}`);
      const x = side === 'src' ? c.atom.src : c.atom.dst;
      const v = size(mode(x, 2));
      const e = c.atom.bits / 8;
      const tvs = tileAccesses(c, side, m);
      const fast = snapshot(vectorInstructions(m, tvs, e, v));
      const table = snapshot(tableInstructions(m, tvs, e, v));
      cases++;
      if (fast === null) continue;
      structural++;
      expect(fast, `${c.atom.name} over ${swizzle}${offset}${inner}`).toEqual(table);
    }
    expect(cases).toBe(400);
    expect(structural).toBeGreaterThan(100);
  });

  it('the report is the same on both paths for the SM80 tile, swizzled or not (the structural path taken)', () => {
    const [c] = copies[0]!;
    for (const m of ['(128,64):(64,1)', 'Sw<3,3,3> o (128,64):(64,1)', 'Sw<2,3,3> o (128,64):(64,1)']) {
      const lf = parseLayoutFunction(m);
      const tvs = tileAccesses(c, 'src', lf);
      expect(vectorInstructions(lf, tvs, 2, 8), m).not.toBeNull();
      const report = copyBankConflicts(c, lf);
      expect(report.instructions).toBe(64);
      expect(report.phases).toBe(256);
    }
  });
});
