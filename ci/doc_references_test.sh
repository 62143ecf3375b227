#!/bin/bash
# Self-contained docs: comments and documents cite upstream (function and file at the pinned tag),
# the project's own docs (docs/SEMANTICS.md, docs/FORMATS.md, docs/DEVIATIONS.md), or nothing.
# This test fails when a source, BUILD or Markdown file of the project names a design document
# kept outside the repository, or cites an issue tracker the repository does not contain ("issue N
# item M", "issue #N", "#N item M" with numbers): a comment says why, not where a request came
# from. Run by `bazel test //:doc_references_test`; it reads the source tree that the WORKSPACE
# runfile links to, so it is tagged local/external (never sandboxed or cached).
#
# Usage outside Bazel: ci/doc_references_test.sh [WORKSPACE_DIR]
set -euo pipefail

if [[ $# -ge 1 ]]; then
  root=$1
elif [[ -n "${TEST_SRCDIR:-}" ]]; then
  ws_file="${TEST_SRCDIR}/${TEST_WORKSPACE:-__main__}/WORKSPACE"
  root=$(dirname "$(readlink -f "$ws_file")")
else
  root=$(cd "$(dirname "$0")/.." && pwd)
fi
cd "$root"
[[ -f WORKSPACE && -d reference && -d docs ]] || { echo "not a schedcheck source tree: $root" >&2; exit 2; }

# The outside documents, spelled in pieces so that this file does not match itself.
sem='SEMANTICS'
outside="${sem} *§|CONTRACT""S|BUILD_""NOTES|NEWEST\\.md|shared/doc""s"

# Source, BUILD and Markdown files (and the case files and scripts) of the project's packages and
# root; generated trees (bazel-*) and third_party are not the project's text.
mapfile -d '' files < <(
  {
    find reference traces harness properties ci golden docs -type f \( \
      -name '*.h' -o -name '*.cc' -o -name '*.c' -o -name '*.go' -o -name '*.proto' \
      -o -name '*.py' -o -name '*.sh' -o -name '*.bzl' -o -name 'BUILD' -o -name 'BUILD.bazel' \
      -o -name '*.md' -o -name '*.yaml' -o -name '*.yml' -o -name '*.js' -o -name '*.html' \
      -o -name 'go.mod' -o -name 'setup' -o -name 'gate' \) -print0
    find . -maxdepth 1 -type f \( -name '*.md' -o -name 'BUILD.bazel' -o -name 'WORKSPACE' \
      -o -name '.bazelrc' \) -print0
  } | sort -z)

# Citations of an issue tracker, spelled in pieces likewise.
iss='[Ii]ssue'
tracker="(^|[^[:alnum:]_])${iss}s? #?[0-9]|(^|[^[:alnum:]_&])#[0-9]+,? items? [0-9]"

status=0
# 1. The outside documents by name.
if hits=$(grep -nHE -- "$outside" "${files[@]}"); then
  echo "$hits"
  status=1
fi
# 2. SEMANTICS.md is the project's docs/SEMANTICS.md: outside docs/ it is named with its folder.
if hits=$(grep -nHE -- "${sem}\\.md" "${files[@]}" | grep -v '^\(\./\)\?docs/' \
    | grep -vE "docs/${sem}\\.md" || true); [[ -n "$hits" ]]; then
  echo "$hits"
  status=1
fi
# 3. An issue tracker's numbers.
if hits=$(grep -nHE -- "$tracker" "${files[@]}"); then
  echo "$hits"
  status=1
fi

if [[ $status -ne 0 ]]; then
  cat >&2 <<EOF

The lines above cite documents outside the repository, or an issue tracker's numbers. Cite
upstream's function and file at the pinned tag, docs/SEMANTICS.md#<section>,
docs/FORMATS.md#<section>, docs/DEVIATIONS.md, or nothing; say why in the comment itself.
EOF
  exit 1
fi
echo "${#files[@]} files checked: no reference to documents outside the repository or to an issue tracker"
