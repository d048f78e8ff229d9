// find.wgsl: the least and the greatest index x with Φ_L(x) = target (params.window), used to
// name a colliding pair once compact.wgsl found the least colliding offset.
// counters: [0] least such x, [1] greatest such x + 1 (0: none), relative to the round.

@group(0) @binding(1) var<storage, read_write> counters: array<atomic<u32>, 2>;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  var i = gid.x;
  if (i >= params.count) {
    return;
  }
  let grid = nwg.x * WG;
  let g = l_start(as_index(grid));
  var w = l_start(index_of(i));
  loop {
    if (all(widen_l(l_value(w.o)) == params.window)) {
      atomicMin(&counters[0], params.rel + i);
      atomicMax(&counters[1], params.rel + i + 1u);
    }
    i = i + grid;
    if (i >= params.count) {
      break;
    }
    l_step(&w, g);
  }
}
