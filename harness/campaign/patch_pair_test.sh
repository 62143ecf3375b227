#!/usr/bin/env bash
# A campaign between two kube-scheduler patch releases finds the fix upstream shipped between
# them (README.md, "What campaigns found"): v1.27.6 skips preemption when a PreFilter plugin
# rejected the pod as UnschedulableAndUnresolvable (it gives every node that status, so preemption
# reports "Preemption is not helpful for scheduling"); v1.27.1 ran preemption over every node and
# reported "No preemption victims found". v1.27.5, the release just before the fix, cannot be
# fetched here (the checksum database does not answer for k8s.io/cloud-provider v0.27.5), so the
# baseline is v1.27.1; between the two only the fix's files changed in pkg/scheduler. Tagged manual: both sides are patch releases that are
# not pinned, so the first run fetches their modules through the Go module proxy and compiles the
# scheduler twice (minutes each, cached afterwards under ${SCHEDCHECK_CACHE:-~/.cache/schedcheck});
# CI builds only the pinned adapters. Run it by hand:
#   bazel test //harness/campaign:patch_pair_test
# The generators are the campaign's defaults plus generated configurations, not tailored to the
# fix. The test asserts the finding's kind (its class and the plugins it is blamed on) and that it
# was minimized, not how many traces hit it, so a change in the generators that still finds the
# fix keeps it passing.
set -euo pipefail
sc="$TEST_SRCDIR/schedcheck/harness/cli/schedcheck"
if [ -z "${HOME:-}" ] || [ ! -d "$HOME/go" ]; then HOME=$(getent passwd "$(id -u)" | cut -d: -f6); export HOME; fi
GO=$(command -v go || echo /usr/local/go/bin/go)
export PATH="$PATH:$(dirname "$GO")"
out="${TEST_UNDECLARED_OUTPUTS_DIR:-$(mktemp -d)}/campaign"
fail() { echo "FAIL: $*" >&2; exit 1; }

baseline=kube:1.27.1
candidate=kube:1.27.6
status=0
"$sc" campaign --baseline "$baseline" --candidate "$candidate" --compat 1.27 \
  --traces 100 --seed 27 --max-replays 200 --no-progress \
  --generators scenarios,wide,preemption,storage,spread,match-label-keys,cluster-cases,configs \
  --out "$out" || status=$?
cat "$out/summary.md" 2>/dev/null || true
# 1: findings, which is what the pair must produce; 3 would mean a build is not deterministic.
[ "$status" = 1 ] || fail "campaign $baseline -> $candidate exited $status, want 1 (findings)"

python3 - "$out/summary.json" <<'PY'
import json, sys
summary = json.load(open(sys.argv[1]))
if summary["nondeterministic"]:
    sys.exit(f"FAIL: nondeterministic builds: {summary['nondeterministic']}")
# The fix shows in the message of a hard divergence blamed on a plugin whose PreFilter rejects a
# pod whose volumes cannot be satisfied (missing or deleted claims): the candidate says preemption
# cannot help, the baseline looked for victims.
prefilter_rejecters = {"VolumeRestrictions", "VolumeBinding", "VolumeZone", "NodeAffinity",
                       "PodTopologySpread", "InterPodAffinity", "NodePorts", "NodeResourcesFit"}
def is_fix(g):
    base, _, cand = g["first"].partition("; candidate ")
    return (g["class"] == "hard" and g["plugins"] and set(g["plugins"]) <= prefilter_rejecters
            and "Preemption is not helpful for scheduling" in cand
            and "No preemption victims found" in base)
hits = [g for g in summary["groups"] if is_fix(g)]
if not hits:
    sys.exit("FAIL: no hard group where only the candidate skips preemption; groups: "
             + "; ".join(g["signature"] for g in summary["groups"]))
group = hits[0]
# Minimized, and the minimal trace still shows the fix.
if not (group["minimized"].startswith("events ")
        and "Preemption is not helpful for scheduling" in group["minimized"]):
    sys.exit(f"FAIL: group {group['id']} was not minimized to the fix: {group['minimized']}")
print(f"found: {group['signature']} ({len(group['traces'])} traces), minimized: {group['minimized']}")
PY
