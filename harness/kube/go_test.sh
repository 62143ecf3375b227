#!/usr/bin/env bash
# `go vet` and the Go unit tests of the adapters' shared module (framing and serving, Kubernetes
# JSON, virtual ticks, the patched-tree builder), and `go vet` and `go test` of the two adapter
# modules (the adapters and casecheck) against their patched trees (build.sh --vet, --test: the
# storage scenarios of shared/adaptertest through each adapter), and those of the recorder. The
# adapters are also exercised end to end by kube_gate_test and //properties:kube_differential_test.
set -euo pipefail
here="$TEST_SRCDIR/schedcheck/harness/kube"
GO=$(command -v go || echo /usr/local/go/bin/go)
if [ -z "${HOME:-}" ] || [ ! -d "$HOME/go" ]; then HOME=$(getent passwd "$(id -u)" | cut -d: -f6); export HOME; fi
export GOFLAGS="-mod=readonly -buildvcs=false" GOTOOLCHAIN=local
# The runfiles tree holds links; work on a copy so that Go sees ordinary module directories.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -rL "$here" "$work/kube"
cd "$work/kube/common"
"$GO" vet ./...
"$GO" test -count=1 ./...
for kube in 1.27 1.37; do
  GO="$GO" bash "$work/kube/build.sh" --kube "$kube" --vet
  GO="$GO" bash "$work/kube/build.sh" --kube "$kube" --test
done
# The recorder (recorder/README.md): merging by resourceVersion, resyncs, redaction.
cd "$work/kube/recorder"
"$GO" vet ./...
"$GO" test -count=1 ./...
