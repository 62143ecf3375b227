#!/usr/bin/env bash
# `--candidate kube-src:DIR` end to end (tagged manual: it compiles Kubernetes' scheduler against a
# copy of v1.37.2's tree, minutes cold). The tree is v1.37.2's module from Go's module cache with
# its staging modules linked where a checkout has them (staging/src/k8s.io/*, read-only), plus one
# scheduler-visible edit: NodeResourcesFit's "Insufficient cpu" reads "Insufficient cpu (edited)".
# Checks: the build detects 1.37, names itself in the decision log's header, and its log shows the
# edit where kube:1.37's does not; a second use is the cached build; a one-file change rebuilds
# (timed: the warm build); an edit of an anchored line is exit 2 naming the file and the bridge's
# edit, leaves the cached adapter and the shared trees of released versions as they were, and the
# checkout itself is never written. Prints the cold and warm build times.
set -euo pipefail
sc="$TEST_SRCDIR/schedcheck/harness/cli/schedcheck"
corpus="$TEST_SRCDIR/schedcheck/traces/corpus"
if [ -z "${HOME:-}" ] || [ ! -d "$HOME/go" ]; then HOME=$(getent passwd "$(id -u)" | cut -d: -f6); export HOME; fi
GO=$(command -v go || echo /usr/local/go/bin/go)
export PATH="$PATH:$(dirname "$GO")" SCHEDCHECK_KUBE_LOG=stderr
out="${TEST_TMPDIR:-$(mktemp -d)}"
fail() { echo "FAIL: $*" >&2; exit 1; }
now() { date +%s; }

mod=$("$GO" env GOMODCACHE)
k="$out/kubernetes"
trap 'rm -rf "$k"' EXIT
trap 'exit 1' TERM INT # Bazel's timeout: still delete the copy
rm -rf "$k"
cp -r "$mod/k8s.io/kubernetes@v1.37.2" "$k"
chmod -R u+w "$k"
mkdir -p "$k/staging/src/k8s.io"
for d in "$mod"/k8s.io/*@v0.37.2; do
  m=$(basename "$d")
  ln -s "$d" "$k/staging/src/k8s.io/${m%@*}"
done
fit="$k/pkg/scheduler/framework/plugins/noderesources/fit.go"
grep -q '"Insufficient cpu",' "$fit" || fail "v1.37.2's fit.go has no \"Insufficient cpu\""
sed -i 's/"Insufficient cpu",/"Insufficient cpu (edited)",/' "$fit"
# The checkout's content, to check nothing is written into it.
k_sum() { (cd "$k" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum); }
cache=${SCHEDCHECK_CACHE:-$HOME/.cache/schedcheck}
shared_sum() { (cd "$cache" && find kube -maxdepth 1 -print0 2>/dev/null | LC_ALL=C sort -z | sha256sum); }
before_k=$(k_sum) before_shared=$(shared_sum)

trace="$corpus/unschedulable.jsonl"
t0=$(now)
"$sc" replay "$trace" --compat 1.37 --candidate "kube-src:$k" -q -o "$out/src.dec" 2>"$out/first.err" ||
  { cat "$out/first.err" >&2; fail "replay --candidate kube-src:$k"; }
cold=$(($(now) - t0))
grep -q "kube-src $k: kubernetes v1.37 (from DefaultKubeBinaryVersion" "$out/first.err" ||
  { cat "$out/first.err" >&2; fail "the progress does not say what was detected"; }
"$sc" replay "$trace" --compat 1.37 --candidate kube:1.37 -q -o "$out/kube.dec" 2>/dev/null
"$sc" trace info "$out/src.dec" >"$out/info.txt"
grep -q "^label: scheduler=kube-scheduler kube-src:$k at v1.37, tree hash [0-9a-f]\{16\} (bridge 1.37)" "$out/info.txt" ||
  { cat "$out/info.txt" >&2; fail "the decision log does not name the checkout"; }
# The edit shows: kube:1.37 says "Insufficient cpu." where kube-src says "Insufficient cpu (edited).".
status=0
"$sc" diff "$out/kube.dec" "$out/src.dec" >"$out/diff.txt" || status=$?
[ "$status" = 1 ] || { cat "$out/diff.txt" >&2; fail "diff kube:1.37 vs kube-src exited $status, want 1"; }
grep -q 'reference t=1 attempt 1: .*Insufficient cpu\. .*candidate t=1 attempt 1: .*Insufficient cpu (edited)\.' "$out/diff.txt" ||
  { cat "$out/diff.txt" >&2; fail "the first divergence is not the edited message"; }

# Second use: the cached build.
"$sc" replay "$trace" --compat 1.37 --candidate "kube-src:$k" -q -o "$out/again.dec" 2>"$out/second.err"
if grep -q "building the adapter" "$out/second.err"; then fail "the second use rebuilt the adapter"; fi
cmp -s "$out/src.dec" "$out/again.dec" || fail "the cached adapter's log differs"
[ "$(k_sum)" = "$before_k" ] || fail "the build wrote into the checkout"

# A one-file change: rebuilt, incrementally.
printf '\n// a change\n' >>"$fit"
t0=$(now)
"$sc" replay "$trace" --compat 1.37 --candidate "kube-src:$k" -q -o "$out/warm.dec" 2>"$out/warm.err"
warm=$(($(now) - t0))
grep -q "building the adapter" "$out/warm.err" || fail "a changed tree was not rebuilt"
status=0
"$sc" diff "$out/src.dec" "$out/warm.dec" >"$out/warm-diff.txt" || status=$?
[ "$status" = 0 ] || { cat "$out/warm-diff.txt" >&2; fail "the rebuilt adapter decides otherwise"; }
adapter=$(sed -n "s/^label: scheduler_cmd='\(.*\)'$/\1/p" "$out/info.txt")
[ -x "$adapter" ] || fail "adapter path $adapter"
stamp=$(cat "$(dirname "$adapter")/stamp")

# An edit of an anchored line: exit 2 naming the file and edit; nothing cached or shared changed.
sched="$k/pkg/scheduler/schedule_one.go"
python3 - "$TEST_SRCDIR/schedcheck/harness/kube/v1.37/patches.json" "$sched" <<'EOF'
import json, sys
spec = json.load(open(sys.argv[1]))
edit = next(p for p in spec["patch"] if p["file"] == "pkg/scheduler/schedule_one.go")["edits"][0]
text = open(sys.argv[2]).read()
assert text.count(edit["find"]) == 1
half = len(edit["find"]) // 2
open(sys.argv[2], "w").write(text.replace(edit["find"], edit["find"][:half] + " /* edited */ " + edit["find"][half:], 1))
EOF
status=0
"$sc" replay "$trace" --compat 1.37 --candidate "kube-src:$k" -q -o "$out/moved.dec" 2>"$out/moved.err" || status=$?
[ "$status" = 2 ] || { cat "$out/moved.err" >&2; fail "an edited anchor exited $status, want 2"; }
grep -q "kube-src:$k: the bridge of 1.37 does not apply to this tree (v1.37/patches.json): $sched: edit 1 (" "$out/moved.err" ||
  { cat "$out/moved.err" >&2; fail "the error does not name the file and the edit"; }
[ ! -e "$out/moved.dec" ] || fail "a decision log was written"
[ "$(cat "$(dirname "$adapter")/stamp")" = "$stamp" ] || fail "the cached adapter's stamp changed"
[ "$(shared_sum)" = "$before_shared" ] || fail "the shared trees of released versions changed"
echo "kube-src build: cold ${cold}s (replay included), warm after a one-file change ${warm}s"
echo PASS
