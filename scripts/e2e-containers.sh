#!/usr/bin/env bash
# The container e2e: builds the image (scripts/build-image.sh), then runs every component in its own
# container from it, as the chart configures them, and the e2e suite, MCP, web and fault checks against them
# (scripts/e2e-containers.js): two replicas of the gateway, diagrams, proposals and importer, the gateway's
# behind HAProxy, and PostgreSQL and Redis of the run's own, each in a container of the infrastructure image
# (scripts/build-infra-image.sh); a nats-server of its own. As root it installs docker.io and starts dockerd
# when needed, and stops the dockerd it started at the end; every container it started is removed.
#   scripts/e2e-containers.sh [jest arguments for the e2e suite]      (also: npm run e2e:containers)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=lib/docker-engine.sh
source "$ROOT/scripts/lib/docker-engine.sh"

trap stop_docker_engine_if_started EXIT
ensure_docker_engine e2e-containers
if [ ! -f packages/platform/dist/testing/index.js ]; then
  echo "==> e2e-containers: building the workspaces (the run's own helpers need packages/platform/dist)"
  npm run build >/dev/null
fi

started=$SECONDS
IMAGE="$(DOCKER="$DOCKER" bash scripts/build-image.sh | tail -n 1)"
echo "==> e2e-containers: image $IMAGE ready in $((SECONDS - started)) s"
started=$SECONDS
INFRA_IMAGE="$(DOCKER="$DOCKER" bash scripts/build-infra-image.sh | tail -n 1)"
echo "==> e2e-containers: infrastructure image $INFRA_IMAGE ready in $((SECONDS - started)) s"
DOCKER="$DOCKER" node scripts/e2e-containers.js "$IMAGE" "$INFRA_IMAGE" "$@"
