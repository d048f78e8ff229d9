#!/usr/bin/env node
// Writes the warpgroup and tcgen05 MMA atoms as literal tables (docs/atoms.md, "SM90 GMMA" and "SM100 UMMA"), one
// row per name, so that grep finds every name: src/atoms/data/mma-sm90-gmma.generated.ts and
// src/atoms/data/mma-sm100-umma-{1sm,2sm}.generated.ts. The families, their legal (M, N) and the layout rules below
// are the source of truth (facts of CuTe's mma_traits_sm90_gmma.hpp, mma_traits_sm100.hpp and the static_asserts
// of mma_sm100_umma.hpp): edit them, then run `node scripts/gen-atoms.mjs` and commit the tables. With --check it
// writes nothing and exits 1 when a committed table is stale (`npm run check:atoms`, .ci/run).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const range = (from, to, step) => Array.from({ length: (to - from) / step + 1 }, (_, i) => from + i * step);

// ---- SM90 GMMA (include/cute/atom/mma_traits_sm90_gmma.hpp) ----

/** The N of the required set (the others of `mma_traits_sm90_gmma_ext.hpp` are optional). */
const GMMA_N = [8, 16, 32, 64, 96, 128, 192, 256];
/** `GMMA::ABLayout<MN,K>`: every one of the 128 threads sees the whole tile through the descriptor. */
const gmmaAB = (mn, k) => `(128,(${mn},${k})):(0,(1,${mn}))`;
/** `GMMA::CLayout_64xN`. */
const gmmaC = (n) => `((4,8,4),(2,2,${n / 8})):((128,1,16),(64,8,512))`;
/** The register-source A layouts by the A type's width in bits: `GMMA::ALayout_64x{8,16,32}`. */
const gmmaRsA = {
  32: '((4,8,4),(2,2)):((64,1,16),(8,256))',
  16: '((4,8,4),(2,2,2)):((128,1,16),(64,8,512))',
  8: '((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))',
};
/** The 40 families `SM90_64xNxK_<types>_{SS,RS}<suffix>`: types, K and the A type's width. */
const gmmaFamilies = [
  ...['F16F16F16', 'F32F16F16', 'F32BF16BF16'].map((types) => ({ types, k: 16, bitsA: 16, suffix: '' })),
  { types: 'F32TF32TF32', k: 8, bitsA: 32, suffix: '_TN' },
  ...['S8S8', 'S8U8', 'U8S8', 'U8U8'].flatMap((ab) => ['_TN', '_TN_SATURATE'].map((suffix) => ({ types: `S32${ab}`, k: 32, bitsA: 8, suffix }))),
  ...['E4M3E4M3', 'E4M3E5M2', 'E5M2E4M3', 'E5M2E5M2'].flatMap((ab) => ['F16', 'F32'].map((acc) => ({ types: `${acc}${ab}`, k: 32, bitsA: 8, suffix: '_TN' }))),
];
const gmmaRows = gmmaFamilies.flatMap((f) =>
  GMMA_N.flatMap((n) =>
    [false, true].map((rs) => ({
      name: `SM90_64x${n}x${f.k}_${f.types}_${rs ? 'RS' : 'SS'}${f.suffix}`,
      thrID: '128:1',
      shapeMNK: [64, n, f.k],
      A: rs ? gmmaRsA[f.bitsA] : gmmaAB(64, f.k),
      B: gmmaAB(n, f.k),
      C: gmmaC(n),
      descriptors: rs ? 'B' : 'AB',
    })),
  ),
);

// ---- SM100 UMMA (include/cute/atom/mma_traits_sm100.hpp, include/cute/arch/mma_sm100_umma.hpp) ----

// The legal (M, N) of each family, the union over the template arguments that are not part of the name (where the
// N set depends on B's major, the K-major set, the larger).
const m64or128 = (n64, n128) => [...n64.map((n) => [64, n]), ...n128.map((n) => [128, n])];
const m128or256 = (ns) => [128, 256].flatMap((m) => ns.map((n) => [m, n]));
const N8 = range(8, 256, 8);
const N16 = range(16, 256, 16);
const N32 = range(32, 256, 32);
const S8N = [8, ...N16];
/** One family: the struct's name, K (256 bits of the A type, or CuTe's K constant), its (M, N) set, whether A is in
 *  tensor memory (`_TS`) or shared memory (`_SS`), and whether the pair of peer CTAs issue it (`_2x1SM`). */
const ummaFamilies = [
  ['TF32', 8],
  ['F16BF16', 16],
].flatMap(([t, k]) => [
  { name: `SM100_MMA_${t}_SS`, k, mn: m64or128(N8, N8) },
  { name: `SM100_MMA_${t}_TS`, k, mn: m64or128(N8, N16) },
  { name: `SM100_MMA_${t}_2x1SM_SS`, k, mn: m128or256(N16) },
  { name: `SM100_MMA_${t}_2x1SM_TS`, k, mn: m128or256(N32) },
]);
ummaFamilies.push(
  { name: 'SM100_MMA_S8_SS', k: 32, mn: m64or128(S8N, S8N) },
  { name: 'SM100_MMA_S8_TS', k: 32, mn: m64or128(S8N, S8N) },
  { name: 'SM100_MMA_S8_2x1SM_SS', k: 32, mn: m128or256(N32) },
  { name: 'SM100_MMA_S8_2x1SM_TS', k: 32, mn: m128or256(N32) },
  { name: 'SM100_MMA_F8F6F4_SS', k: 32, mn: m64or128(N8, N8) },
  { name: 'SM100_MMA_F8F6F4_TS', k: 32, mn: m64or128(N8, N16) },
  { name: 'SM100_MMA_F8F6F4_2x1SM_SS', k: 32, mn: m128or256(N16) },
  { name: 'SM100_MMA_F8F6F4_2x1SM_TS', k: 32, mn: m128or256(N32) },
  { name: 'SM100_MMA_MXF8F6F4_SS', k: 32, mn: N8.map((n) => [128, n]) },
  { name: 'SM100_MMA_MXF8F6F4_2x1SM_SS', k: 32, mn: N16.map((n) => [256, n]) },
  { name: 'SM100_MMA_MXF4_SS', k: 64, mn: N8.map((n) => [128, n]) },
  { name: 'SM100_MMA_MXF4_2x1SM_SS', k: 64, mn: m128or256(N16) },
);
/** 1-SM: ThrID `Layout<_1>`, each operand the whole tile `(1,(P,Q)):(0,(1,P))`; 2-SM: ThrID `Layout<_2>`, peer CTA
 *  c holds rows [c·P/2, (c+1)·P/2) of each operand: `(2,(P/2,Q)):(P/2,(1,P))`. */
const ummaTV = (two, p, q) => (two ? `(2,(${p / 2},${q})):(${p / 2},(1,${p}))` : `(1,(${p},${q})):(0,(1,${p}))`);
const ummaRows = (two) =>
  ummaFamilies
    .filter((f) => f.name.includes('_2x1SM_') === two)
    .flatMap((f) =>
      f.mn.map(([m, n]) => ({
        name: `${f.name}<${m},${n}>`,
        thrID: two ? '2:1' : '1:0',
        shapeMNK: [m, n, f.k],
        A: ummaTV(two, m, f.k),
        B: ummaTV(two, n, f.k),
        C: ummaTV(two, m, n),
        descriptors: f.name.endsWith('_TS') ? 'B' : 'AB',
      })),
    );

// ---- the tables ----

const q = (s) => `'${s}'`;
const row = (r) =>
  `  { name: ${q(r.name)}, thrID: ${q(r.thrID)}, shapeMNK: [${r.shapeMNK.join(', ')}], A: ${q(r.A)}, B: ${q(r.B)}, C: ${q(r.C)}, ` +
  `descriptors: ${q(r.descriptors)}, source },`;
const table = (doc, exportName, source, rows) =>
  '// Generated by scripts/gen-atoms.mjs: do not edit (run `node scripts/gen-atoms.mjs`).\n' +
  `/** ${doc} */\n` +
  "import type { MmaAtomData } from '../types.js';\n\n" +
  `const source = '${source}';\n\n` +
  `export const ${exportName}: readonly MmaAtomData[] = [\n${rows.map(row).join('\n')}\n];\n`;

const SM100 = 'include/cute/atom/mma_traits_sm100.hpp';
const outputs = [
  [
    'mma-sm90-gmma.generated.ts',
    table(
      'SM90 GMMA atoms (docs/atoms.md, "SM90 GMMA"): 40 families for N ∈ {8, 16, 32, 64, 96, 128, 192, 256}, 320 names.',
      'sm90GmmaMma',
      'include/cute/atom/mma_traits_sm90_gmma.hpp',
      gmmaRows,
    ),
  ],
  [
    'mma-sm100-umma-1sm.generated.ts',
    table('SM100 tcgen05 MMA atoms of one CTA (docs/atoms.md, "SM100 UMMA"), `Name<M,N>` for every legal M and N.', 'sm100UmmaMma1Sm', SM100, ummaRows(false)),
  ],
  [
    'mma-sm100-umma-2sm.generated.ts',
    table('SM100 tcgen05 MMA atoms of a CTA pair, `_2x1SM` (docs/atoms.md, "SM100 UMMA"), for every legal M and N.', 'sm100UmmaMma2Sm', SM100, ummaRows(true)),
  ],
];

let stale = false;
for (const [file, text] of outputs) {
  const target = join(root, 'src', 'atoms', 'data', file);
  const current = existsSync(target) ? readFileSync(target, 'utf8') : null;
  if (current === text) continue;
  if (process.argv.includes('--check')) {
    console.error(`src/atoms/data/${file} does not match scripts/gen-atoms.mjs: run \`npm run gen:atoms\` and commit the result`);
    stale = true;
  } else {
    writeFileSync(target, text);
  }
}
if (stale) process.exit(1);
