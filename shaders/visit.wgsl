// visit.wgsl: the grid-stride loop of the single-layout kernels (eval, compact, find). Thread
// t = global_invocation_id.x visits the indices t, t + G, t + 2G, … below count (G =
// num_workgroups.x · WG), carrying its walk of L from one to the next (l_step), and calls the
// kernel's visit(Φ_L(base + i), i) for each.

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
    visit(l_value(w.o), i);
    i = i + grid;
    if (i >= params.count) {
      break;
    }
    l_step(&w, g);
  }
}
