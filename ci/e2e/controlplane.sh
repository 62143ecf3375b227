# Starts and stops a real control plane on loopback (sourced by e2e.sh):
# embedded etcd, kube-apiserver, kube-controller-manager and kube-scheduler,
# with the flags README.md explains. Every run
# gets fresh data directories under $cp_dir; cp_stop kills exactly the
# processes cp_start started.
#
# Uses: $bin (the binaries of build.sh), $cp_dir (a fresh directory),
# $cp_logs (where the components' logs and the audit log go).

cp_pids=()

cp_stop() {
  local pid
  for pid in "${cp_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${cp_pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  cp_pids=()
}

# cp_wait_https URL: waits up to 60 s for the URL to answer 200 ok.
cp_wait_https() {
  local pid
  for _ in $(seq 600); do
    if curl -ksf -H "Authorization: Bearer $cp_token" "$1" >/dev/null 2>&1; then return 0; fi
    for pid in "${cp_pids[@]}"; do
      kill -0 "$pid" 2>/dev/null && continue
      echo "control plane: a component exited while waiting for $1 (logs in $cp_logs):" >&2
      tail -n 3 "$cp_logs"/*.log >&2
      return 1
    done
    sleep 0.1
  done
  echo "control plane: $1 not ready after 60 s (logs in $cp_logs)" >&2
  return 1
}

cp_start() {
  local here
  here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
  mkdir -p "$cp_dir/etcd" "$cp_dir/certs" "$cp_logs"
  cp_token=e2e-admin-token
  echo "$cp_token,admin,admin,system:masters" > "$cp_dir/tokens.csv"
  openssl genrsa -out "$cp_dir/sa.key" 2048 2>/dev/null
  openssl rsa -in "$cp_dir/sa.key" -pubout -out "$cp_dir/sa.pub" 2>/dev/null
  cat > "$cp_dir/kubeconfig" <<KC
apiVersion: v1
kind: Config
clusters:
- name: e2e
  cluster: {server: "https://127.0.0.1:6443", insecure-skip-tls-verify: true}
users:
- name: admin
  user: {token: "$cp_token"}
contexts:
- name: e2e
  context: {cluster: e2e, user: admin}
current-context: e2e
KC

  "$bin/etcd" --data-dir "$cp_dir/etcd" > "$cp_logs/etcd.log" 2>&1 &
  cp_pids+=($!)
  "$bin/kube-apiserver" \
    --bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port=6443 \
    --cert-dir="$cp_dir/certs" \
    --etcd-servers=http://127.0.0.1:2379 \
    --token-auth-file="$cp_dir/tokens.csv" \
    --authorization-mode=RBAC \
    --service-account-issuer=https://kubernetes.default.svc \
    --service-account-key-file="$cp_dir/sa.pub" \
    --service-account-signing-key-file="$cp_dir/sa.key" \
    --service-cluster-ip-range=10.96.0.0/16 \
    --disable-admission-plugins=TaintNodesByCondition \
    --endpoint-reconciler-type=none \
    --audit-policy-file="$here/audit-policy.yaml" \
    --audit-log-path="$cp_logs/audit.log" --audit-log-format=json --audit-log-mode=blocking \
    > "$cp_logs/kube-apiserver.log" 2>&1 &
  cp_pids+=($!)
  cp_wait_https https://127.0.0.1:6443/readyz || return 1

  "$bin/kube-controller-manager" \
    --kubeconfig="$cp_dir/kubeconfig" --leader-elect=false \
    --bind-address=127.0.0.1 --secure-port=10257 \
    --controllers=serviceaccount,serviceaccount-token,disruption,deployment,replicaset,statefulset,daemonset,job,garbagecollector,namespace \
    --service-account-private-key-file="$cp_dir/sa.key" \
    --root-ca-file="$cp_dir/certs/apiserver.crt" \
    > "$cp_logs/kube-controller-manager.log" 2>&1 &
  cp_pids+=($!)
  # --v=2 logs every attempt: the ground truth when a replay disagrees.
  "$bin/kube-scheduler" \
    --kubeconfig="$cp_dir/kubeconfig" --leader-elect=false \
    --bind-address=127.0.0.1 --secure-port=10259 --v=2 \
    > "$cp_logs/kube-scheduler.log" 2>&1 &
  cp_pids+=($!)
  cp_wait_https https://127.0.0.1:10257/healthz || return 1
  cp_wait_https https://127.0.0.1:10259/healthz || return 1
}
