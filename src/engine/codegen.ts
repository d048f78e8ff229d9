/**
 * Layout → WGSL. The kernels live in `shaders/*.wgsl` (inlined by scripts/gen-shaders.mjs);
 * this module generates what they call: `phi_*` with the layout's shapes and strides folded in
 * as constants (a power-of-two shape becomes a mask and a shift, any other a division by a
 * constant, which the compiler turns into a multiply), the index and offset types, and small
 * helpers. Only validated integers (makeLayout's) ever reach the source.
 *
 * The kernels are grid-stride: a fixed grid of G threads (chosen by the host from the adapter,
 * read in the shader as num_workgroups.x · WG, so the source does not depend on it); thread t
 * takes the indices t, t + G, t + 2G, … of its dispatch. It decomposes its first index once
 * (`l_start`, divisions) and G once, then carries its coordinate from one index to the next by
 * adding G's digits in the layout's mixed radix (`l_step`): per mode an addition, a compare and
 * a conditional subtraction, and the offset moves by constants, no division per index. A
 * composed layout Sw o K o L (docs/semantics.md §9.1) applies `l_value` = Sw(K + ·) to the offset carried.
 *
 * Widths: an index is u32 while size ≤ 2^32, else a two-limb u64 (vec2<u32>); an offset is u32
 * while cosize ≤ 2^32, else u64. Layouts are below 2^53 throughout (makeLayout).
 */
import { LayoutError } from '../algebra/errors.js';
import type { LayoutFunction } from '../cute/composed.js';
import { sourceLow } from '../cute/swizzle.js';
import { bitsBelow, prepare, swizzleWithin, TWO32, type Prepared } from './prep.js';
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

/** Lines that set `o` (the inner layout's offset) and `c<j>` (u32 coordinates of the modes
 *  before the last) from the index `x`. `stepping`: every such coordinate is kept (≤ 2^31). */
function phiBody(p: Prepared, wideIndex: boolean): string[] {
  const wideOff = p.wideOffset;
  const L: string[] = [];
  const m = p.shapes.length;
  if (m === 0) {
    L.push(`  var o = ${wideOff ? 'vec2<u32>(0u, 0u)' : '0u'};`);
    return L;
  }
  L.push(`  var r = x;`);
  L.push(`  var o = ${wideOff ? 'vec2<u32>(0u, 0u)' : '0u'};`);
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
      // c·d < cosize ≤ 2^32, so c < 2^32 too (beyond the layout's size it wraps mod 2^32)
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
  return L;
}

/** WGSL of a constant shift of a two-limb value (0 ≤ k < 64), right or left. */
function u64ShiftExpr(v: string, k: number, right: boolean): string {
  if (k === 0) return v;
  if (right) {
    if (k >= 32) return `vec2<u32>(${v}.y${k > 32 ? ` >> ${k - 32}u` : ''}, 0u)`;
    return `vec2<u32>((${v}.x >> ${k}u) | (${v}.y << ${32 - k}u), ${v}.y >> ${k}u)`;
  }
  if (k >= 32) return `vec2<u32>(0u, ${v}.x${k > 32 ? ` << ${k - 32}u` : ''})`;
  return `vec2<u32>(${v}.x << ${k}u, (${v}.y << ${k}u) | (${v}.x >> ${32 - k}u))`;
}

/**
 * `fn <name>(o) -> offset`: the outer function of a composed layout, Sw(K + o) (docs/semantics.md §9.1:
 * swizzles: y XOR ((y AND Ymask) >> S), a negative S shifting left), or the identity of a plain
 * layout. Sw is applied as the swizzle that agrees with it below the offset bound (swizzleWithin):
 * no shift of 32 or more on a u32, no mask beyond 2^64, whatever B, M and S the CPU accepts.
 */
export function genOuter(name: string, p: Prepared): string {
  const T = p.wideOffset ? U64 : U32;
  if (!p.swizzle) return `fn ${name}(o: ${T}) -> ${T} { return o; }`;
  const given = p.swizzle;
  const L = [`// the outer function of ${p.text}: Sw<${given.bits},${given.base},${given.shift}>(${p.koff} + o)`, `fn ${name}(o: ${T}) -> ${T} {`];
  L.push(p.wideOffset ? `  let y = u64_add(o, ${u64Lit(p.koff)});` : `  let y = o + ${u32Lit(p.koff)};`);
  // every y is below the bound (p.cosize ≤ 2^32 for u32 offsets, ≤ 2^53 for u64)
  const sw = swizzleWithin(given, Math.min(bitsBelow(p.cosize), p.wideOffset ? 64 : 32));
  if (sw.bits === 0) {
    if (given.bits !== 0) L.push(`  // Sw reads bits ${sourceLow(given)} and above: none of them is set below ${p.cosize}, so it is the identity here`);
    L.push('  return y;', '}');
    return L.join('\n');
  }
  const mask = ((1n << BigInt(sw.bits)) - 1n) << BigInt(sourceLow(sw));
  if (!p.wideOffset) {
    // the bound keeps every value below 2^32, so the mask fits u32
    L.push(`  return y ^ ((y & ${u32Lit(Number(mask & 0xffffffffn))}) ${sw.shift >= 0 ? '>>' : '<<'} ${Math.abs(sw.shift)}u);`);
  } else {
    L.push(`  let f = y & vec2<u32>(${u32Lit(Number(mask & 0xffffffffn))}, ${u32Lit(Number(mask >> 32n))});`);
    L.push(`  return y ^ ${u64ShiftExpr('f', Math.abs(sw.shift), sw.shift >= 0)};`);
  }
  L.push('}');
  return L.join('\n');
}

/**
 * `fn <name>(x) -> offset`: Φ of the prepared layout function for an index of the given width
 * (divisions per mode; the composed outer function applied last).
 */
export function genPhi(name: string, p: Prepared, wideIndex: boolean): PhiGen {
  const idxType = wideIndex ? U64 : U32;
  const offType = p.wideOffset ? U64 : U32;
  const L: string[] = [];
  L.push(`// Φ of ${p.text}: coalesced flat (${p.shapes.join(',')}):(${p.strides.join(',')})`);
  if (p.swizzle) L.push(genOuter(`${name}_outer`, p));
  L.push(`fn ${name}(x: ${idxType}) -> ${offType} {`);
  L.push(...phiBody(p, wideIndex));
  L.push(p.swizzle ? `  return ${name}_outer(o);` : '  return o;', '}');
  return { source: L.join('\n'), idxType, offType };
}

/** whether the grid stride can be carried in the mixed radix: every coordinate before the last
 *  mode is below 2^31, so that c + g + carry < 2^32 */
export function canStep(p: Prepared): boolean {
  return p.shapes.slice(0, -1).every((s) => s <= 2 ** 31);
}

/**
 * How a thread moves from index x to x + G. 'radix' (genWalk's stepping) wherever a shape
 * before the last is not a power of two, so that Φ by decomposition would divide; 'index'
 * where Φ of x is masks and shifts only (measured: recomputing it beats the compare-and-select
 * chain of the stepping there, bench/evaluator.ts layout d), or where a coordinate exceeds 2^31.
 */
export function walkMode(p: Prepared): 'radix' | 'index' {
  const before = p.shapes.slice(0, -1);
  if (!canStep(p) || before.every((s) => isPow2(s))) return 'index';
  return 'radix';
}

/** How the kernels walk: `radix` carries the coordinate by G, `index` recomputes Φ per index. */
export type Walk = 'radix' | 'index';

/**
 * The walk for an adapter: on a software adapter (llvmpipe, SwiftShader) every layout walks by
 * index, as Φ by divisions by constants (multiplies, vectorised over the SIMD lanes) measured
 * faster there than the carry chain's compares and selects (lavapipe, layouts c and d of
 * bench/evaluator.ts: eval 461 vs 395 and 475 vs 406 M indices/s, compact 154 vs 130 and 236
 * vs 229), while indices and offsets are u32: with a u64 index the divisions are emulated and
 * the carry chain wins again (a digest of (11,13,15,17,19,21,296):(…): 538 vs 141 M/s). On a
 * hardware GPU, and beyond u32, walkMode's rule (radix unless Φ is masks and shifts).
 */
export function walkFor(p: Prepared, software: boolean): Walk {
  return software && p.size <= TWO32 && !p.wideOffset ? 'index' : walkMode(p);
}

const mod = (v: bigint, bits: number): bigint => ((v % (1n << BigInt(bits))) + (1n << BigInt(bits))) % (1n << BigInt(bits));

/**
 * The walk of a layout function through a grid-stride loop, prefix `n`:
 *   struct W_n { c0, …, c(m−2): u32, o: offset }   the coordinate before the last mode, Φ_L
 *   fn n_start(x) -> W_n                          decomposition of x (divisions, once)
 *   fn n_step(w: ptr<function, W_n>, g: W_n)      w := w + g in the mixed radix (s0, s1, …):
 *       c_j += g_j + carry; carry = c_j ≥ s_j; c_j −= carry·s_j; the offset moves by
 *       Σ g_j·d_j (g.o) and by d(j+1) − s_j·d_j per carry (constants, wrapping mod 2^32 or 2^64:
 *       the true offset is below the offset type's range, so the wrapped sum is exact)
 *   fn n_value(o) -> offset                        Φ from o (the composed outer function)
 * g is n_start(G): its offset Σ g_j·d_j may wrap (G may exceed the size), which the wrapping
 * arithmetic absorbs. Layouts with a coordinate beyond 2^31 before the last mode walk by index
 * (x += G, o = Φ_L(x)).
 */
export function genWalk(n: string, p: Prepared, wideIndex: boolean, mode: Walk = walkMode(p)): string {
  const idxType = wideIndex ? U64 : U32;
  const offType = p.wideOffset ? U64 : U32;
  const m = p.shapes.length;
  const L: string[] = [`// walk of ${p.text}: coalesced flat (${p.shapes.join(',')}):(${p.strides.join(',')})`];
  L.push(genOuter(`${n}_value`, p));
  if (mode === 'index' || !canStep(p)) {
    L.push(`fn ${n}_inner(x: ${idxType}) -> ${offType} {`, ...phiBody({ ...p, swizzle: undefined, koff: 0 } as Prepared, wideIndex), '  return o;', '}');
    L.push(`struct W_${n} { x: ${idxType}, o: ${offType} }`);
    L.push(`fn ${n}_start(x: ${idxType}) -> W_${n} { return W_${n}(x, ${n}_inner(x)); }`);
    L.push(
      `// by index: ${!canStep(p) ? 'a coordinate beyond 2^31' : mode === 'index' && !p.shapes.slice(0, -1).every((s) => isPow2(s)) ? 'Φ per index (the walk for a software adapter)' : 'Φ is masks and shifts'}`,
    );
    L.push(`fn ${n}_step(w: ptr<function, W_${n}>, g: W_${n}) {`);
    L.push(wideIndex ? `  (*w).x = u64_add((*w).x, g.x);` : `  (*w).x = (*w).x + g.x;`);
    L.push(`  (*w).o = ${n}_inner((*w).x);`, '}');
    return L.join('\n');
  }
  const cs = Array.from({ length: Math.max(0, m - 1) }, (_, j) => `c${j}`);
  L.push(`struct W_${n} { ${[...cs.map((c) => `${c}: u32`), `o: ${offType}`].join(', ')} }`);
  L.push(`fn ${n}_start(x: ${idxType}) -> W_${n} {`, ...phiBody(p, wideIndex), `  return W_${n}(${[...cs, 'o'].join(', ')});`, '}');
  L.push(`fn ${n}_step(w: ptr<function, W_${n}>, g: W_${n}) {`);
  L.push(p.wideOffset ? `  var o = u64_add((*w).o, g.o);` : `  var o = (*w).o + g.o;`);
  for (let j = 0; j < m - 1; j++) {
    const s = p.shapes[j]!;
    const carry = BigInt(p.strides[j + 1]!) - BigInt(s) * BigInt(p.strides[j]!);
    L.push(`  // mode ${j}: ${s}:${p.strides[j]}; a carry moves the offset by ${carry}`);
    L.push(`  let a${j} = (*w).c${j} + g.c${j}${j > 0 ? ` + select(0u, 1u, k${j - 1})` : ''};`);
    L.push(`  let k${j} = a${j} >= ${u32Lit(s)};`);
    L.push(`  (*w).c${j} = select(a${j}, a${j} - ${u32Lit(s)}, k${j});`);
    if (carry !== 0n) {
      if (p.wideOffset) {
        const c = mod(carry, 64);
        L.push(`  o = select(o, u64_add(o, vec2<u32>(${u32Lit(Number(c & 0xffffffffn))}, ${u32Lit(Number(c >> 32n))})), k${j});`);
      } else {
        L.push(`  o = select(o, o + ${u32Lit(Number(mod(carry, 32)))}, k${j});`);
      }
    }
  }
  L.push('  (*w).o = o;', '}');
  return L.join('\n');
}

function widen(name: string, offType: string): string {
  return offType === U32 ? `fn ${name}(v: u32) -> vec2<u32> { return vec2<u32>(v, 0u); }` : `fn ${name}(v: vec2<u32>) -> vec2<u32> { return v; }`;
}

function indexOf(wide: boolean): string {
  return wide
    ? 'fn index_of(t: u32) -> vec2<u32> { return u64_add32(params.base, t); }\nfn as_index(t: u32) -> vec2<u32> { return vec2<u32>(t, 0u); }'
    : 'fn index_of(t: u32) -> u32 { return params.base.x + t; }\nfn as_index(t: u32) -> u32 { return t; }';
}

function header(kernel: KernelName | 'find', lines: string[]): string {
  return [`// layoutgpu: generated WGSL, kernel "${kernel}"`, ...lines.map((l) => `// ${l}`), '', `const WG: u32 = ${WG}u;`].join('\n');
}

export interface GeneratedKernel {
  kernel: KernelName | 'find';
  source: string;
  /** bytes per output value of eval/tiles (4 or 8) */
  offBytes: number;
  wideIndex: boolean;
}

/** Indices one dispatch of the digest kernel may give a thread: its exact sum stays below 2^64
 *  (n · cosize < 2^64; with u32 offsets the count of carries is a u32). */
export function digestPerThread(p: Prepared): number {
  return p.wideOffset ? Math.max(1, Math.floor(2 ** 64 / p.cosize / 2)) : 2 ** 31;
}

/** eval | digest | compact | find of one layout function. */
export function genSingle(kernel: 'eval' | 'digest' | 'compact' | 'find', l: LayoutFunction | Prepared, windowed = false, mode?: Walk): GeneratedKernel {
  const p = 'text' in l ? l : prepare(l);
  const wideIndex = p.size > TWO32;
  const walk = mode ?? walkMode(p);
  const parts = [
    header(kernel, [
      `layout L = ${p.text}`,
      `size ${p.size}, ${p.exactCosize ? 'cosize' : 'offsets below'} ${p.cosize}; index ${wideIndex ? 'u64' : 'u32'}, offset ${p.wideOffset ? 'u64' : 'u32'}`,
      `grid-stride: G = num_workgroups.x · WG threads, ${walk === 'radix' && canStep(p) ? 'each carrying its coordinate by G in the mixed radix' : 'each computing Φ of its indices t, t + G, …'}`,
    ]),
    kernel === 'digest' || wideIndex || p.wideOffset ? SHADERS.u64 : '// (no 64-bit helpers needed: index and offsets fit in u32)',
    SHADERS.common,
    `alias OFF_L = ${p.wideOffset ? U64 : U32};`,
    indexOf(wideIndex),
    genWalk('l', p, wideIndex, walk),
    widen('widen_l', p.wideOffset ? U64 : U32),
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
        p.size >= TWO32 ? 'fn out_of_range(v: u32) -> bool { return false; }' : `fn out_of_range(v: u32) -> bool { return v >= ${u32Lit(p.size)}; }`,
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
    parts.push(
      p.wideOffset
        ? `// the exact sum, min and max of Φ over the thread's indices t, t + G, … < count
fn digest_walk(t: u32, grid: u32) -> Acc {
  var a = Acc(vec2<u32>(0u, 0u), vec2<u32>(0xffffffffu, 0xffffffffu), vec2<u32>(0u, 0u));
  let g = l_start(as_index(grid));
  var w = l_start(index_of(t));
  var i = t;
  loop {
    let v = l_value(w.o);
    a.sum = u64_add(a.sum, v);
    a.lo = u64_min(a.lo, v);
    a.hi = u64_max(a.hi, v);
    i = i + grid;
    if (i >= params.count) { break; }
    l_step(&w, g);
  }
  return a;
}`
        : `// the exact sum (low word and carries), min and max of Φ over the thread's indices t, t + G, … < count
fn digest_walk(t: u32, grid: u32) -> Acc {
  var lo = 0u;
  var carries = 0u;
  var mn = 0xffffffffu;
  var mx = 0u;
  let g = l_start(as_index(grid));
  var w = l_start(index_of(t));
  var i = t;
  loop {
    let v = l_value(w.o);
    let s = lo + v;
    carries = carries + select(0u, 1u, s < v);
    lo = s;
    mn = min(mn, v);
    mx = max(mx, v);
    i = i + grid;
    if (i >= params.count) { break; }
    l_step(&w, g);
  }
  // t < count here, so mn is a real offset
  return Acc(vec2<u32>(lo, carries), vec2<u32>(mn, 0u), vec2<u32>(mx, 0u));
}`,
    );
  }
  parts.push(SHADERS[kernel]);
  // eval, compact and find: their visit() in the shared grid-stride loop
  if (kernel !== 'digest') parts.push(SHADERS.visit);
  return { kernel, source: parts.join('\n\n'), offBytes: p.wideOffset ? 8 : 4, wideIndex };
}

/** compose: Φ_C(x) vs Φ_B(Φ_A(x)) for x < size(A) (A and C walk, Φ_B by divisions). */
export function genCompose(b: Prepared, a: Prepared, c: Prepared, software = false): GeneratedKernel {
  const wideIndex = a.size > TWO32;
  const pb = genPhi('phi_b', b, a.wideOffset);
  const source = [
    header('compose', [
      `B = ${b.text}`,
      `A = ${a.text}`,
      `C = ${c.text}`,
      `certifies Φ_C(x) = Φ_B(Φ_A(x)) for x < size(A) = ${a.size}`,
      software
        ? 'grid-stride: Φ_A, Φ_C and Φ_B per index (the walk for a software adapter)'
        : 'grid-stride: A and C carry their coordinates by G in their mixed radices; Φ_B by divisions',
    ]),
    wideIndex || a.wideOffset || b.wideOffset || c.wideOffset ? SHADERS.u64 : '// (no 64-bit helpers needed: indices and offsets fit in u32)',
    SHADERS.common,
    indexOf(wideIndex),
    genWalk('a', a, wideIndex, walkFor(a, software)),
    pb.source,
    genWalk('c', c, wideIndex, walkFor(c, software)),
    widen('widen_b', pb.offType),
    widen('widen_c', c.wideOffset ? U64 : U32),
    SHADERS.compose,
  ].join('\n\n');
  return { kernel: 'compose', source, offBytes: 0, wideIndex };
}

/** tiles: Φ_{A⊘B} and Φ_A side by side. */
export function genTiles(divided: Prepared, a: Prepared, bText: string, software = false): GeneratedKernel {
  const wideIndex = a.size > TWO32;
  const source = [
    header('tiles', [
      `A = ${a.text}`,
      `B = ${bText}`,
      `A ⊘ B = ${divided.text}`,
      software ? 'grid-stride: both per index (the walk for a software adapter)' : 'grid-stride: both walk by G in their mixed radices',
    ]),
    wideIndex || a.wideOffset || divided.wideOffset ? SHADERS.u64 : '// (no 64-bit helpers needed: indices and offsets fit in u32)',
    SHADERS.common,
    indexOf(wideIndex),
    `alias OFF_D = ${divided.wideOffset ? U64 : U32};`,
    `alias OFF_A = ${a.wideOffset ? U64 : U32};`,
    genWalk('d', divided, wideIndex, walkFor(divided, software)),
    genWalk('a', a, wideIndex, walkFor(a, software)),
    SHADERS.tiles,
  ].join('\n\n');
  return { kernel: 'tiles', source, offBytes: divided.wideOffset ? 8 : 4, wideIndex };
}

/** The shader of `layoutgpu wgsl <L> --kernel k`. For compose it certifies L = L∘id (B = L,
 *  A = the identity of size(L)); for tiles, A = L tiled by its first mode. */
export function wgslFor(
  l: LayoutFunction,
  kernel: KernelName,
  extra?: { b?: LayoutFunction; a?: LayoutFunction; c?: LayoutFunction; divided?: LayoutFunction },
  software = false,
): string {
  if (kernel === 'eval' || kernel === 'digest' || kernel === 'compact') {
    const p = prepare(l);
    return genSingle(kernel, p, false, walkFor(p, software)).source;
  }
  if (kernel === 'compose') {
    const b = prepare(extra?.b ?? l);
    const a = prepare(extra?.a ?? { shape: b.size, stride: 1 });
    const c = prepare(extra?.c ?? l);
    return genCompose(b, a, c, software).source;
  }
  if (!extra?.divided || !extra.b) throw new LayoutError('domain', 'the tiles kernel needs A ⊘ B');
  return genTiles(prepare(extra.divided), prepare(l), prepare(extra.b).text, software).source;
}
