#!/usr/bin/env node
// The hard line limit that Biome's formatter cannot hold: it wraps code at 160 columns (biome.json) but leaves
// a long string, template literal or comment as it is. Fails (exit 1, one line per offender) on any line longer
// than MAX characters in the tracked sources Biome checks; the generated tables (shaders, `*.generated.ts`) are exempt.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const MAX = 240;
const EXEMPT = new Set(['src/engine/shaders.generated.ts']);
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'src', 'test', 'bench', 'scripts', '*.ts'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => /\.(ts|mts|mjs|js)$/.test(f) && !EXEMPT.has(f) && !f.endsWith('.generated.ts'));
let bad = 0;
for (const f of files) {
  let text;
  try {
    text = readFileSync(f, 'utf8');
  } catch {
    continue; // deleted in the working tree
  }
  text.split('\n').forEach((line, i) => {
    const n = [...line].length;
    if (n > MAX) {
      bad++;
      console.error(`${f}:${i + 1}: ${n} characters (at most ${MAX}; split the string or comment)`);
    }
  });
}
if (bad > 0) {
  console.error(`check-line-width: ${bad} line(s) longer than ${MAX} characters`);
  process.exit(1);
}
