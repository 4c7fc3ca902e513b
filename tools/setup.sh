#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks to build sortbench. Idempotent:
# does nothing when everything is present. CUDA 13 (nvcc, CCCL) must already be
# at /usr/local/cuda.
set -euo pipefail

need=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
# libbenchmark-tools: Google Benchmark's compare.py, run on `sortbench export --format gbench` (tests);
# python3-matplotlib, -scipy, -numpy: tools/plot_report.py, tools/report_html.py and compare.py.
for pkg in cmake g++ make git python3 nlohmann-json3-dev libboost-program-options-dev libgtest-dev \
  libbenchmark-tools python3-matplotlib python3-scipy python3-numpy; do
  have_pkg "$pkg" || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "setup: nvcc not found; install the CUDA 13 toolkit at /usr/local/cuda" >&2
  exit 1
fi
