#!/usr/bin/env bash
# Shared set-up for `npm start` and `npm test` on a fresh machine: a software WebGPU adapter
# and Chromium where they are missing (scripts/setup-system.sh), the npm dependencies, and the
# compiled CLI. Idempotent and quick when everything is already there.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-system.sh
# the lock file, not package.json (whose scripts change often), says when the installed packages are stale
if [ ! -x node_modules/.bin/vitest ] || [ ! -d node_modules/webgpu ] || [ ! -x node_modules/.bin/biome ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi
fi
npm run --silent build
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp/layoutgpu-xdg-$(id -u)}"
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
