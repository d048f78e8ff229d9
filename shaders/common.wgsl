// common.wgsl: the parameters of one dispatch and the thread's index.
// One uniform slot per dispatch (dynamic offset), so that many dispatches share a submit.

struct Params {
  // first layout index of this dispatch, as (lo, hi) limbs
  base: vec2<u32>,
  // number of indices of this dispatch
  count: u32,
  // position of this dispatch's first index within its round (witnesses are relative to it)
  rel: u32,
  // compact: first offset of the bitmap window, (lo, hi)
  window: vec2<u32>,
  // compact: number of offsets in the window
  window_len: u32,
  // bit 0: count out-of-range offsets in this pass
  flags: u32,
}

@group(0) @binding(0) var<uniform> params: Params;

// 2-D dispatch: rows of num_workgroups.x workgroups, so ranges beyond 65,535 workgroups work
fn thread_index(wid: vec3<u32>, nwg: vec3<u32>, lid: u32) -> u32 {
  return (wid.y * nwg.x + wid.x) * WG + lid;
}
