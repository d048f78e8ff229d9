/**
 * The CPU backend: the same bulk work as the GPU kernels, as generated, specialised JavaScript.
 * For each (prepared) layout a scan function is generated with shapes and strides inlined: it
 * decomposes the first index once, then walks the range as an odometer (runs along mode 0,
 * a carry into the higher modes at the end of each run) instead of a division per index.
 * All arithmetic is exact: offsets are below 2^53 (makeLayout guarantees it) and sums are
 * accumulated in doubles only while exact, then flushed into a bigint.
 */
import type { Layout } from '../algebra/layout.js';
import type { Backend, BackendInfo, CompactReport, ComposeReport, Digest, EvalSink, RunOptions, TileMap } from './backend.js';
import type { LayoutFunction } from '../cute/composed.js';
import { checkEnumerable, checkRange, ENUMERATE_LIMIT, prepare, runDeadline, timeoutError, TWO32, type Prepared } from './prep.js';
import { checkComposeArgs, closedOrOverflow, sameMultiset, splitTiles, tileDivision } from './common.js';
import { blocksLength, MIN_BLOCK, sortedByStride, windowBlocks } from './window-plan.js';

/** indices per block between deadline / progress checks */
const BLOCK = 1 << 22;
/** layouts up to this size are checked with a byte per offset */
const BYTEMAP_LIMIT = 2 ** 27;
/** offsets per bitmap window of the compactness check (bits) */
let WINDOW_BITS = 2 ** 30;

/** indices per block of a pruned window pass (window-plan.ts) */
let PRUNE_BLOCK = MIN_BLOCK;

/** test hook: a smaller bitmap window forces the windowed compactness check; a smaller
 *  `minBlock` makes its pruned passes prune at a finer grain */
export function setCpuWindowForTests(bits: number | null, minBlock?: number): void {
  WINDOW_BITS = bits ?? 2 ** 30;
  PRUNE_BLOCK = bits === null ? MIN_BLOCK : (minBlock ?? MIN_BLOCK);
}

interface Modes {
  s: number[];
  d: number[];
}

function modesOf(p: Prepared): Modes {
  return p.shapes.length === 0 ? { s: [1], d: [0] } : { s: [...p.shapes], d: [...p.strides] };
}

/** JS source of an integer constant */
const K = (v: number): string => (Number.isSafeInteger(v) ? String(v) : `(${v})`);

/**
 * Source of a function (lo, n, ...params) that runs `run` for every maximal run along mode 0:
 * in `run`, `o` is the offset Φ(lo + i), `k` the run length, `i` the position in [0, n);
 * the stride along the run is the constant D0.
 */
function scanSource(m: Modes, params: string[], pre: string, run: string, post: string): string {
  // A nest of loops, the outermost over the last mode; each loop starts at the coordinate of
  // lo on its first pass and at 0 afterwards; the innermost loop is the run along mode 0.
  const n = m.s.length;
  const lines: string[] = [];
  lines.push(`return function scan(lo, n${params.map((p) => ', ' + p).join('')}) {`);
  lines.push('  let r = lo;');
  for (let j = 0; j < n; j++) {
    if (j < n - 1) lines.push(`  let c${j} = r % ${K(m.s[j]!)}; r = (r - c${j}) / ${K(m.s[j]!)};`);
    else lines.push(`  let c${j} = r;`);
  }
  lines.push('  let i = 0;');
  lines.push(pre);
  lines.push('  if (n > 0) {');
  let ind = '  ';
  for (let j = n - 1; j >= 1; j--) {
    ind += '  ';
    const outer = j === n - 1 ? '0' : `o${j + 1}`;
    lines.push(`${ind}for (let i${j} = c${j}, o${j} = ${outer} + c${j} * ${K(m.d[j]!)}; i${j} < ${K(m.s[j]!)}; i${j}++, o${j} += ${K(m.d[j]!)}) {`);
  }
  ind += '  ';
  const base = n === 1 ? '0' : 'o1';
  lines.push(`${ind}let k = ${K(m.s[0]!)} - c0; if (k > n - i) k = n - i;`);
  lines.push(`${ind}const o = ${base} + c0 * ${K(m.d[0]!)};`);
  lines.push(
    run
      .split('\n')
      .map((l) => ind + l.trim())
      .join('\n'),
  );
  lines.push(`${ind}i += k;`);
  lines.push(`${ind}if (i >= n) break outer;`);
  lines.push(`${ind}c0 = 0;`);
  for (let j = 1; j < n; j++) {
    ind = ind.slice(2);
    lines.push(`${ind}}`);
    if (j < n - 1) lines.push(`${ind}c${j} = 0;`);
  }
  lines.push('  }');
  lines.push(post);
  lines.push('};');
  // label the outermost statement so that the innermost run can leave the whole nest
  const src = lines.join('\n');
  return src.replace('  if (n > 0) {', '  outer: if (n > 0) {');
}

type FillFn = (lo: number, n: number, out: Float64Array | Uint32Array) => void;
type DigestFn = (lo: number, n: number, acc: { sum: bigint; min: number; max: number }) => void;
type CompactFn = (
  lo: number,
  n: number,
  bits: Uint32Array,
  w0: number,
  wn: number,
  st: { oor: number; oorW: number; coll: number; collV: number; countOor: boolean },
) => void;
type CompactBytesFn = (lo: number, n: number, seen: Uint8Array, w0: number, wn: number, st: { oor: number; oorW: number; coll: number; collV: number }) => void;
type FindFn = (lo: number, n: number, v: number, st: { first: number; last: number }) => void;
type PhiFn = (x: number) => number;

/**
 * The composite check over indices [s0, s0 + len) in blocks of va's length: Φ_B(Φ_A(x)) against Φ_C(x), counted into
 * `acc` (mismatches, the first witness). The one loop of the CPU backend's checkCompose and the threads' compose task.
 */
export function compareComposite(
  A: Compiled,
  phiB: PhiFn,
  C: Compiled,
  s0: number,
  len: number,
  va: Float64Array | Uint32Array,
  vc: Float64Array | Uint32Array,
  acc: { mismatches: number; witness: number },
): void {
  const blk = va.length;
  for (let s = s0; s < s0 + len; s += blk) {
    const k = Math.min(blk, s0 + len - s);
    A.fill(s, k, va);
    C.fill(s, k, vc);
    for (let j = 0; j < k; j++) {
      if (phiB(va[j]!) !== vc[j]) {
        acc.mismatches++;
        if (acc.witness < 0) acc.witness = s + j;
      }
    }
  }
}

export interface Compiled {
  p: Prepared;
  fill: FillFn;
  digest: DigestFn;
  compact: CompactFn;
  compactBytes: CompactBytesFn;
  find: FindFn;
  phi: PhiFn;
  source: string;
}

const cache = new Map<string, Compiled>();

/**
 * Source of `const OUT = (v) => …`: the outer function of a composed layout, Sw(K + v) (docs/semantics.md
 * §9.1), as cheap as its bound allows (32-bit bit operations while every value is below 2^31,
 * exact double arithmetic while B ≤ 30, BigInt beyond); null for a plain layout.
 */
function outerSource(p: Prepared): string | null {
  const sw = p.swizzle;
  if (!sw) return null;
  const K0 = K(p.koff);
  if (sw.bits === 0) return `const OUT = (v) => v + ${K0};`;
  const sL = sw.base + Math.max(0, sw.shift);
  const tL = sw.base + Math.max(0, -sw.shift);
  if (p.cosize <= 2 ** 31) {
    const mask = (2 ** sw.bits - 1) * 2 ** sL;
    const move = sw.shift >= 0 ? `(y & ${mask}) >>> ${sw.shift}` : `(y & ${mask}) << ${-sw.shift}`;
    return `const OUT = (v) => { const y = v + ${K0}; return (y ^ (${move})) >>> 0; };`;
  }
  if (sw.bits <= 30) {
    const F = 2 ** sw.bits;
    return (
      `const OUT = (v) => { const y = v + ${K0}; const src = Math.floor(y / ${2 ** sL}) % ${F}; if (src === 0) return y;` +
      ` const dst = Math.floor(y / ${2 ** tL}) % ${F}; return y + ((dst ^ src) - dst) * ${2 ** tL}; };`
    );
  }
  const mask = ((1n << BigInt(sw.bits)) - 1n) << BigInt(sL);
  const move = sw.shift >= 0 ? `(y & ${mask}n) >> ${sw.shift}n` : `(y & ${mask}n) << ${-sw.shift}n`;
  return `const OUT = (v) => { const y = BigInt(v + ${K0}); return Number(y ^ (${move})); };`;
}

function compile(p: Prepared): Compiled {
  const key =
    p.shapes.join(',') + ':' + p.strides.join(',') + ':' + p.size + (p.swizzle ? `:${p.swizzle.bits},${p.swizzle.base},${p.swizzle.shift},${p.koff}` : '');
  const hit = cache.get(key);
  if (hit) return hit;
  const m = modesOf(p);
  const D0 = K(m.d[0]!);
  const outer = outerSource(p);
  const header = `// layout ${p.text}  (coalesced flat: (${m.s.join(',')}):(${m.d.join(',')}))\n` + (outer ? `// outer function: ${outer}\n` : '');

  // a short mode 0 is unrolled for whole runs
  const S0 = m.s[0]!;
  const unrolled =
    S0 <= 16
      ? `if (k === ${S0}) { ${Array.from({ length: S0 }, (_, j) => `out[i + ${j}] = o${j === 0 ? '' : ` + ${K(j * m.d[0]!)}`};`).join(' ')} } else\n`
      : '';
  const d0 = m.d[0]!;
  const fillSrc = scanSource(
    m,
    ['out'],
    '',
    outer
      ? `for (let j = i, e = i + k, v = o; j < e; j++, v += ${D0}) out[j] = OUT(v);`
      : `${unrolled}{ let j = i, v = o; const e = i + k;\n` +
          `for (; j + 4 <= e; j += 4, v += ${K(4 * d0)}) { out[j] = v; out[j + 1] = v + ${K(d0)}; out[j + 2] = v + ${K(2 * d0)}; out[j + 3] = v + ${K(3 * d0)}; }\n` +
          `for (; j < e; j++, v += ${D0}) out[j] = v; }`,
    '',
  );

  // digest: per run, closed form of the arithmetic progression o, o + D0, …; a composed layout
  // value by value (the swizzle breaks the progression)
  const small = p.cosize * m.s[0]! <= 2 ** 50; // a run sum < 1.5·2^50 and the accumulator ≤ 2^51 + it stay exact
  const digestSrc = scanSource(
    m,
    ['acc'],
    '  let s = 0; let mn = Infinity; let mx = -Infinity;',
    outer
      ? `    for (let j = 0, v = o; j < k; j++, v += ${D0}) {\n` +
          `      const w = OUT(v); if (w < mn) mn = w; if (w > mx) mx = w;\n` +
          (p.cosize <= 2 ** 50 ? `      s += w; if (s > 2251799813685248) { acc.sum += BigInt(s); s = 0; }\n` : `      acc.sum += BigInt(w);\n`) +
          `    }`
      : small
        ? `    s += k * o + ${D0} * (k * (k - 1) / 2);\n    if (s > 2251799813685248) { acc.sum += BigInt(s); s = 0; }\n` +
          `    if (o < mn) mn = o; const last = o + (k - 1) * ${D0}; if (last > mx) mx = last;`
        : `    acc.sum += BigInt(k) * BigInt(o) + BigInt(${D0}) * (BigInt(k) * BigInt(k - 1) / 2n);\n` +
          `    if (o < mn) mn = o; const last = o + (k - 1) * ${D0}; if (last > mx) mx = last;`,
    '  acc.sum += BigInt(s); if (mn < acc.min) acc.min = mn; if (mx > acc.max) acc.max = mx;',
  );

  // compact: a bitmap over the offsets window [w0, w0 + wn); values ≥ size are out of range
  const SIZE = K(p.size);
  const fast = p.size <= 2 ** 31;
  const V = outer ? 'OUT(u)' : 'u';
  const compactSrc = scanSource(
    m,
    ['bits', 'w0', 'wn', 'st'],
    '  let oor = 0, coll = 0, oorW = -1, collV = Infinity; const countOor = st.countOor;',
    `    for (let j = i, e = i + k, u = o; j < e; j++, u += ${D0}) {\n      const v = ${V};\n` +
      `      if (v >= ${SIZE}) { if (countOor) { oor++; if (oorW < 0) oorW = lo + j; } continue; }\n` +
      (fast
        ? `      const q = v - w0; if (q < 0 || q >= wn) continue;\n      const w = q >>> 5, b = 1 << (q & 31), old = bits[w];\n`
        : `      const q = v - w0; if (q < 0 || q >= wn) continue;\n      const b = 1 << (q % 32), w = (q - q % 32) / 32, old = bits[w];\n`) +
      `      if ((old & b) !== 0) { coll++; if (v < collV) collV = v; } else bits[w] = old | b;\n` +
      `    }`,
    '  st.oor += oor; st.coll += coll; if (st.oorW < 0) st.oorW = oorW; if (collV < st.collV) st.collV = collV;',
  );
  // small layouts: a byte per offset, one window (fewer operations than a bitmap)
  const compactBytesSrc = scanSource(
    m,
    ['seen', 'w0', 'wn', 'st'],
    '  let oor = 0, coll = 0, oorW = -1, collV = Infinity;',
    `    for (let j = i, e = i + k, u = o; j < e; j++, u += ${D0}) {\n      const v = ${V};\n` +
      `      if (v >= ${SIZE}) { oor++; if (oorW < 0) oorW = lo + j; continue; }\n` +
      `      if (seen[v] !== 0) { coll++; if (v < collV) collV = v; } else seen[v] = 1;\n` +
      `    }`,
    '  st.oor += oor; st.coll += coll; if (st.oorW < 0) st.oorW = oorW; if (collV < st.collV) st.collV = collV;',
  );

  const findSrc = scanSource(
    m,
    ['v', 'st'],
    '',
    outer
      ? `    for (let j = 0, u = o; j < k; j++, u += ${D0}) {\n` +
          `      if (OUT(u) === v) { if (st.first < 0) st.first = lo + i + j; st.last = lo + i + j; }\n    }`
      : `    if (${D0} === 0 ? o === v : (v >= o && v < o + k * ${D0} && (v - o) % ${D0} === 0)) {\n` +
          `      const j = ${D0} === 0 ? 0 : (v - o) / ${D0};\n` +
          `      if (st.first < 0) st.first = lo + i + j;\n` +
          `      st.last = lo + i + (${D0} === 0 ? k - 1 : j);\n    }`,
    '',
  );

  // Φ by divisions (for the outer layout of a composite check)
  const n = m.s.length;
  const phiLines = ['return function phi(x) {', '  let r = x, o = 0, c = 0;'];
  for (let j = 0; j < n; j++) {
    if (j < n - 1) phiLines.push(`  c = r % ${K(m.s[j]!)}; r = (r - c) / ${K(m.s[j]!)}; o += c * ${K(m.d[j]!)};`);
    else phiLines.push(`  o += r * ${K(m.d[j]!)};`);
  }
  phiLines.push(outer ? '  return OUT(o);' : '  return o;', '};');
  const phiSrc = phiLines.join('\n');

  const make = <F>(src: string): F => new Function((outer ? outer + '\n' : '') + src)() as F;
  const c: Compiled = {
    p,
    fill: make<FillFn>(fillSrc),
    digest: make<DigestFn>(digestSrc),
    compact: make<CompactFn>(compactSrc),
    compactBytes: make<CompactBytesFn>(compactBytesSrc),
    find: make<FindFn>(findSrc),
    phi: make<PhiFn>(phiSrc),
    source: [
      header,
      '// eval',
      fillSrc,
      '// digest',
      digestSrc,
      '// compact',
      compactSrc,
      '// compact (byte map)',
      compactBytesSrc,
      '// find',
      findSrc,
      '// phi',
      phiSrc,
    ].join('\n'),
  };
  cache.set(key, c);
  if (cache.size > 256) cache.delete(cache.keys().next().value as string);
  return c;
}

/** Runs `work(start, n)` over [lo, hi) in blocks, with progress; past `deadline` (Date.now()
 *  clock, runDeadline) a `timeout` error says what completed. */
function blocks(
  lo: number,
  hi: number,
  opts: RunOptions | undefined,
  deadline: number,
  done0: number,
  total: number,
  work: (start: number, n: number) => void,
): void {
  let done = done0;
  for (let s = lo; s < hi; ) {
    const n = Math.min(BLOCK, hi - s);
    work(s, n);
    s += n;
    done += n;
    opts?.onProgress?.(done, total);
    if (s < hi && Date.now() >= deadline) throw timeoutError(done, total, 'on the CPU');
  }
}

/** number of set bits of a bitmap */
function popcount(bits: Uint32Array): number {
  let n = 0;
  for (let i = 0; i < bits.length; i++) {
    let v = bits[i]!;
    v = v - ((v >>> 1) & 0x55555555);
    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
    n += Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
  }
  return n;
}

/** Offsets of the composite check and eval: Uint32Array while cosize ≤ 2^32. */
function newOut(p: Prepared, n: number): Float64Array | Uint32Array {
  return p.cosize <= TWO32 ? new Uint32Array(n) : new Float64Array(n);
}

/**
 * The evaluator as generated, specialised JavaScript (one function per layout, cached): the same
 * answers as GpuBackend, on any machine, no device needed. Errors: those of Backend (never `gpu`).
 * @example (await new CpuBackend().digestRange(parseLayout('(4,8):(1,4)'), 0, 32)).sum // 496n
 */
export class CpuBackend implements Backend {
  /** backend `cpu`; auto's choice records here the adapter it passed over */
  readonly info: BackendInfo = { backend: 'cpu', adapter: 'cpu (generated JavaScript)' };

  /** the compiled functions of a layout (the bench and the tests call them directly) */
  compiled(l: LayoutFunction): Compiled {
    return compile(prepare(l));
  }

  async evalRange(l: LayoutFunction, lo: number, hi: number, opts?: RunOptions): Promise<Float64Array> {
    const deadline = runDeadline(opts?.timeoutMs);
    const c = this.compiled(l);
    checkRange(lo, hi, c.p.size);
    const out = new Float64Array(hi - lo);
    blocks(lo, hi, opts, deadline, 0, hi - lo, (s, n) => c.fill(s, n, out.subarray(s - lo, s - lo + n)));
    return out;
  }

  async evalChunks(l: LayoutFunction, lo: number, hi: number, sink: EvalSink, opts?: RunOptions): Promise<void> {
    const deadline = runDeadline(opts?.timeoutMs);
    const c = this.compiled(l);
    checkRange(lo, hi, c.p.size);
    for (let s = lo; s < hi; ) {
      const n = Math.min(BLOCK, hi - s);
      const out = newOut(c.p, n);
      c.fill(s, n, out);
      await sink(s, out);
      s += n;
      opts?.onProgress?.(s - lo, hi - lo);
      if (s < hi && Date.now() >= deadline) throw timeoutError(s - lo, hi - lo, 'on the CPU');
    }
  }

  /** count, exact Σ, min and max of Φ_L over [lo, hi) (see Backend.digestRange) */
  async digestRange(l: LayoutFunction, lo: number, hi: number, opts?: RunOptions): Promise<Digest> {
    const deadline = runDeadline(opts?.timeoutMs);
    const c = this.compiled(l);
    checkRange(lo, hi, c.p.size);
    if (hi === lo) return { count: 0, sum: 0n, min: null, max: null };
    if (hi - lo > ENUMERATE_LIMIT) return closedOrOverflow(c.p, lo, hi);
    const acc = { sum: 0n, min: Infinity, max: -Infinity };
    blocks(lo, hi, opts, deadline, 0, hi - lo, (s, n) => c.digest(s, n, acc));
    return { count: hi - lo, sum: acc.sum, min: acc.min, max: acc.max };
  }

  /** whether Φ_L is a bijection onto [0, size L): a byte map of hits (see Backend.checkCompact) */
  async checkCompact(l: LayoutFunction, opts?: RunOptions): Promise<CompactReport> {
    const deadline = runDeadline(opts?.timeoutMs);
    const c = this.compiled(l);
    const size = c.p.size;
    checkEnumerable(size, 'check_compact');
    const st = { oor: 0, oorW: -1, coll: 0, collV: Infinity, countOor: true };
    if (size <= BYTEMAP_LIMIT && size <= WINDOW_BITS) {
      const seen = new Uint8Array(size);
      blocks(0, size, opts, deadline, 0, size, (s, n) => c.compactBytes(s, n, seen, 0, size, st));
      return this.report(c, st.oor, st.oorW, st.coll, st.collV, opts, deadline);
    }
    // the bitmap covers the offsets below min(size, cosize): nothing else can be hit in range
    const span = Math.min(size, c.p.cosize);
    const windows = Math.ceil(span / WINDOW_BITS);
    const wn = Math.min(span, WINDOW_BITS);
    const bits = new Uint32Array(Math.ceil(wn / 32));
    if (windows === 1) {
      blocks(0, size, opts, deadline, 0, size, (s, n) => c.compact(s, n, bits, 0, wn, st));
      return this.report(c, st.oor, st.oorW, st.coll, st.collV, opts, deadline);
    }
    // several windows: each walks only the blocks of the stride-sorted layout that can reach it
    // (window-plan.ts), so together they cost about one pass; the hits below size(L) are the
    // set bits plus the collisions, so outOfRange = size − Σ hits needs no walk of its own
    const sorted = compile(sortedByStride(c.p));
    const plans: number[][] = [];
    for (let w = 0; w < windows; w++) plans.push(windowBlocks(sorted.p, w * WINDOW_BITS, Math.min(WINDOW_BITS, span - w * WINDOW_BITS), PRUNE_BLOCK));
    const total = plans.reduce((a, bl) => a + blocksLength(bl), 0);
    let done = 0;
    let hits = 0;
    st.countOor = false;
    for (let w = 0; w < windows; w++) {
      if (w > 0) bits.fill(0);
      const coll0 = st.coll;
      const bl = plans[w]!;
      for (let i = 0; i < bl.length; i += 2) {
        blocks(bl[i]!, bl[i]! + bl[i + 1]!, opts, deadline, done, total, (s, n) => sorted.compact(s, n, bits, w * WINDOW_BITS, wn, st));
        done += bl[i + 1]!;
        if (done < total && Date.now() >= deadline) throw timeoutError(done, total, 'on the CPU');
      }
      hits += popcount(bits) + st.coll - coll0;
    }
    const oor = size - hits;
    if (oor > 0) {
      // the least out-of-range index, in the layout's own order: a walk that stops at the first
      const f = { oor: 0, oorW: -1, coll: 0, collV: Infinity, countOor: true };
      for (let s = 0; s < size && f.oorW < 0; s += BLOCK) {
        c.compact(s, Math.min(BLOCK, size - s), bits, 0, 0, f);
        if (f.oorW < 0 && s + BLOCK < size && Date.now() >= deadline) throw timeoutError(s + BLOCK, size, 'on the CPU');
      }
      st.oorW = f.oorW;
    }
    return this.report(c, oor, st.oorW, st.coll, st.collV, opts, deadline);
  }

  /** the protocol's report from the counts; a collision witness: least and greatest preimage
   *  of the least colliding offset (deterministic, so both backends answer alike) */
  private report(c: Compiled, oor: number, oorW: number, coll: number, collV: number, opts: RunOptions | undefined, deadline: number): CompactReport {
    const size = c.p.size;
    const image = size - oor - coll;
    let witness: CompactReport['witness'] = null;
    if (oor > 0) witness = [oorW];
    else if (coll > 0) {
      const f = { first: -1, last: -1 };
      blocks(0, size, opts, deadline, 0, size, (s, n) => c.find(s, n, collV, f));
      witness = [f.first, f.last];
    }
    return { compact: oor === 0 && coll === 0, image, outOfRange: oor, collisions: coll, witness };
  }

  async checkCompose<C extends LayoutFunction>(b: LayoutFunction, a: LayoutFunction, cl: C, opts?: RunOptions): Promise<ComposeReport<C>> {
    const deadline = runDeadline(opts?.timeoutMs);
    const A = this.compiled(a);
    const B = this.compiled(b);
    const C = this.compiled(cl);
    checkComposeArgs(A.p, B.p, C.p);
    if (!A.p.exactCosize && A.p.cosize > B.p.size) {
      // a composed A: its cosize is 1 + max Φ_A, found by enumeration
      const acc = { sum: 0n, min: Infinity, max: -Infinity };
      blocks(0, A.p.size, opts, deadline, 0, A.p.size, (s, n) => A.digest(s, n, acc));
      checkComposeArgs(A.p, B.p, C.p, acc.max + 1);
    }
    const n = A.p.size;
    const blk = Math.min(n, 1 << 16);
    const va = newOut(A.p, blk);
    const vc = newOut(C.p, blk);
    const acc = { mismatches: 0, witness: -1 };
    blocks(0, n, opts, deadline, 0, n, (s0, len) => compareComposite(A, B.phi, C, s0, len, va, vc, acc));
    const { mismatches, witness } = acc;
    return { equal: mismatches === 0, mismatches, witness: witness < 0 ? null : witness, composite: cl };
  }

  async tileMap(a: LayoutFunction, b: Layout, opts?: RunOptions): Promise<TileMap> {
    const { divided, tileSize, tiles } = tileDivision(a, b);
    const flatOffsets = await this.evalRange(divided, 0, tileSize * tiles, opts);
    const image = await this.evalRange(a, 0, tileSize * tiles, opts);
    return { tileSize, tiles, offsets: splitTiles(flatOffsets, tileSize, tiles), covers: sameMultiset(flatOffsets, image) };
  }

  dispose(): void {}
}
