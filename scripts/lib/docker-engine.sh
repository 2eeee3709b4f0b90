# Sourced by scripts/build-image.sh and scripts/e2e-containers.sh: a Docker engine to build and run the image.
# ensure_docker_engine: Debian's docker.io (and mmdebstrap for the local base) are installed when missing
# and dockerd is started when no engine answers; both need root. It fails with one line saying why not.
# Whoever starts dockerd stops it: stop_docker_engine_if_started, from the caller's EXIT trap.
# Debian's client (/usr/bin/docker) is preferred to another one on PATH: it matches its daemon.
# Environment: DSS_DOCKERD_ROOT (default /var/lib/docker) and DSS_DOCKERD_LOG (default /tmp/dss-dockerd.log).

DOCKER="${DOCKER:-}"
DSS_STARTED_DOCKERD_PID=""

docker_cannot_run() {
  echo "$1: cannot run: $2" >&2
  exit 2
}

# ensure_debian_packages <caller> <command:package>...: installs the packages whose command is missing.
ensure_debian_packages() {
  local caller=$1
  shift
  local missing=()
  local pair
  for pair in "$@"; do
    command -v "${pair%%:*}" >/dev/null 2>&1 || [ -x "/usr/sbin/${pair%%:*}" ] || missing+=("${pair##*:}")
  done
  [ "${#missing[@]}" -eq 0 ] && return 0
  if [ "$(id -u)" != 0 ]; then
    docker_cannot_run "$caller" "${missing[*]} not installed and not root to apt-get install them"
  fi
  command -v apt-get >/dev/null 2>&1 ||
    docker_cannot_run "$caller" "${missing[*]} not installed and no apt-get (not a Debian-based machine)"
  echo "$caller: installing ${missing[*]} from Debian's packages" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null ||
    { apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null; } ||
    docker_cannot_run "$caller" "apt-get install ${missing[*]} failed"
}

ensure_docker_engine() {
  local caller=$1
  ensure_debian_packages "$caller" docker:docker.io dockerd:docker.io
  if [ -z "$DOCKER" ]; then
    if [ -x /usr/bin/docker ]; then DOCKER=/usr/bin/docker; else DOCKER=docker; fi
  fi
  export DOCKER
  if "$DOCKER" info >/dev/null 2>&1; then return 0; fi
  [ "$(id -u)" = 0 ] || docker_cannot_run "$caller" "no Docker engine answers and only root can start dockerd"
  local dockerd
  dockerd="$(command -v dockerd || echo /usr/sbin/dockerd)"
  local log="${DSS_DOCKERD_LOG:-/tmp/dss-dockerd.log}"
  echo "$caller: starting dockerd (log: $log)" >&2
  # No bridge and no iptables rules: every container of these scripts uses the host's network, so the engine
  # leaves the machine's firewall and interfaces alone.
  "$dockerd" --data-root "${DSS_DOCKERD_ROOT:-/var/lib/docker}" --storage-driver overlay2 \
    --bridge none --iptables=false --ip6tables=false >"$log" 2>&1 &
  DSS_STARTED_DOCKERD_PID=$!
  local _
  for _ in $(seq 1 60); do
    if "$DOCKER" info >/dev/null 2>&1; then return 0; fi
    if ! kill -0 "$DSS_STARTED_DOCKERD_PID" 2>/dev/null; then
      DSS_STARTED_DOCKERD_PID=""
      docker_cannot_run "$caller" "dockerd exited at start: $(tail -n 1 "$log")"
    fi
    sleep 0.5
  done
  stop_docker_engine_if_started
  docker_cannot_run "$caller" "dockerd did not answer within 30 s: $(tail -n 1 "$log")"
}

stop_docker_engine_if_started() {
  [ -n "$DSS_STARTED_DOCKERD_PID" ] || return 0
  kill -TERM "$DSS_STARTED_DOCKERD_PID" 2>/dev/null || true
  local _
  for _ in $(seq 1 40); do
    kill -0 "$DSS_STARTED_DOCKERD_PID" 2>/dev/null || break
    sleep 0.5
  done
  DSS_STARTED_DOCKERD_PID=""
}

# The temporary folder of an image build (WORK): removed at exit, together with a dockerd the script started.
# Scripts that build images set `trap cleanup_image_build EXIT`.
WORK=""
cleanup_image_build() {
  local status=$?
  [ -n "$WORK" ] && rm -rf "$WORK"
  stop_docker_engine_if_started
  exit "$status"
}

# debian_rootfs <tar> <packages> [mmdebstrap options...]: a root filesystem of Debian bookworm's Essential
# packages plus <packages> (comma-separated), /usr merged by mmdebstrap's hook (without the usrmerge package
# and the Perl it pulls in), without manuals, info pages, translations or documentation; the options follow
# those, so a `--dpkgopt=path-include=...` among them takes a file back.
debian_rootfs() {
  local tar=$1 include=$2
  shift 2
  mmdebstrap --quiet --variant=essential --include="$include" \
    --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
    "$@" bookworm "$tar"
}
