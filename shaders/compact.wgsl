// compact.wgsl (the loop: visit.wgsl): a bitmap of the offsets hit within the window; an offset
// found already set is a collision. counters: [0] out-of-range count, [1] collision count,
// [2] least out-of-range index (relative to the round), [3] least colliding offset (relative to
// the window).

@group(0) @binding(1) var<storage, read_write> bits: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read_write> counters: array<atomic<u32>, 4>;

fn visit(v: OFF_L, i: u32) {
  if (out_of_range(v)) {
    if ((params.flags & 1u) != 0u) {
      atomicAdd(&counters[0], 1u);
      atomicMin(&counters[2], params.rel + i);
    }
    return;
  }
  let q = in_window(v);
  if (outside_window(q)) {
    return;
  }
  let m = 1u << (q & 31u);
  let old = atomicOr(&bits[q >> 5u], m);
  if ((old & m) != 0u) {
    atomicAdd(&counters[1], 1u);
    atomicMin(&counters[3], q);
  }
}
