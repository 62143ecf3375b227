#!/usr/bin/env python3
"""A minimal BuildGrid worker ("bot") for the loopback engine of ci/remote.

It speaks the Remote Workers API (google.devtools.remoteworkers.v1test2, the Bots service) to
BuildGrid with the protos and CAS helpers that ship in the buildgrid package:

  CreateBotSession(parent=INSTANCE, bot_id, OSFamily=linux, capacity 1)
  loop: UpdateBotSession long-polls for a lease; a lease's payload is the REAPI Action (or its
        digest). The worker fetches the Command and the input root from CAS into a fresh
        directory, creates the output parents, runs argv in working_directory with exactly the
        Command's environment, kills it at Action.timeout, uploads the declared outputs, stdout
        and stderr, and reports the lease COMPLETED with the ActionResult packed in lease.result.
        While the command runs a heartbeat thread keeps calling UpdateBotSession with the lease
        ACTIVE, so BuildGrid knows the worker is alive (a worker silent for the scheduler's
        bot-session-keepalive-timeout is declared lost and its lease re-queued).

What it does not do: no sandbox beyond the fresh directory (actions see the host's /usr, /tmp,
network and other processes), no local blob cache (every action downloads its whole input root),
no cancellation of a running action by the engine (SIGTERM to the worker kills its action), no
symlink outputs. See ci/remote/README.md.

Each finished action prints one line "worker=... action=... fetch_s=... run_s=... upload_s=..."
on stdout (the worker's log) for the time breakdown in README.md.
"""

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

import grpc
from google.protobuf import any_pb2
from google.protobuf.timestamp_pb2 import Timestamp
from buildgrid._protos.google.rpc import code_pb2

from buildgrid._protos.build.bazel.remote.execution.v2 import remote_execution_pb2 as re_pb2
from buildgrid._protos.google.devtools.remoteworkers.v1test2 import bots_pb2, bots_pb2_grpc
from buildgrid.server.client.cas import download, upload

LEASE_ACTIVE = bots_pb2.LeaseState.Value("ACTIVE")
LEASE_COMPLETED = bots_pb2.LeaseState.Value("COMPLETED")
LEASE_PENDING = bots_pb2.LeaseState.Value("PENDING")
BOT_OK = bots_pb2.BotStatus.Value("OK")
HEARTBEAT_S = 3
# Long poll of UpdateBotSession; BuildGrid answers after at most 80% of
# min(this, bot-session-keepalive-timeout).
POLL_DEADLINE_S = 30


# Process groups of the actions running now: a worker stopped with SIGTERM (ci/remote/stop) kills
# them before it exits. SIGKILL leaves them running, as a crash would.
RUNNING = set()


def stop_actions(signum, frame):
    for pid in list(RUNNING):
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    sys.exit(128 + signum)


def now_ts():
    ts = Timestamp()
    ts.GetCurrentTime()
    return ts


class Worker:
    def __init__(self, remote, instance, bot_id, work_root):
        self.instance = instance
        self.bot_id = bot_id
        self.work_root = work_root
        self.channel = grpc.insecure_channel(
            remote,
            options=[("grpc.max_receive_message_length", 64 << 20),
                     ("grpc.max_send_message_length", 64 << 20)],
        )
        self.bots = bots_pb2_grpc.BotsStub(self.channel)
        self.lock = threading.Lock()  # serialises UpdateBotSession calls
        self.session = None

    def create_session(self):
        session = bots_pb2.BotSession(bot_id=self.bot_id, status=BOT_OK)
        device = session.worker.devices.add(handle=self.bot_id)
        device.properties.add(key="OSFamily", value="linux")
        session.worker.configs.add(key="capacity", value="1")
        self.session = self.bots.CreateBotSession(
            bots_pb2.CreateBotSessionRequest(parent=self.instance, bot_session=session),
            timeout=POLL_DEADLINE_S)
        print(f"worker={self.bot_id} session={self.session.name}", flush=True)

    def update(self, leases):
        """Sends the session with `leases` and returns the leases the server sends back."""
        with self.lock:
            del self.session.leases[:]
            self.session.leases.extend(leases)
            self.session = self.bots.UpdateBotSession(
                bots_pb2.UpdateBotSessionRequest(name=self.session.name, bot_session=self.session),
                timeout=POLL_DEADLINE_S)
            return list(self.session.leases)

    def serve(self):
        self.create_session()
        leases = list(self.session.leases)
        while True:
            lease = next((l for l in leases if l.state in (LEASE_PENDING, LEASE_ACTIVE)), None)
            if lease is None:
                leases = self.update([])
                continue
            lease.state = LEASE_ACTIVE
            done = self.run_lease(lease)
            leases = self.update([done])

    def run_lease(self, lease):
        stop = threading.Event()
        active = bots_pb2.Lease()
        active.CopyFrom(lease)

        def heartbeat():
            while not stop.wait(HEARTBEAT_S):
                try:
                    self.update([active])
                except grpc.RpcError as e:
                    print(f"worker={self.bot_id} heartbeat failed: {e.code()}", flush=True)

        beat = threading.Thread(target=heartbeat, daemon=True)
        beat.start()
        try:
            status, result = self.execute(lease)
        except Exception as e:  # report, never die with a lease in hand
            status, result = (code_pb2.INTERNAL, f"worker {self.bot_id}: {e!r}"), None
        finally:
            stop.set()
            beat.join()
        done = bots_pb2.Lease()
        done.CopyFrom(lease)
        done.state = LEASE_COMPLETED
        done.status.code, done.status.message = status
        if result is not None:
            done.result.Pack(result)
        return done

    def execute(self, lease):
        """Runs the lease's action; returns ((code, message), ActionResult or None)."""
        meta = re_pb2.ExecutedActionMetadata(worker=self.bot_id)
        meta.worker_start_timestamp.CopyFrom(now_ts())
        action = re_pb2.Action()
        with download(self.channel, instance=self.instance) as down:
            if lease.payload.Is(re_pb2.Action.DESCRIPTOR):
                lease.payload.Unpack(action)
            else:
                digest = re_pb2.Digest()
                lease.payload.Unpack(digest)
                action = down.get_message(digest, re_pb2.Action())
            command = down.get_message(action.command_digest, re_pb2.Command())
            root = tempfile.mkdtemp(prefix="action-", dir=self.work_root)
            try:
                meta.input_fetch_start_timestamp.CopyFrom(now_ts())
                t0 = time.monotonic()
                down.download_directory(action.input_root_digest, root)
                fetch_s = time.monotonic() - t0
                meta.input_fetch_completed_timestamp.CopyFrom(now_ts())
                return self.run_in(root, action, command, meta, fetch_s)
            finally:
                shutil.rmtree(root, ignore_errors=True)

    def run_in(self, root, action, command, meta, fetch_s):
        cwd = os.path.join(root, command.working_directory)
        outputs = list(command.output_files) + list(command.output_directories) + \
            list(command.output_paths)
        for path in outputs:
            os.makedirs(os.path.dirname(os.path.join(cwd, path)), exist_ok=True)
        for path in command.output_directories:
            os.makedirs(os.path.join(cwd, path), exist_ok=True)
        env = {v.name: v.value for v in command.environment_variables}
        timeout = action.timeout.seconds + action.timeout.nanos / 1e9 or None
        meta.execution_start_timestamp.CopyFrom(now_ts())
        t0 = time.monotonic()
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            proc = subprocess.Popen(list(command.arguments), cwd=cwd, env=env, stdout=out,
                                    stderr=err, start_new_session=True)
            RUNNING.add(proc.pid)
            timed_out = False
            try:
                exit_code = proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                timed_out = True
                os.killpg(proc.pid, signal.SIGKILL)
                exit_code = proc.wait()
            RUNNING.discard(proc.pid)
            run_s = time.monotonic() - t0
            meta.execution_completed_timestamp.CopyFrom(now_ts())
            meta.output_upload_start_timestamp.CopyFrom(now_ts())
            t0 = time.monotonic()
            result = re_pb2.ActionResult(exit_code=exit_code)
            with upload(self.channel, instance=self.instance) as up:
                for stream, field in ((out, result.stdout_digest), (err, result.stderr_digest)):
                    stream.seek(0)
                    field.CopyFrom(up.put_blob(stream))
                self.upload_outputs(up, cwd, command, result)
                up.flush()
            upload_s = time.monotonic() - t0
        meta.output_upload_completed_timestamp.CopyFrom(now_ts())
        meta.worker_completed_timestamp.CopyFrom(now_ts())
        result.execution_metadata.CopyFrom(meta)
        print(f"worker={self.bot_id} action={command.arguments[0].rsplit('/', 1)[-1]} "
              f"exit={exit_code} timed_out={int(timed_out)} fetch_s={fetch_s:.3f} "
              f"run_s={run_s:.3f} upload_s={upload_s:.3f}", flush=True)
        if timed_out:
            return (code_pb2.DEADLINE_EXCEEDED, f"action timed out after {timeout:.0f}s"), result
        return (code_pb2.OK, ""), result

    @staticmethod
    def upload_outputs(up, cwd, command, result):
        # REAPI 2.0 lists files and directories apart; 2.1 adds output_paths for either.
        files = list(command.output_files)
        dirs = list(command.output_directories)
        for path in command.output_paths:
            (dirs if os.path.isdir(os.path.join(cwd, path)) else files).append(path)
        for path in files:
            full = os.path.join(cwd, path)
            if os.path.isfile(full):
                digest = up.upload_file(full)
                result.output_files.add(path=path, digest=digest,
                                        is_executable=os.access(full, os.X_OK))
        for path in dirs:
            full = os.path.join(cwd, path)
            if os.path.isdir(full):
                result.output_directories.add(path=path, tree_digest=up.upload_tree(full))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--remote", required=True, help="host:port of the BuildGrid server")
    parser.add_argument("--instance", required=True)
    parser.add_argument("--bot-id", default=f"{socket.gethostname()}-{os.getpid()}")
    parser.add_argument("--work-root", required=True, help="parent of the per-action directories")
    args = parser.parse_args()
    os.makedirs(args.work_root, exist_ok=True)
    signal.signal(signal.SIGTERM, stop_actions)
    worker = Worker(args.remote, args.instance, args.bot_id, args.work_root)
    while True:
        try:
            worker.serve()
        except grpc.RpcError as e:
            # The engine restarted or dropped the session: start a new one after a pause.
            print(f"worker={args.bot_id} session lost ({e.code()}); reconnecting", flush=True)
            time.sleep(2)


if __name__ == "__main__":
    sys.exit(main())
