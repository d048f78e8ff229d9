/**
 * The documentation belongs to the repository: every relative link in README.md and docs/ points
 * at a file that exists (and, with a #fragment, at a heading of it), and every citation of a
 * docs page section in src/ and test/ (`docs/semantics.md §5.2`) names a heading that exists.
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

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : /\.(ts|mts|mjs)$/.test(f) ? [p] : [];
  });
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

  it('the README stays the door: at most 150 lines', () => {
    expect(readFileSync(join(root, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(151);
  });

  it('the anchor rule matches GitHub on the headings this page relies on', () => {
    const a = anchors('## 12. Where layoutgpu differs from CuTe\n### 8.1 Pasted input\n## `batch`: the machine\n## x\n## x\n');
    expect([...a]).toEqual(['12-where-layoutgpu-differs-from-cute', '81-pasted-input', 'batch-the-machine', 'x', 'x-1']);
  });
});
