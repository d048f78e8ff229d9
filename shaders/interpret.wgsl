// interpret.wgsl: the bulk-verification interpreter (src/verify/gpu.ts). One generic kernel for
// thousands of small layouts per dispatch, the complement of the per-layout generated kernels.
//
// layouts: packed flat layouts, coalesced on the host. A layout at word offset o is
//   [m, then m modes of 4 words: shape, stride, magic, shifts]
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
//        2 equal (fails when Φ_B(Φ_A(x)) ≠ Φ_C(x)).

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

fn phi(o: u32, x: u32) -> u32 {
  let m = layouts[o];
  var r = x;
  var v = 0u;
  for (var j = 0u; j < m; j = j + 1u) {
    let w = o + 1u + 4u * j;
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
  var vb = va;
  if (jobs[jb + 1u] != NONE) {
    vb = phi(jobs[jb + 1u], va);
  }
  if (vb != phi(jobs[jb + 2u], x)) {
    atomicMin(&verdict[j], x);
  }
}

// thread t takes the range of indices [t·range, (t + 1)·range) ∩ [0, count), crossing job
// boundaries as it goes
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
  for (var t = first; t < end; t = t + 1u) {
    let g = params.base + t;
    while (starts[j + 1u] <= g) {
      j = j + 1u;
    }
    step(g, j);
  }
}
