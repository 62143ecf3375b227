#!/usr/bin/env bash
# A patch release that is not pinned, end to end (tagged manual: it may fetch modules through the Go
# module proxy and compile Kubernetes' scheduler, minutes cold): `--candidate kube:1.37.1` builds
# the adapter on first use into a per-version cache, names the build in the decision log, replays
# a corpus trace equivalently to the reference at 1.37, links every Kubernetes module at the
# version v1.37.1's go.mod requires, and is instant on second use; a release the module proxy does
# not serve is exit 2 naming it, and so is a bridge whose anchor moved. Uses the user's Go caches and ${SCHEDCHECK_CACHE} as a user's
# machine would (ci/setup does not download v1.37.1's modules: CI builds only the pinned adapters).
set -euo pipefail
sc="$TEST_SRCDIR/schedcheck/harness/cli/schedcheck"
corpus="$TEST_SRCDIR/schedcheck/traces/corpus"
if [ -z "${HOME:-}" ] || [ ! -d "$HOME/go" ]; then HOME=$(getent passwd "$(id -u)" | cut -d: -f6); export HOME; fi
GO=$(command -v go || echo /usr/local/go/bin/go)
export PATH="$PATH:$(dirname "$GO")" SCHEDCHECK_KUBE_LOG=stderr
out="${TEST_TMPDIR:-$(mktemp -d)}"
trace="$corpus/preemption-basic.jsonl"
fail() { echo "FAIL: $*" >&2; exit 1; }

# First (or cached) use, then the reference at the same level.
"$sc" replay "$trace" --compat 1.37 --candidate kube:1.37.1 -q -o "$out/kube.dec" 2>"$out/first.err" ||
  { cat "$out/first.err" >&2; fail "replay --candidate kube:1.37.1"; }
"$sc" replay "$trace" --compat 1.37 -q -o "$out/ref.dec" 2>/dev/null
"$sc" diff "$out/ref.dec" "$out/kube.dec" || fail "kube:1.37.1 diverges from the reference at 1.37"
"$sc" trace info "$out/kube.dec" >"$out/info.txt"
grep -q '^label: scheduler=kube-scheduler v1.37.1 (bridge 1.37)' "$out/info.txt" ||
  { cat "$out/info.txt" >&2; fail "the decision log does not name v1.37.1 and its bridge"; }
adapter=$(sed -n "s/^label: scheduler_cmd='\(.*\)'$/\1/p" "$out/info.txt")
case "$adapter" in */adapters/kube-1.37.1/kube-adapter) ;; *) fail "adapter path $adapter" ;; esac

# Every Kubernetes module at v1.37.1's versions: staging modules at v0.37.1, none at another.
"$GO" version -m "$adapter" >"$out/modules.txt"
grep -qP '^\tdep\tk8s.io/kubernetes\tv1.37.1$' "$out/modules.txt" || fail "k8s.io/kubernetes is not v1.37.1"
for m in api apimachinery client-go component-helpers dynamic-resource-allocation kube-scheduler; do
  grep -qP "^\t=>\tk8s.io/$m\tv0.37.1\t" "$out/modules.txt" || fail "k8s.io/$m is not at v0.37.1"
done
if grep -P '^\t(dep|=>)\tk8s.io/[a-z-]+\tv0\.37\.(?!1(\t|$))' "$out/modules.txt"; then
  fail "a staging module at another patch of 1.37"
fi

# Second use: the cached build, nothing rebuilt.
"$sc" replay "$trace" --compat 1.37 --candidate kube:1.37.1 -q -o "$out/again.dec" 2>"$out/second.err"
if grep -q "building the adapter" "$out/second.err"; then fail "the second use rebuilt the adapter"; fi
cmp -s "$out/kube.dec" "$out/again.dec" || fail "the cached adapter's log differs"

# A release the proxy does not serve: exit 2, the version and the proxy's answer named.
status=0
"$sc" replay "$trace" --candidate kube:1.37.9 -q -o "$out/none.dec" 2>"$out/none.err" || status=$?
[ "$status" = 2 ] || fail "kube:1.37.9 exited $status, want 2"
grep -q "kube:1.37.9: the Go module proxy does not serve k8s.io/kubernetes@v1.37.9" "$out/none.err" ||
  { cat "$out/none.err" >&2; fail "kube:1.37.9's error does not name the version"; }
# An anchor that moved: v1.37's bridge offered as a bridge of 1.36 (a copy of the sources whose
# v1.36 is replaced by v1.37) fails at v1.36.4's schedule_one.go, exit 2 naming the version, file and edit, and
# leaves no patched tree behind.
src="$out/src"
rm -rf "$src" && mkdir -p "$src"
cp -rL "$TEST_SRCDIR/schedcheck/harness/kube/." "$src/"
rm -rf "$src/v1.36" && cp -r "$src/v1.37" "$src/v1.36"
status=0
SCHEDCHECK_CACHE="$out/cache" bash "$src/build.sh" --kube 1.36.4 --cache >"$out/moved.out" 2>"$out/moved.err" || status=$?
[ "$status" = 2 ] || { cat "$out/moved.out" "$out/moved.err" >&2; fail "a moved anchor exited $status, want 2"; }
grep -q "^the bridge of 1.36 does not apply (v1.36/patches.json): pkg/scheduler/schedule_one.go: edit 1 (" "$out/moved.out" ||
  { cat "$out/moved.out" >&2; fail "a moved anchor's error does not name the file and edit"; }
grep -q "the anchor occurs 0 times" "$out/moved.out" || fail "a moved anchor's error does not say it is missing"
if ls -d "$out/cache/kube/kubernetes@v1.36.4"* "$out/cache/adapters/kube-1.36.4" 2>/dev/null | grep -v '\.lock$'; then
  fail "a failed patch left a tree or an adapter behind"
fi
echo "PASS: kube:1.37.1 built, named, equivalent at 1.37, cached; kube:1.37.9 refused; a moved anchor refused"
