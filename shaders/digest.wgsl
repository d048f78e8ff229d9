// digest.wgsl: each thread walks its grid-stride indices (digest_walk, generated) and writes the
// exact sum, min and max of Φ_L over them in 64 bits; the host adds the G partials up.
// No workgroup reduction: barriers are what software adapters run slowest, and the grid is
// small. The host bounds the indices per thread so that a thread's sum stays below 2^64.

@group(0) @binding(1) var<storage, read_write> partials: array<vec2<u32>>;

struct Acc {
  sum: vec2<u32>,
  lo: vec2<u32>,
  hi: vec2<u32>,
}

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  let t = gid.x;
  var acc = Acc(vec2<u32>(0u, 0u), vec2<u32>(0xffffffffu, 0xffffffffu), vec2<u32>(0u, 0u));
  if (t < params.count) {
    acc = digest_walk(t, nwg.x * WG);
  }
  partials[3u * t] = acc.sum;
  partials[3u * t + 1u] = acc.lo;
  partials[3u * t + 2u] = acc.hi;
}
