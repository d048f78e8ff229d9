// bench-compact.wgsl: `layoutgpu bench`'s compactness check (src/throughput/wgsl.ts), grid-stride
// below N: dst[0] += #{t : Φ(t) ≥ N}, a bitmap of the offsets below N from dst[4] on, dst[1] +=
// the offsets found already set (collisions). WG_SIZE is substituted by the host; N and phi come
// before it.

@group(0) @binding(0) var<storage, read> unused: array<u32>;
@group(0) @binding(1) var<storage, read_write> dst: array<atomic<u32>>;

@compute @workgroup_size(WG_SIZE)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let grid = nwg.x * WG_SIZE;
  for (var t = gid.x; t < N; t = t + grid) {
    let v = phi(t);
    if (v >= N) { atomicAdd(&dst[0], 1u); continue; }
    let m = 1u << (v & 31u);
    let old = atomicOr(&dst[4u + (v >> 5u)], m);
    if ((old & m) != 0u) { atomicAdd(&dst[1], 1u); }
  }
}
