// bench-scatter.wgsl: `layoutgpu bench`'s scatter (src/throughput/wgsl.ts): dst[Φ(t)] = src[t],
// grid-stride below N (injective layouts only). ELEM and WG_SIZE are substituted by the host; N
// and phi come before it.

@group(0) @binding(0) var<storage, read> src: array<ELEM>;
@group(0) @binding(1) var<storage, read_write> dst: array<ELEM>;

@compute @workgroup_size(WG_SIZE)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let grid = nwg.x * WG_SIZE;
  for (var t = gid.x; t < N; t = t + grid) {
    dst[phi(t)] = src[t];
  }
}
