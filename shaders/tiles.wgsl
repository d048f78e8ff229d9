// tiles.wgsl: the tile address map of A ⊘ B in tile-major order, out[k·tileSize + i] =
// Φ_{A⊘B}(i + tileSize·k), with Φ_A beside it for the check that the tiles hit A's image
// exactly as often as A does.

@group(0) @binding(1) var<storage, read_write> out: array<OFF_D>;
@group(0) @binding(2) var<storage, read_write> out_a: array<OFF_A>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let t = thread_index(wid, nwg, lid);
  if (t >= params.count) {
    return;
  }
  let x = index_of(t);
  out[t] = phi_d(x);
  out_a[t] = phi_a(x);
}
