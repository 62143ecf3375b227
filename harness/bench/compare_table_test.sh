#!/usr/bin/env bash
# compare_table.py on fixed JSON files (three rounds of two made-up builds): the Markdown table it
# prints is testdata/compare_want.md, and a malformed file is refused with exit status 2. Measures
# nothing.
set -euo pipefail
if [[ -n "${TEST_SRCDIR:-}" ]]; then
  cd "$TEST_SRCDIR/$TEST_WORKSPACE/harness/bench"
else
  cd "$(dirname "$0")"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 compare_table.py --a-label old --b-label new \
  --a testdata/compare_a1.json testdata/compare_a2.json testdata/compare_a3.json \
  --b testdata/compare_b1.json testdata/compare_b2.json testdata/compare_b3.json >"$tmp/got.md"
if ! diff -u testdata/compare_want.md "$tmp/got.md"; then
  echo "FAIL: the table differs from testdata/compare_want.md (diff above)" >&2
  exit 1
fi

echo '{"workloads": [{"workload": "SchedulingBasic"}]}' >"$tmp/bad.json"
status=0
python3 compare_table.py --a-label old --b-label new --a "$tmp/bad.json" \
  --b testdata/compare_b1.json >/dev/null 2>"$tmp/err" || status=$?
if [[ $status -ne 2 ]] || ! grep -q "bad.json" "$tmp/err"; then
  echo "FAIL: a malformed file gave exit status $status, stderr: $(cat "$tmp/err")" >&2
  exit 1
fi
echo PASS
