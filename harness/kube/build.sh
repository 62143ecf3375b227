#!/usr/bin/env bash
# Builds a kube-scheduler adapter: a Go main package linked with k8s.io/kubernetes at the version
# its module pins, plus the schedcheck bridge (harness/kube/README.md, "How the adapters reach
# upstream's internals").
#
#   harness/kube/build.sh --kube 1.27 --module DIR --main ./cmd/x -o OUT
#   harness/kube/build.sh --kube 1.37 --vet
#   harness/kube/build.sh --kube 1.27 --test
#
# --kube    the bridge to use: 1.27 or 1.37 (harness/kube/v<kube>/patches.json)
# --module  the Go module to build (default: the bundled adapter module of that version)
# --main    its main package (default ./cmd/kube-adapter)
# -o        the executable to write
# --vet     instead of building, run `go vet ./...` over the whole module against the same patched
#           tree (the adapter modules only compile there)
# --test    instead of building, run `go test ./...` over the whole module against that tree (the
#           adapters' storage scenarios, harness/kube/shared/adaptertest)
#
# Steps: (1) read the k8s.io/kubernetes version and module-cache directory the module resolves;
# (2) make the patched tree of it under ${SCHEDCHECK_CACHE:-$HOME/.cache/schedcheck}
# (symbolic links into the module cache plus the bridge files); (3) go build with a copy of the
# module's go.mod whose only change is a `replace k8s.io/kubernetes => <that tree>`. Modules come
# from the module cache (ci/setup downloads them); nothing is fetched when they are present.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
kube="" module="" main="./cmd/kube-adapter" out="" vet="" test=""
while [ $# -gt 0 ]; do
  case "$1" in
    --kube) kube=$2; shift 2 ;;
    --module) module=$2; shift 2 ;;
    --main) main=$2; shift 2 ;;
    -o) out=$2; shift 2 ;;
    --vet) vet=1; shift ;;
    --test) test=1; shift ;;
    *) echo "build.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [ -z "$kube" ] || { [ -z "$out" ] && [ -z "$vet" ] && [ -z "$test" ]; }; then
  echo "usage: build.sh --kube 1.27|1.37 [--module DIR] [--main PKG] -o OUT | --vet | --test" >&2; exit 2
fi
spec="$here/v$kube/patches.json"
[ -f "$spec" ] || { echo "build.sh: no bridge for kube $kube ($spec missing)" >&2; exit 2; }
module=${module:-$here/v$kube}
module=$(cd "$module" && pwd)
case "$out" in /* | "") ;; *) out="$PWD/$out" ;; esac

GO=${GO:-$(command -v go || true)}
[ -n "$GO" ] || GO=/usr/local/go/bin/go
[ -x "$GO" ] || { echo "build.sh: Go not found (run ci/setup)" >&2; exit 1; }
# Bazel runs actions without HOME; Go keeps its caches under the user's home directory.
if [ -z "${HOME:-}" ]; then HOME=$(getent passwd "$(id -u)" | cut -d: -f6); export HOME; fi
export GOFLAGS="${GOFLAGS:-} -mod=readonly -buildvcs=false"
export GOTOOLCHAIN=local

cache=${SCHEDCHECK_CACHE:-$HOME/.cache/schedcheck}
mkdir -p "$cache/kube"

cd "$module"
version=$("$GO" list -m -f '{{.Version}}' k8s.io/kubernetes)
upstream=$("$GO" list -m -f '{{.Dir}}' k8s.io/kubernetes)
if [ -z "$upstream" ] || [ ! -d "$upstream" ]; then
  echo "build.sh: k8s.io/kubernetes $version is not in the module cache; run: (cd $module && go mod download)" >&2
  exit 1
fi
tree="$cache/kube/kubernetes@$version"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

exec 9>"$tree.lock"
flock 9
(cd "$here/common" && "$GO" run ./cmd/patchtree -spec "$spec" -module "$upstream" -out "$tree")
cp go.mod "$work/go.mod"
cp go.sum "$work/go.sum"
printf '\nreplace k8s.io/kubernetes => %s\n' "$tree" >> "$work/go.mod"
if [ -n "$vet" ]; then
  "$GO" vet -modfile="$work/go.mod" ./...
  exit 0
fi
if [ -n "$test" ]; then
  "$GO" test -modfile="$work/go.mod" -count=1 ./...
  exit 0
fi
"$GO" build -modfile="$work/go.mod" -o "$out.tmp" "$main"
mv -f "$out.tmp" "$out"
