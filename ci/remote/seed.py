#!/usr/bin/env python3
"""Seeds the loopback engine's CAS and action cache from a local Bazel disk cache.

Bazel 4 cannot combine --disk_cache with remote execution, so without this the first
`bazel test --config=remote` recompiles everything on the workers even when this machine has every
object file in its disk cache. The disk cache holds the same REAPI messages remote execution uses
(an action's key is the digest of its Action proto, which is the same for local and remote runs as
long as the Action names no platform properties; .bazelrc's `build:remote` sets none), so:
  - every blob of DISK_CACHE/cas/ab/abc... is hard-linked into BuildGrid's disk storage
    (STATE/cas/cas/objects/ab/c...), which costs no copy on one file system;
  - every ActionResult of DISK_CACHE/ac/ whose Action and outputs are all present is written to the engine's
    action cache with UpdateActionResult (the cache is in memory: seed again after a restart).
Only the engine started by ci/remote/start is seeded (its STATE directory).
"""

import argparse
import os
import sys

import grpc

from buildgrid._protos.build.bazel.remote.execution.v2 import remote_execution_pb2 as re_pb2
from buildgrid._protos.build.bazel.remote.execution.v2 import remote_execution_pb2_grpc as re_grpc


def link_blobs(disk_cache, objects):
    linked = 0
    for prefix in sorted(os.listdir(os.path.join(disk_cache, "cas"))):
        src_dir = os.path.join(disk_cache, "cas", prefix)
        dst_dir = os.path.join(objects, prefix)
        os.makedirs(dst_dir, exist_ok=True)
        for name in os.listdir(src_dir):
            dst = os.path.join(dst_dir, name[2:])
            if len(name) != 64 or os.path.exists(dst):
                continue
            try:
                os.link(os.path.join(src_dir, name), dst)
                linked += 1
            except FileNotFoundError:  # evicted meanwhile
                pass
    return linked


def outputs_present(result, objects):
    def has(digest):
        return digest.size_bytes == 0 or os.path.exists(
            os.path.join(objects, digest.hash[:2], digest.hash[2:]))
    digests = [f.digest for f in result.output_files] + \
        [d.tree_digest for d in result.output_directories]
    for optional in (result.stdout_digest, result.stderr_digest):
        if optional.hash:
            digests.append(optional)
    return all(has(d) for d in digests)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--disk-cache", required=True)
    parser.add_argument("--state", required=True, help="the engine's state directory")
    parser.add_argument("--remote", required=True)
    parser.add_argument("--instance", required=True)
    args = parser.parse_args()
    if not os.path.isdir(os.path.join(args.disk_cache, "ac")):
        print(f"ci/remote/seed: {args.disk_cache} is not a Bazel disk cache (no ac/)", file=sys.stderr)
        return 2
    objects = os.path.join(args.state, "cas", "cas", "objects")
    linked = link_blobs(args.disk_cache, objects)
    stub = re_grpc.ActionCacheStub(grpc.insecure_channel(args.remote))
    seeded = skipped = 0
    for prefix in sorted(os.listdir(os.path.join(args.disk_cache, "ac"))):
        for name in os.listdir(os.path.join(args.disk_cache, "ac", prefix)):
            try:
                with open(os.path.join(args.disk_cache, "ac", prefix, name), "rb") as f:
                    result = re_pb2.ActionResult.FromString(f.read())
            except (OSError, ValueError):
                continue
            # The cache is keyed by the Action's digest, hash and size; Bazel stores the Action
            # itself in the disk cache's CAS.
            action = os.path.join(objects, name[:2], name[2:])
            if not os.path.exists(action) or not outputs_present(result, objects):
                skipped += 1
                continue
            stub.UpdateActionResult(re_pb2.UpdateActionResultRequest(
                instance_name=args.instance, action_result=result,
                action_digest=re_pb2.Digest(hash=name, size_bytes=os.path.getsize(action))))
            seeded += 1
    print(f"ci/remote/seed: {linked} blobs linked, {seeded} action results seeded "
          f"({skipped} skipped: outputs missing)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
