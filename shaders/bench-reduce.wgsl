// bench-reduce.wgsl: `layoutgpu bench`'s reduce (src/throughput/wgsl.ts): out[0] += Σ Φ(x) (mod
// 2^32), PER_THREAD indices a thread (x = t + j·THREADS), a workgroup atomic, one global atomic
// per workgroup. THREAD_COUNT, PER_THREAD and WG_SIZE are substituted by the host; N, flat_wg and
// phi come before it.

const THREADS: u32 = THREAD_COUNT;
@group(0) @binding(0) var<storage, read> unused: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<atomic<u32>>;
var<workgroup> wsum: atomic<u32>;

@compute @workgroup_size(WG_SIZE)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let t = flat_wg(wid, nwg) * WG_SIZE + lid;
  var s = 0u;
  for (var j = 0u; j < PER_THREAD; j = j + 1u) {
    let x = t + j * THREADS;
    if (x < N) { s = s + phi(x); }
  }
  atomicAdd(&wsum, s);
  workgroupBarrier();
  if (lid == 0u) { atomicAdd(&out[0], atomicLoad(&wsum)); }
}
