#!/usr/bin/env python3
"""The project's own mutation check (docs/MUTATIONS.md).

Plants each bug of ci/mutations.json, one at a time, into the source tree this script sits in,
runs `bazel test` on the targets the entry names in `expect_caught_by`, records which of them
failed, and restores the file (`git checkout -- FILE`). A mutation passes the check when every
expected target failed and the failing targets are of at least two kinds (unit, conformance,
golden, property). Exit 0 when every mutation passed, 1 otherwise, 2 on bad input.

Each entry's `find` must occur exactly once in its file: a catalogue that no longer matches the
code fails loudly instead of silently testing nothing.

Run it in a clone, never in a shared working tree: it edits source files (and refuses to start
when a file it would mutate has uncommitted changes). It is not part of `bazel test //...`.

  python3 ci/mutation_check.py                 # the whole catalogue
  python3 ci/mutation_check.py --list          # ids and bug classes
  python3 ci/mutation_check.py --check-catalogue   # every `find` still matches (no build)
  python3 ci/mutation_check.py --only ID [--only ID2]
  python3 ci/mutation_check.py --json-out results.json --markdown-out table.md
"""

import argparse
import datetime
import json
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CATALOGUE = os.path.join(ROOT, "ci", "mutations.json")
KINDS = ("unit", "conformance", "golden", "property")
DEFAULT_OUTPUT_BASE = os.path.expanduser("~/.cache/schedcheck-mutation")


def target_kind(target):
    """The kind of test a Bazel target is."""
    if target.startswith("//properties:"):
        return "property"
    if target == "//harness/check:conformance_test":
        return "conformance"
    if target == "//harness/replay:golden_test":
        return "golden"
    return "unit"


def die(msg, code=2):
    print("mutation_check: " + msg, file=sys.stderr)
    sys.exit(code)


def load_catalogue(path):
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        die("%s: %s" % (path, e))
    entries = doc.get("mutations") if isinstance(doc, dict) else None
    if not isinstance(entries, list):
        die("%s: want an object with a list `mutations`" % path)
    seen = set()
    for i, m in enumerate(entries):
        where = "%s: mutations[%d]" % (path, i)
        for field in ("id", "class", "file", "find", "replace", "expect_caught_by"):
            if field not in m:
                die("%s: missing `%s`" % (where, field))
        if m["id"] in seen:
            die("%s: duplicate id %s" % (where, m["id"]))
        seen.add(m["id"])
        if m["find"] == m["replace"]:
            die("%s (%s): `find` equals `replace`" % (where, m["id"]))
        targets = m["expect_caught_by"]
        if not isinstance(targets, list) or not targets or not all(t.startswith("//") for t in targets):
            die("%s (%s): `expect_caught_by` must be a list of Bazel labels" % (where, m["id"]))
        if len({target_kind(t) for t in targets}) < 2 and not m.get("gap"):
            die("%s (%s): `expect_caught_by` names fewer than two kinds of test (state why in `gap`)"
                % (where, m["id"]))
    return entries


def git(*args, check=True):
    return subprocess.run(["git", "-C", ROOT] + list(args), check=check, capture_output=True, text=True)


class Planted:
    """Applies one mutation and always restores the file."""

    def __init__(self, m):
        self.m = m
        self.path = os.path.join(ROOT, m["file"])
        self.applied = False

    def __enter__(self):
        if not os.path.isfile(self.path):
            raise RuntimeError("%s: no such file" % self.m["file"])
        if git("status", "--porcelain", "--", self.m["file"]).stdout.strip():
            raise RuntimeError("%s has uncommitted changes; the check restores files with git checkout, "
                               "so it only mutates clean files" % self.m["file"])
        with open(self.path, encoding="utf-8") as f:
            text = f.read()
        n = text.count(self.m["find"])
        if n != 1:
            raise RuntimeError("%s: `find` occurs %d times (want exactly 1): %r" % (self.m["file"], n, self.m["find"]))
        with open(self.path, "w", encoding="utf-8") as f:
            f.write(text.replace(self.m["find"], self.m["replace"], 1))
        self.applied = True
        return self

    def __exit__(self, *exc):
        if self.applied:
            git("checkout", "--", self.m["file"])
            self.applied = False
        return False


def bazel_test(args, targets, log_path):
    """Runs bazel test; returns ({target: status}, exit code). Status from the build event protocol."""
    with tempfile.NamedTemporaryFile(prefix="mutation-bep-", suffix=".json", delete=False) as bep:
        bep_path = bep.name
    cmd = (["nice", "-n", str(args.nice), "bazel", "--output_base=" + args.output_base, "test",
            "--keep_going", "--test_output=errors", "--build_event_json_file=" + bep_path,
            "--test_env=RC_PARAMS=" + args.rc_params]
           + (["--disk_cache=" + args.disk_cache] if args.disk_cache else [])
           + args.bazel_arg + ["--"] + targets)
    with open(log_path, "a", encoding="utf-8") as log:
        log.write("\n$ " + " ".join(shlex.quote(c) for c in cmd) + "\n")
        log.flush()
        rc = subprocess.run(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT).returncode
    status = {}
    try:
        with open(bep_path, encoding="utf-8") as f:
            for line in f:
                ev = json.loads(line)
                eid = ev.get("id", {})
                if "testSummary" in eid:
                    status[eid["testSummary"]["label"]] = ev.get("testSummary", {}).get("overallStatus", "UNKNOWN")
                elif "targetCompleted" in eid and not ev.get("completed", {}).get("success", False):
                    status.setdefault(eid["targetCompleted"]["label"], "FAILED_TO_BUILD")
    finally:
        os.unlink(bep_path)
    for t in targets:
        status.setdefault(t, "NO_STATUS")
    return status, rc


def fmt_duration(s):
    s = int(round(s))
    return "%dm%02ds" % (s // 60, s % 60) if s >= 60 else "%ds" % s


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--catalogue", default=CATALOGUE)
    p.add_argument("--list", action="store_true", help="list the catalogue and exit")
    p.add_argument("--check-catalogue", action="store_true",
                   help="check that every `find` still occurs exactly once, build nothing, and exit "
                        "(//:mutation_catalogue_test)")
    p.add_argument("--only", action="append", default=[], metavar="ID", help="run only this mutation (repeatable)")
    p.add_argument("--output-base", default=DEFAULT_OUTPUT_BASE,
                   help="Bazel --output_base (default %(default)s: not the shared server's)")
    p.add_argument("--disk-cache", default=os.path.expanduser("~/.cache/schedcheck-mutation-disk"),
                   help="Bazel --disk_cache ('' for none): restoring a file then costs no recompilation")
    p.add_argument("--nice", type=int, default=19)
    p.add_argument("--rc-params", default="max_success=200 seed=20230427",
                   help="RC_PARAMS for the property tests (default %(default)s: twice the usual cases, "
                        "the suite's fixed seed, so a catch is reproducible)")
    p.add_argument("--bazel-arg", action="append", default=[], help="extra argument for bazel test (repeatable)")
    p.add_argument("--no-baseline", action="store_true",
                   help="skip the unmutated run that checks every named target passes first")
    p.add_argument("--log", default=os.path.join(tempfile.gettempdir(), "mutation_check.log"))
    p.add_argument("--json-out", help="write the results as JSON")
    p.add_argument("--markdown-out", help="write the results table as Markdown")
    args = p.parse_args()

    entries = load_catalogue(args.catalogue)
    if args.list:
        for m in entries:
            kinds = sorted({target_kind(t) for t in m["expect_caught_by"]})
            print("%-34s %-42s %s" % (m["id"], m["file"], ", ".join(kinds)))
            print("    " + m["class"])
        print("%d mutations" % len(entries))
        return 0
    if args.only:
        unknown = set(args.only) - {m["id"] for m in entries}
        if unknown:
            die("unknown id(s): " + ", ".join(sorted(unknown)))
        entries = [m for m in entries if m["id"] in args.only]

    # Check every `find` before any build: a stale catalogue fails at once.
    stale = []
    for m in entries:
        path = os.path.join(ROOT, m["file"])
        try:
            with open(path, encoding="utf-8") as f:
                n = f.read().count(m["find"])
        except OSError as e:
            stale.append("%s: %s" % (m["id"], e))
            continue
        if n != 1:
            stale.append("%s: `find` occurs %d times in %s (want exactly 1)" % (m["id"], n, m["file"]))
    if stale:
        die("the catalogue does not match the code:\n  " + "\n  ".join(stale), 1)
    if args.check_catalogue:
        print("mutation catalogue: %d entries, every `find` occurs once in its file" % len(entries))
        return 0

    # Restore a planted file even when interrupted.
    def on_signal(signum, _frame):
        raise KeyboardInterrupt("signal %d" % signum)
    signal.signal(signal.SIGTERM, on_signal)

    started = time.time()
    print("mutation check: %d mutation(s), output base %s, log %s" % (len(entries), args.output_base, args.log),
          flush=True)
    if not args.no_baseline:
        targets = sorted({t for m in entries for t in m["expect_caught_by"]})
        print("baseline: %d target(s) unmutated ..." % len(targets), flush=True)
        status, _ = bazel_test(args, targets, args.log)
        bad = {t: s for t, s in status.items() if t in targets and s != "PASSED" and s != "FLAKY"}
        if bad:
            die("baseline: these targets do not pass without a mutation: " +
                ", ".join("%s (%s)" % kv for kv in sorted(bad.items())), 1)
        print("baseline: all pass (%s)" % fmt_duration(time.time() - started), flush=True)

    results = []
    for i, m in enumerate(entries, 1):
        t0 = time.time()
        targets = list(dict.fromkeys(m["expect_caught_by"]))
        res = {"id": m["id"], "class": m["class"], "file": m["file"], "expected": targets}
        print("[%d/%d] %s (%s) ..." % (i, len(entries), m["id"], m["file"]), flush=True)
        try:
            with Planted(m):
                status, rc = bazel_test(args, targets, args.log)
        except RuntimeError as e:
            res.update(error=str(e), failed=[], status={}, kinds=[], ok=False, seconds=time.time() - t0)
            results.append(res)
            print("    ERROR " + str(e), flush=True)
            continue
        build_broken = [t for t, s in status.items() if s in ("FAILED_TO_BUILD", "NO_STATUS")]
        failed = [t for t in targets if status.get(t) in ("FAILED", "TIMEOUT", "REMOTE_FAILURE")]
        missed = [t for t in targets if t not in failed]
        kinds = sorted({target_kind(t) for t in failed}, key=KINDS.index)
        ok = not build_broken and not missed and len(kinds) >= 2
        if m.get("gap"):
            res["gap"] = m["gap"]
        res.update(status=status, failed=failed, missed=missed, kinds=kinds, ok=ok, seconds=time.time() - t0)
        if build_broken:
            res["error"] = "the mutant does not build or a target did not run: " + ", ".join(build_broken)
        results.append(res)
        print("    %s caught by %d kind(s) [%s]: %s%s (%s)" % (
            "OK  " if ok else "FAIL", len(kinds), ", ".join(kinds), ", ".join(failed) or "nothing",
            ("; expected but passed: " + ", ".join(missed)) if missed else "", fmt_duration(res["seconds"])),
            flush=True)
        if res.get("error"):
            print("    " + res["error"], flush=True)
        if res.get("gap") and not ok:
            print("    known gap: " + res["gap"], flush=True)

    elapsed = time.time() - started
    print()
    print("%-34s %-5s %-32s %s" % ("mutation", "ok", "kinds caught", "failing targets"))
    for r in results:
        print("%-34s %-5s %-32s %s" % (r["id"], "yes" if r["ok"] else ("GAP" if r.get("gap") else "NO"),
                                      ",".join(r["kinds"]) or "-",
                                      " ".join(t.replace("//", "") for t in r["failed"]) or r.get("error", "-")))
    n_ok = sum(r["ok"] for r in results)
    print("\n%d/%d mutations caught by >= 2 kinds of test as expected; %s" % (n_ok, len(results), fmt_duration(elapsed)))

    summary = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
               "commit": git("rev-parse", "--short", "HEAD").stdout.strip(),
               "seconds": round(elapsed), "caught": n_ok, "total": len(results), "results": results}
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as f:
            json.dump(summary, f, indent=1)
            f.write("\n")
    if args.markdown_out:
        with open(args.markdown_out, "w", encoding="utf-8") as f:
            f.write("| id | bug class | file | caught | kinds | failing targets |\n|---|---|---|---|---|---|\n")
            for r in results:
                verdict = "yes" if r["ok"] else ("**gap**" if r.get("gap") else "**NO**")
                cells = " ".join("`%s`" % t for t in r["failed"]) or "none"
                if r.get("missed"):
                    cells += "; **expected but passed: %s**" % " ".join("`%s`" % t for t in r["missed"])
                if r.get("error"):
                    cells += "; **%s**" % r["error"]
                f.write("| `%s` | %s | `%s` | %s | %s | %s |\n" % (
                    r["id"], r["class"].replace("|", "\\|"), r["file"], verdict, ", ".join(r["kinds"]) or "none",
                    cells))
    return 0 if n_ok == len(results) else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt as e:
        die("interrupted (%s); planted files were restored" % e, 130)
