#!/usr/bin/env bash
# The project's plugin-level conformance cases at compatibility level 1.37
# (reference/conformance/cases/**/*_1.37.yaml) checked against the real plugins of kubernetes
# v1.37.2 by casecheck (harness/kube/v1.37/cmd/casecheck): every case must pass, and at least
# $min cases must have been checked, so that a lost file or a silently shrunken one fails too.
# Whole-cycle (`schedule`) cases at 1.37 live in files not named *_1.37.yaml
# (schedule/v1_37_cycles.yaml): //harness/check:kube_schedule_cases_test replays them through
# kube-scheduler v1.37.2 instead.
#
#   casecheck_test.sh [CASECHECK]
#
# Under Bazel the executable is the runfile harness/kube/casecheck-1.37 (//harness/kube:casecheck_1_37);
# by hand, pass one built with harness/kube/build.sh --kube 1.37 --main ./cmd/casecheck -o OUT
# (the cases are then read from this checkout).
set -euo pipefail
min=800
if [ -n "${TEST_SRCDIR:-}" ]; then
  root="$TEST_SRCDIR/schedcheck"
else
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
fi
casecheck="${1:-$root/harness/kube/casecheck-1.37}"
cases="$root/reference/conformance/cases"
out="${TEST_UNDECLARED_OUTPUTS_DIR:-$(mktemp -d)}"

[ -x "$casecheck" ] || { echo "FAIL: no casecheck executable at $casecheck" >&2; exit 1; }
[ -d "$cases" ] || { echo "FAIL: no case directory at $cases" >&2; exit 1; }
# Runfiles are symbolic links: -L follows them. Name order, as `schedcheck check` reads a folder.
files=()
while IFS= read -r f; do files+=("$f"); done < <(find -L "$cases" -type f -name '*_1.37.yaml' | LC_ALL=C sort)
[ "${#files[@]}" -gt 0 ] || { echo "FAIL: no *_1.37.yaml case file under $cases" >&2; exit 1; }
echo "== casecheck over ${#files[@]} files"

rc=0
"$casecheck" "${files[@]}" > "$out/casecheck-1.37.txt" || rc=$?
cat "$out/casecheck-1.37.txt"
[ "$rc" -eq 0 ] || { echo "FAIL: casecheck exited with status $rc" >&2; exit 1; }

summary=$(tail -n 1 "$out/casecheck-1.37.txt")
if ! [[ "$summary" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
  echo "FAIL: unexpected last line: $summary" >&2
  exit 1
fi
passed=${BASH_REMATCH[1]} failed=${BASH_REMATCH[2]}
pass_lines=$(grep -c '^PASS ' "$out/casecheck-1.37.txt" || true)
if [ "$failed" -ne 0 ] || [ "$pass_lines" -ne "$passed" ]; then
  echo "FAIL: $failed failed, $passed passed but $pass_lines PASS lines" >&2
  exit 1
fi
if [ "$passed" -lt "$min" ]; then
  echo "FAIL: only $passed cases checked (at least $min expected)" >&2
  exit 1
fi
echo "PASS: $passed cases at compatibility level 1.37 agree with kubernetes v1.37.2"
