/**
 * The library is what the documentation says (issue 25, item 6): every fenced code block of README.md and docs/*.md
 * names its language, and every ```ts block is a program: extracted into a file of its own that imports the
 * package's entry (`layoutgpu`, mapped to src/node.ts; `layoutgpu/browser` to src/browser.ts), type-checked with
 * tsc and run with tsx. A statement followed by a comment holding a JSON value or a quoted string
 * (`phi(A, 7); // 14`, the comment on the statement's line or alone on the next) is an assertion: the run compares
 * the value with it. A block that is not meant to run says so on its fence with a reason: ```ts no-run: <why>.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scratchDir } from '../helpers/tmp.js';

const root = resolve(import.meta.dirname, '..', '..');
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** A fenced block: its page, the line of its fence, the fence's info string and its text. */
interface Block {
  readonly page: string;
  readonly line: number;
  readonly info: string;
  readonly text: string;
}

function blocksOf(page: string): Block[] {
  const lines = readFileSync(join(root, page), 'utf8').split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(.*)$/.exec(lines[i]!);
    if (!open) continue;
    let j = i + 1;
    while (j < lines.length && lines[j] !== '```') j++;
    out.push({ page, line: i + 1, info: open[1]!.trim(), text: lines.slice(i + 1, j).join('\n') });
    i = j;
  }
  return out;
}

/** A comment that states a value: a JSON literal, or a single-quoted string. */
function statedValue(comment: string): string | null {
  const c = comment.trim();
  if (/^'[^']*'$/.test(c)) return JSON.stringify(c.slice(1, -1));
  try {
    JSON.parse(c);
    return c;
  } catch {
    return null;
  }
}

/**
 * The block as a module: a statement `expr;` whose comment (on its line, or alone on the next) states a value
 * becomes `check(expr, value, line)`; every other line is kept.
 */
function asProgram(b: Block): string {
  const lines = b.text.split('\n');
  const out: string[] = ['import { deepStrictEqual } from "node:assert";'];
  out.push('const check = (got: unknown, want: unknown, at: string): void => deepStrictEqual(got, want, at);');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const same = /^(\s*)([^/].*?);\s*\/\/\s*(.+)$/.exec(line);
    const next = /^\s*\/\/\s*(.+)$/.exec(lines[i + 1] ?? '');
    const stmt = /^(\s*)([^/].*?);\s*$/.exec(line);
    const at = JSON.stringify(`${b.page}:${b.line + 1 + i}`);
    const isExpr = (s: string): boolean => !/^(const|let|var|import|export|await\s+import|if|for|while|return)\b/.test(s);
    if (same && isExpr(same[2]!) && statedValue(same[3]!) !== null) {
      out.push(`${same[1]}check(${same[2]}, ${statedValue(same[3]!)}, ${at});`);
    } else if (stmt && next && isExpr(stmt[2]!) && statedValue(next[1]!) !== null) {
      out.push(`${stmt[1]}check(${stmt[2]}, ${statedValue(next[1]!)}, ${at});`);
      i++;
    } else out.push(line);
  }
  return `${out.join('\n')}\n`;
}

const blocks = pages.flatMap(blocksOf);
const programs = blocks.filter((b) => /^(ts|typescript)\b/.test(b.info) && !/\bno-run\b/.test(b.info));

describe('the code blocks of README.md and docs/', () => {
  const dir = scratchDir('layoutgpu-docs-');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('each names its language, and a block that does not run says why', () => {
    for (const b of blocks) {
      expect(b.info, `${b.page}:${b.line}: a fence names its language`).not.toBe('');
      if (/\bno-run\b/.test(b.info)) expect(b.info, `${b.page}:${b.line}: no-run gives a reason`).toMatch(/no-run:\s*\S/);
    }
    expect(programs.length).toBeGreaterThanOrEqual(3);
  });

  it('every ts block type-checks against the package entry and runs, its stated values holding', () => {
    const files = programs.map((b, k) => {
      const name = `block-${k}-${b.page.replace(/[^a-z0-9]+/gi, '-')}-${b.line}.mts`;
      writeFileSync(join(dir, name), asProgram(b));
      return name;
    });
    const paths = { layoutgpu: [join(root, 'src/node.ts')], 'layoutgpu/browser': [join(root, 'src/browser.ts')] };
    const tsconfig = {
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        allowImportingTsExtensions: true,
        types: ['node', '@webgpu/types'],
        typeRoots: [join(root, 'node_modules/@types'), join(root, 'node_modules')],
        paths,
      },
      files,
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
    mkdirSync(join(dir, 'node_modules'), { recursive: true });
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    try {
      execFileSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8', stdio: 'pipe' });
    } catch (e) {
      const out = e as { stdout?: string; stderr?: string };
      expect.fail(`tsc on the docs' blocks:\n${out.stdout ?? ''}${out.stderr ?? ''}`);
    }
    for (const [k, f] of files.entries()) {
      const b = programs[k]!;
      const tsx = join(root, 'node_modules/tsx/dist/cli.mjs');
      try {
        execFileSync(process.execPath, [tsx, '--tsconfig', join(dir, 'tsconfig.json'), join(dir, f)], {
          encoding: 'utf8',
          stdio: 'pipe',
          cwd: dir,
          env: { ...process.env, XDG_RUNTIME_DIR: process.env['XDG_RUNTIME_DIR'] ?? dir },
        });
      } catch (e) {
        const out = e as { stdout?: string; stderr?: string };
        expect.fail(`${b.page}:${b.line} does not run:\n${out.stderr ?? ''}${out.stdout ?? ''}`);
      }
    }
  });
});
