#!/usr/bin/env python3
"""The kube READMEs' patch tables, generated from v<ver>/patches.json so that they cannot drift.

Each README holds, for one patches.json, the lines between

    <!-- BEGIN patch tables of v1.37/patches.json (harness/kube/patch_tables.py) -->
    <!-- END patch tables -->

and this script writes there two tables: the files `add` puts into upstream's packages and the
edits of `patch`, each with its `why`. Every v*/patches.json must have such a region in one README.

Usage:
    harness/kube/patch_tables.py            rewrite the regions in place
    harness/kube/patch_tables.py --check    exit 1, with a diff, when a region differs
                                            (//harness/kube:patch_tables_test)
"""
import difflib
import glob
import json
import os
import re
import sys

BEGIN = re.compile(r"^<!-- BEGIN patch tables of (\S+/patches\.json) \(harness/kube/patch_tables\.py\) -->$")
END = "<!-- END patch tables -->"
UPSTREAM_ROOT = "pkg/scheduler/"
ANCHOR_CHARS = 70


def code(text):
    """Markdown inline code for a table cell."""
    text = text.replace("|", "\\|")
    fence = "``" if "`" in text else "`"
    pad = " " if fence == "``" else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def cell(text):
    return text.replace("|", "\\|").replace("\n", " ")


def short_path(path):
    return path[len(UPSTREAM_ROOT):] if path.startswith(UPSTREAM_ROOT) else path


def anchor(find):
    """The first non-blank line an edit is anchored on, shortened for a table."""
    line = next((l.strip() for l in find.split("\n") if l.strip()), "")
    if len(line) > ANCHOR_CHARS:
        line = line[:ANCHOR_CHARS - 1].rstrip() + "…"
    return line


def tables(spec_path, spec_name):
    with open(spec_path, encoding="utf-8") as f:
        spec = json.load(f)
    edits = [(p["file"], e) for p in spec["patch"] for e in p["edits"]]
    out = [
        f"Generated from `{spec_name}`: {len(spec['add'])} added files and {len(edits)} edits. Paths "
        f"are under upstream's `{UPSTREAM_ROOT}`.",
        "",
        "Added files (`add`; the source is under the level's folder):",
        "",
        "| added as | from | what for |",
        "|---|---|---|",
    ]
    for a in spec["add"]:
        out.append(f"| {code(short_path(a['to']))} | {code(a['from'])} | {cell(a.get('why', ''))} |")
    out += [
        "",
        "Edits (`patch`; each anchor must occur exactly once, so a tag whose code moved fails the build):",
        "",
        "| file | anchored on | why |",
        "|---|---|---|",
    ]
    for path, e in edits:
        out.append(f"| {code(short_path(path))} | {code(anchor(e['find']))} | {cell(e['why'])} |")
    return out


def regenerate(kube_dir, readme):
    """The README's text with every region rewritten, and the patches.json files it covers."""
    with open(readme, encoding="utf-8") as f:
        lines = f.read().split("\n")
    result, covered, i = [], [], 0
    while i < len(lines):
        m = BEGIN.match(lines[i])
        result.append(lines[i])
        i += 1
        if not m:
            continue
        try:
            end = lines.index(END, i)
        except ValueError:
            sys.exit(f"{readme}: {m.group(1)}: no '{END}' after its BEGIN line")
        covered.append(m.group(1))
        result += tables(os.path.join(kube_dir, m.group(1)), m.group(1))
        result.append(END)
        i = end + 1
    return "\n".join(result), covered


def kube_dir_of_run():
    if os.environ.get("TEST_SRCDIR"):
        return os.path.join(os.environ["TEST_SRCDIR"], os.environ.get("TEST_WORKSPACE", "schedcheck"),
                            "harness", "kube")
    return os.path.dirname(os.path.abspath(__file__))


def main(argv):
    check = argv[1:] == ["--check"]
    if argv[1:] not in ([], ["--check"]):
        sys.exit(__doc__)
    kube_dir = kube_dir_of_run()
    readmes = sorted(glob.glob(os.path.join(kube_dir, "README.md")) +
                     glob.glob(os.path.join(kube_dir, "v*", "README.md")))
    specs = sorted(os.path.relpath(p, kube_dir) for p in glob.glob(os.path.join(kube_dir, "v*", "patches.json")))
    covered, stale = [], False
    for readme in readmes:
        with open(readme, encoding="utf-8") as f:
            old = f.read()
        new, in_readme = regenerate(kube_dir, readme)
        covered += in_readme
        if new == old:
            continue
        name = os.path.relpath(readme, kube_dir)
        if check:
            stale = True
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), new.splitlines(True), f"harness/kube/{name} (committed)",
                f"harness/kube/{name} (from patches.json)"))
        else:
            with open(readme, "w", encoding="utf-8") as f:
                f.write(new)
            print(f"rewrote harness/kube/{name}")
    missing = sorted(set(specs) - set(covered))
    for spec in missing:
        print(f"harness/kube/{spec}: no README holds its patch tables "
              f"('<!-- BEGIN patch tables of {spec} (harness/kube/patch_tables.py) -->')")
    if stale:
        print("\nThe patch tables above differ from patches.json. Regenerate them with:\n"
              "    python3 harness/kube/patch_tables.py\nand commit the READMEs.")
    if stale or missing:
        return 1
    print(f"the patch tables of {', '.join(covered)} match their patches.json")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
