/**
 * Generator of bench/corpus/linear-bridge.jsonl: the speed corpus of the bridge between CuTe and
 * Triton (issue 21, "Speed": to_ll, from_ll, ll_from_encoding ≥ 100k/s). Seeded and
 * deterministic: the committed corpus is what `npx tsx bench/gen-linear-bridge-corpus.ts` writes.
 *
 * - ll_from_encoding: the encodings as Triton prints them (blocked, slice, nvidia_mma v2/v3,
 *   dot_op, amd_mfma, swizzled_shared, nvmma_shared, linear) over power-of-two shapes of 16 to
 *   2^20 elements, some with a CGA layout;
 * - from_ll: half the LLs of those encodings (real register and shared layouts, many swizzled),
 *   half random LLs of up to 20 in-bits (broadcast and non-surjective included; most have no
 *   CuTe form, so the swizzle search runs to its end);
 * - to_ll: CuTe layouts of 2^4 to 2^20 elements: linear ones (disjoint power-of-two strides,
 *   sometimes under a swizzle) as function, tv and shared kinds, and some that are not linear
 *   (padding, carries, offsets, non-power-of-two sizes).
 *
 * Run: npx tsx bench/gen-linear-bridge-corpus.ts [out.jsonl] [requests per op]
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { llFromEncoding } from '../src/linear/encodings.js';
import { toCanonicalJson } from '../src/linear/forms.js';
import { mulberry32 } from '../test/helpers/brute.js'; // the project's one seeded generator

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = process.argv[2] ?? join(root, 'bench', 'corpus', 'linear-bridge.jsonl');
const PER_OP = Number(process.argv[3] ?? 1000);
const SEED = 0x21b41d6e;

const rng = mulberry32(SEED);
const int = (lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
const chance = (p: number): boolean => rng() < p;
const p2 = (lo: number, hi: number): number => 2 ** int(lo, hi);
const list = (xs: readonly number[]): string => `[${xs.join(', ')}]`;
const shuffle = <T>(xs: readonly T[]): T[] => {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = int(0, i);
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
};

/** Powers of two with `bits` bits in all over r dims (each at most 2^14). */
function shapeOf(r: number, bits: number): number[] {
  const b = new Array<number>(r).fill(0);
  for (let i = 0; i < bits; i++) b[int(0, r - 1)]!++;
  return b.map((k) => 2 ** Math.min(k, 14));
}

const mma2 = (r: number): string =>
  `#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = ${list(shapeOf(r, int(0, 3)))}, instrShape = ${r === 2 ? '[16, 8]' : '[1, 16, 8]'}}>`;
const blocked = (r: number): string => {
  const vectors = (): string => JSON.stringify(Array.from({ length: int(1, 2) }, () => shapeOf(r, 0).map((_, d) => (d === 0 ? 1 : 0)))).replace(/,/g, ', ');
  const cga = chance(0.15) ? `, CGALayout = ${vectors()}` : '';
  const spt = list(shapeOf(r, int(0, 3)));
  const tpw = list(shapeOf(r, 5));
  const wpc = list(shapeOf(r, int(0, 3)));
  const order = list(shuffle(Array.from({ length: r }, (_, d) => d)));
  return `#ttg.blocked<{sizePerThread = ${spt}, threadsPerWarp = ${tpw}, warpsPerCTA = ${wpc}, order = ${order}${cga}}>`;
};

/** An encoding attribute of rank r, and whether it is a shared one. */
function encoding(r: number): string {
  switch (int(0, 8)) {
    case 0:
    case 1:
      return blocked(r);
    case 2:
      return r === 2 ? `#ttg.slice<{dim = ${int(0, 2)}, parent = ${blocked(3)}}>` : blocked(r);
    case 3:
      return mma2(r);
    case 4:
      return r === 2 ? `#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [${p2(0, 2)}, 1], instrShape = [16, ${p2(3, 8)}, 16]}>` : mma2(r);
    case 5:
      return `#ttg.dot_op<{opIdx = ${int(0, 1)}, parent = ${mma2(r)}, kWidth = ${p2(0, 3)}}>`;
    case 6: {
      if (r !== 2) return mma2(r);
      const warps = list(shapeOf(2, int(0, 3)));
      const instr = pick(['[32, 32, 8]', '[16, 16, 16]']);
      return `#ttg.amd_mfma<{version = 3, warpsPerCTA = ${warps}, instrShape = ${instr}, isTransposed = ${pick(['true', 'false'])}}>`;
    }
    case 7: {
      const phases = `vec = ${p2(0, 3)}, perPhase = ${p2(0, 2)}, maxPhase = ${p2(0, 3)}`;
      return `#ttg.swizzled_shared<{${phases}, order = ${list(shuffle(Array.from({ length: r }, (_, d) => d)))}}>`;
    }
    default: {
      const w = pick([0, 32, 64, 128]);
      const t = r === 2 ? pick(['true', 'false']) : 'false';
      return `#ttg.nvmma_shared<{swizzlingByteWidth = ${w}, transposed = ${t}, elementBitWidth = ${pick([8, 16, 32])}}>`;
    }
  }
}

/** A shape the encoding takes (nvmma_shared needs 8 rows and an atom of columns). */
function shapeFor(r: number): number[] {
  const s = shapeOf(r, int(4, 20));
  if (r >= 2) {
    s[r - 1] = Math.max(s[r - 1]!, 128);
    s[r - 2] = Math.max(s[r - 2]!, 128);
  }
  return s;
}

const encodings: { attr: string; shape: number[] }[] = [];
while (encodings.length < PER_OP) {
  const r = chance(0.8) ? 2 : 3;
  const attr = encoding(r);
  const shape = shapeFor(r);
  try {
    llFromEncoding(attr, shape);
    encodings.push({ attr, shape });
  } catch {
    if (chance(0.05)) encodings.push({ attr, shape }); // a few refusals, timed as answers
  }
}

/** A random LL of up to 20 in-bits over dim0 … (or in/out), broadcast and repeats included. */
function randomLL(): unknown {
  const kind = pick(['register', 'shared', 'function']);
  const outBits = int(1, 20);
  const outs = kind === 'function' ? [['out', 2 ** outBits]] : shapeOf(int(1, 3), outBits).map((s, d) => [`dim${d}`, s]);
  const ins = kind === 'register' ? ['register', 'lane', 'warp', 'block'] : kind === 'shared' ? ['offset', 'block'] : ['in'];
  const inBits = Math.min(20, outBits + int(0, 3));
  const counts = ins.map(() => 0);
  for (let i = 0; i < inBits; i++) counts[kind === 'shared' ? 0 : int(0, ins.length - 1)]!++;
  const value = (): number[] =>
    outs.map(([, s]) => {
      const n = s as number;
      const r = rng();
      return r < 0.6 ? (chance(0.5) ? 2 ** int(0, Math.log2(n)) % n : 0) : int(0, n - 1);
    });
  return { bases: ins.map((name, k) => [name, Array.from({ length: counts[k]! }, value)]), outDims: outs };
}

/** A CuTe layout text: linear (disjoint power-of-two strides, maybe swizzled) or not. */
function cute(): { text: string; rank2: boolean; bits: number } {
  const bits = int(4, 20);
  const nModes = int(1, 4);
  const counts = new Array<number>(nModes).fill(0);
  for (let i = 0; i < bits; i++) counts[int(0, nModes - 1)]!++;
  const strideBits = shuffle(Array.from({ length: bits + 2 }, (_, i) => i));
  let at = 0;
  const modes = counts.map((k) => {
    const ents: [number, number][] = [];
    let left = k;
    do {
      const e = Math.min(left, int(1, 4));
      ents.push([2 ** e, e === 0 ? 0 : 2 ** strideBits[at]!]);
      at += e;
      left -= e;
    } while (left > 0);
    return ents;
  });
  // keep the strides disjoint (an entry of 2^e values covers e bits from its stride)
  let used = 0;
  for (const m of modes) {
    for (const e of m) {
      const span = (e[0] - 1) * e[1];
      if ((used & span) !== 0) e[1] = 0;
      else used |= span;
    }
  }
  const r = rng();
  if (r < 0.05) modes[0]![0] = [3, 1];
  else if (r < 0.1) modes[0]![0] = [modes[0]![0]![0], modes[0]![0]![1] + 1];
  const show = (m: [number, number][]): [string, string] =>
    m.length === 1 ? [String(m[0]![0]), String(m[0]![1])] : [`(${m.map((e) => e[0]).join(',')})`, `(${m.map((e) => e[1]).join(',')})`];
  const shown = modes.map(show);
  let text = `(${shown.map((s) => s[0]).join(',')}):(${shown.map((s) => s[1]).join(',')})`;
  if (chance(0.25)) text = `Sw<${pick([1, 2, 3])},${int(0, 4)},${pick([3, 4, -3])}> o ${chance(0.05) ? '8 o ' : ''}${text}`;
  return { text, rank2: nModes === 2, bits };
}

const lines: string[] = [];
const push = (op: string, i: number, args: unknown[]): void => void lines.push(JSON.stringify({ id: `${op}-${i}`, op, args }));
encodings.forEach((e, i) => push('ll_from_encoding', i, [e.attr, e.shape]));
for (let i = 0; i < PER_OP; i++) {
  let l: unknown;
  if (i % 2 === 0) {
    const e = encodings[i]!;
    try {
      l = toCanonicalJson(llFromEncoding(e.attr, e.shape));
    } catch {
      l = randomLL();
    }
  } else l = randomLL();
  push('from_ll', i, [l]);
}
for (let i = 0; i < PER_OP; i++) {
  const c = cute();
  const kind = c.rank2 && chance(0.4) ? 'tv' : chance(0.4) ? 'shared' : 'function';
  if (kind === 'tv') push('to_ll', i, [c.text, 'tv', [2 ** Math.min(Math.max(c.bits + 2, 12), 30)]]);
  else if (kind === 'shared') push('to_ll', i, [c.text, 'shared']);
  else push('to_ll', i, [c.text]);
}
writeFileSync(out, lines.join('\n') + '\n');
console.log(`wrote ${lines.length} requests to ${out}`);
