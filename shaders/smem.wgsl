// smem.wgsl: a tile written to workgroup memory through a memory layout M and read back
// through M with a TV pattern (layoutgpu bench --smem, src/throughput/smem.ts). One workgroup of
// THREADS threads per tile; each thread moves WORDS_PER 4-byte words per instruction at the
// host-computed word address addr[t + THREADS·k] (k < INSTR); REPS rounds of write, barrier,
// read, barrier; a read that differs from what was written counts as a mismatch.
// THREADS, INSTR, WORDS_PER, TILE_WORDS and REPS are substituted by the host.

@group(0) @binding(0) var<storage, read> addr: array<u32>;
@group(0) @binding(1) var<storage, read_write> result: array<atomic<u32>>;

var<workgroup> tile: array<u32, TILE_WORDS>;

@compute @workgroup_size(THREADS)
fn main(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  var acc = 0u;
  var bad = 0u;
  for (var r = 0u; r < REPS; r = r + 1u) {
    for (var k = 0u; k < INSTR; k = k + 1u) {
      let a = addr[t + THREADS * k];
      for (var q = 0u; q < WORDS_PER; q = q + 1u) {
        tile[a + q] = a + q + r + wid.x;
      }
    }
    workgroupBarrier();
    for (var k = 0u; k < INSTR; k = k + 1u) {
      let a = addr[t + THREADS * k];
      for (var q = 0u; q < WORDS_PER; q = q + 1u) {
        let v = tile[a + q];
        acc = acc + v;
        if (v != a + q + r + wid.x) {
          bad = bad + 1u;
        }
      }
    }
    workgroupBarrier();
  }
  atomicAdd(&result[0], bad);
  atomicAdd(&result[1], acc & 1u);
}
