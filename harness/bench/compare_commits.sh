#!/usr/bin/env bash
# The bench of two commits (or two built bench binaries) side by side in one run, so that a
# slowdown shows as a ratio measured under the same machine load, not as a figure from another day.
#
# Usage: harness/bench/compare_commits.sh [--rounds N] [--keep DIR] A B [bench flags...]
#
# A and B are each a commit (anything `git rev-parse` takes: a hash, a branch, HEAD~3) or the path
# of an already built bench binary. A commit is checked out in a throwaway `git worktree` under
# $TMPDIR, its bench built there with `bazel build -c opt` (the bench alone, without the adapters
# and `schedcheck serve` it carries as data: they are not run), the binary copied out, and the
# worktree and its Bazel output base removed; with a disk cache in ~/.bazelrc a commit built before
# costs little. --keep DIR also leaves the binaries in DIR as bench-<hash>, to pass as paths later.
#
# Then N rounds (default 3) run the two binaries one after the other with the same bench flags plus
# `--no-kube --no-trace-io --json FILE` (A then B in odd rounds, B then A in even ones, so that a
# drift in load hits both alike), and compare_table.py prints one Markdown table on stdout: per
# workload, nodes, sampling and engine, pods/s of A and B (median and range over the rounds) and
# B / A. Progress goes to stderr. Every bench flag must be known to both binaries (checked against
# their --help first). Exit status: 0, 1 when a build or a bench run fails, 2 for a bad argument
# (an unknown commit, a flag one of the binaries lacks).
set -euo pipefail

die() {
  echo "compare_commits: $2" >&2
  exit "$1"
}

rounds=3
keep=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --rounds) [[ $# -ge 2 ]] || die 2 "--rounds needs a number"; rounds=$2; shift 2 ;;
    --keep) [[ $# -ge 2 ]] || die 2 "--keep needs a directory"; keep=$2; shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) break ;;
  esac
done
[[ $# -ge 2 ]] || die 2 "want two commits or bench binaries (see --help)"
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || die 2 "--rounds: want a positive number, not \"$rounds\""
spec_a=$1
spec_b=$2
shift 2
bench_flags=()
for flag in "$@"; do
  case "$flag" in
    --no-kube | --no-trace-io) ;;  # always passed
    --json | --json=* | --kube | --kube=*)
      die 2 "$flag: the comparison writes its own --json and runs --no-kube" ;;
    *) bench_flags+=("$flag") ;;
  esac
done

script_dir=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$script_dir" rev-parse --show-toplevel)
work=$(mktemp -d "${TMPDIR:-/tmp}/schedcheck-compare.XXXXXX")
tree=""  # the throwaway worktree being built, if any
# Removes the worktree and its Bazel output base (clean --expunge also stops its server).
remove_tree() {
  [[ -n "$tree" ]] || return 0
  (cd "$tree" && bazel clean --expunge >/dev/null 2>&1) || true
  git -C "$repo" worktree remove --force "$tree" >/dev/null 2>&1 || rm -rf "$tree"
  git -C "$repo" worktree prune >/dev/null 2>&1 || true
  tree=""
}
cleanup() {
  remove_tree
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Sets `built` to the path of a bench binary for SPEC (a binary, or a commit built into
# $work/bench-<hash>); LABEL (A or B) names it in messages. Runs in this shell (not in a $(...)),
# so that a failure stops the script and the worktree is known to cleanup.
bench_of() {
  local label=$1 spec=$2 sha wt log
  if [[ -f "$spec" && -x "$spec" ]]; then
    built="$(cd "$(dirname "$spec")" && pwd)/$(basename "$spec")"
    return
  fi
  sha=$(git -C "$repo" rev-parse --verify --quiet "$spec^{commit}") ||
    die 2 "$label: \"$spec\" is neither a commit of $repo nor an executable bench binary"
  built="$work/bench-$sha"
  [[ -x "$built" ]] && return
  wt="$work/tree-$label"
  log="$work/build-$label.log"
  echo "compare_commits: $label = $spec ($sha): building the bench in $wt" >&2
  git -C "$repo" worktree add --detach --quiet "$wt" "$sha" >&2 ||
    die 1 "$label: git worktree add of $sha failed"
  tree=$wt
  # --output_groups=default: the binary without its runfiles (the Go adapters, schedcheck).
  if ! (cd "$wt" && bazel build -c opt --output_groups=default //harness/bench:bench) >"$log" 2>&1
  then
    tail -n 30 "$log" >&2
    die 1 "$label: building //harness/bench:bench -c opt at $sha failed (last lines above)"
  fi
  cp "$wt/bazel-bin/harness/bench/bench" "$built"
  remove_tree
}

# The name of every flag passed must appear in the binary's --help.
check_flags() {
  local label=$1 bin=$2 help flag name
  help=$("$bin" --help 2>&1) || die 1 "$label: $bin --help failed"
  for flag in "${bench_flags[@]}"; do
    [[ "$flag" == --* ]] || continue
    name=${flag%%=*}
    grep -q -E -e "(^|[[:space:],])$name([[:space:],=]|\$)" <<<"$help" ||
      die 2 "$label: its bench does not know $name (see $bin --help)"
  done
}

# A column label: a commit's short hash; a binary's file name (the hash for a --keep'd bench-<hash>).
describe() {
  local name
  if [[ -f "$1" && -x "$1" ]]; then
    name=$(basename "$1")
    [[ "$name" =~ ^bench-([0-9a-f]{40})$ ]] && name=${BASH_REMATCH[1]:0:7}
    echo "$name"
  else
    git -C "$repo" rev-parse --short "$1^{commit}"
  fi
}

built=""
bench_of A "$spec_a"
bin_a=$built
bench_of B "$spec_b"
bin_b=$built
check_flags A "$bin_a"
check_flags B "$bin_b"
if [[ -n "$keep" ]]; then
  mkdir -p "$keep"
  for bin in "$bin_a" "$bin_b"; do
    [[ "$bin" == "$work"/* ]] && cp "$bin" "$keep/"
  done
  echo "compare_commits: binaries kept in $keep" >&2
fi

run() {  # run LABEL BINARY ROUND
  local out="$work/$1-$3.json"
  echo "compare_commits: round $3 of $rounds, $1" >&2
  if ! "$2" "${bench_flags[@]}" --no-kube --no-trace-io --json "$out" >"$work/$1-$3.out" \
    2>"$work/$1-$3.err"; then
    tail -n 20 "$work/$1-$3.err" >&2
    die 1 "$1: the bench failed in round $3 (last lines of its stderr above)"
  fi
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
files_a=()
files_b=()
for ((i = 1; i <= rounds; i++)); do
  if ((i % 2 == 1)); then
    run A "$bin_a" "$i"
    run B "$bin_b" "$i"
  else
    run B "$bin_b" "$i"
    run A "$bin_a" "$i"
  fi
  files_a+=("$work/A-$i.json")
  files_b+=("$work/B-$i.json")
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

echo "A = $(describe "$spec_a"), B = $(describe "$spec_b"); $rounds rounds, bench flags:" \
  "${bench_flags[*]:-(none)} --no-kube --no-trace-io; load average $load_before before," \
  "$load_after after ($(nproc) cores)"
echo
python3 "$script_dir/compare_table.py" --a-label "$(describe "$spec_a")" \
  --b-label "$(describe "$spec_b")" --a "${files_a[@]}" --b "${files_b[@]}"
