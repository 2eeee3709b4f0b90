#!/usr/bin/env bash
# End-to-end run on a throwaway kind cluster (podinfo's test/e2e.sh habit): create the cluster, build the one
# image and load it into the nodes, lint and install the chart with its kind values, run `helm test`, check that
# the NetworkPolicies turn away a pod without the chart's labels, run the e2e suite against a port-forward of
# the gateway, and delete the cluster. On failure it prints the pods' logs and the namespace's events first.
# Needs docker, kind, helm and kubectl; run from anywhere:
#   scripts/e2e-kind.sh
# Environment: KEEP_CLUSTER=1 keeps the cluster afterwards; CLUSTER_NAME, NAMESPACE, RELEASE, IMAGE override names.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CLUSTER_NAME="${CLUSTER_NAME:-dss-e2e}"
NAMESPACE="${NAMESPACE:-dss-e2e}"
RELEASE="${RELEASE:-dss}"
IMAGE="${IMAGE:-dss:e2e}"
CHART="$ROOT/charts/dss"
KIND_VALUES="$CHART/ci/kind-values.yaml"
GATEWAY_PORT=18080
ACCOUNTS_PORT=15051
PORT_FORWARD_PIDS=()

log() { printf '\n==> %s\n' "$*"; }

for tool in docker kind helm kubectl node npx; do
  command -v "$tool" >/dev/null || { echo "e2e-kind: $tool is required" >&2; exit 2; }
done

dump_diagnostics() {
  log "diagnostics: pods, events and logs of namespace $NAMESPACE"
  kubectl --namespace "$NAMESPACE" get pods,jobs,services,endpoints -o wide || true
  kubectl --namespace "$NAMESPACE" get events --sort-by=.lastTimestamp || true
  for pod in $(kubectl --namespace "$NAMESPACE" get pods -o name 2>/dev/null); do
    echo "--- logs of $pod"
    kubectl --namespace "$NAMESPACE" logs "$pod" --all-containers --tail=200 || true
    kubectl --namespace "$NAMESPACE" logs "$pod" --all-containers --previous --tail=50 2>/dev/null || true
  done
}

cleanup() {
  local status=$?
  for pid in "${PORT_FORWARD_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  if [ "$status" -ne 0 ]; then
    dump_diagnostics
  fi
  if [ "${KEEP_CLUSTER:-0}" = "1" ]; then
    log "keeping cluster $CLUSTER_NAME (KEEP_CLUSTER=1)"
  else
    log "deleting cluster $CLUSTER_NAME"
    kind delete cluster --name "$CLUSTER_NAME" || true
  fi
  exit "$status"
}
trap cleanup EXIT

# Waits until a local port accepts connections (a port-forward is up), at most ~30 s.
wait_for_port() {
  local port=$1
  for _ in $(seq 1 60); do
    if node -e "require('node:net').connect($port, '127.0.0.1').on('connect', () => process.exit(0)).on('error', () => process.exit(1))"; then
      return 0
    fi
    sleep 0.5
  done
  echo "e2e-kind: nothing listens on 127.0.0.1:$port" >&2
  return 1
}

log "creating kind cluster $CLUSTER_NAME"
kind create cluster --config "$ROOT/deploy/kind/cluster.yaml" --name "$CLUSTER_NAME" --wait 120s
kubectl apply -f "$ROOT/deploy/kind/namespace.yaml"

log "building image $IMAGE"
docker build --file "$ROOT/deploy/Dockerfile" --tag "$IMAGE" "$ROOT"
kind load docker-image "$IMAGE" --name "$CLUSTER_NAME"

log "chart dependencies and lint"
helm repo add nats https://nats-io.github.io/k8s/helm/charts/ --force-update >/dev/null
helm dependency build "$CHART"
helm lint --strict "$CHART" --values "$KIND_VALUES"
helm lint --strict "$CHART" --values "$CHART/ci/external-values.yaml"

log "installing release $RELEASE"
helm upgrade --install "$RELEASE" "$CHART" \
  --namespace "$NAMESPACE" \
  --values "$KIND_VALUES" \
  --set "image.repository=${IMAGE%:*}" --set "image.tag=${IMAGE##*:}" \
  --wait --timeout 10m

log "the chart's pods must meet the restricted Pod Security Standard"
# A server-side dry run of enforcing "restricted" lists every existing pod that would violate it.
violations="$(kubectl label --dry-run=server --overwrite namespace "$NAMESPACE" \
  pod-security.kubernetes.io/enforce=restricted 2>&1 >/dev/null || true)"
echo "$violations"
if echo "$violations" | grep -E "Warning: ${RELEASE}(-dss)?-(accounts|catalog|diagrams|gateway|proposals|importer|web|mcp|migrations|helm-test)-"; then
  echo "e2e-kind: a DSS pod violates the restricted Pod Security Standard" >&2
  exit 1
fi

log "helm test"
helm test "$RELEASE" --namespace "$NAMESPACE" --logs --timeout 5m

log "NetworkPolicies: a pod without the chart's labels reaches neither accounts' gRPC port nor PostgreSQL"
# probe_tcp <host> <port> runs a throwaway pod with none of the chart's labels (the e2e image's node, already
# on the nodes, so no registry pull) that opens a TCP connection, and prints its exit status: 10 connected,
# 20 refused or timed out (the policy drops it), 30 the name did not resolve; anything else is kubectl's own.
# kube-dns, which no policy of the chart covers, must connect: the control that the probe itself works.
PROBE_SCRIPT='
const [host, port] = process.argv.slice(1);
require("node:dns").lookup(host, (error) => {
  if (error) { console.log(`${host}: ${error.code}`); process.exit(30); }
  const socket = require("node:net").connect(Number(port), host);
  socket.setTimeout(5000, () => { console.log(`${host}:${port}: timed out`); process.exit(20); });
  socket.on("connect", () => { console.log(`${host}:${port}: connected`); process.exit(10); });
  socket.on("error", (e) => { console.log(`${host}:${port}: ${e.code}`); process.exit(20); });
});'
probe_tcp() {
  local status=0
  kubectl --namespace "$NAMESPACE" run "netpol-probe-$RANDOM" --image="$IMAGE" --image-pull-policy=Never \
    --restart=Never --rm --attach --quiet --labels=e2e=netpol-probe \
    --command -- node -e "$PROBE_SCRIPT" "$1" "$2" >&2 || status=$?
  echo "$status"
}
ACCOUNTS_HOST="$(kubectl --namespace "$NAMESPACE" get services \
  -l "app.kubernetes.io/instance=$RELEASE,app.kubernetes.io/component=accounts" -o jsonpath='{.items[0].metadata.name}')"
ACCOUNTS_GRPC_PORT="$(kubectl --namespace "$NAMESPACE" get service "$ACCOUNTS_HOST" \
  -o jsonpath='{.spec.ports[?(@.name=="grpc")].port}')"
case "$RELEASE" in *postgresql*) POSTGRES_HOST="$RELEASE" ;; *) POSTGRES_HOST="$RELEASE-postgresql" ;; esac
status="$(probe_tcp kube-dns.kube-system.svc.cluster.local 53)"
if [ "$status" != 10 ]; then
  echo "e2e-kind: the network probe pod could not reach kube-dns (status $status); the checks below would mean nothing" >&2
  exit 1
fi
for target in "$ACCOUNTS_HOST:$ACCOUNTS_GRPC_PORT" "$POSTGRES_HOST:5432"; do
  status="$(probe_tcp "${target%:*}" "${target##*:}")"
  if [ "$status" != 20 ]; then
    echo "e2e-kind: an unlabelled pod got through to $target (probe status $status; 20 means blocked)" >&2
    exit 1
  fi
done

log "upgrading in place (runs the pre-upgrade migration Job against the live database)"
helm upgrade "$RELEASE" "$CHART" \
  --namespace "$NAMESPACE" \
  --values "$KIND_VALUES" \
  --set "image.repository=${IMAGE%:*}" --set "image.tag=${IMAGE##*:}" \
  --wait --timeout 10m

log "e2e suite against the cluster"
GATEWAY_SERVICE="$(kubectl --namespace "$NAMESPACE" get services \
  -l "app.kubernetes.io/instance=$RELEASE,app.kubernetes.io/component=gateway" -o name)"
ACCOUNTS_SERVICE="$(kubectl --namespace "$NAMESPACE" get services \
  -l "app.kubernetes.io/instance=$RELEASE,app.kubernetes.io/component=accounts" -o name)"
kubectl --namespace "$NAMESPACE" port-forward "$GATEWAY_SERVICE" "$GATEWAY_PORT:http" >/dev/null &
PORT_FORWARD_PIDS+=("$!")
# The e2e suite makes its teams and tokens with the operator CLI, which talks gRPC to accounts.
kubectl --namespace "$NAMESPACE" port-forward "$ACCOUNTS_SERVICE" "$ACCOUNTS_PORT:grpc" >/dev/null &
PORT_FORWARD_PIDS+=("$!")
wait_for_port "$GATEWAY_PORT"
wait_for_port "$ACCOUNTS_PORT"

(
  cd "$ROOT"
  npm run build
  E2E_BASE_URL="http://127.0.0.1:$GATEWAY_PORT/v1" \
    DSS_ACCOUNTS_GRPC_ADDR="127.0.0.1:$ACCOUNTS_PORT" \
    LOG_LEVEL=silent \
    npx jest e2e
)

log "e2e on kind passed"
