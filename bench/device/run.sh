#!/usr/bin/env bash
# Runs the whole `layoutgpu bench` suite on this machine with nothing but the payload built by
# pack.sh (no Node, no npm, no network needed): unpacks Node and dawn.node to a scratch folder,
# finds a Vulkan loader and the NVIDIA Vulkan ICD, runs the suite (≤ 8 minutes in all), and
# writes bench.txt, bench.json, bench.svg, summary.txt, log.txt and diag.txt to the output folder.
# Usage: bash run.sh [OUTDIR]     (OUTDIR defaults to $OUT, else ./out beside the payload)
# From the repository root: bash bench/device/run.sh  (uses bench/device/payload/)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ -f "$here/suite.mjs" ]; then P="$here"
elif [ -f "$here/payload/suite.mjs" ]; then P="$here/payload"
else echo "run.sh: no payload (run bench/device/pack.sh first)" >&2; exit 1; fi
OUTDIR="${1:-${OUT:-$P/out}}"
mkdir -p "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)
start=$(date +%s)
W=$(mktemp -d "${TMPDIR:-/tmp}/layoutgpu-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT
gzip -dc "$P/node.gz" > "$W/node" && chmod +x "$W/node"
mkdir -p "$W/node_modules/webgpu/dist/linux-x64"
cp "$P/node_modules/webgpu/package.json" "$P/node_modules/webgpu/index.js" "$W/node_modules/webgpu/"
gzip -dc "$P/node_modules/webgpu/dist/linux-x64/dawn.node.gz" > "$W/node_modules/webgpu/dist/linux-x64/dawn.node"
cp "$P/suite.mjs" "$P/gpu-bench.mjs" "$W/"
[ -f "$P/planner.jsonl" ] && cp "$P/planner.jsonl" "$W/"   # the planner step's corpus

has_lib() { # a shared library the dynamic loader finds without help
  ldconfig -p 2>/dev/null | grep -q " $1 " && return 0
  for d in /usr/lib/x86_64-linux-gnu /lib/x86_64-linux-gnu /usr/lib64 /lib64 /usr/lib /usr/local/lib; do [ -e "$d/$1" ] && return 0; done
  return 1
}
libpath=""
has_lib libvulkan.so.1 || libpath="$P/lib"
{ has_lib libstdc++.so.6 && has_lib libgcc_s.so.1; } || libpath="${libpath:+$libpath:}$P/lib-fallback"
[ -n "$libpath" ] && export LD_LIBRARY_PATH="$libpath${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# the NVIDIA Vulkan ICD: the driver's manifest if installed, else one written for its library
if [ -z "${VK_ICD_FILENAMES:-}" ]; then
  manifest=$(ls /etc/vulkan/icd.d/nvidia*.json /usr/share/vulkan/icd.d/nvidia*.json /usr/local/share/vulkan/icd.d/nvidia*.json 2>/dev/null | head -n 1)
  if [ -z "$manifest" ]; then
    for lib in libGLX_nvidia.so.0 libEGL_nvidia.so.0; do
      found=$(ldconfig -p 2>/dev/null | awk -v l="$lib" '$1 == l { print $NF; exit }')
      [ -z "$found" ] && for d in /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/local/nvidia/lib64 /usr/lib; do [ -e "$d/$lib" ] && { found="$d/$lib"; break; }; done
      if [ -n "$found" ]; then
        printf '{ "file_format_version": "1.0.0", "ICD": { "library_path": "%s", "api_version": "1.3.0" } }\n' "$found" > "$W/nvidia_icd.json"
        export VK_ICD_FILENAMES="$W/nvidia_icd.json"
        break
      fi
    done
  fi
fi

{
  echo "date: $(date -u)"; echo "uname: $(uname -a)"
  echo "payload: $P"; echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"; echo "VK_ICD_FILENAMES=${VK_ICD_FILENAMES:-}"
  echo "ICD manifests:"; ls -l /etc/vulkan/icd.d /usr/share/vulkan/icd.d 2>&1
  echo "nvidia libraries:"; (ldconfig -p 2>/dev/null | grep -E 'nvidia|vulkan') || true
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.mem --format=csv 2>&1
  echo "node: $("$W/node" --version 2>&1)"
} > "$OUTDIR/diag.txt" 2>&1

cd "$W"
# the suite stops starting steps after SUITE_BUDGET_S; the hard limit keeps the whole run < 8 min
left=$(( 470 - ($(date +%s) - start) ))
SUITE_BUDGET_S=${SUITE_BUDGET_S:-$(( left - 80 ))} timeout "$left" ./node suite.mjs "$OUTDIR" 2>&1 | grep -v '^Warning: max' | tee "$OUTDIR/log.txt"
rc=${PIPESTATUS[0]}
echo "run.sh: exit $rc after $(( $(date +%s) - start )) s; results in $OUTDIR" | tee -a "$OUTDIR/log.txt"
[ -f "$OUTDIR/summary.txt" ] && cat "$OUTDIR/summary.txt"
exit "$rc"
