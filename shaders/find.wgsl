// find.wgsl (the loop: visit.wgsl): the least and the greatest index x with Φ_L(x) = target
// (params.window), used to name a colliding pair once compact.wgsl found the least colliding
// offset.
// counters: [0] least such x, [1] greatest such x + 1 (0: none), relative to the round.

@group(0) @binding(1) var<storage, read_write> counters: array<atomic<u32>, 2>;

fn visit(v: OFF_L, i: u32) {
  if (all(widen_l(v) == params.window)) {
    atomicMin(&counters[0], params.rel + i);
    atomicMax(&counters[1], params.rel + i + 1u);
  }
}
