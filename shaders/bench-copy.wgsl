// bench-copy.wgsl: the reference of `layoutgpu bench` (src/throughput/wgsl.ts): dst[t] = src[t],
// grid-stride below LIMIT, in elements of ELEM (16-byte words when the byte count allows).
// ELEM, LIMIT and WG_SIZE are substituted by the host; N and phi come before it.

@group(0) @binding(0) var<storage, read> src: array<ELEM>;
@group(0) @binding(1) var<storage, read_write> dst: array<ELEM>;

@compute @workgroup_size(WG_SIZE)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let grid = nwg.x * WG_SIZE;
  for (var t = gid.x; t < LIMIT; t = t + grid) {
    dst[t] = src[t];
  }
}
