#!/usr/bin/env bash
# Sums GoogleTest results over bazel-testlogs/**/test.xml and prints "N passed, M failed".
# Exits 1 when a test failed or no test ran at all.
set -uo pipefail
cd "$(dirname "$0")/.."
logs=$(bazel info bazel-testlogs 2>/dev/null) || logs=bazel-testlogs
passed=0; failed=0; skipped=0
while IFS= read -r -d '' xml; do
  # One <testcase> element per test; a failure adds a <failure> child, a skip a <skipped> child.
  read -r t f s < <(awk '
    /<testcase /{t++}
    /<failure/{f++}
    /<skipped/{s++}
    END{print t+0, f+0, s+0}' "$xml")
  # Bazel writes a single synthetic testcase for non-gtest binaries; failures there show as errors.
  if grep -q '<error' "$xml"; then f=$((f + 1)); fi
  passed=$((passed + t - f - s)); failed=$((failed + f)); skipped=$((skipped + s))
done < <(find -L "$logs" -name test.xml -print0 2>/dev/null)
if [ "$skipped" -gt 0 ]; then
  echo "$passed passed, $failed failed, $skipped skipped"
else
  echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ] && [ $((passed + failed)) -gt 0 ]
