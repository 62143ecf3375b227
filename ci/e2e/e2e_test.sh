#!/usr/bin/env bash
# Bazel's wrapper of e2e.sh (//ci/e2e:e2e_test, tagged manual and e2e): builds
# the control plane, the driver and the recorder from a copy of their sources
# (Go's module and build caches under $HOME make this fast after the first
# run), then runs every scenario. Outputs stay in $TEST_UNDECLARED_OUTPUTS_DIR.
set -euo pipefail
root="$TEST_SRCDIR/schedcheck"
if [ -z "${HOME:-}" ] || [ ! -d "$HOME/go" ]; then HOME=$(getent passwd "$(id -u)" | cut -d: -f6); export HOME; fi
export GOFLAGS="-mod=readonly -buildvcs=false" GOTOOLCHAIN=local
PATH="$PATH:/usr/local/go/bin"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The runfiles tree holds links; Go wants ordinary module directories.
mkdir -p "$work/src/ci" "$work/src/harness/kube"
cp -rL "$root/ci/e2e" "$work/src/ci/e2e"
cp -rL "$root/harness/kube/recorder" "$work/src/harness/kube/recorder"
start=$SECONDS
bash "$work/src/ci/e2e/build.sh" "$work/bin"
echo "build: $((SECONDS - start)) s"
out="${TEST_UNDECLARED_OUTPUTS_DIR:-$work/out}"
bash "$work/src/ci/e2e/e2e.sh" --bin "$work/bin" --schedcheck "$root/harness/cli/schedcheck" --out "$out"
echo "total: $((SECONDS - start)) s"
