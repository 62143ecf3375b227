#!/usr/bin/env python3
"""One Markdown table from the bench's --json files of two builds, A and B, run in rounds.

compare_commits.sh runs the two bench binaries alternately and hands their JSON files here: one
file per round and side. A row of the table is one point of the bench's main table (workload,
nodes, sampling, engine); it shows pods/s of A and of B as the median over the rounds with the
range beside it, B / A of the medians, and the range of B / A within a round (the two runs of a
round ran one after the other, so they saw about the same machine load).

A note under the table names every point where A and B did not do the same work (a different
event count or a different number of measured pods bound): then the ratio compares different
replays, not different speeds.

Usage:
    compare_table.py --a-label NAME --b-label NAME --a A1.json [A2.json...] --b B1.json [...]

Pure: reads the files, prints the table on stdout, exits 2 on an unreadable or malformed file.
"""
import argparse
import json
import statistics
import sys


class MalformedInput(Exception):
    pass


def key_of(w):
    return (w["workload"], w["nodes"], w["percentage_of_nodes_to_score"], w["engine"])


def load_rounds(paths):
    """[{key: workload record}] per round, in the order given."""
    rounds = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
            rounds.append({key_of(w): w for w in doc["workloads"]})
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise MalformedInput(f"compare_table: {path}: {e}") from None
    return rounds


def pods(value):
    return f"{value:,.0f}"


def spread(values):
    """'median (min–max)'; a single round gives its figure alone."""
    med = statistics.median(values)
    if len(values) == 1:
        return pods(med)
    return f"{pods(med)} ({pods(min(values))}–{pods(max(values))})"


def ratio(value):
    return f"{value:.2f}×"


def sampling_name(percentage):
    return "adaptive" if percentage == 0 else str(percentage)


def table(a_label, b_label, a_rounds, b_rounds):
    keys = []
    for rounds in (a_rounds, b_rounds):
        for r in rounds:
            for k in r:
                if k not in keys:
                    keys.append(k)
    lines = [
        f"| workload | nodes | sampling | engine | A: {a_label} pods/s, median (range) "
        f"| B: {b_label} pods/s, median (range) | B / A | B / A per round |",
        "|---|---|---|---|---|---|---|---|",
    ]
    notes = []
    for k in keys:
        a = [r[k] for r in a_rounds if k in r]
        b = [r[k] for r in b_rounds if k in r]
        a_pps = [w["pods_per_second"] for w in a]
        b_pps = [w["pods_per_second"] for w in b]
        cells = [k[0], f"{k[1]:,}", sampling_name(k[2]), k[3]]
        cells.append(spread(a_pps) if a else "—")
        cells.append(spread(b_pps) if b else "—")
        if a and b and statistics.median(a_pps) > 0:
            cells.append(ratio(statistics.median(b_pps) / statistics.median(a_pps)))
            per_round = [
                rb[k]["pods_per_second"] / ra[k]["pods_per_second"]
                for ra, rb in zip(a_rounds, b_rounds)
                if k in ra and k in rb and ra[k]["pods_per_second"] > 0
            ]
            cells.append(
                f"{min(per_round):.2f}–{ratio(max(per_round))}" if len(per_round) > 1 else "—")
            for field in ("events", "measured_bound"):
                seen_a = sorted({w[field] for w in a})
                seen_b = sorted({w[field] for w in b})
                if seen_a != seen_b:
                    notes.append(f"{k[0]}, {sampling_name(k[2])}, {k[3]}: {field} "
                                 f"{'/'.join(map(str, seen_a))} in A, "
                                 f"{'/'.join(map(str, seen_b))} in B")
        else:
            cells += ["—", "—"]
        lines.append("| " + " | ".join(cells) + " |")
    out = "\n".join(lines) + "\n"
    if notes:
        out += "\nA and B did not replay the same work here (the ratio compares different runs):\n"
        out += "".join(f"- {n}\n" for n in notes)
    return out


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--a-label", required=True)
    p.add_argument("--b-label", required=True)
    p.add_argument("--a", nargs="+", required=True, metavar="JSON")
    p.add_argument("--b", nargs="+", required=True, metavar="JSON")
    args = p.parse_args(argv)
    try:
        a_rounds, b_rounds = load_rounds(args.a), load_rounds(args.b)
    except MalformedInput as e:
        print(e, file=sys.stderr)
        return 2
    sys.stdout.write(table(args.a_label, args.b_label, a_rounds, b_rounds))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
