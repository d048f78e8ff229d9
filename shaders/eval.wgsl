// eval.wgsl: out[t] = Φ_L(base + t) for t < count.

@group(0) @binding(1) var<storage, read_write> out: array<OFF_L>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let t = thread_index(wid, nwg, lid);
  if (t >= params.count) {
    return;
  }
  out[t] = phi_l(index_of(t));
}
