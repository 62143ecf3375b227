#!/usr/bin/env python3
"""Explains observed bindings a follow-the-cluster replay lists as outside its tie set.

usage: outside_ties.py SUMMARY REPLAY_JSONL TRACE_CAT_JSON

A real scheduler decides a pod, then writes its binding asynchronously: the next pods are decided
before the earlier binding is visible. A replay following the cluster corrects its own placement
of a pod only at that pod's observed binding, so when it broke a tie otherwise than the cluster,
a pod it decides before the correction sees a node the cluster had not used. Such a pod P is
explained ("displaced by an uncorrected tie") when another pod Q was placed by the replay, at or
before P's attempt, on the node the cluster chose for P, while the cluster put Q elsewhere and its
binding of Q is observed only after P's attempt. Failing that, P is explained more weakly ("the
replay's state differed") when some pod Q placed by the replay at or before P's attempt sat on
another node than the cluster's, its binding observed only after P's attempt (the difference
then reaches P through the scores of several nodes). Prints one line per listed pod; exits 1 when
any is not explained.
"""
import json
import re
import sys


def main(summary, replay, trace):
    listed = []
    for line in open(summary):
        m = re.match(r"\s+(\S+) at t=\S+: the cluster bound it to (\S+); the replay bound it to (\S+) \(tie set", line)
        if m:
            listed.append(m.groups())
    observed = {}  # pod -> (time in seconds, node), the last observed binding
    for line in open(trace):
        rec = json.loads(line)
        b = rec.get("binding")
        if b and b.get("observed"):
            observed[b["pod"]] = (int(rec.get("timeNs", "0")) / 1e9, b["node"])
    attempts = {}  # pod -> (t, node) of its last Scheduled attempt, in log order
    order = []
    for line in open(replay):
        rec = json.loads(line)
        if rec.get("type") == "attempt" and rec.get("result") == "Scheduled":
            attempts[rec["pod"]] = (rec["t"], rec["node"])
            order.append((rec["t"], rec["pod"], rec["node"]))
    bad = 0
    for pod, cluster_node, replay_node in listed:
        t = attempts.get(pod, (None,))[0]
        why = None
        for tq, q, q_node in order:
            if t is None or tq > t or q == pod or q_node != cluster_node or q not in observed:
                continue
            tq_obs, q_cluster = observed[q]
            if q_cluster != q_node and tq_obs > t:
                why = (f"{q} was on {q_node} in the replay (the cluster put it on {q_cluster}, "
                       f"observed at t={tq_obs:.6f}s, after this attempt)")
        if not why:
            for tq, q, q_node in order:
                if t is None or tq > t or q == pod or q not in observed:
                    continue
                tq_obs, q_cluster = observed[q]
                if q_cluster != q_node and tq_obs > t:
                    why = (f"the replay's state differed: {q} was on {q_node} in the replay, on "
                           f"{q_cluster} in the cluster (observed at t={tq_obs:.6f}s, after this attempt)")
        if why:
            print(f"explained: {pod} on {cluster_node} in the cluster, {replay_node} in the replay: "
                  f"displaced by an uncorrected tie: {why}")
        else:
            print(f"NOT explained: {pod} on {cluster_node} in the cluster, {replay_node} in the replay")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
