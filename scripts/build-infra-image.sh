#!/usr/bin/env bash
# Builds the container e2e's infrastructure image, dss-e2e-infra:<revision>: Debian bookworm's HAProxy (the
# load balancer in front of the gateway replicas), PostgreSQL 15 and Redis, from Debian's packages with
# mmdebstrap like the service image's base (scripts/build-image.sh), so no container registry is needed.
# The container e2e runs each of them in a container of its own, so its fault checks can SIGKILL PostgreSQL
# and stop Redis without touching the machine's servers. Test-only: nothing of it goes into the service
# image. Made once per revision and kept. Prints the image reference as its last line of standard output.
#   scripts/build-infra-image.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib/docker-engine.sh
source "$ROOT/scripts/lib/docker-engine.sh"

# Bump when the packages or hooks below change, so a cached older image is not reused.
INFRA_REVISION=1
IMAGE="dss-e2e-infra:bookworm-r${INFRA_REVISION}"

log() { printf '==> build-infra-image: %s\n' "$*" >&2; }
trap cleanup_image_build EXIT

ensure_docker_engine build-infra-image
if "$DOCKER" image inspect "$IMAGE" >/dev/null 2>&1; then
  log "$IMAGE exists"
  echo "$IMAGE"
  exit 0
fi

ensure_debian_packages build-infra-image mmdebstrap:mmdebstrap
WORK="$(mktemp -d /tmp/dss-infra.XXXXXX)"
started=$SECONDS
log "making $IMAGE (mmdebstrap bookworm + haproxy, postgresql-15, redis-server)"
# No cluster made at install time (the container e2e initialises its own at the container's first start),
# no documentation.
debian_rootfs "$WORK/rootfs.tar" haproxy,postgresql-15,redis-server \
  --essential-hook='mkdir -p "$1/etc/postgresql-common/createcluster.d"' \
  --essential-hook='echo "create_main_cluster = false" > "$1/etc/postgresql-common/createcluster.d/dss.conf"'
"$DOCKER" import \
  --change 'ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --message "Debian bookworm (mmdebstrap, essential + haproxy, postgresql-15, redis-server)" \
  "$WORK/rootfs.tar" "$IMAGE" >/dev/null
size_bytes="$("$DOCKER" image inspect --format '{{.Size}}' "$IMAGE")"
log "made $IMAGE in $((SECONDS - started)) s: $((size_bytes / 1000000)) MB"
echo "$IMAGE"
