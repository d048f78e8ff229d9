/**
 * The API report of the package (package.json "exports"): every name `layoutgpu` (src/node.ts) and `layoutgpu/browser`
 * (src/browser.ts) export, with its kind, kept in test/api-report.txt so that the public surface changes only on
 * purpose: after a deliberate change, `npx vitest run test/api-report.test.ts -u` rewrites the report for review.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** `kind name` for every export of an entry point, sorted by name */
function exportsOf(program: ts.Program, file: string): string[] {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(join(ROOT, file));
  if (!source) throw new Error(`${file} is not in the program`);
  const module = checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`${file} is not a module`);
  return checker
    .getExportsOfModule(module)
    .map((s) => {
      const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
      const f = target.flags;
      const kind =
        f & ts.SymbolFlags.Class
          ? 'class'
          : f & ts.SymbolFlags.Function
            ? 'function'
            : f & ts.SymbolFlags.Variable
              ? 'const'
              : f & ts.SymbolFlags.Interface
                ? 'interface'
                : f & ts.SymbolFlags.TypeAlias
                  ? 'type'
                  : f & ts.SymbolFlags.Enum
                    ? 'enum'
                    : 'other';
      return `${kind} ${s.getName()}`;
    })
    .sort((a, b) => (a.split(' ')[1]! < b.split(' ')[1]! ? -1 : 1));
}

describe('the public API', () => {
  it('is what test/api-report.txt lists', async () => {
    const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.build.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
    if (!config) throw new Error('tsconfig.build.json does not parse');
    const program = ts.createProgram([join(ROOT, 'src/node.ts'), join(ROOT, 'src/browser.ts')], { ...config.options, noEmit: true });
    const node = exportsOf(program, 'src/node.ts');
    const browser = new Set(exportsOf(program, 'src/browser.ts'));
    expect(node.length).toBeGreaterThan(50);
    // the browser entry is the Node entry less the Node corner
    for (const e of browser) expect(node, e).toContain(e);
    const report = [
      '# layoutgpu: the exports of "." (src/node.ts); [node] marks those "./browser" (src/browser.ts) lacks',
      ...node.map((e) => (browser.has(e) ? e : `${e} [node]`)),
      '',
    ].join('\n');
    await expect(report).toMatchFileSnapshot('./api-report.txt');
  }, 60_000);
});
