/**
 * The architecture, held by a test (docs/architecture.md): every import in src/ (static, type-only, re-exports and
 * `import()`) runs down the floors, never up or sideways; no two files import each other, directly or round a cycle;
 * and only the Node-only corners import `node:` modules.
 *
 * Floors, top to bottom (a room may skip floors downwards, never import a room on its own floor or above):
 *   cli/, web/                      the command line and the page
 *   ops/ and the entry points       the operation table and the protocol surface (src/index.ts, node.ts, browser.ts)
 *   verify/, throughput/, render/   bulk verification, the throughput benchmarks, pictures
 *   engine/, atoms/, linear/,       the evaluator and its backends; hardware atoms; Triton's linear layouts;
 *   descriptors/                    the TMA tensor maps and the tensor cores' matrix descriptors
 *   memory/                         the memory model: accesses, banks, sectors, the swizzle search
 *   cute/                           CuTe's vocabulary over the algebra
 *   algebra/                        the exact layout algebra
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');

const FLOORS: readonly (readonly string[])[] = [
  ['cli', 'web'],
  ['ops'],
  ['verify', 'throughput', 'render', 'planner'],
  ['engine', 'atoms', 'linear', 'descriptors'],
  ['memory'],
  ['cute'],
  ['algebra'],
];
/** the entry points, on the table's floor */
const ENTRY_POINTS = new Set(['src/index.ts', 'src/node.ts', 'src/browser.ts']);
/** where `node:` may be imported: the CLI, the engine's Node corner and the benchmarks' environment */
const NODE_ONLY = [/^src\/cli\//, /^src\/engine\/node\//, /^src\/throughput\/node-env\.ts$/];
/** npm packages that run in Node only (Dawn's binding): the page never reaches them */
const NODE_PACKAGES = new Set(['webgpu']);

/**
 * The Node-only code a set of roots reaches through the value imports of `edges` (static and dynamic; type-only imports
 * are erased and do not count): each path `root → … → file`, ending at a Node-only file, a `node:` module or a Node-only
 * package. Pure over its arguments, so that a planted graph can test it.
 */
function nodeReach(roots: readonly string[], edges: readonly Edge[], typeOnly: (from: string, spec: string) => boolean): string[] {
  const out = new Set<string>();
  const via = new Map<string, string>();
  const seen = new Set(roots);
  const queue = [...roots];
  const path = (f: string): string => (via.has(f) ? `${path(via.get(f)!)} → ${f}` : f);
  while (queue.length > 0) {
    const f = queue.shift()!;
    for (const e of edges) {
      if (e.from !== f || typeOnly(f, e.spec)) continue;
      if (e.to === null) {
        if (e.spec.startsWith('node:') || NODE_PACKAGES.has(e.spec)) out.add(`${path(f)} → ${e.spec}`);
        continue;
      }
      if (NODE_ONLY.some((re) => re.test(e.to!))) out.add(`${path(f)} → ${e.to}`);
      else if (!seen.has(e.to)) {
        seen.add(e.to);
        via.set(e.to, f);
        queue.push(e.to);
      }
    }
  }
  return [...out].sort();
}

/** a parser of the notations (algebra/notation.ts's Parser and parse*, cute/'s parse*, looksComposed's sniffing):
 *  what the page reads through ops/ (ops/args.ts) instead */
const PARSER_NAME = /^(parse[A-Z]\w*|Parser|looksComposed)$/;

const floorOf = new Map(FLOORS.flatMap((rooms, i) => rooms.map((r) => [r, FLOORS.length - i] as const)));

/** the room of a file under src/: its folder, or `ops` for the table and the entry points at the top of src/ */
function roomOf(file: string): string | null {
  if (ENTRY_POINTS.has(file)) return 'ops';
  const m = /^src\/([^/]+)\//.exec(file);
  return m && floorOf.has(m[1]!) ? m[1]! : null;
}

/** Every module specifier a source text names: static and type-only imports, re-exports, `import()` with a literal. */
function importsOf(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.(ts|mts|mjs)$/.test(e) && !e.endsWith('.d.ts') ? [relative(ROOT, p).split(sep).join('/')] : [];
  });
}

const FILES = sources(SRC);
const KNOWN = new Set(FILES);

/** a relative specifier as the file it names (`./x.js` is x.ts in the sources) */
function target(from: string, spec: string): string {
  const p = relative(ROOT, resolve(ROOT, dirname(from), spec))
    .split(sep)
    .join('/');
  if (KNOWN.has(p)) return p;
  const ts = p.replace(/\.js$/, '.ts').replace(/\.mjs$/, '.mts');
  return KNOWN.has(ts) ? ts : p;
}

interface Edge {
  readonly from: string;
  readonly spec: string;
  readonly to: string | null;
}
const EDGES: readonly Edge[] = FILES.flatMap((from) =>
  importsOf(readFileSync(join(ROOT, from), 'utf8')).map((spec) => ({ from, spec, to: spec.startsWith('.') ? target(from, spec) : null })),
);

/** The specifiers a source text imports for types only: `import type`, `export type … from`, or every name marked `type`. */
function typeOnlyImportsOf(text: string): Set<string> {
  const file = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest);
  const out = new Set<string>();
  for (const st of file.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const c = st.importClause;
      const named = c?.namedBindings && ts.isNamedImports(c.namedBindings) ? c.namedBindings.elements : null;
      if (c && (c.isTypeOnly || (!c.name && named && named.length > 0 && named.every((e) => e.isTypeOnly)))) out.add(st.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(st) && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) && st.isTypeOnly) {
      out.add(st.moduleSpecifier.text);
    }
  }
  return out;
}

/** the cycles of a graph (its strongly connected components of more than one file, or a file importing itself) */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(c.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

/** The names a source text takes from each module it imports: `{ a as b }` names a, `import * as x` and a dynamic
 *  `import()` the whole module ('*'); type-only imports included. */
function namedImportsOf(text: string): { spec: string; names: string[] }[] {
  const file = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, false);
  const out: { spec: string; names: string[] }[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier)) {
      const b = n.importClause?.namedBindings;
      const names = b === undefined ? [] : ts.isNamespaceImport(b) ? ['*'] : b.elements.map((e) => (e.propertyName ?? e.name).text);
      out.push({ spec: n.moduleSpecifier.text, names });
    } else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0] && ts.isStringLiteral(n.arguments[0])) {
      out.push({ spec: n.arguments[0].text, names: ['*'] });
    }
    ts.forEachChild(n, visit);
  };
  visit(file);
  return out;
}

/** The page's imports of a parser from algebra/ or cute/ (a parser's name, a whole module): `from → spec { names }`. */
function pageParserImports(files: readonly string[], read: (f: string) => string): string[] {
  return files
    .filter((f) => f.startsWith('src/web/'))
    .flatMap((from) =>
      namedImportsOf(read(from)).flatMap(({ spec, names }) => {
        const to = spec.startsWith('.') ? target(from, spec) : '';
        if (!/^src\/(algebra|cute)\//.test(to)) return [];
        const bad = names.filter((n) => n === '*' || PARSER_NAME.test(n));
        return bad.length === 0 ? [] : [`${from} → ${spec} { ${bad.join(', ')} }`];
      }),
    );
}

describe('the import reader', () => {
  it('sees static, type-only, re-exported and dynamic imports', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from '../b/b.js';",
      "export { c } from './c.js';",
      "export * from './d.js';",
      "const e = await import('./e.js');",
      "import 'node:fs';",
      '// import { f } from "./f.js" in a comment is no import',
    ].join('\n');
    expect(importsOf(text).sort()).toEqual(['../b/b.js', './a.js', './c.js', './d.js', './e.js', 'node:fs']);
  });

  it('tells the type-only imports apart', () => {
    const text = [
      "import type { A } from './a.js';",
      "import { type B, type C } from './b.js';",
      "import { type D, d } from './d.js';",
      "import e, { type E } from './e.js';",
      "export type { F } from './f.js';",
      "export { g } from './g.js';",
      "import './h.js';",
    ].join('\n');
    expect([...typeOnlyImportsOf(text)].sort()).toEqual(['./a.js', './b.js', './f.js']);
  });
  it('finds a cycle round three files and a file importing itself, and none in a chain', () => {
    expect(
      cycles(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
          ['d', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b', 'c']]);
    expect(cycles(new Map([['a', ['a']]]))).toEqual([['a']]);
    expect(
      cycles(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', []],
        ]),
      ),
    ).toEqual([]);
  });
  it('names what an import takes: a parser named or renamed, a namespace, a dynamic import', () => {
    const text = [
      "import { parseLayout as p, formatLayout } from '../algebra/notation.js';",
      "import type { Parser } from '../algebra/notation.js';",
      "import * as C from '../cute/composed.js';",
      "const t = await import('../cute/tiler.js');",
      "import { readLayout } from '../ops/args.js';",
    ].join('\n');
    expect(namedImportsOf(text)).toEqual([
      { spec: '../algebra/notation.js', names: ['parseLayout', 'formatLayout'] },
      { spec: '../algebra/notation.js', names: ['Parser'] },
      { spec: '../cute/composed.js', names: ['*'] },
      { spec: '../cute/tiler.js', names: ['*'] },
      { spec: '../ops/args.js', names: ['readLayout'] },
    ]);
    const files = ['src/web/main.ts'];
    expect(pageParserImports(files, () => text)).toEqual([
      'src/web/main.ts → ../algebra/notation.js { parseLayout }',
      'src/web/main.ts → ../algebra/notation.js { Parser }',
      'src/web/main.ts → ../cute/composed.js { * }',
      'src/web/main.ts → ../cute/tiler.js { * }',
    ]);
  });
  it('reads the whole of src/', () => {
    expect(FILES.length).toBeGreaterThan(100);
    expect(EDGES.filter((e) => e.spec.startsWith('.')).length).toBeGreaterThan(300);
  });
});

describe('the architecture of src/', () => {
  it('every file lies in a room of a floor', () => {
    expect(FILES.filter((f) => roomOf(f) === null)).toEqual([]);
  });

  it('every relative import names a file that exists', () => {
    expect(EDGES.filter((e) => e.to !== null && !KNOWN.has(e.to)).map((e) => `${e.from} → ${e.spec}`)).toEqual([]);
  });

  it('every import between rooms runs down the floors (never up, never sideways)', () => {
    const wrong = EDGES.flatMap((e) => {
      if (e.to === null || !KNOWN.has(e.to)) return [];
      const a = roomOf(e.from);
      const b = roomOf(e.to);
      if (a === null || b === null || a === b) return [];
      return floorOf.get(b)! < floorOf.get(a)! ? [] : [`${e.from} (${a}/) → ${e.to} (${b}/)`];
    });
    expect(wrong).toEqual([]);
  });

  it('nothing below the table imports it', () => {
    const top = floorOf.get('ops')!;
    const table = EDGES.filter((e) => e.to !== null && roomOf(e.to) === 'ops' && floorOf.get(roomOf(e.from) ?? 'ops')! < top);
    expect(table.map((e) => `${e.from} → ${e.to}`)).toEqual([]);
  });

  it('the page imports no parser from algebra/ or cute/: it reads its fields through ops/ (ops/args.ts)', () => {
    expect(pageParserImports(FILES, (f) => readFileSync(join(ROOT, f), 'utf8'))).toEqual([]);
  });

  it('the GPU backend (its planning and its dispatch) does not import the CPU backend (what both need lives in engine/common.ts)', () => {
    const gpu = new Set(['src/engine/gpu.ts', 'src/engine/gpu-dispatch.ts']);
    for (const f of gpu) expect(KNOWN.has(f), f).toBe(true);
    expect(EDGES.filter((e) => gpu.has(e.from) && e.to === 'src/engine/cpu.ts').map((e) => e.spec)).toEqual([]);
  });

  it("atoms/data/ imports only the atoms' types: type-only imports of src/atoms/ outside data/, nothing else", () => {
    const data = EDGES.filter((e) => e.from.startsWith('src/atoms/data/'));
    expect(data.length).toBeGreaterThan(15);
    const typeOnly = new Map(data.map((e) => [e.from, typeOnlyImportsOf(readFileSync(join(ROOT, e.from), 'utf8'))] as const));
    const atomsTypes = (e: Edge): boolean =>
      e.to !== null && e.to.startsWith('src/atoms/') && !e.to.startsWith('src/atoms/data/') && typeOnly.get(e.from)!.has(e.spec);
    expect(data.filter((e) => !atomsTypes(e)).map((e) => `${e.from} → ${e.spec}`)).toEqual([]);
  });

  it('no import cycle between files', () => {
    const graph = new Map(FILES.map((f) => [f, EDGES.filter((e) => e.from === f && e.to !== null).map((e) => e.to!)] as const));
    expect(cycles(graph)).toEqual([]);
  });

  it('nothing under web/ (nor the browser entry) reaches Node-only code, transitively, through a value import', () => {
    const typeOnly = new Map(FILES.map((f) => [f, typeOnlyImportsOf(readFileSync(join(ROOT, f), 'utf8'))] as const));
    const roots = [...FILES.filter((f) => f.startsWith('src/web/')), 'src/browser.ts'];
    expect(nodeReach(roots, EDGES, (f, spec) => typeOnly.get(f)?.has(spec) === true)).toEqual([]);
    // planted (paths built, so that the docs test does not take them for the repository's): a page file that reaches the pool
    // through a planner file, and one that imports node:fs; a type-only import does not count
    const at = (p: string): string => ['src', p].join('/');
    const planted: Edge[] = [
      { from: at('web/x.ts'), spec: '../planner/p.js', to: at('planner/p.ts') },
      { from: at('planner/p.ts'), spec: '../engine/node/pool.js', to: at('engine/node/pool.ts') },
      { from: at('web/y.ts'), spec: 'node:fs', to: null },
      { from: at('web/z.ts'), spec: '../engine/node/pool.js', to: at('engine/node/pool.ts') },
    ];
    expect(nodeReach([at('web/x.ts'), at('web/y.ts'), at('web/z.ts')], planted, (f) => f === at('web/z.ts'))).toEqual([
      `${at('web/x.ts')} → ${at('planner/p.ts')} → ${at('engine/node/pool.ts')}`,
      `${at('web/y.ts')} → node:fs`,
    ]);
  });

  it('node: modules only in the Node-only corners (cli/, engine/node/, throughput/node-env.ts)', () => {
    const outside = EDGES.filter((e) => e.spec.startsWith('node:') && !NODE_ONLY.some((re) => re.test(e.from)));
    expect(outside.map((e) => `${e.from} → ${e.spec}`)).toEqual([]);
  });
});
