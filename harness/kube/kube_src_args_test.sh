#!/usr/bin/env bash
# build.sh --kube-src on small stand-in trees (seconds; no Kubernetes compiled): which version it
# detects and from what (git describe wins over the files), and the errors before any build: not
# a directory, not a kubernetes checkout, a minor without a bridge, --kube disagreeing with the
# tree, no version to be found, a tree without staging and no exact --kube, and an edit of an
# anchored line (exit 2 naming the file and the edit, the cache's shared trees untouched). A module
# with its own `replace k8s.io/kubernetes => ./tree` is built against that tree (no "conflicting
# replacements"). The real build is //harness/kube:kube_src_test (manual).
set -euo pipefail
here="$TEST_SRCDIR/schedcheck/harness/kube"
if [ -z "${HOME:-}" ] || [ ! -d "$HOME/go" ]; then HOME=$(getent passwd "$(id -u)" | cut -d: -f6); export HOME; fi
GO=$(command -v go || echo /usr/local/go/bin/go)
export PATH="$PATH:$(dirname "$GO")" GOFLAGS=-mod=readonly GOTOOLCHAIN=local
out="${TEST_TMPDIR:-$(mktemp -d)}"
export SCHEDCHECK_CACHE="$out/cache"
# A copy of the sources: Go sees ordinary directories, not runfiles links.
src="$out/src"
rm -rf "$src" && mkdir -p "$src" && cp -rL "$here/." "$src/"
build() { bash "$src/build.sh" "$@"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
# expect_exit2 WANT ARGS...: build.sh exits 2 and says WANT (on stderr; with --cache on stdout).
expect_exit2() {
  local want=$1 status=0
  shift
  build "$@" >"$out/out.txt" 2>"$out/err.txt" || status=$?
  [ "$status" = 2 ] || { cat "$out/err.txt" >&2; fail "build.sh $* exited $status, want 2"; }
  cat "$out/out.txt" "$out/err.txt" >"$out/both.txt"
  grep -qF -- "$want" "$out/both.txt" || { cat "$out/both.txt" >&2; fail "build.sh $*: no \"$want\""; }
}
# tree DIR: a stand-in checkout, the go.mod of k8s.io/kubernetes and one scheduler file.
tree() {
  mkdir -p "$1/pkg/scheduler" "$1/staging/src/k8s.io"
  printf 'module k8s.io/kubernetes\n\ngo 1.26.0\n' >"$1/go.mod"
  printf 'package scheduler\n' >"$1/pkg/scheduler/scheduler.go"
}

# Detection: the staging modules' DefaultKubeBinaryVersion, else the newest CHANGELOG, else --kube.
t="$out/files"
tree "$t"
mkdir -p "$t/staging/src/k8s.io/component-base/version" "$t/CHANGELOG"
printf 'package version\n\nconst (\n\tDefaultKubeBinaryVersion = "1.36"\n)\n' \
  >"$t/staging/src/k8s.io/component-base/version/base.go"
printf '# v1.36.2\n\n# v1.36.1\n' >"$t/CHANGELOG/CHANGELOG-1.36.md"
touch "$t/CHANGELOG/CHANGELOG-1.35.md"
got=$(build --kube-src "$t" --detect)
[ "$got" = "1.36 v1.36.2 v1.36 (DefaultKubeBinaryVersion in staging/src/k8s.io/component-base/version/base.go)" ] ||
  fail "detection from base.go: $got"
rm "$t/staging/src/k8s.io/component-base/version/base.go"
got=$(build --kube-src "$t" --detect)
[ "$got" = "1.36 v1.36.2 v1.36 (the newest CHANGELOG/CHANGELOG-1.36.md)" ] || fail "detection from CHANGELOG: $got"
got=$(build --kube-src "$t" --kube 1.36.4 --detect)
[ "$got" = "1.36 v1.36.4 v1.36.4 (--kube)" ] || fail "--kube naming the patch: $got"
expect_exit2 "--kube 1.37, but the tree is kubernetes v1.36 (from the newest CHANGELOG/CHANGELOG-1.36.md)" \
  --kube-src "$t" --kube 1.37 --detect
rm -r "$t/CHANGELOG"
expect_exit2 "cannot tell which kubernetes this is" --kube-src "$t" --detect
got=$(build --kube-src "$t" --kube 1.37 --detect)
[ "$got" = "1.37 v1.37.0 v1.37 (--kube)" ] || fail "--kube alone: $got"

# A git checkout: its tag wins, with the commits since.
if command -v git >/dev/null; then
  g="$out/git"
  tree "$g"
  mkdir -p "$g/CHANGELOG" && touch "$g/CHANGELOG/CHANGELOG-1.36.md"
  git() { command git -C "$g" -c user.name=t -c user.email=t@t -c commit.gpgsign=false "$@" >/dev/null; }
  git init -q && git add -A && git commit -qm one && git tag v1.37.2
  printf '// two\n' >>"$g/pkg/scheduler/scheduler.go"
  git commit -qam two
  got=$(build --kube-src "$g" --detect)
  case "$got" in "1.37 v1.37.2 v1.37.2-1-g"*" (git describe)") ;; *) fail "git describe: $got" ;; esac
  git tag v1.30.1
  expect_exit2 "kubernetes v1.30.1 (from git describe): no bridge for minor 1.30 (bridges: 1.27, 1.35, 1.36, 1.37)" \
    --kube-src "$g" -o "$out/x"
else
  echo "note: no git here; git describe not checked" >&2
fi

# Not a directory; not a kubernetes checkout; no staging and no exact release named.
expect_exit2 "kube-src $out/none: not a directory" --kube-src "$out/none" -o "$out/x"
mkdir -p "$out/other" && printf 'module example.com/x\n' >"$out/other/go.mod"
expect_exit2 "does not declare module k8s.io/kubernetes" --kube-src "$out/other" -o "$out/x"
n="$out/nostaging"
tree "$n" && rm -r "$n/staging"
expect_exit2 "no staging/src/k8s.io (not a full checkout): name the release" --kube-src "$n" --kube 1.37 -o "$out/x"

# An edit of an anchored line: exit 2 naming the checkout's file and the bridge's edit, nothing
# written into the shared trees of released versions, no adapter cached.
mkdir -p "$SCHEDCHECK_CACHE/kube/kubernetes@v1.37.2/pkg"
echo shared >"$SCHEDCHECK_CACHE/kube/kubernetes@v1.37.2/pkg/marker"
before=$(cd "$SCHEDCHECK_CACHE/kube" && find . | sort | sha256sum)
a="$out/anchors"
tree "$a"
expect_exit2 "the bridge of 1.37 does not apply to this tree (v1.37/patches.json): $a/pkg/scheduler/" \
  --kube-src "$a" --kube 1.37 --cache
grep -q ": edit 1 (" "$out/out.txt" || fail "the failing edit is not named: $(cat "$out/out.txt")"
grep -qF "the anchor occurs 0 times" "$out/out.txt" || fail "no anchor count: $(cat "$out/out.txt")"
[ "$(cd "$SCHEDCHECK_CACHE/kube" && find . | sort | sha256sum)" = "$before" ] || fail "the shared trees changed"
[ ! -e "$SCHEDCHECK_CACHE/adapters/kube-src-"*/kube-adapter ] || fail "an adapter was cached"
# The same through the --cache protocol schedcheck uses: the reason alone on stdout.
grep -q "^the bridge of 1.37 does not apply to this tree" "$out/out.txt" || fail "--cache stdout: $(cat "$out/out.txt")"

# A plugin module whose go.mod replaces k8s.io/kubernetes by a tree of its own: built against that
# tree (here: refused at its anchors, which shows it was taken as the checkout), never "conflicting
# replacements", and the shared trees untouched.
m="$out/plugin"
mkdir -p "$m"
cp "$src/v1.37/go.mod" "$src/v1.37/go.sum" "$m/"
sed -i "s#=> \.\./#=> $src/#" "$m/go.mod"
printf '\nreplace k8s.io/kubernetes => ./tree\n' >>"$m/go.mod"
tree "$m/tree"
expect_exit2 "replaces k8s.io/kubernetes by ./tree: building against that checkout" \
  --kube 1.37 --module "$m" -o "$out/x"
grep -qF "kube-src $m/tree: the bridge of 1.37 does not apply to this tree" "$out/err.txt" ||
  fail "the module's tree was not built as a checkout: $(cat "$out/err.txt")"
if grep -q "conflicting replacements" "$out/err.txt"; then fail "conflicting replacements"; fi
[ "$(cd "$SCHEDCHECK_CACHE/kube" && find . | sort | sha256sum)" = "$before" ] || fail "the shared trees changed"
echo PASS
