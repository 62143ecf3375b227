# Shared settings of the ci/remote scripts (sourced, not run). Every one can be overridden from
# the environment; .bazelrc's `build:remote` section assumes the defaults of PORT and INSTANCE.
SCHEDCHECK_REMOTE_PORT="${SCHEDCHECK_REMOTE_PORT:-8980}"
SCHEDCHECK_REMOTE_INSTANCE="${SCHEDCHECK_REMOTE_INSTANCE:-schedcheck}"
# The virtualenv with BuildGrid (ci/remote/setup).
SCHEDCHECK_REMOTE_VENV="${SCHEDCHECK_REMOTE_VENV:-$HOME/.cache/schedcheck-remote/venv}"
# Engine state: PostgreSQL data, CAS blobs, logs, pids, the workers' action directories. Under
# /tmp because PostgreSQL runs as the `postgres` user when started by root and must reach it.
SCHEDCHECK_REMOTE_STATE="${SCHEDCHECK_REMOTE_STATE:-/tmp/schedcheck-remote-$SCHEDCHECK_REMOTE_PORT}"
PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"

# as_pg CMD...: runs CMD as the PostgreSQL owner (`postgres` when we are root; PostgreSQL refuses
# to run as root), else as ourselves.
as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# engine_up: true when something accepts TCP connections on the engine's port.
engine_up() {
  (exec 3<>"/dev/tcp/127.0.0.1/$SCHEDCHECK_REMOTE_PORT") 2>/dev/null
}
