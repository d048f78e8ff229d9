// bench-fill.wgsl: the known pattern of `layoutgpu bench`'s source buffers (src/throughput/gpu.ts):
// word k = k + 1 for k < p.count, one word a thread over a 2-D grid of rows of p.row workgroups
// (a JavaScript loop over a gigabyte takes seconds). WG_SIZE is substituted by the host.

@group(0) @binding(0) var<storage, read_write> a: array<u32>;
struct P { count: u32, row: u32 }
@group(0) @binding(1) var<uniform> p: P;

@compute @workgroup_size(WG_SIZE)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let k = (wid.y * p.row + wid.x) * WG_SIZE + lid;
  if (k < p.count) { a[k] = k + 1u; }
}
