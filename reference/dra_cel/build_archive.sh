#!/usr/bin/env bash
# Builds reference/dra_cel/go as a C archive (go build -buildmode=c-archive) with the host Go
# toolchain, offline: every module comes from Go's module cache, which ci/setup fills
# (`go mod download` in reference/dra_cel/go). Run by the genrule
# //reference/dra_cel:dracel_archive.
#
#   reference/dra_cel/build_archive.sh MODULE_DIR OUT.a
#
# Exit status: 0 built; 1 no Go toolchain, a module missing from the cache, or a compile error.
set -euo pipefail

module=$1 out=$2
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac

GO=${GO:-$(command -v go || true)}
[ -n "$GO" ] || GO=/usr/local/go/bin/go
[ -x "$GO" ] || { echo "build_archive.sh: Go not found (run ci/setup)" >&2; exit 1; }
# Bazel runs actions without HOME; Go keeps its module and build caches under the user's home.
if [ -z "${HOME:-}" ]; then HOME=$(getent passwd "$(id -u)" | cut -d: -f6); export HOME; fi
# go.mod and go.sum are complete: -mod=readonly never rewrites them, GOPROXY=off never fetches
# (a module missing from the cache is an error naming it, fixed by ci/setup).
export GOFLAGS="-mod=readonly -buildvcs=false -trimpath" GOPROXY=off GOTOOLCHAIN=local CGO_ENABLED=1

cd "$module"
"$GO" build -buildmode=c-archive -o "$out.tmp.a" .
rm -f "$out.tmp.h"  # the generated header: cel_selector.cc declares the functions itself
mv -f "$out.tmp.a" "$out"
