#!/usr/bin/env bash
# A differential campaign split into Bazel test shards: shard I of N (TEST_SHARD_INDEX,
# TEST_TOTAL_SHARDS) runs `schedcheck campaign --shard I/N`, which replays the traces k with
# k mod N = I, and leaves its folder in the test's outputs (outputs.zip) for
# `schedcheck campaign --merge` (ci/remote/campaign does both). The campaign is set by
# environment variables, so its size is a flag:
#   bazel test //harness/campaign:campaign_shards_test --test_env=SCHEDCHECK_CAMPAIGN_TRACES=2000
# SCHEDCHECK_CAMPAIGN_TRACES (default 100), SCHEDCHECK_CAMPAIGN_SEED (default 1),
# SCHEDCHECK_CAMPAIGN_CANDIDATE (default kube:1.27), SCHEDCHECK_CAMPAIGN_ARGS (more options).
# The shard passes when the campaign exits 0 (no finding), its summary covers exactly this shard
# and it replayed or skipped every trace of the shard; it prints the command that reruns it alone.
set -euo pipefail
schedcheck="$TEST_SRCDIR/schedcheck/harness/cli/schedcheck"
traces="${SCHEDCHECK_CAMPAIGN_TRACES:-100}"
seed="${SCHEDCHECK_CAMPAIGN_SEED:-1}"
candidate="${SCHEDCHECK_CAMPAIGN_CANDIDATE:-kube:1.27}"
read -r -a extra <<<"${SCHEDCHECK_CAMPAIGN_ARGS:-}"
index="${TEST_SHARD_INDEX:-0}"
total="${TEST_TOTAL_SHARDS:-1}"
# Tell Bazel this test honours sharding.
if [ -n "${TEST_SHARD_STATUS_FILE:-}" ]; then touch "$TEST_SHARD_STATUS_FILE"; fi
out="${TEST_UNDECLARED_OUTPUTS_DIR:-$(mktemp -d)}/shard-$index"

cmd=("$schedcheck" campaign --candidate "$candidate" --traces "$traces" --seed "$seed"
  --shard "$index/$total" --no-progress "${extra[@]}" --out "$out")
echo "campaign shard $index/$total: ${cmd[*]:1}"
echo "rerun this shard alone: bazel-bin/harness/cli/schedcheck ${cmd[*]:1:${#cmd[@]}-3} --out DIR"
status=0
"${cmd[@]}" || status=$?
cat "$out/summary.md" 2>/dev/null || true
if [ "$status" -ne 0 ]; then
  echo "FAIL: campaign shard $index/$total exited $status (1 findings, 3 nondeterministic, 2 bad input); its folder is in outputs.zip" >&2
  exit 1
fi

# This shard's share of 0..traces-1: the k with k mod total = index.
expected=$(( (traces - index + total - 1) / total ))
python3 - "$out/summary.json" "$index/$total" "$expected" <<'PY'
import json, sys
summary = json.load(open(sys.argv[1]))
shard, expected = sys.argv[2], int(sys.argv[3])
if summary["shards"] != [shard]:
    sys.exit(f"FAIL: summary covers shards {summary['shards']}, not [{shard}]")
covered = summary["traces_run"] + len(summary["skipped"])
if covered != expected:
    sys.exit(f"FAIL: shard {shard} covered {covered} traces (run + skipped), expected {expected}")
print(f"shard {shard}: {summary['traces_run']} traces replayed, {summary['passed']} passed, "
      f"{len(summary['skipped'])} skipped")
PY
