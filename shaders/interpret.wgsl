// interpret.wgsl: the bulk-verification interpreter (src/verify/gpu.ts). One generic kernel for
// thousands of small layouts per dispatch, the complement of the per-layout generated kernels.
//
// layouts: packed flat layouts, coalesced on the host. A layout at word offset o is
//   [h, K, mask, S, then m modes of 4 words: shape, stride, magic, shifts]
// with h = m | 2^31 for a composed layout Sw<B,M,S> o K o L (docs/semantics.md §9.1): its value is
// Sw(K + Φ_L(x)), Sw(y) = y XOR ((y AND mask) >> S) (a negative S shifts left), mask =
// (2^B − 1) << (M + max(0, S)); h = m (plain) skips the outer function.
// where (magic, shifts) are the host-precomputed constants of the division by the shape
// (Granlund–Montgomery: q = (t + ((n − t) >> sh1)) >> sh2 with t = mulhi(n, magic),
// shifts = sh1 | sh2 << 8), so that no thread divides.
// jobs: 8 words per job: [A, B, C, bit base, bound, 0, 0, 0] (word offsets into layouts;
//   B = NONE: the identity).
// starts: jobs + 1 exclusive prefix sums of size(A) over the jobs of this batch; global index g
//   belongs to the job j with starts[j] ≤ g < starts[j + 1], x = g − starts[j]. After them, one
//   word per workgroup w (and one more): the job of index w·WG·range (host-computed), so that a
//   thread binary-searches only the jobs its workgroup touches.
// verdict: per job, a failing x (atomicMin of those seen), NONE when it passed; a thread of a job
//   already failed skips its work.
// out: mode 0: Φ_A(x) at g; mode 1: the bitmap (bit base + offset) of compact/injective.
// Every offset fits in u32 (cosize ≤ 2^32, checked by the host).
//
// modes: 0 eval, 1 bitmap (fails when Φ_A(x) ≥ bound or the bit is already set),
//        2 equal (fails when Φ_A(x) ≥ bound = size(B) or Φ_B(Φ_A(x)) ≠ Φ_C(x)).

const WG: u32 = 256u;
const NONE: u32 = 0xffffffffu;

struct VParams {
  base: u32,
  // indices of this dispatch
  count: u32,
  jobs: u32,
  mode: u32,
  // indices per thread
  range: u32,
}

@group(0) @binding(0) var<uniform> params: VParams;
@group(0) @binding(1) var<storage, read> layouts: array<u32>;
@group(0) @binding(2) var<storage, read> jobs: array<u32>;
@group(0) @binding(3) var<storage, read> starts: array<u32>;
@group(0) @binding(4) var<storage, read_write> verdict: array<atomic<u32>>;
@group(0) @binding(5) var<storage, read_write> out: array<atomic<u32>>;

// the high 32 bits of a·b
fn mulhi(a: u32, b: u32) -> u32 {
  let a0 = a & 0xffffu;
  let a1 = a >> 16u;
  let b0 = b & 0xffffu;
  let b1 = b >> 16u;
  let p00 = a0 * b0;
  let p01 = a0 * b1;
  let p10 = a1 * b0;
  let p11 = a1 * b1;
  let mid = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
  return p11 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u);
}

// the outer function of the layout at o applied to an inner value y: Sw(K + y), or y
fn outer(o: u32, y: u32) -> u32 {
  if ((layouts[o] & 0x80000000u) == 0u) {
    return y;
  }
  let z = y + layouts[o + 1u];
  let f = z & layouts[o + 2u];
  let sh = bitcast<i32>(layouts[o + 3u]);
  if (sh >= 0) {
    return z ^ (f >> u32(sh));
  }
  return z ^ (f << u32(-sh));
}

// Φ(x) of the layout at o: the inner Φ_L by mixed-radix decomposition, then the outer function
fn phi(o: u32, x: u32) -> u32 {
  return outer(o, phi_inner(o, x));
}

fn phi_inner(o: u32, x: u32) -> u32 {
  let m = layouts[o] & 0x7fffffffu;
  var r = x;
  var v = 0u;
  for (var j = 0u; j < m; j = j + 1u) {
    let w = o + 4u + 4u * j;
    let s = layouts[w];
    let d = layouts[w + 1u];
    if (j + 1u == m) {
      v = v + r * d;
      break;
    }
    let t = mulhi(r, layouts[w + 2u]);
    let sh = layouts[w + 3u];
    let q = (t + ((r - t) >> (sh & 0xffu))) >> (sh >> 8u);
    v = v + (r - q * s) * d;
    r = q;
  }
  return v;
}

fn find_job(g: u32, w: u32) -> u32 {
  var lo = starts[params.jobs + 1u + w];
  var hi = starts[params.jobs + 2u + w] + 1u;
  while (hi - lo > 1u) {
    let mid = (lo + hi) >> 1u;
    if (starts[mid] <= g) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// the work of index g of job j (x = g − starts[j]); nothing once the job has failed
fn step(g: u32, j: u32) {
  let x = g - starts[j];
  let jb = 8u * j;
  if (params.mode == 0u) {
    atomicStore(&out[g], phi(jobs[jb], x));
    return;
  }
  if (atomicLoad(&verdict[j]) != NONE) {
    return;
  }
  let va = phi(jobs[jb], x);
  if (params.mode == 1u) {
    if (va >= jobs[jb + 4u]) {
      atomicMin(&verdict[j], x);
      return;
    }
    let bit = jobs[jb + 3u] + va;
    let m = 1u << (bit & 31u);
    let old = atomicOr(&out[bit >> 5u], m);
    if ((old & m) != 0u) {
      atomicMin(&verdict[j], x);
    }
    return;
  }
  // cosize(A) ≤ size(B) (bound = size(B), NONE without B): checked per value, as a composed A's
  // cosize is known only by enumeration
  if (va >= jobs[jb + 4u]) {
    atomicMin(&verdict[j], x);
    return;
  }
  var vb = va;
  if (jobs[jb + 1u] != NONE) {
    vb = phi(jobs[jb + 1u], va);
  }
  if (vb != phi(jobs[jb + 2u], x)) {
    atomicMin(&verdict[j], x);
  }
}

// the indices [t, e) of this dispatch, all of job j, in mode 0 or 1: the coordinate is
// decomposed once (divisions by the host's constants), then carried from one x to the next by
// digit-wise increments with carries (no division): Φ_L(x + 1) = Φ_L(x) + d_0, and on a carry
// out of mode k, − s_k·d_k + d_(k+1).
fn run_segment(j: u32, t: u32, e: u32) {
  let jb = 8u * j;
  let o = jobs[jb];
  let m = layouts[o] & 0x7fffffffu;
  var x = params.base + t - starts[j];
  // digits of modes 1.. (mode 0's in c0); m ≤ 30 (size ≤ 2^30, every coalesced shape ≥ 2)
  var dig: array<u32, 32>;
  var r = x;
  var v = 0u;
  for (var k = 0u; k < m; k = k + 1u) {
    let w = o + 4u + 4u * k;
    if (k + 1u == m) {
      dig[k] = r;
      v = v + r * layouts[w + 1u];
      break;
    }
    let q0 = mulhi(r, layouts[w + 2u]);
    let sh = layouts[w + 3u];
    let q = (q0 + ((r - q0) >> (sh & 0xffu))) >> (sh >> 8u);
    dig[k] = r - q * layouts[w];
    v = v + dig[k] * layouts[w + 1u];
    r = q;
  }
  var s0 = 1u;
  var d0 = 0u;
  if (m > 0u) {
    s0 = layouts[o + 4u];
    d0 = layouts[o + 5u];
  }
  var c0 = dig[0];
  let bound = jobs[jb + 4u];
  let bitBase = jobs[jb + 3u];
  for (var i = t; i < e; i = i + 1u) {
    let val = outer(o, v);
    if (params.mode == 0u) {
      atomicStore(&out[params.base + i], val);
    } else {
      if (val >= bound) {
        atomicMin(&verdict[j], x);
        return;
      }
      let bit = bitBase + val;
      let mk = 1u << (bit & 31u);
      let old = atomicOr(&out[bit >> 5u], mk);
      if ((old & mk) != 0u) {
        atomicMin(&verdict[j], x);
        return;
      }
    }
    // x + 1: mode 0, then the carries
    x = x + 1u;
    v = v + d0;
    c0 = c0 + 1u;
    if (c0 == s0 && i + 1u < e) {
      c0 = 0u;
      v = v - s0 * d0;
      if (params.mode == 1u && atomicLoad(&verdict[j]) != NONE) {
        return;
      }
      for (var k = 1u; k < m; k = k + 1u) {
        let w = o + 4u + 4u * k;
        let d = layouts[w + 1u];
        v = v + d;
        dig[k] = dig[k] + 1u;
        if (dig[k] != layouts[w]) {
          break;
        }
        dig[k] = 0u;
        v = v - layouts[w] * d;
      }
    }
  }
}

// thread t takes the range of indices [t·range, (t + 1)·range) ∩ [0, count), crossing job
// boundaries as it goes; the range is a batch's share of a fixed grid (grid-stride: the host
// picks the grid from the adapter and range = count / threads)
@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let w = wid.y * nwg.x + wid.x;
  let first = (w * WG + lid) * params.range;
  if (first >= params.count) {
    return;
  }
  let end = min(first + params.range, params.count);
  var j = find_job(params.base + first, w);
  var t = first;
  while (t < end) {
    let g = params.base + t;
    while (starts[j + 1u] <= g) {
      j = j + 1u;
    }
    // the part of this thread's range in job j
    let e = min(end, starts[j + 1u] - params.base);
    if (params.mode == 2u) {
      for (var u = t; u < e; u = u + 1u) {
        step(params.base + u, j);
      }
    } else if (params.mode == 0u || atomicLoad(&verdict[j]) == NONE) {
      run_segment(j, t, e);
    }
    t = e;
  }
}
