// compose.wgsl: certify C = B∘A: counts x < size(A) with Φ_C(x) ≠ Φ_B(Φ_A(x)), grid-stride.
// counters: [0] mismatches, [1] least mismatching x (relative to the round).

@group(0) @binding(1) var<storage, read_write> counters: array<atomic<u32>, 2>;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  var i = gid.x;
  if (i >= params.count) {
    return;
  }
  let grid = nwg.x * WG;
  let ga = a_start(as_index(grid));
  let gc = c_start(as_index(grid));
  var wa = a_start(index_of(i));
  var wc = c_start(index_of(i));
  loop {
    let via = widen_b(phi_b(a_value(wa.o)));
    let direct = widen_c(c_value(wc.o));
    if (any(via != direct)) {
      atomicAdd(&counters[0], 1u);
      atomicMin(&counters[1], params.rel + i);
    }
    i = i + grid;
    if (i >= params.count) {
      break;
    }
    a_step(&wa, ga);
    c_step(&wc, gc);
  }
}
