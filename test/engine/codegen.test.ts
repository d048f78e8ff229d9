import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseLayout } from '../../src/algebra/notation.js';
import { genSingle, wgslFor, KERNELS } from '../../src/engine/codegen.js';

describe('codegen', () => {
  it('shaders.generated.ts is up to date with shaders/*.wgsl', () => {
    execFileSync('node', ['scripts/gen-shaders.mjs', '--check']);
  });

  it('prints the layout in a header and folds constants (pow2 as mask and shift)', () => {
    const src = genSingle('eval', parseLayout('(32,(11,4)):(1,(32,352))')).source;
    expect(src).toContain('// layout L = (32,(11,4)):(1,(32,352))');
    // coalesced: (32,11,4):(1,32,352) merges to (1408):(1)
    expect(src).toContain('coalesced flat (1408):(1)');
    const d = genSingle('eval', parseLayout('(32,64,128,256):(128,1048576,1,4096)')).source;
    expect(d).toContain('r & 31u');
    expect(d).toContain('r >> 5u');
    expect(d).toContain('<< 7u');
    const c = genSingle('eval', parseLayout('(11,13):(13,1)')).source;
    expect(c).toContain('r % 11u');
    expect(c).toContain('r / 11u');
  });

  it('uses the two-limb path beyond 2^32', () => {
    const w = genSingle('eval', parseLayout('(65536,65537):(65537,1)')).source;
    expect(w).toContain('alias OFF_L = vec2<u32>');
    expect(w).toContain('u64_mul32');
    const i = genSingle('eval', parseLayout('(100000,100000):(1,0)')).source;
    expect(i).toContain('fn index_of(t: u32) -> vec2<u32>');
    expect(i).toContain('alias OFF_L = u32');
  });

  it('every kernel generates', () => {
    const l = parseLayout('(4,8):(1,4)');
    for (const k of KERNELS) {
      const src = wgslFor(l, k, k === 'tiles' ? { b: parseLayout('(2,2):(1,4)'), divided: parseLayout('((2,2),(2,4)):((1,4),(2,8))') } : undefined);
      expect(src).toContain('@compute');
    }
  });
});
