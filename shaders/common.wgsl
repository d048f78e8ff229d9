// common.wgsl: the parameters of one dispatch.
// One uniform slot per dispatch (dynamic offset), so that many dispatches share a submit.
// Every kernel is grid-stride over a 1-D grid: thread t = global_invocation_id.x takes the
// indices t, t + G, t + 2G, … below count, G = num_workgroups.x · WG (the host sizes the grid
// from the adapter; the source does not depend on it).

struct Params {
  // first layout index of this dispatch, as (lo, hi) limbs
  base: vec2<u32>,
  // number of indices of this dispatch
  count: u32,
  // position of this dispatch's first index within its round (witnesses are relative to it)
  rel: u32,
  // compact: first offset of the bitmap window, (lo, hi); find: the target offset
  window: vec2<u32>,
  // compact: number of offsets in the window
  window_len: u32,
  // bit 0: count out-of-range offsets in this pass
  flags: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
