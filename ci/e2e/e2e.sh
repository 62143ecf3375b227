#!/usr/bin/env bash
# The end-to-end test against a real control plane (README.md): for each
# scenario, a fresh control plane on loopback, the recorder and the API
# server's audit log capturing it while e2e-driver runs the scenario, then
# `schedcheck import --from watch` and `--from audit`, and replays following
# the cluster with the reference and with kube:1.37. Fails when a replay does
# not complete, an attempt ends in Error, or a cluster decision is one the
# reference could not make (outside its tie set, unschedulable in the replay,
# not comparable).
#
#   e2e.sh --bin DIR --schedcheck PATH --out DIR [SCENARIO...]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="" sc="" out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) bin="$2"; shift 2 ;;
    --schedcheck) sc="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -*) echo "e2e.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ -n "$bin" ] && [ -n "$sc" ] && [ -n "$out" ] ||
  { echo "usage: e2e.sh --bin DIR --schedcheck PATH --out DIR [SCENARIO...]" >&2; exit 2; }
mkdir -p "$out"
out="$(cd "$out" && pwd)"
scenarios=("$@")
[ ${#scenarios[@]} -gt 0 ] || mapfile -t scenarios < <("$bin/e2e-driver" --list)

# shellcheck source=controlplane.sh
source "$here/controlplane.sh"
recorder_pid=""
cleanup() {
  [ -z "$recorder_pid" ] || kill -TERM "$recorder_pid" 2>/dev/null || true
  cp_stop
  [ -z "${cp_dir:-}" ] || rm -rf "$cp_dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

failures=()
fail() { echo "FAIL: $*" >&2; failures+=("$*"); }
note() { echo "  note (not required): $*"; }
# The words a summary's listed line uses for a class.
classline() {
  case "$1" in
    "unschedulable in the replay") echo "the replay found no node" ;;
    *) echo "the replay has no such pod" ;;
  esac
}

# check_replay NAME SUMMARY JSONL TRACE_JSON: the replay completed, no Error
# attempt, and every observed binding is one the replay could make; a binding
# outside the replay's tie set must be explained by a tie the replay broke
# otherwise whose binding the cluster had not yet written (outside_ties.py).
# With STRICT=0 (audit captures: below) the classes are reported, not required.
check_replay() {
  local name=$1 summary=$2 jsonl=$3 trace_json=$4 strict=${STRICT:-1}
  local classes=fail
  [ "$strict" = 1 ] || classes=note
  if grep -qF '"result":"Error"' "$jsonl"; then
    fail "$name: Error attempts: $(grep -cF '"result":"Error"' "$jsonl")"
  fi
  local line
  line=$(grep -m1 '^following the cluster:' "$summary" || true)
  [ -n "$line" ] || { fail "$name: no follow-the-cluster summary"; return; }
  echo "  $name: ${line#following the cluster: }"
  if grep -qF "outside the replay's tie set" <<<"$line"; then
    python3 "$here/outside_ties.py" "$summary" "$jsonl" "$trace_json" > "$summary.outside" ||
      $classes "$name: bindings outside the replay's tie set not explained (see below)"
    sed 's/^/    /' "$summary.outside"
  fi
  for bad in "unschedulable in the replay" "not comparable"; do
    if grep -qF "$bad" <<<"$line"; then
      $classes "$name: bindings $bad:"$'\n'"$(grep -F "$(classline "$bad")" "$summary" | head -20)"
    fi
  done
}

for s in "${scenarios[@]}"; do
  echo "== $s"
  d="$out/$s"
  rm -rf "$d" && mkdir -p "$d"
  cp_dir=$(mktemp -d "${TMPDIR:-/tmp}/schedcheck-e2e.XXXXXX")
  cp_logs="$d/logs"
  start=$SECONDS
  cp_start || { fail "$s: the control plane did not start"; cp_stop; continue; }
  "$bin/recorder" --kubeconfig "$cp_dir/kubeconfig" --out "$d/capture.watch" --quiet \
    2> "$d/logs/recorder.log" &
  recorder_pid=$!
  # Start the scenario once every watch is open: events before that would
  # arrive late, in a burst, and their recorded times would compress.
  for _ in $(seq 300); do
    grep -q '^recorder: watching' "$d/logs/recorder.log" && break
    kill -0 "$recorder_pid" 2>/dev/null || break
    sleep 0.1
  done
  grep -q '^recorder: watching' "$d/logs/recorder.log" ||
    fail "$s: the recorder did not start watching: $(tail -3 "$d/logs/recorder.log")"
  if ! "$bin/e2e-driver" --kubeconfig "$cp_dir/kubeconfig" "$s" 2> "$d/logs/driver.log"; then
    fail "$s: the scenario failed: $(tail -3 "$d/logs/driver.log")"
  fi
  kill -INT "$recorder_pid"
  wait "$recorder_pid" || fail "$s: the recorder exited $?: $(tail -3 "$d/logs/recorder.log")"
  recorder_pid=""
  cp_stop
  rm -rf "$cp_dir"
  echo "  cluster, scenario and recording: $((SECONDS - start)) s"

  "$sc" import --from watch "$d/capture.watch" -o "$d/watch.trace" > "$d/import-watch.txt" 2>&1 ||
    { fail "$s: import --from watch: $(tail -3 "$d/import-watch.txt")"; continue; }
  "$sc" import --from audit "$d/logs/audit.log" --compat 1.37 -o "$d/audit.trace" \
    > "$d/import-audit.txt" 2>&1 || fail "$s: import --from audit: $(tail -3 "$d/import-audit.txt")"
  for src in watch audit; do
    [ -f "$d/$src.trace" ] || continue
    # An audit capture times each write by its ResponseComplete stage, later than the
    # watch's arrival, so the scheduler's bindings lag its decisions more and bursts
    # compress: its classes are reported only (README.md, "What is checked").
    STRICT=1
    [ "$src" = watch ] || STRICT=0
    "$sc" trace cat "$d/$src.trace" > "$d/$src.trace.json"
    "$sc" replay "$d/$src.trace" --follow-cluster --jsonl "$d/$src.ref.jsonl" \
      > "$d/$src.ref.txt" 2>&1 || fail "$s: reference replay of the $src capture exited $?"
    check_replay "$s/$src/reference" "$d/$src.ref.txt" "$d/$src.ref.jsonl" "$d/$src.trace.json"
    SCHEDCHECK_KUBE_LOG="$d/logs/$src.kube137.log" "$sc" replay "$d/$src.trace" --follow-cluster \
      --candidate kube:1.37 --jsonl "$d/$src.kube137.jsonl" > "$d/$src.kube137.txt" 2>&1 ||
      fail "$s: kube:1.37 replay of the $src capture exited $?: $(tail -3 "$d/$src.kube137.txt")"
    check_replay "$s/$src/kube:1.37" "$d/$src.kube137.txt" "$d/$src.kube137.jsonl" \
      "$d/$src.trace.json"
  done
done

if [ ${#failures[@]} -gt 0 ]; then
  echo "${#failures[@]} failures (outputs in $out)" >&2
  exit 1
fi
echo "PASS: ${#scenarios[@]} scenarios (outputs in $out)"
