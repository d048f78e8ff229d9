#!/usr/bin/env bash
# Installs a software WebGPU adapter (Mesa lavapipe from bookworm-backports, with the
# SwiftShader of Debian's chromium as fallback), Chromium for the browser test and pdflatex
# with TikZ for the TikZ test (texlive-latex-base, texlive-pictures), when the machine lacks
# them. Idempotent; needs root (or sudo) and Debian's package registry.
set -euo pipefail
need=()
have_lavapipe() { ls /usr/share/vulkan/icd.d/lvp_icd*.json >/dev/null 2>&1 && dpkg --compare-versions "$(dpkg-query -W -f='${Version}' mesa-vulkan-drivers 2>/dev/null || echo 0)" ge 23; }
have_lavapipe || need+=(lavapipe)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
[ -e /usr/lib/x86_64-linux-gnu/libvulkan.so.1 ] || need+=(loader)
{ command -v pdflatex >/dev/null 2>&1 && kpsewhich tikz.sty >/dev/null 2>&1; } || need+=(texlive)
if [ ${#need[@]} -eq 0 ]; then echo "setup-system: software adapter, chromium and pdflatex already present"; exit 0; fi
needs() { local n w; for w in "$@"; do for n in "${need[@]}"; do [ "$n" = "$w" ] && return 0; done; done; return 1; }
packages=()
needs lavapipe loader && packages+=(mesa-vulkan-drivers libvulkan1)
needs chromium && packages+=(chromium)
needs texlive && packages+=(texlive-latex-base texlive-pictures)
if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup-system: no apt-get here; install yourself: a Vulkan driver (Mesa lavapipe), chromium, pdflatex with TikZ (missing: ${need[*]})" >&2; exit 0
fi
# never prompt: without root, sudo only when it needs no password; else say what to install
SUDO=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; else
    echo "setup-system: not root (and no password-less sudo): the tests that need them will fail until you install, as root:" >&2
    echo "  apt-get install ${packages[*]}   (lavapipe from bookworm-backports on Debian 12)" >&2
    exit 0
  fi
fi
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
# bookworm's own Mesa predates a usable lavapipe: add bookworm-backports from the machine's own
# configured Debian source (same mirror, same key; scripts/apt-backports.sh), never a host of ours
if [ "$codename" = bookworm ] && needs lavapipe loader; then
  source "$(dirname "$0")/apt-backports.sh"
  mapfile -t sources < <(apt_source_files /etc/apt)
  if grep -qsE "^[^#]*[[:space:]]bookworm-backports([[:space:]]|$)" "${sources[@]}"; then
    echo "setup-system: bookworm-backports is already configured"
  elif line=$(backports_line bookworm "${sources[@]}"); then
    echo "$line" | $SUDO tee /etc/apt/sources.list.d/layoutgpu-backports.list >/dev/null
    echo "setup-system: added /etc/apt/sources.list.d/layoutgpu-backports.list, derived from this machine's Debian source: $line"
  else
    echo "setup-system: found no Debian source for bookworm in ${sources[*]}; not adding bookworm-backports (lavapipe from bookworm itself)" >&2
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
if needs lavapipe loader; then
  if [ "$codename" = bookworm ]; then
    $SUDO apt-get install -y -qq -t bookworm-backports mesa-vulkan-drivers libvulkan1 >/dev/null || \
      $SUDO apt-get install -y -qq mesa-vulkan-drivers libvulkan1 >/dev/null
  else
    $SUDO apt-get install -y -qq mesa-vulkan-drivers libvulkan1 >/dev/null
  fi
fi
if needs chromium; then $SUDO apt-get install -y -qq chromium >/dev/null || echo "setup-system: chromium could not be installed" >&2; fi
if needs texlive; then
  $SUDO apt-get install -y -qq --no-install-recommends texlive-latex-base texlive-pictures >/dev/null || echo "setup-system: pdflatex (texlive) could not be installed" >&2
fi
echo "setup-system: done (installed for: ${need[*]}; mesa-vulkan-drivers $(dpkg-query -W -f='${Version}' mesa-vulkan-drivers 2>/dev/null), $(chromium --version 2>/dev/null), $(pdflatex --version 2>/dev/null | head -1))"
