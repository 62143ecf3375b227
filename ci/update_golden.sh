#!/usr/bin/env bash
# Regenerates golden/<trace>/decisions.jsonl (compat 1.27) and decisions-1.37.jsonl (compat 1.37)
# from traces/corpus/<trace>.jsonl. Review the diff.
set -euo pipefail
cd "$(dirname "$0")/.."
bazel build //harness/cli:schedcheck
for trace in traces/corpus/*.jsonl; do
  name=$(basename "$trace" .jsonl)
  config=()
  [ -f "traces/corpus/$name.config.yaml" ] && config=(--config "traces/corpus/$name.config.yaml")
  mkdir -p "golden/$name"
  bazel-bin/harness/cli/schedcheck replay "$trace" "${config[@]}" --seed 1 -q --jsonl "golden/$name/decisions.jsonl"
  bazel-bin/harness/cli/schedcheck replay "$trace" "${config[@]}" --seed 1 -q --compat 1.37 \
    --jsonl "golden/$name/decisions-1.37.jsonl"
  echo "golden/$name/decisions.jsonl golden/$name/decisions-1.37.jsonl"
done
git --no-pager diff --stat -- golden/
