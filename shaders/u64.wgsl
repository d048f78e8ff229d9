// u64.wgsl: exact unsigned 64-bit arithmetic on two 32-bit limbs, vec2<u32>(lo, hi).
// Used where offsets (cosize > 2^32) or indices (size > 2^32) need more than 32 bits.
// All values of the engine stay below 2^53, so the low 64 bits of a product are exact.

fn u64_add(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  let lo = a.x + b.x;
  return vec2<u32>(lo, a.y + b.y + select(0u, 1u, lo < a.x));
}

fn u64_add32(a: vec2<u32>, b: u32) -> vec2<u32> {
  let lo = a.x + b;
  return vec2<u32>(lo, a.y + select(0u, 1u, lo < a.x));
}

fn u64_sub(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  return vec2<u32>(a.x - b.x, a.y - b.y - select(0u, 1u, a.x < b.x));
}

fn u64_lt(a: vec2<u32>, b: vec2<u32>) -> bool {
  return a.y < b.y || (a.y == b.y && a.x < b.x);
}

fn u64_min(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  return select(b, a, u64_lt(a, b));
}

fn u64_max(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  return select(a, b, u64_lt(a, b));
}

// the full 64-bit product of two u32
fn u64_mul32(a: u32, b: u32) -> vec2<u32> {
  let a0 = a & 0xffffu;
  let a1 = a >> 16u;
  let b0 = b & 0xffffu;
  let b1 = b >> 16u;
  let p00 = a0 * b0;
  let p01 = a0 * b1;
  let p10 = a1 * b0;
  let p11 = a1 * b1;
  let mid = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
  let lo = (p00 & 0xffffu) | (mid << 16u);
  let hi = p11 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u);
  return vec2<u32>(lo, hi);
}

// the low 64 bits of a product of two u64
fn u64_mul(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  let p = u64_mul32(a.x, b.x);
  return vec2<u32>(p.x, p.y + a.x * b.y + a.y * b.x);
}

fn u64_shr(a: vec2<u32>, k: u32) -> vec2<u32> {
  // 0 < k < 32
  return vec2<u32>((a.x >> k) | (a.y << (32u - k)), a.y >> k);
}

// a / d and a % d for a divisor 0 < d <= 65536: (q.lo, q.hi, r), two 16-bit steps
fn u64_divmod_small(a: vec2<u32>, d: u32) -> vec3<u32> {
  let qh = a.y / d;
  var r = a.y % d;
  let t1 = (r << 16u) | (a.x >> 16u);
  let q1 = t1 / d;
  r = t1 % d;
  let t0 = (r << 16u) | (a.x & 0xffffu);
  let q0 = t0 / d;
  r = t0 % d;
  return vec3<u32>((q1 << 16u) | q0, qh, r);
}

// a / d and a % d for any divisor 0 < d < 2^32: (q.lo, q.hi, r), bitwise long division
fn u64_divmod32(a: vec2<u32>, d: u32) -> vec3<u32> {
  let qh = a.y / d;
  var r = a.y % d;
  var ql = 0u;
  for (var i = 31i; i >= 0i; i = i - 1i) {
    let top = r >> 31u;
    r = (r << 1u) | ((a.x >> u32(i)) & 1u);
    ql = ql << 1u;
    if (top != 0u || r >= d) {
      r = r - d;
      ql = ql | 1u;
    }
  }
  return vec3<u32>(ql, qh, r);
}

struct U64DivMod {
  q: vec2<u32>,
  r: vec2<u32>,
}

// a / d and a % d for a u64 divisor 0 < d < 2^53 (and a < 2^64): shift and subtract
fn u64_divmod(a: vec2<u32>, d: vec2<u32>) -> U64DivMod {
  var q = vec2<u32>(0u, 0u);
  var r = vec2<u32>(0u, 0u);
  for (var i = 63i; i >= 0i; i = i - 1i) {
    let bit = select((a.x >> u32(i)) & 1u, (a.y >> u32(i - 32i)) & 1u, i >= 32i);
    r = vec2<u32>((r.x << 1u) | bit, (r.y << 1u) | (r.x >> 31u));
    q = vec2<u32>(q.x << 1u, (q.y << 1u) | (q.x >> 31u));
    if (!u64_lt(r, d)) {
      r = u64_sub(r, d);
      q.x = q.x | 1u;
    }
  }
  return U64DivMod(q, r);
}
