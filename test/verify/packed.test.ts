/** FlatBatchBuilder (verify/packed.ts): candidate boundaries past the initial capacity. */
import { describe, expect, it } from 'vitest';
import { parseLayout } from '../../src/algebra/notation.js';
import { FlatBatchBuilder, formatFlatAt } from '../../src/verify/packed.js';

describe('FlatBatchBuilder', () => {
  it('keeps every boundary when nested layouts pass the initial capacity', () => {
    // nested layouts take the tuple walk, which once grew the entries but not the boundaries
    const b = new FlatBatchBuilder(4, 64);
    const texts: string[] = [];
    for (let i = 0; i < 50; i++) {
      const t = i % 3 === 0 ? `(${i + 2},(2,3)):(1,(${i + 7},5))` : `(${i + 2},3):(1,${i})`;
      b.pushLayout(parseLayout(t));
      texts.push(i % 3 === 0 ? `(${i + 2},2,3):(1,${i + 7},5)` : `(${i + 2},3):(1,${i})`);
    }
    const f = b.finish();
    expect(f.count).toBe(50);
    expect(Array.from({ length: 50 }, (_, i) => formatFlatAt(f, i))).toEqual(texts);
  });
});
