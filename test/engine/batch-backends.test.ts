/**
 * `layoutgpu batch --backend gpu` answers exactly as `--backend cpu` on every bulk-check op
 * (the built CLI, spawned as a user would run it, on the real software adapter).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { cosize, size } from '../../src/algebra/layout.js';
import { formatLayout } from '../../src/algebra/notation.js';
import { int, randomLayout, rng } from './gen.js';

function batch(backend: string, input: string): string[] {
  const r = spawnSync('node', ['bin/layoutgpu.js', 'batch', '--backend', backend], { input, encoding: 'utf8', maxBuffer: 1 << 28, timeout: 120_000 });
  if (r.status !== 0) throw new Error(`batch --backend ${backend} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  return r.stdout.trim().split('\n');
}

beforeAll(() => {
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
});

describe('batch --backend gpu equals --backend cpu', () => {
  it('on every bulk-check op, random layouts and bad requests', () => {
    const r = rng(31337);
    const reqs: unknown[] = [];
    let id = 0;
    const add = (op: string, args: unknown[]) => reqs.push({ id: id++, op, args });
    for (let t = 0; t < 10; t++) {
      const l = randomLayout(r, 2048, t % 4 === 0);
      const L = formatLayout(l);
      const n = size(l);
      const lo = int(r, 0, n);
      const hi = int(r, lo, n);
      add('eval_range', [L, lo, hi]);
      add('digest_range', [L, lo, hi]);
      add('check_compact', [L]);
      const b = randomLayout(r, 64);
      add('check_complement', [L, formatLayout(b)]);
      const outer = `(${cosize(l) + int(r, 0, 5)}):(${int(r, 0, 3)})`;
      add('check_compose', [outer, L]);
      add('check_compose', [outer, L, `(${n}):(${int(r, 0, 3)})`]);
      add('tile_map', [L, `(${[1, 2, 4][int(r, 0, 2)]}):(1)`]);
    }
    // compact and not, composites that exist and not, wide offsets, errors of each kind
    add('check_compact', ['(1024,1024):(1024,1)']);
    add('check_compact', ['(4,4):(1,3)']);
    add('check_complement', ['(4,2):(1,16)', '(4):(4)']);
    add('check_compose', ['(4,3):(1,10)', '2:3']);
    add('check_compose', ['(2,2):(1,10)', '(2,2):(1,1)']);
    add('check_compose', ['(2,2):(1,10)', '(2,2):(1,1)', '(2,2):(1,1)']);
    add('digest_range', ['(100000,100000):(100000,1)', 8589934000, 8589944592]);
    add('digest_range', ['(1048576,1048576,1024):(1,1048576,1099511627776)', 1, 1125899906842620]);
    add('eval_range', ['(65536,65537):(65537,1)', 4294967000, 4294968000]);
    add('eval_range', ['(4,8):(1,4)', 0, 33]);
    add('eval_range', ['(4,8):(1,4)', '0', 3]);
    add('eval_range', ['(4,8):(1,4)', 0.5, 3]);
    add('eval_range', ['(300,300):(1,300)', 0, 70000]);
    add('tile_map', ['(300,300):(1,300)', '(2):(1)']);
    add('tile_map', ['(4,8):(1,4)', '(3):(1)']);
    add('check_compose', ['(4):(1)', '(8):(1)']);
    const input = reqs.map((q) => JSON.stringify(q)).join('\n') + '\n';
    const cpu = batch('cpu', input);
    const gpu = batch('gpu', input);
    expect(cpu.length).toBe(reqs.length);
    expect(gpu.length).toBe(reqs.length);
    for (let i = 0; i < reqs.length; i++) {
      const c = JSON.parse(cpu[i]!);
      const g = JSON.parse(gpu[i]!);
      if (!c.ok) {
        expect(g.ok, JSON.stringify(reqs[i])).toBe(false);
        expect(g.error.kind, JSON.stringify(reqs[i])).toBe(c.error.kind);
      } else expect(g, JSON.stringify(reqs[i])).toEqual(c);
    }
    // a fair share of both outcomes
    expect(cpu.filter((l) => l.includes('"compact":false')).length).toBeGreaterThan(2);
    expect(cpu.filter((l) => l.includes('"compact":true')).length).toBeGreaterThan(2);
  });
});
