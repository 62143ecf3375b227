#!/usr/bin/env bash
# Checks that C++ and proto files are formatted by clang-format (.clang-format: Google style, 100
# columns). Which files: those a change touches — every one changed between BASE and the work
# tree (`ci/format_check.sh BASE`, e.g. origin/main in a pull request), or with no BASE and a
# SCHEDCHECK_FORMAT_BASE unset, every tracked file (the tree is kept formatted, so a clean clone
# checks everything). Prints the files that differ and exits 1; `--fix` rewrites them instead.
set -euo pipefail
cd "$(dirname "$0")/.."

fix=false
base="${SCHEDCHECK_FORMAT_BASE:-}"
for arg in "$@"; do
  case "$arg" in
    --fix) fix=true ;;
    *) base="$arg" ;;
  esac
done

if ! command -v clang-format >/dev/null 2>&1; then
  echo "ci/format_check.sh: clang-format not found (ci/setup installs it)" >&2
  exit 2
fi

pattern='\.(cc|h|proto)$'
if [ -n "$base" ]; then
  mapfile -t files < <(git diff --name-only --diff-filter=ACMR "$base" -- | grep -E "$pattern" || true)
else
  mapfile -t files < <(git ls-files | grep -E "$pattern" | grep -v '^third_party/' || true)
fi

bad=()
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  if $fix; then
    clang-format -i --style=file "$f"
  elif ! clang-format --style=file --dry-run -Werror "$f" >/dev/null 2>&1; then
    bad+=("$f")
  fi
done

if [ ${#bad[@]} -gt 0 ]; then
  echo "ci/format_check.sh: ${#bad[@]} file(s) not formatted (fix: bash ci/format_check.sh --fix ${base}):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "ci/format_check.sh: ${#files[@]} file(s) formatted"
