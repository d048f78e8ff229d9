// digest.wgsl: per workgroup, the exact sum (< 256 · 2^53 < 2^64), min and max of Φ_L over
// its indices; the host adds the partials up.

@group(0) @binding(1) var<storage, read_write> partials: array<vec2<u32>>;

var<workgroup> s_sum: array<vec2<u32>, WG>;
var<workgroup> s_min: array<vec2<u32>, WG>;
var<workgroup> s_max: array<vec2<u32>, WG>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let t = thread_index(wid, nwg, lid);
  let valid = t < params.count;
  var v = vec2<u32>(0u, 0u);
  if (valid) {
    v = widen_l(phi_l(index_of(t)));
  }
  s_sum[lid] = v;
  s_min[lid] = select(vec2<u32>(0xffffffffu, 0xffffffffu), v, valid);
  s_max[lid] = v;
  workgroupBarrier();
  for (var k = WG / 2u; k > 0u; k = k >> 1u) {
    if (lid < k) {
      s_sum[lid] = u64_add(s_sum[lid], s_sum[lid + k]);
      s_min[lid] = u64_min(s_min[lid], s_min[lid + k]);
      s_max[lid] = u64_max(s_max[lid], s_max[lid + k]);
    }
    workgroupBarrier();
  }
  if (lid == 0u) {
    let w = wid.y * nwg.x + wid.x;
    partials[3u * w] = s_sum[0];
    partials[3u * w + 1u] = s_min[0];
    partials[3u * w + 2u] = s_max[0];
  }
}
