// digest.wgsl: each thread walks DIGEST_PER consecutive indices (digest_walk, generated) and
// writes the exact sum, min and max of Φ_L over them in 64 bits; the host adds the partials up.
// No workgroup reduction: barriers are what software adapters run slowest, and a long walk per
// thread already makes the partials few. The codegen chooses DIGEST_PER so that a thread's sum
// stays below 2^64 (DIGEST_PER · cosize < 2^64).

@group(0) @binding(1) var<storage, read_write> partials: array<vec2<u32>>;

struct Acc {
  sum: vec2<u32>,
  lo: vec2<u32>,
  hi: vec2<u32>,
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let t = thread_index(wid, nwg, lid);
  var acc = Acc(vec2<u32>(0u, 0u), vec2<u32>(0xffffffffu, 0xffffffffu), vec2<u32>(0u, 0u));
  // params.count ≥ 1; t·DIGEST_PER ≤ count − 1 never wraps, and neither does the walk's bound
  if (t <= (params.count - 1u) / DIGEST_PER) {
    let first = t * DIGEST_PER;
    acc = digest_walk(first, min(DIGEST_PER, params.count - first));
  }
  partials[3u * t] = acc.sum;
  partials[3u * t + 1u] = acc.lo;
  partials[3u * t + 2u] = acc.hi;
}
