// conflicts.wgsl: the swizzle search of `layoutgpu verify conflict-free` (src/engine/conflicts-gpu.ts).
// Many candidate memory layouts Sw<B,M,S> o K o L per dispatch, for one or more access patterns
// (TV, e, v), in two passes over (candidate, pattern, …):
//   pass 0 (one invocation per block of W values of a thread, W the widest width checked, for the
//     candidates of check_ids only: the others keep their vectors by search.ts `shortcut`): for
//     every vector width v = 2 … W, whether the vectors of v values of that block are contiguous
//     and aligned; a failure sets bit log2(v) (the value v) of flags[candidate, pattern];
//   pass 1 (one invocation per (warp, instruction, phase) slot): the vector width from the flags
//     (the explicit v, or the widest that did not fail), then the wavefronts of the phase (the
//     most distinct 4-byte words in one of the machine's banks: 32, or 64 on gfx950), added to
//     out[candidate, pattern].
// base: Φ_L(Φ_TV(t, j)) at t + T·j per group of candidates that share L, patterns one after the
// other; every byte address e·Sw(K + base) fits in u32 (checked by the host).

const WG: u32 = 64u;

struct SParams {
  cands: u32,
  patterns: u32,
  stage: u32,
  // invocations per candidate in this pass (Σ over the patterns)
  per_cand: u32,
}

// per candidate, 8 words: B, M, S (i32 bits), K, base start of its group, the patterns whose
//   vectors hold at their widest width without a check (bit p: search.ts `shortcut`), 0, 0
// per pattern, 12 words: T, V, e, v (0: the default), start in a group's base, first index of the
//   pattern in pass 0, first index in pass 1, warps (waves), wave size W, banks B, the word offset in
//   pats of its machine's lane table (0: NVIDIA's consecutive phases of §9.2), phase slots per
//   instruction; a lane table (src/memory/machines.ts) holds for 4, 8 and 16 bytes 65 words each:
//   the lanes per phase n (0: no row: the host answers those candidates), then the W lanes in
//   phase order (phase f: lanes [f·n, (f+1)·n))
@group(0) @binding(0) var<uniform> params: SParams;
@group(0) @binding(1) var<storage, read> cands: array<u32>;
@group(0) @binding(2) var<storage, read> pats: array<u32>;
@group(0) @binding(3) var<storage, read> base: array<u32>;
@group(0) @binding(4) var<storage, read_write> flags: array<atomic<u32>>;
@group(0) @binding(5) var<storage, read_write> out: array<atomic<u32>>;
// pass 0: the candidates that need vector checks (the others skip it), by number
@group(0) @binding(6) var<storage, read> check_ids: array<u32>;

// y ↦ Sw(K + y) for candidate c (docs/semantics.md §9.1)
fn swz(c: u32, y: u32) -> u32 {
  let b = cands[8u * c];
  let v = y + cands[8u * c + 3u];
  if (b == 0u) {
    return v;
  }
  let m = cands[8u * c + 1u];
  let s = bitcast<i32>(cands[8u * c + 2u]);
  if (s >= 0) {
    let mask = ((1u << b) - 1u) << (m + u32(s));
    return v ^ ((v & mask) >> u32(s));
  }
  let mask = ((1u << b) - 1u) << m;
  return v ^ ((v & mask) << u32(-s));
}

// the pattern of local index li (field f: 5 for pass 0, 6 for pass 1)
fn pattern_of(li: u32, f: u32) -> u32 {
  var p = 0u;
  for (var q = 1u; q < params.patterns; q = q + 1u) {
    if (pats[12u * q + f] <= li) {
      p = q;
    }
  }
  return p;
}

// the widest vector width a pattern's checks go up to: the largest power of two ≤ 16/e that
// divides V (every smaller power of two divides V too)
fn widest(V: u32, e: u32) -> u32 {
  var w = 16u / e;
  while (w > 1u && V % w != 0u) {
    w = w / 2u;
  }
  return w;
}

// one invocation per block of W = widest(V, e) values of a thread: the W offsets once, then for
// every width v = 2 … W whether each sub-block of v values is contiguous and aligned at v
fn check(c: u32, li: u32) {
  let p = pattern_of(li, 5u);
  if (((cands[8u * c + 5u] >> p) & 1u) != 0u) {
    return;
  }
  let T = pats[12u * p];
  let V = pats[12u * p + 1u];
  let e = pats[12u * p + 2u];
  let W = widest(V, e);
  let x = li - pats[12u * p + 5u];
  if (W < 2u || x >= T * (V / W)) {
    return;
  }
  let t = x % T;
  let j0 = (x / T) * W;
  let g = cands[8u * c + 4u] + pats[12u * p + 4u] + t + T * j0;
  var off: array<u32, 16>;
  for (var i = 0u; i < W; i = i + 1u) {
    off[i] = swz(c, base[g + T * i]);
  }
  var bits = 0u;
  for (var v = 2u; v <= W; v = v * 2u) {
    for (var b = 0u; b < W; b = b + v) {
      var ok = off[b] % v == 0u;
      for (var i = 1u; i < v; i = i + 1u) {
        ok = ok && off[b + i] == off[b] + i;
      }
      if (!ok) {
        bits = bits | v;
      }
    }
  }
  if (bits != 0u) {
    atomicOr(&flags[c * params.patterns + p], bits);
  }
}

// The wavefronts of one phase from the first words of its n accesses (per words each). Each
// access is aligned at its width: below 4 bytes it lies in one word, from 4 bytes on it covers
// the `per` consecutive words (banks) of one aligned unit, and two accesses share words only if
// they are in the same unit. So the distinct first words are the distinct units, and each adds
// one distinct word to each of its `per` banks; the phase takes the most distinct words in one
// bank.
fn phase_wavefronts(words: ptr<function, array<u32, 64>>, n: u32, per: u32, nb: u32) -> u32 {
  var unit_word: array<u32, 64>;
  var units = 0u;
  var banks: array<u32, 64>;
  for (var i = 0u; i < n; i = i + 1u) {
    let w = (*words)[i];
    var seen = false;
    for (var j = 0u; j < units; j = j + 1u) {
      if (unit_word[j] == w) {
        seen = true;
        break;
      }
    }
    if (!seen) {
      unit_word[units] = w;
      units = units + 1u;
      for (var q = 0u; q < per; q = q + 1u) {
        let b = (w + q) & (nb - 1u);
        banks[b] = banks[b] + 1u;
      }
    }
  }
  var wf = 1u;
  for (var b = 0u; b < nb; b = b + 1u) {
    wf = max(wf, banks[b]);
  }
  return wf;
}

fn count(c: u32, li: u32) {
  let p = pattern_of(li, 6u);
  let T = pats[12u * p];
  let V = pats[12u * p + 1u];
  let e = pats[12u * p + 2u];
  let x = li - pats[12u * p + 6u];
  let slots = pats[12u * p + 11u];
  let f = x % slots;
  let k = (x / slots) % V;
  let wp = x / (slots * V);
  if (wp >= pats[12u * p + 7u]) {
    return;
  }
  let fl = atomicLoad(&flags[c * params.patterns + p]);
  var v = pats[12u * p + 3u];
  if (v == 0u) {
    v = 16u / e;
    while (v > 1u && ((fl & v) != 0u || V % v != 0u)) {
      v = v / 2u;
    }
  } else if ((fl & v) != 0u) {
    return;
  }
  if (k >= V / v) {
    return;
  }
  let width = v * e;
  let lt = pats[12u * p + 10u];
  if (lt != 0u) {
    count_machine(c, p, k, f, wp, v, width, lt);
    return;
  }
  var tpp = 32u;
  if (width > 4u) {
    tpp = 128u / width;
  }
  let lanes = min(32u, T - 32u * wp);
  if (f * tpp >= lanes) {
    return;
  }
  let n = min(tpp, lanes - f * tpp);
  let per = max(1u, width / 4u);
  let g = cands[8u * c + 4u] + pats[12u * p + 4u];
  var words: array<u32, 64>;
  for (var i = 0u; i < n; i = i + 1u) {
    let t = 32u * wp + f * tpp + i;
    words[i] = e * swz(c, base[g + t + T * k * v]) / 4u;
  }
  let wf = phase_wavefronts(&words, n, per, 32u);
  let o = 2u * (c * params.patterns + p);
  atomicAdd(&out[o], wf);
  atomicAdd(&out[o + 1u], 1u);
}

// phase f of instruction k of wave wp on the pattern's machine (lane table at lt): its live lanes'
// first words, the phase's wavefronts over B banks; a phase that holds no thread is no phase
fn count_machine(c: u32, p: u32, k: u32, f: u32, wp: u32, v: u32, width: u32, lt: u32) {
  let T = pats[12u * p];
  let e = pats[12u * p + 2u];
  let W = pats[12u * p + 8u];
  let nb = pats[12u * p + 9u];
  if (width < 4u) {
    return;
  }
  var row = 0u;
  if (width == 8u) {
    row = 1u;
  } else if (width == 16u) {
    row = 2u;
  }
  let tab = lt + 65u * row;
  let n = pats[tab];
  if (n == 0u || f * n >= W) {
    return;
  }
  let g = cands[8u * c + 4u] + pats[12u * p + 4u];
  var words: array<u32, 64>;
  var m = 0u;
  for (var i = 0u; i < n; i = i + 1u) {
    let t = W * wp + pats[tab + 1u + f * n + i];
    if (t < T) {
      words[m] = e * swz(c, base[g + t + T * k * v]) / 4u;
      m = m + 1u;
    }
  }
  if (m == 0u) {
    return;
  }
  let wf = phase_wavefronts(&words, m, width / 4u, nb);
  let o = 2u * (c * params.patterns + p);
  atomicAdd(&out[o], wf);
  atomicAdd(&out[o + 1u], 1u);
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let idx = (wid.y * nwg.x + wid.x) * WG + lid;
  // pass 0 runs over the params.cands candidates of check_ids, pass 1 over all of them
  let q = idx / params.per_cand;
  if (q >= params.cands) {
    return;
  }
  let li = idx % params.per_cand;
  if (params.stage == 0u) {
    check(check_ids[q], li);
  } else {
    count(q, li);
  }
}

// ---------------------------------------------------------------------------------------------
// main_classes: the candidates search.ts prices from phase tables (fastPlan: a swizzle with
// K = 0 that keeps the vectors of a base that holds them; src/memory/phases.ts). One invocation
// per (job, phase class), a job being (candidate, pattern) with its table: a class whose varying
// bits miss the swizzle's mask keeps the base's wavefronts (fact 2), any other is counted again
// from its representative's leads; either way times its number of phases (fact 3).
// params: cands = the number of jobs, per_cand = the invocations (Σ classes of the jobs).
// cjobs: 8 words per job: mask, r, l (Sw(y) = y ^ (((y & mask) >> r) << l)), the table's word
//   offset in ctab, its classes, the job's first invocation, 0, 0.
// ctab: per table: e, width, classes, word offset of its leads, then 5 words per class: first
//   lead, lanes, phases of the class, varying bits, wavefronts of the base; leads < 2^30 and
//   the swizzle keeps them below 2^30 (checked by the host), so word indices fit in u32.
// cout: per job, the wavefronts summed.

@group(0) @binding(7) var<storage, read> cjobs: array<u32>;
@group(0) @binding(8) var<storage, read> ctab: array<u32>;
@group(0) @binding(9) var<storage, read_write> cout: array<atomic<u32>>;

@compute @workgroup_size(WG)
fn main_classes(@builtin(workgroup_id) wid: vec3<u32>,
                @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) lid: u32) {
  let idx = (wid.y * nwg.x + wid.x) * WG + lid;
  if (idx >= params.per_cand) {
    return;
  }
  // the job of this invocation: the last j with cjobs[8j + 5] ≤ idx
  var lo = 0u;
  var hi = params.cands;
  while (hi - lo > 1u) {
    let mid = (lo + hi) >> 1u;
    if (cjobs[8u * mid + 5u] <= idx) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  let jb = 8u * lo;
  let mask = cjobs[jb];
  let r = cjobs[jb + 1u];
  let l = cjobs[jb + 2u];
  let o = cjobs[jb + 3u];
  let cr = o + 4u + 5u * (idx - cjobs[jb + 5u]);
  let mult = ctab[cr + 2u];
  if ((ctab[cr + 3u] & mask) == 0u) {
    atomicAdd(&cout[lo], ctab[cr + 4u] * mult);
    return;
  }
  let e = ctab[o];
  let leads = ctab[o + 3u] + ctab[cr];
  let n = ctab[cr + 1u];
  var words: array<u32, 64>;
  for (var i = 0u; i < n; i = i + 1u) {
    let y = ctab[leads + i];
    let s = y ^ (((y & mask) >> r) << l);
    words[i] = select((s * e) / 4u, s * (e / 4u), e >= 4u);
  }
  atomicAdd(&cout[lo], phase_wavefronts(&words, n, max(1u, ctab[o + 1u] / 4u), 32u) * mult);
}
