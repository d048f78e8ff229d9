/**
 * The benchmark kernels come from the one generated table (shaders/bench-<kind>.wgsl, issue 26 step 1): fillTemplate
 * replaces a placeholder as a whole word and in code only, and every kernel `layoutgpu bench` builds has each of its
 * template's placeholders filled, its Φ and N before it.
 */
import { describe, expect, it } from 'vitest';
import { SHADERS } from '../../src/engine/shaders.generated.js';
import { fillTemplate, kernelSource, type GpuKernelKind, type KernelSpec } from '../../src/throughput/wgsl.js';

const KINDS: readonly GpuKernelKind[] = ['copy', 'gather', 'scatter', 'tile', 'eval', 'reduce', 'compact'];
const PLACEHOLDERS = ['ELEM', 'LIMIT', 'WG_SIZE', 'TILE_SIZE', 'TILE_COUNT', 'THREAD_COUNT', 'PER_THREAD'];

/** the code of a WGSL source, its `//` comments removed */
const codeOf = (src: string): string =>
  src
    .split('\n')
    .map((l) => l.replace(/\/\/.*$/, ''))
    .join('\n');

describe('the bench templates', () => {
  it('fillTemplate replaces whole words in code, never inside a longer name or a comment', () => {
    const t = 'const A: u32 = WG; // WG threads\nlet WGX = WG * 2; // WG again\nfn f() { return WG_SIZE + WG; }';
    expect(fillTemplate(t, { WG: 64 })).toBe('const A: u32 = 64; // WG threads\nlet WGX = 64 * 2; // WG again\nfn f() { return WG_SIZE + 64; }');
    expect(fillTemplate(t, {})).toBe(t);
  });

  it('every kind has its template in the generated table', () => {
    for (const k of KINDS) expect(SHADERS[`bench-${k}`], k).toContain('fn main(');
  });

  it('every kernel has its placeholders filled, N and Φ before its main, for every element size', () => {
    for (const kind of KINDS)
      for (const elemBytes of [4, 8, 16]) {
        const spec: KernelSpec = { kind, shapes: [4, 8], strides: [1, 4], n: 32, elemBytes, ...(kind === 'tile' ? { tileSize: 8 } : {}) };
        const src = kernelSource(spec);
        const code = codeOf(src);
        for (const p of PLACEHOLDERS) expect(new RegExp(`\\b${p}\\b`).test(code), `${kind} ${elemBytes}: ${p}`).toBe(false);
        expect(code.indexOf('const N: u32 = 32u;'), kind).toBeGreaterThanOrEqual(0);
        expect(code.indexOf('fn main('), kind).toBeGreaterThan(code.indexOf('const N'));
        if (kind !== 'copy') expect(code.indexOf('fn phi('), kind).toBeGreaterThan(0);
        if (kind !== 'copy') expect(code.indexOf('fn phi('), kind).toBeLessThan(code.indexOf('fn main('));
      }
  });

  it('the copy moves 16-byte words when the byte count allows, elements otherwise', () => {
    const copy = (n: number, elemBytes: number): string => codeOf(kernelSource({ kind: 'copy', shapes: [], strides: [], n, elemBytes }));
    expect(copy(32, 4)).toMatch(/array<vec4<u32>>[\s\S]*t < 8u;/);
    expect(copy(33, 4)).toMatch(/array<u32>[\s\S]*t < N;/);
    expect(copy(33, 8)).toMatch(/array<vec2<u32>>[\s\S]*t < N;/);
  });

  it('the tile kernel folds the tile size, the tile count and its workgroup in', () => {
    const src = codeOf(kernelSource({ kind: 'tile', shapes: [4, 8], strides: [1, 4], n: 32, elemBytes: 4, tileSize: 8 }));
    expect(src).toContain('const T: u32 = 8u;');
    expect(src).toContain('const TILES: u32 = 4u;');
    expect(src).toContain('@workgroup_size(32)');
  });
});
