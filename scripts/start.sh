#!/usr/bin/env bash
# `npm start`: set up what is missing (software WebGPU adapter, npm packages, the CLI), then run
# a real example of the main job: the algebra on the CPU, its answers certified in bulk on the
# GPU (the software adapter where the machine has no GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure.sh
lg() { echo; echo "\$ layoutgpu $*"; node bin/layoutgpu.js "$@" 2> >(grep -v '^Warning:' >&2); }
lg gpu-info
lg compose "(100):(7)" "(3,5):(10,2)"
lg logical-divide "(4,8):(1,4)" "(2,2):(1,4)"
lg show "(4,8):(1,4)"
lg check compose "(9,8,3,8):(24,3,1,384)" "((3,(2,2)),24):((3,(9,18)),72)" --backend gpu
lg check complement "((4,2),(2,2)):((3,24),(192,96))" "(3,2,2,2):(1,12,48,384)" --backend gpu
lg check compact "(32,64,128,256):(128,1048576,1,4096)" --backend gpu
lg tiles "(4,8):(1,4)" "(2,2):(1,4)" --backend gpu
lg verify compact --enumerate --size 16 --backend gpu
echo
echo "Next: npx layoutgpu --help, npm run demo (the page), npm test (every test)."
