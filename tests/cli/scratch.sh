# Sourced by the CLI tests: strict mode, fail(), and a scratch directory
# ($work) removed on exit.
set -euo pipefail
fail() { echo "FAIL: $*" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
