// eval.wgsl: out[i] = Φ_L(base + i) for i < count, grid-stride.

@group(0) @binding(1) var<storage, read_write> out: array<OFF_L>;

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
    out[i] = l_value(w.o);
    i = i + grid;
    if (i >= params.count) {
      break;
    }
    l_step(&w, g);
  }
}
