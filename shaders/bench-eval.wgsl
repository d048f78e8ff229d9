// bench-eval.wgsl: `layoutgpu bench`'s eval (src/throughput/wgsl.ts): out[t] = Φ(t) (u32
// offsets), grid-stride below N. WG_SIZE is substituted by the host; N and phi come before it.

@group(0) @binding(0) var<storage, read> unused: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(WG_SIZE)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let grid = nwg.x * WG_SIZE;
  for (var t = gid.x; t < N; t = t + grid) {
    out[t] = phi(t);
  }
}
