/**
 * The documentation belongs to the repository: every relative link in README.md and docs/ points
 * at a file that exists (and, with a #fragment, at a heading of it); every citation of a docs page
 * section or heading in src/ and test/ (`docs/semantics.md §5.2`, `docs/atoms.md, "Tiled copy"`)
 * names a heading that exists; and every path of the repository named anywhere (a comment, a page, a
 * script: `src/…`, `test/…`, `docs/…`, `shaders/…`, `bench/…`, `scripts/…`) exists, so that
 * nothing points at a file that was moved or deleted.
 */
import { readFileSync, readdirSync, existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const docsDir = join(root, 'docs');
const pages = [
  join(root, 'README.md'),
  ...readdirSync(docsDir)
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(docsDir, f)),
];

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (!m) continue;
    const base = m[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Section numbers of a page's headings (`### 8.5 Inverses …` → 8.5, `## 9. Swizzles` → 9). */
function sections(markdown: string): Set<string> {
  const out = new Set<string>();
  for (const m of markdown.matchAll(/^#{1,6}\s+(\d+(?:\.\d+)*)\.?\s/gm)) out.add(m[1]!);
  return out;
}

function links(markdown: string): string[] {
  const text = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/.test(l));
}

/** a citation of the reference documents beside the repository (spelled in parts so this file does not cite them) */
const foreignCitation = new RegExp(`\\b${'SPEC'}(?:\\.md)?\\s*(?:\\*\\s*)?§|${'BATCH-'}PROTOCOL`, 'g');

function walk(dir: string, ext = /\.(ts|mts|mjs)$/): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? (f === 'node_modules' ? [] : walk(p, ext)) : ext.test(f) ? [p] : [];
  });
}

/** The headings of a page as written, without a section number, code ticks or a closing parenthesis
 *  (`### 8.5 Inverses` → `Inverses`, `### Bulk checks (the evaluator)` → `Bulk checks`). */
function headingTexts(markdown: string): Set<string> {
  const out = new Set<string>();
  for (const m of markdown.matchAll(/^#{1,6}\s+(?:\d+(?:\.\d+)*\.?\s+)?(.*?)\s*$/gm)) out.add(m[1]!.replace(/`/g, '').replace(/\s*\(.*\)$/, ''));
  return out;
}

/** A path of the repository named in a text: a top-level folder of ours, then a path (`src/ops/table.ts`). */
const repoPath = /(?<![\w./-])((?:src|test|docs|shaders|bench|scripts)\/[\w./-]*[\w-])/g;
/** Paths that a command makes (typedoc's pages, the device payload) and other projects' files cited by path
 *  (CUTLASS’s unit-test sources): named, never committed. */
const madePaths = [/^docs\/api(\/|$)/, /^bench\/device\/payload(\/|$)/, /\.(cu|hpp|cpp|h|td)$/];

/** Whether `p` names something of the repository: the file, its `.ts` source for a `.js` import, a folder, or the
 *  start of a family of names (`test/fixtures/repro/09-`, `src/atoms/data/mma-sm100-umma-`). */
function pathExists(p: string): boolean {
  if (existsSync(join(root, p)) || existsSync(join(root, p.replace(/\.js$/, '.ts')))) return true;
  if (p.endsWith('-')) {
    const dir = join(root, dirname(p));
    const base = p.slice(p.lastIndexOf('/') + 1);
    return existsSync(dir) && readdirSync(dir).some((f) => f.startsWith(base));
  }
  return false;
}

describe('documentation', () => {
  it('every relative link of README.md and docs/ resolves to a file and heading', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const page of pages) {
      for (const link of links(readFileSync(page, 'utf8'))) {
        const [path, fragment] = link.split('#') as [string, string | undefined];
        const target = path === '' ? page : resolve(dirname(page), path);
        checked++;
        if (!existsSync(target)) broken.push(`${relative(root, page)}: ${link} (no such file)`);
        else if (fragment && target.endsWith('.md') && !anchors(readFileSync(target, 'utf8')).has(fragment)) {
          broken.push(`${relative(root, page)}: ${link} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });

  it('every docs section cited in src/ and test/ exists', () => {
    const cache = new Map<string, Set<string>>();
    const missing: string[] = [];
    let cited = 0;
    for (const file of [...walk(join(root, 'src')), ...walk(join(root, 'test'))]) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/docs\/([\w-]+\.md)\s*§\s*(\d+(?:\.\d+)*)/g)) {
        cited++;
        const page = join(docsDir, m[1]!);
        if (!existsSync(page)) {
          missing.push(`${relative(root, file)}: docs/${m[1]} does not exist`);
          continue;
        }
        if (!cache.has(page)) cache.set(page, sections(readFileSync(page, 'utf8')));
        if (!cache.get(page)!.has(m[2]!)) missing.push(`${relative(root, file)}: docs/${m[1]} §${m[2]} is no heading`);
      }
      for (const m of text.matchAll(foreignCitation)) missing.push(`${relative(root, file)}: cites ${m[0]}, which the repository does not contain`);
    }
    expect(missing).toEqual([]);
    expect(cited).toBeGreaterThan(50);
  });

  it('every heading cited by name in src/ and test/ exists (docs/atoms.md, "Tiled copy")', () => {
    const cache = new Map<string, Set<string>>();
    const missing: string[] = [];
    let cited = 0;
    for (const file of [...walk(join(root, 'src')), ...walk(join(root, 'test'))]) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/docs\/([\w-]+\.md),?\s"([^"\n]{2,80})"/g)) {
        cited++;
        const page = join(docsDir, m[1]!);
        if (!existsSync(page)) {
          missing.push(`${relative(root, file)}: docs/${m[1]} does not exist`);
          continue;
        }
        if (!cache.has(page)) cache.set(page, headingTexts(readFileSync(page, 'utf8')));
        if (!cache.get(page)!.has(m[2]!)) missing.push(`${relative(root, file)}: docs/${m[1]} has no heading "${m[2]}"`);
      }
    }
    expect(missing).toEqual([]);
    expect(cited).toBeGreaterThan(50);
  });

  it('every path of the repository named in a comment, page or script exists', () => {
    const texts = [
      ...walk(join(root, 'src'), /\.(ts|mts|mjs|html|css)$/),
      ...walk(join(root, 'test'), /\.(ts|mts|mjs)$/),
      ...walk(join(root, 'bench'), /\.(ts|mjs|py|sh|md)$/),
      ...walk(join(root, 'scripts'), /\.(mjs|sh)$/),
      ...walk(join(root, 'shaders'), /\.wgsl$/),
      ...pages,
      join(root, '.ci', 'run'),
    ];
    const gone: string[] = [];
    let named = 0;
    for (const file of texts) {
      if (file.endsWith('.generated.ts')) continue; // generated from files checked here
      for (const m of readFileSync(file, 'utf8').matchAll(repoPath)) {
        const p = m[1]!;
        if (madePaths.some((r) => r.test(p))) continue;
        named++;
        if (!pathExists(p)) gone.push(`${relative(root, file)}: ${p}`);
      }
    }
    expect([...new Set(gone)]).toEqual([]);
    expect(named).toBeGreaterThan(200);
  });

  it('the README stays the door: at most 150 lines', () => {
    expect(readFileSync(join(root, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(151);
  });

  it('the anchor rule matches GitHub on the headings this page relies on', () => {
    const a = anchors('## 12. Where layoutgpu differs from CuTe\n### 8.1 Pasted input\n## `batch`: the machine\n## x\n## x\n');
    expect([...a]).toEqual(['12-where-layoutgpu-differs-from-cute', '81-pasted-input', 'batch-the-machine', 'x', 'x-1']);
  });
});
