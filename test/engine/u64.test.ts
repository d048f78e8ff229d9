/**
 * The two-limb u64 helpers of shaders/u64.wgsl, run on the GPU on every pair of edge values
 * (limbs 0, 1, 2^16 ± 1, 2^31 ± 1, 2^32 − 1, …) and compared with BigInt.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHADERS } from '../../src/engine/shaders.generated.js';
import type { NodeDevice } from '../../src/engine/node/device-node.js';
import { testDevice } from './gpu-device.js';

const LIMBS = [0, 1, 2, 3, 0xfffe, 0xffff, 0x10000, 0x10001, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff];
const M64 = (1n << 64n) - 1n;
const OUT = 16; // u32 words per pair

const KERNEL = `${SHADERS.u64}
@group(0) @binding(0) var<storage, read> a_in: array<vec2<u32>>;
@group(0) @binding(1) var<storage, read> b_in: array<vec2<u32>>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
  let i = g.x;
  if (i >= arrayLength(&a_in)) { return; }
  let a = a_in[i];
  let b = b_in[i];
  let o = i * ${OUT}u;
  let s = u64_add(a, b);            out[o] = s.x; out[o + 1u] = s.y;
  let d = u64_sub(a, b);            out[o + 2u] = d.x; out[o + 3u] = d.y;
  let m = u64_mul(a, b);            out[o + 4u] = m.x; out[o + 5u] = m.y;
  let p = u64_mul32(a.x, b.y);      out[o + 6u] = p.x; out[o + 7u] = p.y;
  out[o + 8u] = select(0u, 1u, u64_lt(a, b));
  let q = u64_add32(a, b.x);        out[o + 9u] = q.x; out[o + 10u] = q.y;
  // divisions by b.x (when nonzero): the bitwise one for any divisor, the 16-bit one for ≤ 65536
  if (b.x != 0u) {
    let r = u64_divmod32(a, b.x);   out[o + 11u] = r.x; out[o + 12u] = r.y; out[o + 13u] = r.z;
  }
  if (b.x != 0u && b.x <= 65536u) {
    let r = u64_divmod_small(a, b.x); out[o + 14u] = select(0u, 1u, r.x == out[o + 11u] && r.y == out[o + 12u] && r.z == out[o + 13u]);
  }
  let sh = u64_shr(a, (b.x % 31u) + 1u); out[o + 15u] = sh.x ^ sh.y;
}
`;

const KERNEL_DIV = `${SHADERS.u64}
@group(0) @binding(0) var<storage, read> a_in: array<vec2<u32>>;
@group(0) @binding(1) var<storage, read> b_in: array<vec2<u32>>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
  let i = g.x;
  if (i >= arrayLength(&a_in)) { return; }
  let b = b_in[i];
  if (b.x == 0u && b.y == 0u) { return; }
  let r = u64_divmod(a_in[i], b);
  out[i * 4u] = r.q.x; out[i * 4u + 1u] = r.q.y; out[i * 4u + 2u] = r.r.x; out[i * 4u + 3u] = r.r.y;
}
`;

let dev: NodeDevice;
beforeAll(async () => {
  dev = await testDevice();
});
afterAll(() => dev?.release());

async function run(code: string, a: Uint32Array<ArrayBuffer>, b: Uint32Array<ArrayBuffer>, outWords: number): Promise<Uint32Array> {
  const device = dev.device;
  const mk = (data: Uint32Array<ArrayBuffer> | number, usage: number) => {
    const size = typeof data === 'number' ? data * 4 : data.byteLength;
    const buf = device.createBuffer({ size, usage });
    if (typeof data !== 'number') device.queue.writeBuffer(buf, 0, data);
    return buf;
  };
  const STORAGE = 128,
    COPY_DST = 8,
    COPY_SRC = 4,
    MAP_READ = 1;
  const ba = mk(a, STORAGE | COPY_DST);
  const bb = mk(b, STORAGE | COPY_DST);
  const bo = mk(outWords, STORAGE | COPY_SRC);
  const rb = mk(outWords, MAP_READ | COPY_DST);
  const module = device.createShaderModule({ code });
  const pipe = await device.createComputePipelineAsync({ layout: 'auto', compute: { module, entryPoint: 'main' } });
  const bg = device.createBindGroup({
    layout: pipe.getBindGroupLayout(0),
    entries: [ba, bb, bo].map((buffer, binding) => ({ binding, resource: { buffer } })),
  });
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipe);
  pass.setBindGroup(0, bg);
  pass.dispatchWorkgroups(Math.ceil(a.length / 2 / 64));
  pass.end();
  enc.copyBufferToBuffer(bo, 0, rb, 0, outWords * 4);
  device.queue.submit([enc.finish()]);
  await rb.mapAsync(1);
  const r = new Uint32Array(rb.getMappedRange().slice(0));
  rb.unmap();
  for (const x of [ba, bb, bo, rb]) x.destroy();
  return r;
}

const big = (lo: number, hi: number) => (BigInt(hi) << 32n) | BigInt(lo);
const limbs = (v: bigint): [number, number] => [Number(v & 0xffffffffn), Number((v >> 32n) & 0xffffffffn)];

describe('u64 helpers (WGSL, two limbs) against BigInt at their edges', () => {
  it('add, sub, mul, mul32, lt, add32, divmod32, divmod_small, shr on every pair of edge values', async () => {
    const vals: [number, number][] = [];
    for (const hi of LIMBS) for (const lo of LIMBS) vals.push([lo, hi]);
    const n = vals.length * vals.length;
    const a = new Uint32Array(2 * n);
    const b = new Uint32Array(2 * n);
    let k = 0;
    for (const x of vals)
      for (const y of vals) {
        a.set(x, 2 * k);
        b.set(y, 2 * k);
        k++;
      }
    const out = await run(KERNEL, a, b, OUT * n);
    let bad = 0;
    const fail = (what: string, i: number, got: unknown, want: unknown) => {
      if (bad++ < 10) expect.soft(got, `${what} of ${big(a[2 * i]!, a[2 * i + 1]!)} and ${big(b[2 * i]!, b[2 * i + 1]!)}`).toEqual(want);
    };
    for (let i = 0; i < n; i++) {
      const A = big(a[2 * i]!, a[2 * i + 1]!);
      const B = big(b[2 * i]!, b[2 * i + 1]!);
      const o = OUT * i;
      const got = (j: number) => big(out[o + j]!, out[o + j + 1]!);
      if (got(0) !== ((A + B) & M64)) fail('add', i, got(0), (A + B) & M64);
      if (got(2) !== ((A - B) & M64)) fail('sub', i, got(2), (A - B) & M64);
      if (got(4) !== ((A * B) & M64)) fail('mul', i, got(4), (A * B) & M64);
      const p = BigInt(a[2 * i]!) * BigInt(b[2 * i + 1]!);
      if (got(6) !== p) fail('mul32', i, got(6), p);
      if (out[o + 8] !== (A < B ? 1 : 0)) fail('lt', i, out[o + 8], A < B ? 1 : 0);
      const s32 = (A + BigInt(b[2 * i]!)) & M64;
      if (got(9) !== s32) fail('add32', i, got(9), s32);
      const d = BigInt(b[2 * i]!);
      if (d !== 0n) {
        if (got(11) !== A / d || BigInt(out[o + 13]!) !== A % d) fail('divmod32', i, [got(11), out[o + 13]], [A / d, A % d]);
        if (d <= 65536n && out[o + 14] !== 1) fail('divmod_small', i, out[o + 14], 1);
      }
      const k2 = (d % 31n) + 1n;
      const sh = limbs(A >> k2);
      if (out[o + 15] !== (sh[0] ^ sh[1]) >>> 0) fail('shr', i, out[o + 15], (sh[0] ^ sh[1]) >>> 0);
    }
    expect(bad).toBe(0);
  });

  it('u64_divmod for divisors up to 2^53 at the edges', async () => {
    const vs: bigint[] = [];
    for (const hi of [0, 1, 2, 0xfffff, 0x1fffff]) for (const lo of [0, 1, 2, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xffffffff]) vs.push(big(lo, hi));
    const divs = vs.filter((v) => v > 0n);
    const n = vs.length * divs.length;
    const a = new Uint32Array(2 * n);
    const b = new Uint32Array(2 * n);
    let k = 0;
    for (const x of vs)
      for (const y of divs) {
        a.set(limbs(x), 2 * k);
        b.set(limbs(y), 2 * k);
        k++;
      }
    const out = await run(KERNEL_DIV, a, b, 4 * n);
    let bad = 0;
    k = 0;
    for (const x of vs)
      for (const y of divs) {
        const q = big(out[4 * k]!, out[4 * k + 1]!);
        const r = big(out[4 * k + 2]!, out[4 * k + 3]!);
        if (q !== x / y || r !== x % y) {
          if (bad++ < 5) expect.soft([q, r], `${x} / ${y}`).toEqual([x / y, x % y]);
        }
        k++;
      }
    expect(bad).toBe(0);
  });
});
