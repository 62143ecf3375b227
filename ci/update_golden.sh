#!/usr/bin/env bash
# Regenerates golden/<trace>/decisions.jsonl from traces/corpus/<trace>.jsonl. Review the diff.
set -euo pipefail
cd "$(dirname "$0")/.."
bazel build //harness/cli:schedcheck
for trace in traces/corpus/*.jsonl; do
  name=$(basename "$trace" .jsonl)
  config=()
  [ -f "traces/corpus/$name.config.yaml" ] && config=(--config "traces/corpus/$name.config.yaml")
  mkdir -p "golden/$name"
  bazel-bin/harness/cli/schedcheck replay "$trace" "${config[@]}" --seed 1 -q --jsonl "golden/$name/decisions.jsonl"
  echo "golden/$name/decisions.jsonl"
done
git --no-pager diff --stat -- golden/
