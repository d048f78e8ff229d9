// plan.wgsl: plan_smem's candidates priced in bulk (src/planner/gpu.ts; docs/planner.md "Scale").
// One workgroup per job, a job being (candidate, access pattern of a side): the candidate's
// element offsets by tile index (offs, n per candidate, all below 2^30) and the pattern's tile
// index of value j of thread t (at t + T·j). Two steps, as src/planner/price.ts priceSide:
//   1. the vector check (docs/semantics.md §9.2): for every width w of the pattern (widest first,
//      each dividing the widest W), whether every thread's values k·w … k·w + w − 1 are
//      contiguous and aligned at w; one pass over the blocks of W values, a failing width's bit
//      set in `failed`;
//   2. at the first width that holds, the phases and wavefronts of its instructions on the
//      machine's bank model, one phase slot per invocation in turn: instruction q of warp (wave)
//      g moves values q·w … q·w + w − 1 of its threads; a phase serves threadsPerPhase(w·e)
//      consecutive lanes on NVIDIA (32 banks), or the lanes of the machine's row on AMD (its
//      lane table, 32 or 64 banks); a phase with no live thread is no phase; it takes as many
//      wavefronts as the most distinct words in one bank (memory/banks.ts BankScratch.phase).
// out, 4 words per job: the width's number in the pattern's list (0xffffffff: none holds), the
// phases, the wavefronts, 0.

const WG: u32 = 64u;
const NONE: u32 = 0xffffffffu;

struct Params {
  // jobs in this dispatch
  jobs: u32,
  // offsets per candidate (the tile's size)
  n: u32,
  _a: u32,
  _b: u32,
}

// per pattern, 24 words at its header offset h: T, V, e, the number of widths nw, widths[5]
//   (h + 4 …), the word offset of its index table (T·V words), of its live mask (T words; 0: every
//   thread live), its wave (32 on NVIDIA), its banks, 1 on AMD (0: NVIDIA's phases of §9.2), the
//   word offset of the lane table of each width (h + 14 …, AMD: the lanes per phase, then the wave's
//   lanes in phase order)
// per job, 2 words: its candidate in this dispatch, its pattern's header offset
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> offs: array<u32>;
@group(0) @binding(2) var<storage, read> pats: array<u32>;
@group(0) @binding(3) var<storage, read> jobs: array<u32>;
@group(0) @binding(4) var<storage, read_write> out: array<u32>;

var<workgroup> failed: atomic<u32>;
// `failed` once every check is done, read back uniformly
var<workgroup> failed_all: u32;
var<workgroup> phases: atomic<u32>;
var<workgroup> wavefronts: atomic<u32>;

// the offset of value j of thread t under the job's candidate
fn offset_of(c: u32, h: u32, t: u32, j: u32) -> u32 {
  let T = pats[h];
  return offs[c * params.n + pats[pats[h + 9u] + t + T * j]];
}

// the most distinct units (unit-byte blocks, each within one group of unit/4 banks) in one of the
// `groups` groups, over the n units of a phase: its wavefronts (at least 1)
fn phase_wavefronts(units: ptr<function, array<u32, 64>>, n: u32, groups: u32) -> u32 {
  var count: array<u32, 64>;
  var wf = 1u;
  for (var i = 0u; i < n; i = i + 1u) {
    let u = (*units)[i];
    var seen = false;
    for (var j = 0u; j < i; j = j + 1u) {
      if ((*units)[j] == u) {
        seen = true;
        break;
      }
    }
    if (!seen) {
      let b = u % groups;
      count[b] = count[b] + 1u;
      wf = max(wf, count[b]);
    }
  }
  return wf;
}

// the unit of byte address e·o for units of `unit` bytes (e and unit powers of two; no u32 overflow)
fn unit_of(o: u32, e: u32, unit: u32) -> u32 {
  if (e >= unit) {
    return o * (e / unit);
  }
  return o / (unit / e);
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let job = wid.y * nwg.x + wid.x;
  if (job >= params.jobs) {
    return;
  }
  let c = jobs[2u * job];
  let h = jobs[2u * job + 1u];
  let T = pats[h];
  let V = pats[h + 1u];
  let e = pats[h + 2u];
  let nw = pats[h + 3u];
  let W = pats[h + 4u];
  if (lid == 0u) {
    atomicStore(&failed, 0u);
    atomicStore(&phases, 0u);
    atomicStore(&wavefronts, 0u);
  }
  workgroupBarrier();

  // 1. the vector checks, one block of W values of a thread per item
  if (W > 1u) {
    let items = T * (V / W);
    for (var x = lid; x < items; x = x + WG) {
      let t = x % T;
      let j0 = (x / T) * W;
      var off: array<u32, 16>;
      for (var i = 0u; i < W; i = i + 1u) {
        off[i] = offset_of(c, h, t, j0 + i);
      }
      var bits = 0u;
      for (var k = 0u; k < nw; k = k + 1u) {
        let w = pats[h + 4u + k];
        for (var b = 0u; b < W; b = b + w) {
          var ok = off[b] % w == 0u;
          for (var i = 1u; i < w; i = i + 1u) {
            ok = ok && off[b + i] == off[b] + i;
          }
          if (!ok) {
            bits = bits | (1u << k);
          }
        }
      }
      if (bits != 0u) {
        atomicOr(&failed, bits);
      }
    }
  }
  workgroupBarrier();
  if (lid == 0u) {
    failed_all = atomicLoad(&failed);
  }
  let fl = workgroupUniformLoad(&failed_all);
  var k = 0u;
  while (k < nw && ((fl >> k) & 1u) != 0u) {
    k = k + 1u;
  }
  if (k == nw) {
    if (lid == 0u) {
      out[4u * job] = NONE;
      out[4u * job + 1u] = 0u;
      out[4u * job + 2u] = 0u;
      out[4u * job + 3u] = 0u;
    }
    return;
  }

  // 2. the phases of the instructions at width w
  let w = pats[h + 4u + k];
  let width = w * e;
  let live = pats[h + 10u];
  let wave = pats[h + 11u];
  let banks = pats[h + 12u];
  let amd = pats[h + 13u];
  let lt = pats[h + 14u + k];
  let unit = max(4u, width);
  let groups = banks * 4u / unit;
  var per = 32u;
  if (amd != 0u) {
    per = pats[lt];
  } else if (width > 4u) {
    per = 128u / width;
  }
  let slots_per = wave / per;
  let perWave = V / w;
  let waves = (T + wave - 1u) / wave;
  let slots = waves * perWave * slots_per;
  var my_phases = 0u;
  var my_wavefronts = 0u;
  for (var s = lid; s < slots; s = s + WG) {
    let f = s % slots_per;
    let q = (s / slots_per) % perWave;
    let g = s / (slots_per * perWave);
    var units: array<u32, 64>;
    var m = 0u;
    for (var i = 0u; i < per; i = i + 1u) {
      var lane = f * per + i;
      if (amd != 0u) {
        lane = pats[lt + 1u + f * per + i];
      }
      let t = g * wave + lane;
      if (t >= T) {
        continue;
      }
      if (live != 0u && pats[live + t] == 0u) {
        continue;
      }
      units[m] = unit_of(offset_of(c, h, t, q * w), e, unit);
      m = m + 1u;
    }
    if (m > 0u) {
      my_phases = my_phases + 1u;
      my_wavefronts = my_wavefronts + phase_wavefronts(&units, m, groups);
    }
  }
  atomicAdd(&phases, my_phases);
  atomicAdd(&wavefronts, my_wavefronts);
  workgroupBarrier();
  if (lid == 0u) {
    out[4u * job] = k;
    out[4u * job + 1u] = atomicLoad(&phases);
    out[4u * job + 2u] = atomicLoad(&wavefronts);
    out[4u * job + 3u] = 0u;
  }
}
