#!/usr/bin/env bash
# Builds the real control plane the end-to-end test runs: etcd (embedded, its
# own module) and kube-apiserver, kube-controller-manager, kube-scheduler and
# kubectl at v1.37.2, version-stamped, the scenario driver and the recorder,
# into the directory given as $1.
# Cold this takes about 20 minutes on two busy cores; Go's build cache makes
# later runs take seconds.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${1:?usage: build.sh OUT_DIR}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

# The stamp only changes what the binaries report as their version.
# buildDate is fixed so that the binaries do not depend on the wall clock.
pkg=k8s.io/component-base/version
ldflags="-s -w -X $pkg.gitVersion=v1.37.2 -X $pkg.gitMajor=1 -X $pkg.gitMinor=37"
ldflags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=2026-01-01T00:00:00Z"

(cd "$here/etcd" && go build -trimpath -o "$out/etcd" .)
(cd "$here/k8s" && go build -trimpath -ldflags "$ldflags" -o "$out/" \
  k8s.io/kubernetes/cmd/kube-apiserver \
  k8s.io/kubernetes/cmd/kube-controller-manager \
  k8s.io/kubernetes/cmd/kube-scheduler \
  k8s.io/kubernetes/cmd/kubectl \
  ./cmd/e2e-driver)
(cd "$here/../../harness/kube/recorder" && go build -trimpath -o "$out/recorder" ./cmd/recorder)
