// compose.wgsl: certify C = B∘A: counts x < size(A) with Φ_C(x) ≠ Φ_B(Φ_A(x)).
// counters: [0] mismatches, [1] least mismatching x (relative to the round).

@group(0) @binding(1) var<storage, read_write> counters: array<atomic<u32>, 2>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let t = thread_index(wid, nwg, lid);
  if (t >= params.count) {
    return;
  }
  let x = index_of(t);
  let via = widen_b(phi_b(phi_a(x)));
  let direct = widen_c(phi_c(x));
  if (any(via != direct)) {
    atomicAdd(&counters[0], 1u);
    atomicMin(&counters[1], params.rel + t);
  }
}
