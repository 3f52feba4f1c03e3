# Sourced by the scripts in scripts/: moves to the repository root and names it.
# shellcheck shell=bash
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$REPO"

# step MESSAGE: announce a stage on stderr, so that stdout stays the command's output.
step() { printf '==> %s\n' "$*" >&2; }
