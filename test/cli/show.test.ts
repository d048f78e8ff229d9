/** `layoutgpu show`: the grid on stdout, --svg and --tikz files (the render/ pictures), tilings. */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logicalProduct } from '../../src/algebra/divide.js';
import { parseLayout } from '../../src/algebra/notation.js';
import { asciiPicture } from '../../src/render/ascii.js';
import { makePicture } from '../../src/render/grid.js';
import { svgPicture } from '../../src/render/svg.js';
import { tikzPicture } from '../../src/render/tikz.js';
import { divisionTiling, modeTiling } from '../../src/render/tiles.js';
import { cli, ensureBuilt } from './_build.js';

beforeAll(() => ensureBuilt());
const dir = mkdtempSync(join(tmpdir(), 'layoutgpu-show-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('show --svg / --tikz', () => {
  it('writes the SVG and the standalone TikZ of the layout, and still prints the grid', async () => {
    const L = '((2,2),4):((1,8),2)';
    const svg = join(dir, 'a.svg');
    const tex = join(dir, 'a.tex');
    const r = await cli(['show', L, '--svg', svg, '--tikz', tex]);
    expect(r.code, r.stderr).toBe(0);
    const p = makePicture(parseLayout(L));
    expect(r.stdout).toBe(asciiPicture(p) + '\n');
    expect(readFileSync(svg, 'utf8')).toBe(svgPicture(p));
    expect(readFileSync(tex, 'utf8')).toBe(tikzPicture(p));
  });

  it('--tikz - --tikz-body: the bare tikzpicture on stdout, no grid', async () => {
    const r = await cli(['show', '(4,8):(1,4)', '--tikz', '-', '--tikz-body']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(tikzPicture(makePicture(parseLayout('(4,8):(1,4)')), { body: true }));
  });

  it('--divide B colours L by its tiles of L ⊘ B; --product B draws L ⊗ B by tile', async () => {
    const [d, q] = await Promise.all([
      cli(['show', '(4,8):(1,4)', '--divide', '(2,2):(1,4)', '--svg', '-']),
      cli(['show', '(2,3):(3,1)', '--product', '(2,2):(1,2)', '--tikz=-']),
    ]);
    expect(d.code, d.stderr).toBe(0);
    const a = parseLayout('(4,8):(1,4)');
    expect(d.stdout).toBe(svgPicture(makePicture(a, { tiling: divisionTiling(a, parseLayout('(2,2):(1,4)')) })));
    expect(q.code, q.stderr).toBe(0);
    const r = logicalProduct(parseLayout('(2,3):(3,1)'), parseLayout('(2,2):(1,2)'));
    expect(q.stdout).toBe(tikzPicture(makePicture(r, { tiling: modeTiling(r) })));
  });

  it('bad input: exit 2, one line naming the culprit, no file written', async () => {
    const out = join(dir, 'never.svg');
    const cases: Array<[string[], RegExp]> = [
      [['show', '(4,8):(1,4)', '--tikz-body'], /--tikz-body goes with --tikz/],
      [['show', '(4,8):(1,4)', '--svg'], /--svg needs a value/],
      [['show', '(4,8):(1,4)', '--divide', '3:1', '--svg', out], /not-complementable/],
      [['show', '(4,8):(1,4)', '--divide', '(2,2:(1,4)', '--svg', out], /parse: .*B \(--divide\)/],
      [['show', '(4,8):(1,4)', '--divide', '2:1', '--product', '2:1'], /not both/],
      [['show', '(4,8):(1,4)', '--svg', join(dir, 'no', 'such', 'dir.svg')], /cannot write .*dir\.svg/],
      [['show', '(4,8):(1,4)', '--svg', '-', '--tikz', '-'], /only one/],
      [['show', '(4,8):(1,4)', '--png', out], /unknown option --png/],
      [['show', '(512,256):(1,512)', '--svg', out], /too large.*65536/],
    ];
    const runs = await Promise.all(cases.map(([args]) => cli(args)));
    runs.forEach((r, i) => {
      const [args, re] = cases[i]!;
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.stderr.trimEnd().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr, args.join(' ')).toMatch(re);
    });
    expect(existsSync(out)).toBe(false);
  });
});
