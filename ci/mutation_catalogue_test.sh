#!/bin/bash
# The mutation catalogue matches the code: every entry's `find` of ci/mutations.json occurs exactly
# once in its file, so `ci/mutation_check.py` plants what it says (a refactoring that moves a line
# makes this fail instead of leaving the entry to fail only when the slow check runs). Reads the
# source tree that the WORKSPACE runfile links to, so it is tagged local/external.
#
# Usage outside Bazel: ci/mutation_catalogue_test.sh [WORKSPACE_DIR]
set -euo pipefail

if [[ $# -ge 1 ]]; then
  root=$1
elif [[ -n "${TEST_SRCDIR:-}" ]]; then
  ws_file="${TEST_SRCDIR}/${TEST_WORKSPACE:-__main__}/WORKSPACE"
  root=$(dirname "$(readlink -f "$ws_file")")
else
  root=$(cd "$(dirname "$0")/.." && pwd)
fi
[[ -f "$root/ci/mutations.json" ]] || { echo "not a schedcheck source tree: $root" >&2; exit 2; }
exec python3 "$root/ci/mutation_check.py" --catalogue "$root/ci/mutations.json" --check-catalogue
