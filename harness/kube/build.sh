#!/usr/bin/env bash
# Builds a kube-scheduler adapter: a Go main package linked with k8s.io/kubernetes at the version
# its module pins, plus the schedcheck bridge (harness/kube/README.md, "How the adapters reach
# upstream's internals").
#
#   harness/kube/build.sh --kube 1.27 --module DIR --main ./cmd/x -o OUT
#   harness/kube/build.sh --kube 1.37 --vet
#   harness/kube/build.sh --kube 1.27 --test
#   harness/kube/build.sh --kube 1.37.1 --cache
#   harness/kube/build.sh --kube-src ~/src/kubernetes --cache
#
# --kube    a minor with a bridge (harness/kube/v<minor>/patches.json): 1.27, 1.35, 1.36 or 1.37, building the
#           k8s.io/kubernetes version the module pins; or an exact patch release of such a minor,
#           e.g. 1.37.1: the module is then built with a generated go.mod that requires every
#           module at the version that tag's own go.mod requires (common/cmd/pinmod; a module that
#           resolves otherwise fails the build), fetching what the module cache lacks through the
#           Go module proxy
# --kube-src DIR  a local kubernetes checkout (build_src.sh): its minor detected from the tree
#           (--kube, if also given, must agree), built against DIR's own code through an overlay
#           that is kept up to date in place; with --cache into ${SCHEDCHECK_CACHE}/adapters/
#           kube-src-<key>/ (schedcheck's kube-src:DIR). A --module whose go.mod replaces
#           k8s.io/kubernetes by a directory is built the same way, against that directory.
# --detect  with --kube-src: print the minor, the version and how it was found, and stop
# --cache   with an exact --kube: build the bundled adapter into
#           ${SCHEDCHECK_CACHE}/adapters/kube-<X.Y.Z>/kube-adapter unless the stamp there says it
#           was built from the same sources, and print its path on stdout (schedcheck's kube:X.Y.Z)
# --module  the Go module to build (default: the bundled adapter module of that version)
# --main    its main package (default ./cmd/kube-adapter)
# -o        the executable to write
# --vet     instead of building, run `go vet ./...` over the whole module against the same patched
#           tree (the adapter modules only compile there)
# --test    instead of building, run `go test ./...` over the whole module against that tree (the
#           adapters' storage scenarios, harness/kube/shared/adaptertest)
#
# Exit status: 0 built; 2 a version this script cannot build (no bridge for its minor, not served
# by the Go module proxy, an anchor of the bridge that moved, a mixed build), named on stderr;
# 1 anything else (a compile error, a missing toolchain).
#
# Steps: (1) read the k8s.io/kubernetes version and module-cache directory the module resolves;
# (2) make the patched tree of it under ${SCHEDCHECK_CACHE:-$HOME/.cache/schedcheck}
# (symbolic links into the module cache plus the bridge files); (3) go build with a copy of the
# module's go.mod whose only change is a `replace k8s.io/kubernetes => <that tree>`. Modules come
# from the module cache (ci/setup downloads them); nothing is fetched when they are present.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
kube="" module="" main="./cmd/kube-adapter" out="" vet="" test="" use_cache="" kube_src="" detect=""
while [ $# -gt 0 ]; do
  case "$1" in
    --kube) kube=$2; shift 2 ;;
    --module) module=$2; shift 2 ;;
    --main) main=$2; shift 2 ;;
    -o) out=$2; shift 2 ;;
    --vet) vet=1; shift ;;
    --test) test=1; shift ;;
    --cache) use_cache=1; shift ;;
    --kube-src) kube_src=$2; shift 2 ;;
    --detect) detect=1; shift ;;
    *) echo "build.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
# A module that replaces k8s.io/kubernetes by a directory of its own (`replace k8s.io/kubernetes
# => ./tree`) is built against that tree as a checkout: appending the patched tree's replace to
# its go.mod would conflict with it.
if [ -z "$kube_src" ] && [ -n "$module" ] && [ -f "$module/go.mod" ]; then
  replaced=$(sed -n -E 's#^[[:space:]]*(replace[[:space:]]+)?k8s\.io/kubernetes([[:space:]]+v[^[:space:]]+)?[[:space:]]+=>[[:space:]]+((\.\.?)?/[^[:space:]]*)[[:space:]]*$#\3#p' "$module/go.mod" | head -n 1)
  if [ -n "$replaced" ]; then
    case "$replaced" in /*) kube_src=$replaced ;; *) kube_src="$module/$replaced" ;; esac
    echo "build.sh: $module/go.mod replaces k8s.io/kubernetes by $replaced: building against that checkout (--kube-src)" >&2
  fi
fi
if { [ -z "$kube" ] && [ -z "$kube_src" ]; } ||
  { [ -z "$out" ] && [ -z "$vet" ] && [ -z "$test" ] && [ -z "$use_cache" ] && [ -z "$detect" ]; }; then
  echo "usage: build.sh --kube MINOR|X.Y.Z | --kube-src DIR [--module DIR] [--main PKG] -o OUT | --vet | --test | --cache | --detect" >&2; exit 2
fi
GO=${GO:-$(command -v go || true)}
[ -n "$GO" ] || GO=/usr/local/go/bin/go
[ -x "$GO" ] || { echo "build.sh: Go not found (run ci/setup)" >&2; exit 1; }
# Bazel runs actions without HOME; Go keeps its caches under the user's home directory.
if [ -z "${HOME:-}" ]; then HOME=$(getent passwd "$(id -u)" | cut -d: -f6); export HOME; fi
export GOFLAGS="${GOFLAGS:-} -mod=readonly -buildvcs=false"
export GOTOOLCHAIN=local

cache=${SCHEDCHECK_CACHE:-$HOME/.cache/schedcheck}
mkdir -p "$cache/kube"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
case "$out" in /* | "") ;; *) out="$PWD/$out" ;; esac

if [ -n "$kube_src" ]; then
  if [ -n "$use_cache" ] && [ -n "$out$vet$test" ]; then
    echo "build.sh: --cache wants no -o, --vet or --test" >&2; exit 2
  fi
  [ -z "$module" ] || module=$(cd "$module" && pwd)
  # shellcheck source=harness/kube/build_src.sh
  source "$here/build_src.sh"
  exit 0
fi
# The minors with a bridge: the folders v<minor>/ holding a patches.json.
minors=$(cd "$here" && ls -d v*/patches.json 2>/dev/null | sed -e 's|^v||' -e 's|/patches.json$||' | sort -V | paste -sd, - | sed 's/,/, /g')
exact=""
if [[ "$kube" =~ ^1\.[0-9]+\.[0-9]+$ ]]; then
  exact="v$kube" minor=${kube%.*}
elif [[ "$kube" =~ ^1\.[0-9]+$ ]]; then
  minor=$kube
else
  echo "build.sh: --kube \"$kube\": want a minor (1.37) or a patch release (1.37.1)" >&2; exit 2
fi
spec="$here/v$minor/patches.json"
# The adapter core's files for one minor's client-go (core/adapter/*_1_35.go) are chosen by tag.
export GOFLAGS="${GOFLAGS:-} -tags=kube${minor/./_}"
if [ ! -f "$spec" ]; then
  echo "build.sh: kubernetes $kube: no bridge for minor $minor (bridges: $minors)" >&2; exit 2
fi
if [ -n "$use_cache" ] && { [ -z "$exact" ] || [ -n "$out$vet$test" ]; }; then
  echo "build.sh: --cache wants an exact --kube X.Y.Z and no -o, --vet or --test" >&2; exit 2
fi
module=${module:-$here/v$minor}
module=$(cd "$module" && pwd)

# --vet and --test also cover the adapter core (core/) when the module links it: it compiles only
# against a patched tree, so the module that requires it is where it is checked.
core_packages=()
if grep -q '^[[:space:]]*schedcheck.local/kube/core ' "$module/go.mod"; then
  core_packages=(schedcheck.local/kube/core/...)
fi

if [ -n "$exact" ]; then
  # shellcheck source=harness/kube/build_exact.sh
  source "$here/build_exact.sh"
  exit 0
fi

cd "$module"
version=$("$GO" list -m -f '{{.Version}}' k8s.io/kubernetes)
upstream=$("$GO" list -m -f '{{.Dir}}' k8s.io/kubernetes)
if [ -z "$upstream" ] || [ ! -d "$upstream" ]; then
  echo "build.sh: k8s.io/kubernetes $version is not in the module cache; run: (cd $module && go mod download)" >&2
  exit 1
fi
tree="$cache/kube/kubernetes@$version"

exec 9>"$tree.lock"
flock 9
(cd "$here/common" && "$GO" run ./cmd/patchtree -spec "$spec" -module "$upstream" -out "$tree")
cp go.mod "$work/go.mod"
cp go.sum "$work/go.sum"
printf '\nreplace k8s.io/kubernetes => %s\n' "$tree" >> "$work/go.mod"
if [ -n "$vet" ]; then
  "$GO" vet -modfile="$work/go.mod" ./... "${core_packages[@]}"
  exit 0
fi
if [ -n "$test" ]; then
  "$GO" test -modfile="$work/go.mod" -count=1 ./... "${core_packages[@]}"
  exit 0
fi
"$GO" build -modfile="$work/go.mod" -o "$out.tmp" "$main"
mv -f "$out.tmp" "$out"
