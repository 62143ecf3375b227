#!/usr/bin/env python3
"""Layers one way (README.md, "Layers"): fails on any edge from a lower layer to a higher one.

From the bottom: the layers of reference/ (REFERENCE_RANKS), then traces/, harness/, properties/.
Inside reference/, from the bottom: base (nothing of the project) beside dra_cel (upstream's DRA CEL
as a Go archive, using only base), k8s (the Kubernetes object model), api, framework (with testing,
its test builders, which framework's tests use), then plugins, queue and cache side by side, then
runtime (the frameworks built from the plugin registry, and queue_setup, which builds the queue's
options from them as upstream's scheduler.New does), then scheduler (the Scheduler: event handlers,
scheduling and binding cycles), then accel, engine and conformance. Tests are the one exception
(TEST_MAY_USE): a test of plugins, queue or cache may build a runtime Framework from the registry,
as upstream's plugin and queue tests use frameworkruntime; their libraries may not. Folders on one
rank may use each other; a folder of reference/ missing from the table is an error, so a new one
gets a rank when it is added. An edge is a label //pkg... in a BUILD.bazel file outside `visibility`
lists and package groups, or an `#include "x/..."` / `import "x/..."` line in a .h, .cc or .proto
file. A package may also not make its targets public by default (visibility is private unless
widened per target).

Run by `bazel test //:layering_test` (tagged local and external: it reads the source tree the
WORKSPACE data dependency links to, never a cached copy), or directly: ci/layering_test.py [ROOT].
"""
import os
import re
import sys

LAYER_DIRS = ("reference", "traces", "harness", "properties")
SOURCE_SUFFIXES = (".h", ".cc", ".proto")


# Ranks of reference/'s folders, from the bottom; one entry is one layer.
REFERENCE_RANKS = (
    ("base", "dra_cel"),
    ("k8s",),
    ("api",),
    ("dra",),
    ("framework", "testing"),
    ("plugins", "queue", "cache"),
    ("runtime",),
    ("scheduler",),
    ("accel", "engine", "conformance"),
)
TOP_RANKS = ("traces", "harness", "properties")

# What a test (a *_test.cc file, or a cc_test rule's deps) of a reference/ folder may use above its
# own rank.
TEST_MAY_USE = {
    "reference/plugins": ("reference/runtime",),
    "reference/queue": ("reference/runtime",),
    "reference/cache": ("reference/runtime",),
}


def layer_names():
    names = ["reference/" + "|".join(folders) for folders in REFERENCE_RANKS]
    return names + list(TOP_RANKS)


def layer(path):
    """(rank, name) of a workspace-relative path or package, or None outside the layers.

    A reference/ path outside every ranked folder (a file directly in reference/ or a new folder)
    ranks as "reference/?", above every other reference/ layer, and is reported by main()."""
    parts = path.strip("/").split("/")
    if parts[0] == "reference":
        if len(parts) > 1:
            for rank, folders in enumerate(REFERENCE_RANKS):
                if parts[1] in folders:
                    return rank, "reference/" + parts[1]
        return len(REFERENCE_RANKS) - 1, "reference/?"
    if parts[0] in TOP_RANKS:
        return len(REFERENCE_RANKS) + TOP_RANKS.index(parts[0]), parts[0]
    return None


def find_root():
    if len(sys.argv) > 1:
        return os.path.abspath(sys.argv[1])
    srcdir = os.environ.get("TEST_SRCDIR")
    if srcdir:
        workspace = os.path.join(srcdir, os.environ.get("TEST_WORKSPACE", "schedcheck"), "WORKSPACE")
        return os.path.dirname(os.path.realpath(workspace))
    if os.environ.get("BUILD_WORKSPACE_DIRECTORY"):
        return os.environ["BUILD_WORKSPACE_DIRECTORY"]
    return os.path.dirname(os.path.dirname(os.path.realpath(__file__)))


def strip_comment(line):
    """The line without a trailing # comment (a # inside a string literal stays)."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
        elif c in "\"'":
            quote = c
        elif c == "#":
            return line[:i]
    return line


# `visibility = [...]`, `default_visibility = [...]` and `packages = [...]` name who may use a
# target, not what it uses.
NOT_EDGES = re.compile(r"\b(default_visibility|visibility|packages)\s*=\s*\[[^\]]*\]", re.S)
LABEL = re.compile(r"(?<![\w@])//([A-Za-z0-9_./+-]*)(:[A-Za-z0-9_./+=-]*)?")
INCLUDE = re.compile(r'^\s*(?:#\s*include|import)\s+(?:public\s+|weak\s+)?"([^"]+)"')


RULE_START = re.compile(r"^(\w+)\(")


def build_edges(text):
    """(line, label, in_test) for every package label the BUILD file uses; in_test when the label
    is inside a cc_test rule."""
    text = "\n".join(strip_comment(l) for l in text.split("\n"))
    text = NOT_EDGES.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    rule = None
    for number, line in enumerate(text.split("\n"), 1):
        start = RULE_START.match(line)
        if start:
            rule = start.group(1)
        for m in LABEL.finditer(line):
            yield number, "//" + m.group(1) + (m.group(2) or ""), rule == "cc_test"


def allowed_for_test(here, there):
    """Whether a test in layer `here` may use layer `there` although it ranks higher."""
    return there[1] in TEST_MAY_USE.get(here[1], ())


def main():
    root = find_root()
    violations, builds, sources = [], 0, 0
    for top in LAYER_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for name in sorted(filenames):
                if name != "BUILD.bazel" and not name.endswith(SOURCE_SUFFIXES):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                here = layer(rel)
                if here[1] == "reference/?":
                    violations.append(f"{rel}: not in a ranked folder of reference/ (add its folder "
                                      "to REFERENCE_RANKS in ci/layering_test.py)")
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                if name == "BUILD.bazel":
                    builds += 1
                    if re.search(r'default_visibility\s*=\s*\[\s*"//visibility:public"', text):
                        violations.append(f"{rel}: package(default_visibility = public): packages are "
                                          "private by default; widen per target")
                    edges = ((n, label[2:].split(":")[0], label, in_test)
                             for n, label, in_test in build_edges(text))
                else:
                    sources += 1
                    is_test = name.endswith("_test.cc")
                    edges = ((n, m.group(1), f'"{m.group(1)}"', is_test)
                             for n, l in enumerate(text.split("\n"), 1) for m in [INCLUDE.match(l)] if m)
                for number, target, shown, in_test in edges:
                    there = layer(target)
                    if there and there[0] > here[0] and not (in_test and allowed_for_test(here, there)):
                        violations.append(f"{rel}:{number}: {here[1]} -> {there[1]}: {shown} "
                                          f"(layers: {' < '.join(layer_names())})")
    print(f"layering: {root}: {builds} BUILD files, {sources} .h/.cc/.proto files")
    if builds < 10 or sources < 100:
        print("layering: FAIL: too few files: not the source tree?")
        return 1
    for v in violations:
        print(v)
    if violations:
        print(f"layering: FAIL: {len(violations)} upward edges or unranked files")
        return 1
    print("layering: PASS: no edge reaches up")
    return 0


if __name__ == "__main__":
    sys.exit(main())
