#!/usr/bin/env bash
# Builds bench/device/payload/ (git-ignored, < 64 MiB): everything `run.sh` needs on a machine
# with a GPU but no Node, no npm and no network.
#   suite.mjs, gpu-bench.mjs        the suite and the bench CLI, bundled by esbuild (webgpu external)
#   node.gz                         this machine's Node 20 binary (linux-x64), gzip -9
#   node_modules/webgpu/            index.js, package.json and only dist/linux-x64/dawn.node.gz
#   lib/libvulkan.so.1              the Vulkan loader, used when the target has none
#   lib-fallback/                   libstdc++.so.6, libgcc_s.so.1, used when the target has none
#   run.sh, README.md               the runner (a copy of bench/device/run.sh)
#   planner.jsonl                   the planner step's seeded corpus (bench/corpus/planner.jsonl)
# Usage: bash bench/device/pack.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
P="$here/payload"
rm -rf "$P"
mkdir -p "$P/node_modules/webgpu/dist/linux-x64" "$P/lib" "$P/lib-fallback"
cd "$root"
ESB="$root/node_modules/.bin/esbuild"
for entry in bench/device/suite.ts bench/gpu-bench.ts; do
  name=$(basename "$entry" .ts)
  "$ESB" "$entry" --bundle --platform=node --format=esm --target=node20 --external:webgpu \
    --log-level=warning --outfile="$P/$name.mjs"
done
cp node_modules/webgpu/package.json node_modules/webgpu/index.js "$P/node_modules/webgpu/"
gzip -9c node_modules/webgpu/dist/linux-x64/dawn.node > "$P/node_modules/webgpu/dist/linux-x64/dawn.node.gz"
NODE_BIN=$(readlink -f "$(command -v node)")
"$NODE_BIN" -e 'if (process.platform !== "linux" || process.arch !== "x64" || !process.version.startsWith("v20.")) { console.error("pack.sh: need Node 20 linux-x64, have " + process.version + " " + process.platform + "-" + process.arch); process.exit(1); }'
gzip -9c "$NODE_BIN" > "$P/node.gz"
find_lib() { for d in /usr/lib/x86_64-linux-gnu /lib/x86_64-linux-gnu /usr/lib64 /usr/lib; do [ -e "$d/$1" ] && { readlink -f "$d/$1"; return 0; }; done; return 1; }
cp "$(find_lib libvulkan.so.1)" "$P/lib/libvulkan.so.1"
cp "$(find_lib libstdc++.so.6)" "$P/lib-fallback/libstdc++.so.6"
cp "$(find_lib libgcc_s.so.1)" "$P/lib-fallback/libgcc_s.so.1"
cp "$here/run.sh" "$here/README.md" "$P/"
cp bench/corpus/planner.jsonl "$P/planner.jsonl"   # the planner step's corpus (suite.ts, planner.ts)
total=$(du -sb "$P" | cut -f1)
echo "payload: $P, $total bytes ($(( total / 1048576 )) MiB)"
du -ab "$P" | sort -n | tail -8
if [ "$total" -gt $((64 * 1048576)) ]; then echo "pack.sh: payload over 64 MiB" >&2; exit 1; fi
