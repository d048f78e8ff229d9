/**
 * Layout → WGSL. The kernels live in `shaders/*.wgsl` (inlined by scripts/gen-shaders.mjs);
 * this module generates what they call: `phi_*` with the layout's shapes and strides folded in
 * as constants (a power-of-two shape becomes a mask and a shift, any other a division by a
 * constant, which the compiler turns into a multiply), the index and offset types, and small
 * helpers. Only validated integers (makeLayout's) ever reach the source.
 *
 * Widths: an index is u32 while size ≤ 2^32, else a two-limb u64 (vec2<u32>); an offset is u32
 * while cosize ≤ 2^32, else u64. Layouts are below 2^53 throughout (makeLayout).
 */
import type { Layout } from '../algebra/layout.js';
import { LayoutError } from '../algebra/errors.js';
import { prepare, TWO32, type Prepared } from './prep.js';
import { SHADERS } from './shaders.generated.js';

/**
 * The generated kernels: Φ over a range (eval), its digest, the compactness check, the composite
 * check and the tile map (`layoutgpu wgsl --kernel …`).
 */
export type KernelName = 'eval' | 'digest' | 'compact' | 'compose' | 'tiles';
/**
 * Every KernelName, in the CLI's order.
 * @example KERNELS.includes('compact') // true
 */
export const KERNELS: readonly KernelName[] = ['eval', 'digest', 'compact', 'compose', 'tiles'];

/** threads per workgroup */
export const WG = 256;

const U32 = 'u32';
const U64 = 'vec2<u32>';

const isPow2 = (v: number): boolean => v > 0 && Number.isInteger(Math.log2(v)) && 2 ** Math.log2(v) === v;

function u32Lit(v: number): string {
  if (!Number.isInteger(v) || v < 0 || v >= TWO32) throw new LayoutError('overflow', `internal: ${v} is no u32`);
  return `${v}u`;
}

function u64Lit(v: number): string {
  if (!Number.isSafeInteger(v) || v < 0) throw new LayoutError('overflow', `internal: ${v} is no exact integer`);
  const hi = Math.floor(v / TWO32);
  return `vec2<u32>(${u32Lit(v - hi * TWO32)}, ${u32Lit(hi)})`;
}

export interface PhiGen {
  /** source of `fn name(x: idxType) -> offType` */
  source: string;
  idxType: string;
  offType: string;
}

/**
 * `fn <name>(x) -> offset`: Φ of the prepared layout for an index of the given width.
 * `wideIndex`: x is a vec2<u32>; `maxIndex`: an upper bound of x (to skip dead modes).
 */
export function genPhi(name: string, p: Prepared, wideIndex: boolean): PhiGen {
  const wideOff = p.wideOffset;
  const idxType = wideIndex ? U64 : U32;
  const offType = wideOff ? U64 : U32;
  const L: string[] = [];
  const m = p.shapes.length;
  L.push(`// Φ of ${p.text}: coalesced flat (${p.shapes.join(',')}):(${p.strides.join(',')})`);
  L.push(`fn ${name}(x: ${idxType}) -> ${offType} {`);
  if (m === 0) {
    L.push(`  return ${wideOff ? 'vec2<u32>(0u, 0u)' : '0u'};`, '}');
    return { source: L.join('\n'), idxType, offType };
  }
  L.push(`  var r = x;`);
  L.push(`  var o = ${wideOff ? 'vec2<u32>(0u, 0u)' : '0u'};`);
  // the coordinate of each mode: u32 ('c32') or u64 ('c64')
  let dead = false; // the rest of the index is 0 from here on
  for (let j = 0; j < m && !dead; j++) {
    const s = p.shapes[j]!;
    const d = p.strides[j]!;
    const last = j === m - 1;
    let coord: string; // expression of the coordinate
    let coordWide = false;
    L.push(`  // mode ${j}: ${s}:${d}`);
    if (!wideIndex) {
      if (last || s >= TWO32) {
        coord = 'r';
        dead = true;
      } else if (isPow2(s)) {
        const k = Math.log2(s);
        L.push(`  let c${j} = r & ${u32Lit(s - 1)};`);
        L.push(`  r = r >> ${k}u;`);
        coord = `c${j}`;
      } else {
        L.push(`  let c${j} = r % ${u32Lit(s)};`);
        L.push(`  r = r / ${u32Lit(s)};`);
        coord = `c${j}`;
      }
    } else {
      if (last) {
        coord = 'r';
        coordWide = true;
        dead = true;
      } else if (s < TWO32 && isPow2(s)) {
        const k = Math.log2(s);
        L.push(`  let c${j} = r.x & ${u32Lit(s - 1)};`);
        L.push(`  r = u64_shr(r, ${k}u);`);
        coord = `c${j}`;
      } else if (s < TWO32) {
        L.push(`  let qr${j} = ${s <= 65536 ? 'u64_divmod_small' : 'u64_divmod32'}(r, ${u32Lit(s)});`);
        L.push(`  let c${j} = qr${j}.z;`);
        L.push(`  r = qr${j}.xy;`);
        coord = `c${j}`;
      } else {
        L.push(`  let qr${j} = u64_divmod(r, ${u64Lit(s)});`);
        L.push(`  let c${j} = qr${j}.r;`);
        L.push(`  r = qr${j}.q;`);
        coord = `c${j}`;
        coordWide = true;
      }
    }
    if (d === 0) continue;
    if (!wideOff) {
      // c·d < cosize ≤ 2^32, so c < 2^32 too
      const c = coordWide ? `${coord}.x` : coord;
      if (d === 1) L.push(`  o = o + ${c};`);
      else if (isPow2(d)) L.push(`  o = o + (${c} << ${Math.log2(d)}u);`);
      else L.push(`  o = o + ${c} * ${u32Lit(d)};`);
    } else if (!coordWide && d < TWO32) {
      if (d === 1) L.push(`  o = u64_add32(o, ${coord});`);
      else L.push(`  o = u64_add(o, u64_mul32(${coord}, ${u32Lit(d)}));`);
    } else {
      const c = coordWide ? coord : `vec2<u32>(${coord}, 0u)`;
      L.push(`  o = u64_add(o, u64_mul(${c}, ${u64Lit(d)}));`);
    }
  }
  L.push('  return o;', '}');
  return { source: L.join('\n'), idxType, offType };
}

function widen(name: string, offType: string): string {
  return offType === U32
    ? `fn ${name}(v: u32) -> vec2<u32> { return vec2<u32>(v, 0u); }`
    : `fn ${name}(v: vec2<u32>) -> vec2<u32> { return v; }`;
}

function indexOf(wide: boolean): string {
  return wide
    ? 'fn index_of(t: u32) -> vec2<u32> { return u64_add32(params.base, t); }'
    : 'fn index_of(t: u32) -> u32 { return params.base.x + t; }';
}

function header(kernel: KernelName | 'find', lines: string[]): string {
  return [
    `// layoutgpu: generated WGSL, kernel "${kernel}"`,
    ...lines.map((l) => `// ${l}`),
    '',
    `const WG: u32 = ${WG}u;`,
  ].join('\n');
}

export interface GeneratedKernel {
  kernel: KernelName | 'find';
  source: string;
  /** bytes per output value of eval/tiles (4 or 8) */
  offBytes: number;
  wideIndex: boolean;
}

/** eval | digest | compact of one layout. */
/** Indices walked by one thread of the digest kernel: its exact sum must stay below 2^64
 *  (256 · cosize < 2^64 since cosize ≤ 2^53), and a 2^24-index dispatch keeps 65,536 threads. */
export function digestPerThread(_p: Prepared): number {
  return 256;
}

export function genSingle(kernel: 'eval' | 'digest' | 'compact' | 'find', l: Layout | Prepared, windowed = false): GeneratedKernel {
  const p = 'text' in l ? l : prepare(l);
  const wideIndex = p.size > TWO32;
  const phi = genPhi('phi_l', p, wideIndex);
  const parts = [
    header(kernel, [
      `layout L = ${p.text}`,
      `size ${p.size}, cosize ${p.cosize}; index ${wideIndex ? 'u64' : 'u32'}, offset ${p.wideOffset ? 'u64' : 'u32'}`,
    ]),
    kernel === 'digest' || wideIndex || p.wideOffset ? SHADERS.u64 : '// (no 64-bit helpers needed: index and offsets fit in u32)',
    SHADERS.common,
    `alias OFF_L = ${phi.offType};`,
    indexOf(wideIndex),
    phi.source,
    widen('widen_l', phi.offType),
  ];
  if (kernel === 'compact' && (windowed || p.size > TWO32)) {
    parts.push('fn outside_window(q: u32) -> bool { return q >= params.window_len; }');
  }
  if (kernel === 'compact') {
    // out of range: Φ(x) ≥ size(L); in_window: Φ(x) − window as u32, or 0xffffffff outside.
    // One window covers every offset below size(L) unless the bitmap had to be split.
    if (!windowed && p.size <= TWO32) {
      parts.push(
        p.size >= TWO32
          ? 'fn out_of_range(v: u32) -> bool { return false; }'
          : p.wideOffset
            ? `fn out_of_range(v: vec2<u32>) -> bool { return v.y != 0u || v.x >= ${u32Lit(p.size)}; }`
            : `fn out_of_range(v: u32) -> bool { return v >= ${u32Lit(p.size)}; }`,
        `// a single window: every offset below size(L)\nfn in_window(v: OFF_L) -> u32 { return ${p.wideOffset ? 'v.x' : 'v'}; }`,
        'fn outside_window(q: u32) -> bool { return false; }',
      );
    } else if (!p.wideOffset) {
      parts.push(
        p.size >= TWO32
          ? 'fn out_of_range(v: u32) -> bool { return false; }'
          : `fn out_of_range(v: u32) -> bool { return v >= ${u32Lit(p.size)}; }`,
        'fn in_window(v: u32) -> u32 { return select(0xffffffffu, v - params.window.x, v >= params.window.x); }',
      );
    } else {
      parts.push(
        `fn out_of_range(v: vec2<u32>) -> bool { return !u64_lt(v, ${u64Lit(p.size)}); }`,
        'fn in_window(v: vec2<u32>) -> u32 {\n  if (u64_lt(v, params.window)) { return 0xffffffffu; }\n' +
          '  let q = u64_sub(v, params.window);\n  return select(0xffffffffu, q.x, q.y == 0u);\n}',
      );
    }
  }
  if (kernel === 'digest') {
    parts.push(`const DIGEST_PER: u32 = ${digestPerThread(p)}u;`);
    parts.push(
      p.wideOffset
        ? `fn digest_walk(first: u32, n: u32) -> Acc {
  var a = Acc(vec2<u32>(0u, 0u), vec2<u32>(0xffffffffu, 0xffffffffu), vec2<u32>(0u, 0u));
  for (var k = 0u; k < n; k = k + 1u) {
    let v = widen_l(phi_l(index_of(first + k)));
    a.sum = u64_add(a.sum, v);
    a.lo = u64_min(a.lo, v);
    a.hi = u64_max(a.hi, v);
  }
  return a;
}`
        : `fn digest_walk(first: u32, n: u32) -> Acc {
  var lo = 0u;
  var carries = 0u;
  var mn = 0xffffffffu;
  var mx = 0u;
  for (var k = 0u; k < n; k = k + 1u) {
    let v = phi_l(index_of(first + k));
    let s = lo + v;
    carries = carries + select(0u, 1u, s < v);
    lo = s;
    mn = min(mn, v);
    mx = max(mx, v);
  }
  // n ≥ 1 here, so mn is a real offset
  return Acc(vec2<u32>(lo, carries), vec2<u32>(mn, 0u), vec2<u32>(mx, 0u));
}`,
    );
  }
  parts.push(SHADERS[kernel]);
  return { kernel, source: parts.join('\n\n'), offBytes: p.wideOffset ? 8 : 4, wideIndex };
}

/** compose: Φ_C(x) vs Φ_B(Φ_A(x)) for x < size(A). */
export function genCompose(b: Prepared, a: Prepared, c: Prepared): GeneratedKernel {
  const wideIndex = a.size > TWO32;
  const pa = genPhi('phi_a', a, wideIndex);
  const pb = genPhi('phi_b', b, a.wideOffset);
  const pc = genPhi('phi_c', c, wideIndex);
  const source = [
    header('compose', [
      `B = ${b.text}`,
      `A = ${a.text}`,
      `C = ${c.text}`,
      `certifies Φ_C(x) = Φ_B(Φ_A(x)) for x < size(A) = ${a.size}`,
    ]),
    wideIndex || a.wideOffset || b.wideOffset || c.wideOffset ? SHADERS.u64 : '// (no 64-bit helpers needed: indices and offsets fit in u32)',
    SHADERS.common,
    indexOf(wideIndex),
    pa.source,
    pb.source,
    pc.source,
    widen('widen_b', pb.offType),
    widen('widen_c', pc.offType),
    SHADERS.compose,
  ].join('\n\n');
  return { kernel: 'compose', source, offBytes: 0, wideIndex };
}

/** tiles: Φ_{A⊘B} and Φ_A side by side. */
export function genTiles(divided: Prepared, a: Prepared, bText: string): GeneratedKernel {
  const wideIndex = a.size > TWO32;
  const pd = genPhi('phi_d', divided, wideIndex);
  const pa = genPhi('phi_a', a, wideIndex);
  const source = [
    header('tiles', [`A = ${a.text}`, `B = ${bText}`, `A ⊘ B = ${divided.text}`]),
    wideIndex || a.wideOffset || divided.wideOffset ? SHADERS.u64 : '// (no 64-bit helpers needed: indices and offsets fit in u32)',
    SHADERS.common,
    indexOf(wideIndex),
    `alias OFF_D = ${pd.offType};`,
    `alias OFF_A = ${pa.offType};`,
    pd.source,
    pa.source,
    SHADERS.tiles,
  ].join('\n\n');
  return { kernel: 'tiles', source, offBytes: divided.wideOffset ? 8 : 4, wideIndex };
}

/** The shader of `layoutgpu wgsl <L> --kernel k`. For compose it certifies L = L∘id (B = L,
 *  A = the identity of size(L)); for tiles, A = L tiled by its first mode. */
export function wgslFor(l: Layout, kernel: KernelName, extra?: { b?: Layout; a?: Layout; c?: Layout; divided?: Layout }): string {
  if (kernel === 'eval' || kernel === 'digest' || kernel === 'compact') return genSingle(kernel, l).source;
  if (kernel === 'compose') {
    const b = prepare(extra?.b ?? l);
    const a = prepare(extra?.a ?? { shape: b.size, stride: 1 });
    const c = prepare(extra?.c ?? l);
    return genCompose(b, a, c).source;
  }
  if (!extra?.divided || !extra.b) throw new LayoutError('domain', 'the tiles kernel needs A ⊘ B');
  return genTiles(prepare(extra.divided), prepare(l), prepare(extra.b).text).source;
}
