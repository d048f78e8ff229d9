// bench-tile.wgsl: `layoutgpu bench`'s tile kernel (src/throughput/wgsl.ts): workgroup k copies
// tile k, dst[k·T + j] = src[Φ_{A⊘B}(k·T + j)] for j < T, in a loop of WG_SIZE threads.
// ELEM, TILE_SIZE, TILE_COUNT and WG_SIZE are substituted by the host; flat_wg and phi come
// before it.

const T: u32 = TILE_SIZE;
const TILES: u32 = TILE_COUNT;
@group(0) @binding(0) var<storage, read> src: array<ELEM>;
@group(0) @binding(1) var<storage, read_write> dst: array<ELEM>;

@compute @workgroup_size(WG_SIZE)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let k = flat_wg(wid, nwg);
  if (k >= TILES) { return; }
  let base = k * T;
  for (var j = lid; j < T; j = j + WG_SIZE) {
    let x = base + j;
    dst[x] = src[phi(x)];
  }
}
