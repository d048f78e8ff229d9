// tiles.wgsl: the tile address map of A ⊘ B in tile-major order, out[k·tileSize + i] =
// Φ_{A⊘B}(i + tileSize·k), with Φ_A beside it for the check that the tiles hit A's image
// exactly as often as A does. Grid-stride.

@group(0) @binding(1) var<storage, read_write> out: array<OFF_D>;
@group(0) @binding(2) var<storage, read_write> out_a: array<OFF_A>;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  var i = gid.x;
  if (i >= params.count) {
    return;
  }
  let grid = nwg.x * WG;
  let gd = d_start(as_index(grid));
  let ga = a_start(as_index(grid));
  var wd = d_start(index_of(i));
  var wa = a_start(index_of(i));
  loop {
    out[i] = d_value(wd.o);
    out_a[i] = a_value(wa.o);
    i = i + grid;
    if (i >= params.count) {
      break;
    }
    d_step(&wd, gd);
    a_step(&wa, ga);
  }
}
