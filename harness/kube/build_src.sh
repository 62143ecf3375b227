# Sourced by build.sh for a local kubernetes checkout: --kube-src DIR, or a --module whose go.mod
# replaces k8s.io/kubernetes by a directory (the plugin recipe against a modified tree). Builds the
# module against DIR's own code, never writing into DIR or into the shared trees of released
# versions (harness/kube/README.md, "A local kubernetes tree"). Uses build.sh's variables: GO, here,
# kube_src, kube, module, main, out, vet, test, use_cache, detect, cache, work.
#
# (1) The version: `git describe --tags` when DIR is the top of a git work tree (exact, wins);
# else the minor from DefaultKubeBinaryVersion in staging/src/k8s.io/component-base/version/base.go
# (1.31 on), else from the newest CHANGELOG/CHANGELOG-1.N.md; --kube, when given, must agree with
# the minor found and stands in for what the tree does not say. (2) The bridge of that minor.
# (3) The patched tree: an overlay of DIR under $cache/kube-src/<key>/ (key: DIR's path), kept up
# to date in place (patchtree -sync). (4) A generated go.mod: DIR's own requirements, its staging
# modules replaced by DIR/staging/src/k8s.io/* as DIR's replace lines say. (5) go build, with the
# build's name (DIR, version, tree hash) linked in for the decision log's header.

fail() {
  if [ -n "$use_cache" ]; then echo "$*"; else echo "build.sh: kube-src ${src:-$kube_src}: $*" >&2; fi
  exit 2
}

src=$(cd "$kube_src" 2>/dev/null && pwd -P) || fail "not a directory"
say() { echo "kube-src $src: $*" >&2; }
if ! grep -qx 'module k8s.io/kubernetes' "$src/go.mod" 2>/dev/null; then
  fail "$src/go.mod does not declare module k8s.io/kubernetes: not the top of a kubernetes checkout"
fi

# (1) The version.
minor="" exact="" label="" how="" exact_known=""
top=$(git -C "$src" rev-parse --show-toplevel 2>/dev/null || true)
describe=""
if [ -n "$top" ] && [ "$(cd "$top" && pwd -P)" = "$src" ]; then
  describe=$(git -C "$src" describe --tags --match 'v1.*' --abbrev=12 2>/dev/null || true)
fi
if [[ "$describe" =~ ^v(1\.[0-9]+)\.([0-9]+) ]]; then
  minor=${BASH_REMATCH[1]} exact="v${BASH_REMATCH[1]}.${BASH_REMATCH[2]}" label=$describe
  how="git describe" exact_known=1
else
  base_go="$src/staging/src/k8s.io/component-base/version/base.go"
  minor=$(sed -n 's/^[[:space:]]*DefaultKubeBinaryVersion[[:space:]]*=[[:space:]]*"\(1\.[0-9]*\)".*/\1/p' "$base_go" 2>/dev/null | head -n 1 || true)
  how="DefaultKubeBinaryVersion in staging/src/k8s.io/component-base/version/base.go"
  if [ -z "$minor" ]; then
    minor=$(ls "$src/CHANGELOG" 2>/dev/null | sed -n 's/^CHANGELOG-\(1\.[0-9]*\)\.md$/\1/p' | sort -V | tail -n 1 || true)
    how="the newest CHANGELOG/CHANGELOG-$minor.md"
  fi
  [ -n "$minor" ] || how=""
  label="v$minor"
fi
if [ -n "$kube" ]; then
  if [[ ! "$kube" =~ ^(1\.[0-9]+)(\.[0-9]+)?$ ]]; then
    fail "--kube \"$kube\": want a minor (1.37) or a patch release (1.37.2)"
  fi
  if [ -n "$minor" ] && [ "${BASH_REMATCH[1]}" != "$minor" ]; then
    fail "--kube $kube, but the tree is kubernetes $label (from $how)"
  fi
  minor=${BASH_REMATCH[1]}
  if [ -z "$exact_known" ] && [ -n "${BASH_REMATCH[2]}" ]; then
    exact="v$kube" label="v$kube" how="--kube" exact_known=1
  fi
  [ -n "$how" ] || how="--kube" label="v$minor"
fi
[ -n "$minor" ] || fail "cannot tell which kubernetes this is: no git tag v1.* (git describe), no DefaultKubeBinaryVersion in staging/src/k8s.io/component-base/version/base.go, no CHANGELOG/CHANGELOG-1.N.md; name it with --kube 1.N"
# The published version the generated go.mod requires k8s.io/kubernetes at (replaced by the
# overlay, so only a name): the tag, else the newest release of the minor the CHANGELOG lists.
if [ -z "$exact" ]; then
  patch=$(sed -n "s/^# v${minor//./\\.}\\.\\([0-9]*\\)\$/\\1/p" "$src/CHANGELOG/CHANGELOG-$minor.md" 2>/dev/null | sort -n | tail -n 1 || true)
  exact="v$minor.${patch:-0}"
fi
spec="$here/v$minor/patches.json"
minors=$(cd "$here" && ls -d v*/patches.json 2>/dev/null | sed -e 's|^v||' -e 's|/patches.json$||' | sort -V | paste -sd, - | sed 's/,/, /g')
if [ -n "$detect" ]; then
  echo "$minor $exact $label ($how)"
  exit 0
fi
[ -f "$spec" ] || fail "kubernetes $label (from $how): no bridge for minor $minor (bridges: $minors)"
export GOFLAGS="${GOFLAGS:-} -tags=kube${minor/./_}"
staging=""
if [ -d "$src/staging/src/k8s.io" ]; then
  staging=$src
elif [ -z "$exact_known" ]; then
  fail "no staging/src/k8s.io (not a full checkout): name the release whose published staging modules to build with, --kube $minor.Z"
fi
module=${module:-$here/v$minor}
module=$(cd "$module" && pwd)
core_packages=()
if grep -q '^[[:space:]]*schedcheck.local/kube/core ' "$module/go.mod"; then
  core_packages=(schedcheck.local/kube/core/...)
fi

# The content of the tree: every file the build may read (what patchtree -sync skips aside, and
# the staging modules included), by path and SHA-256. Part of the build's name and of the stamp.
tree_hash() {
  (cd "$src" && find . \( -path ./.git -o -path ./_output -o -path ./vendor \) -prune -o -type f -print0 |
    LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
}
say "kubernetes $label (from $how), bridge $minor; hashing the tree"
hash=$(tree_hash)
key=$(printf '%s' "$src" | sha256sum | cut -c1-16)
name="kube-src:$src at $label, tree hash $hash"

# With --cache: skip the build when the stamp (the tree's hash, the bridge, the adapter sources,
# the toolchain) matches the cached adapter's.
if [ -n "$use_cache" ]; then
  dir="$cache/adapters/kube-src-$key"
  out="$dir/kube-adapter"
  mkdir -p "$cache/adapters"
  exec 8>"$dir.lock"
  flock 8
  stamp=$(
    echo "$name"
    echo "bridge $minor"
    echo "main $main"
    "$GO" env GOVERSION
    find "$here/build.sh" "$here/build_src.sh" "$here/common" "$here/shared" "$here/core" \
      "$module" "$here/v$minor" "$here"/v*/_overlay -type f ! -name BUILD.bazel -print0 |
      LC_ALL=C sort -z |
      xargs -0 sha256sum | sed "s|  $here/|  |" | sha256sum | cut -d' ' -f1
  )
  if [ -x "$out" ] && [ -f "$dir/stamp" ] && [ "$(cat "$dir/stamp")" = "$stamp" ]; then
    echo "$out"
    exit 0
  fi
  say "building the adapter into $dir (minutes when Go's build cache is cold, seconds after a small change)"
fi

# (3) The overlay, private to this checkout; a lock keeps two builds of one checkout apart.
overlay="$cache/kube-src/$key"
tree="$overlay/kubernetes"
mkdir -p "$overlay"
printf '%s\n' "$src" >"$overlay/source"
exec 9>"$overlay.lock"
flock 9
(cd "$here/common" && "$GO" build -o "$work/patchtree" ./cmd/patchtree && "$GO" build -o "$work/pinmod" ./cmd/pinmod)
say "refreshing the patched tree $tree with the bridge of $minor (v$minor/patches.json)"
status=0
"$work/patchtree" -sync -spec "$spec" -module "$src" -out "$tree" 2>"$work/patchtree.err" || status=$?
if [ "$status" = 2 ]; then
  fail "the bridge of $minor does not apply to this tree (v$minor/patches.json): $src/$(sed 's/^patchtree: //' "$work/patchtree.err")"
elif [ "$status" != 0 ]; then
  cat "$work/patchtree.err" >&2
  exit 1
fi

# (4) The generated go.mod: the module's requirements at the checkout's versions, staging modules
# from the checkout (or, without staging directories, published at the release's v0.Y.Z).
"$GO" mod edit -json "$src/go.mod" >"$work/tag.json"
"$GO" mod edit -json "$module/go.mod" >"$work/module.json"
checkout=()
[ -n "$staging" ] && checkout=(-checkout "$staging")
"$work/pinmod" -version "$exact" -tag "$work/tag.json" -module "$work/module.json" \
  -moddir "$module" "${checkout[@]}" -out "$work/go.mod"
printf '\nreplace k8s.io/kubernetes => %s\n' "$tree" >>"$work/go.mod"
cat "$module/go.sum" "$src/go.sum" 2>/dev/null | LC_ALL=C sort -u >"$work/go.sum"
cd "$module"
"$GO" mod graph -modfile="$work/go.mod" | awk '{print $2}' | sed -n 's|^k8s\.io/kubernetes@||p' |
  sort -u | { grep -vx "$exact" || true; } | sed 's|^|exclude k8s.io/kubernetes |' >>"$work/go.mod"
say "resolving the modules the checkout requires"
packages=("$main")
[ -n "$vet$test" ] && packages=(./... "${core_packages[@]}")
"$GO" list -mod=mod -modfile="$work/go.mod" -deps -test -json=Module "${packages[@]}" >"$work/list.json"
status=0
"$work/pinmod" -version "$exact" -tag "$work/tag.json" -tree "$tree" "${checkout[@]}" \
  -check "$work/list.json" 2>"$work/check.err" || status=$?
[ "$status" = 0 ] || fail "$(grep -v '^note: ' "$work/check.err")"
grep '^note: ' "$work/check.err" | sed "s|^|kube-src $src: |" >&2 || true

# (5) Build, vet or test.
if [ -n "$vet" ]; then
  "$GO" vet -mod=mod -modfile="$work/go.mod" ./... "${core_packages[@]}"
  exit 0
fi
if [ -n "$test" ]; then
  "$GO" test -mod=mod -modfile="$work/go.mod" -count=1 ./... "${core_packages[@]}"
  exit 0
fi
say "compiling $main against the checkout"
mkdir -p "$(dirname "$out")"
"$GO" build -mod=mod -modfile="$work/go.mod" \
  -ldflags="-X 'schedcheck.local/kube/shared/adapterkit.BuildSource=$name'" -o "$out.tmp" "$main"
mv -f "$out.tmp" "$out"
if [ -n "$use_cache" ]; then
  cp "$work/go.mod" "$dir/go.mod"
  echo "$stamp" >"$dir/stamp"
  say "built $out"
  echo "$out"
fi
