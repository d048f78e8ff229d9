// eval.wgsl: out[i] = Φ_L(base + i) for i < count (the loop: visit.wgsl).

@group(0) @binding(1) var<storage, read_write> out: array<OFF_L>;

fn visit(v: OFF_L, i: u32) {
  out[i] = v;
}
