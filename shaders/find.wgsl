// find.wgsl: the least and the greatest index x with Φ_L(x) = target (params.window), used to
// name a colliding pair once compact.wgsl found the least colliding offset.
// counters: [0] least such x, [1] greatest such x + 1 (0: none), relative to the round.

@group(0) @binding(1) var<storage, read_write> counters: array<atomic<u32>, 2>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let t = thread_index(wid, nwg, lid);
  if (t >= params.count) {
    return;
  }
  let v = widen_l(phi_l(index_of(t)));
  if (all(v == params.window)) {
    atomicMin(&counters[0], params.rel + t);
    atomicMax(&counters[1], params.rel + t + 1u);
  }
}
