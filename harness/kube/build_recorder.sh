#!/usr/bin/env bash
# Builds the recorder (recorder/README.md) with the host Go toolchain:
# build_recorder.sh -o OUT. Bazel's genrule //harness/kube:recorder calls it.
set -euo pipefail
[ "${1:-}" = "-o" ] && [ -n "${2:-}" ] || { echo "usage: build_recorder.sh -o OUT" >&2; exit 2; }
out="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
GO=${GO:-$(command -v go || true)}
[ -n "$GO" ] || GO=/usr/local/go/bin/go
# Bazel runs actions without HOME; Go keeps its caches under the user's home directory.
if [ -z "${HOME:-}" ]; then HOME=$(getent passwd "$(id -u)" | cut -d: -f6); export HOME; fi
export GOFLAGS="${GOFLAGS:-} -mod=readonly -buildvcs=false" GOTOOLCHAIN=local
# Go wants an ordinary module directory, not Bazel's tree of links.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -rL "$here/recorder" "$work/recorder"
cd "$work/recorder"
"$GO" build -trimpath -o "$out" ./cmd/recorder
