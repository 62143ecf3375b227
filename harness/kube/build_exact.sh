# Sourced by build.sh for an exact patch release (--kube X.Y.Z): builds the module against
# k8s.io/kubernetes v<X.Y.Z> with every module at the version the tag's go.mod requires. Uses
# build.sh's variables: GO, here, module, main, out, vet, test, use_cache, cache, work, kube,
# exact, minor, spec.

say() { echo "kube $kube: $*" >&2; }
# A version that cannot be built: exit 2 with the reason. With --cache the reason goes to stdout
# in place of the adapter's path, for schedcheck to report (kube_adapter.h, BuildKubeAdapter).
fail() {
  if [ -n "$use_cache" ]; then echo "$*"; else echo "build.sh: kubernetes $kube: $*" >&2; fi
  exit 2
}

# (0) With --cache, a stamp of what the cached adapter was built from: when it matches, the build
# is skipped (a second use is instant). The sources are the bridge's and adapter modules' files and
# this script; the toolchain is part of it.
if [ -n "$use_cache" ]; then
  dir="$cache/adapters/kube-$kube"
  out="$dir/kube-adapter"
  mkdir -p "$cache/adapters"
  exec 8>"$dir.lock"
  flock 8
  stamp=$(
    echo "k8s.io/kubernetes $exact"
    echo "bridge $minor"
    echo "main $main"
    "$GO" env GOVERSION
    # Every minor's _overlay: a bridge may add files of another minor's (v1.36 adds v1.37's).
    find "$here/build.sh" "$here/build_exact.sh" "$here/common" "$here/shared" "$here/core" \
      "$module" "$here/v$minor" "$here"/v*/_overlay -type f ! -name BUILD.bazel -print0 |
      LC_ALL=C sort -z |
      xargs -0 sha256sum | sed "s|  $here/|  |" | sha256sum | cut -d' ' -f1
  )
  if [ -x "$out" ] && [ -f "$dir/stamp" ] && [ "$(cat "$dir/stamp")" = "$stamp" ]; then
    echo "$out"
    exit 0
  fi
  say "building the adapter into $dir (first use: minutes when Go's build cache is cold, seconds when warm)"
fi

# (1) The tag from the module proxy (or the module cache), or what the proxy said.
say "fetching k8s.io/kubernetes $exact (Go module cache, else the module proxy)"
info=$(cd "$work" && GOFLAGS=-mod=mod "$GO" mod download -json "k8s.io/kubernetes@$exact" 2>&1) || true
field() { printf '%s\n' "$info" | sed -n "s/^[[:space:]]*\"$1\": \"\\(.*\\)\",\\{0,1\\}\$/\\1/p" | head -n 1; }
if [ -n "$(field Error)" ] || [ -z "$(field GoMod)" ]; then
  # Go's message, its JSON escapes undone and the module it names not repeated.
  reason=$(field Error | sed -e 's/\\[nt]/ /g' -e 's/  */ /g' -e "s|^k8s.io/kubernetes@$exact: ||")
  fail "the Go module proxy does not serve k8s.io/kubernetes@$exact: ${reason:-$info}"
fi
upstream=$(field Dir)
"$GO" mod edit -json "$(field GoMod)" >"$work/tag.json"
"$GO" mod edit -json "$module/go.mod" >"$work/module.json"

# (2) The patched tree (an anchor that moved exits 2 naming the file and the edit), built whole
# next to the old one and swapped in, so that a failure leaves no half-made tree.
tree="$cache/kube/kubernetes@$exact"
exec 9>"$tree.lock"
flock 9
(cd "$here/common" && "$GO" build -o "$work/patchtree" ./cmd/patchtree && "$GO" build -o "$work/pinmod" ./cmd/pinmod)
say "patching k8s.io/kubernetes $exact with the bridge of $minor (v$minor/patches.json)"
status=0
"$work/patchtree" -spec "$spec" -module "$upstream" -out "$tree" 2>"$work/patchtree.err" || status=$?
if [ "$status" = 2 ]; then
  fail "the bridge of $minor does not apply (v$minor/patches.json): $(sed 's/^patchtree: //' "$work/patchtree.err")"
elif [ "$status" != 0 ]; then
  cat "$work/patchtree.err" >&2
  exit 1
fi

# (3) The generated go.mod, the modules it needs (downloaded on first use), and the check that
# every Kubernetes module resolves to the tag's version.
"$work/pinmod" -version "$exact" -tag "$work/tag.json" -module "$work/module.json" \
  -moddir "$module" -out "$work/go.mod"
printf '\nreplace k8s.io/kubernetes => %s\n' "$tree" >>"$work/go.mod"
cp "$module/go.sum" "$work/go.sum"
cd "$module"
# Modules of ours (the shared module, the example plugin, a user's plugin module) require the
# k8s.io/kubernetes they were written against, which would raise the release (v1.27.0 built as
# v1.27.8: a mixed build). Go ignores a requirement on a version the main module excludes.
"$GO" mod graph -modfile="$work/go.mod" | awk '{print $2}' | sed -n 's|^k8s\.io/kubernetes@||p' |
  sort -u | { grep -vx "$exact" || true; } | sed 's|^|exclude k8s.io/kubernetes |' >>"$work/go.mod"
say "resolving the modules k8s.io/kubernetes $exact requires (downloads what the module cache lacks)"
packages=("$main")
[ -n "$vet$test" ] && packages=(./... "${core_packages[@]}")
"$GO" list -mod=mod -modfile="$work/go.mod" -deps -test -json=Module "${packages[@]}" >"$work/list.json"
status=0
"$work/pinmod" -version "$exact" -tag "$work/tag.json" -tree "$tree" -check "$work/list.json" \
  2>"$work/check.err" || status=$?
[ "$status" = 0 ] || fail "$(grep -v '^note: ' "$work/check.err")"
grep '^note: ' "$work/check.err" | sed "s/^/kube $kube: /" >&2 || true

# (4) Build, vet or test.
if [ -n "$vet" ]; then
  "$GO" vet -mod=mod -modfile="$work/go.mod" ./... "${core_packages[@]}"
  exit 0
fi
if [ -n "$test" ]; then
  "$GO" test -mod=mod -modfile="$work/go.mod" -count=1 ./... "${core_packages[@]}"
  exit 0
fi
say "compiling $main against k8s.io/kubernetes $exact"
mkdir -p "$(dirname "$out")"
"$GO" build -mod=mod -modfile="$work/go.mod" -o "$out.tmp" "$main"
mv -f "$out.tmp" "$out"
if [ -n "$use_cache" ]; then
  cp "$work/go.mod" "$dir/go.mod"
  echo "$stamp" >"$dir/stamp"
  say "built $out"
  echo "$out"
fi
