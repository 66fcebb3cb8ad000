#!/usr/bin/env bash
# Installs the system tools ("test peers") Vigil's test suite needs, using only
# Debian's packages, the npm registry and the Go module proxy.
#
#   scripts/install-test-peers.sh             # every peer
#   scripts/install-test-peers.sh compose     # only the named peer(s)
#
# Safe to rerun: a peer already present is skipped. Quiet on success; a failing
# step prints its output. Builds are cached under ${VIGIL_CACHE_DIR:-~/.cache/vigil}.
set -euo pipefail

PEERS=(docker_cli compose dnsmasq ping iproute prometheus alertmanager mariadb openssl chromium)

CACHE_DIR="${VIGIL_CACHE_DIR:-$HOME/.cache/vigil}"
COMPOSE_MODULE=github.com/docker/compose/v2
COMPOSE_VERSION=v2.40.3
PLUGIN_DIRS=("$HOME/.docker/cli-plugins" /usr/local/lib/docker/cli-plugins)

say() { printf 'install-test-peers: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

# quiet CMD...: runs CMD, showing its output only when it fails.
quiet() {
  local log rc=0
  log=$(mktemp)
  "$@" >"$log" 2>&1 || rc=$?
  ((rc == 0)) || cat "$log" >&2
  rm -f "$log"
  return "$rc"
}

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# apt_install PKG...: installs those of the Debian packages not yet installed.
apt_install() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null | grep -qx installed || missing+=("$p")
  done
  ((${#missing[@]} == 0)) && return 0
  compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null || quiet as_root apt-get update
  quiet as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

find_go() {
  local go
  for go in "$(command -v go || true)" /usr/local/go/bin/go; do
    [ -n "$go" ] && [ -x "$go" ] && { echo "$go"; return 0; }
  done
  return 1
}

# --- peers: one function each ----------------------------------------------

# The Docker CLI (a client only is enough: the tests never reach an engine).
peer_docker_cli() {
  command -v docker >/dev/null && return 0
  apt_install docker.io
}

# Probe targets the tests start on loopback: a DNS server, the system ping, a real Prometheus,
# MariaDB (MySQL protocol) and openssl (test certificates). Packages only: nothing runs as a service.
peer_dnsmasq() { command -v dnsmasq >/dev/null || apt_install dnsmasq-base; }
peer_ping() { command -v ping >/dev/null || apt_install iputils-ping; }
# `ip`, with unshare/setpriv (util-linux), lets the ICMP tests build a network namespace of their own.
peer_iproute() { command -v ip >/dev/null || apt_install iproute2; }
peer_prometheus() { command -v prometheus >/dev/null || apt_install prometheus; }
# A real sender of alert webhooks for the alert-metric tests.
peer_alertmanager() { command -v prometheus-alertmanager >/dev/null || apt_install prometheus-alertmanager; }
peer_mariadb() { command -v mariadbd >/dev/null || apt_install mariadb-server; }
peer_openssl() { command -v openssl >/dev/null || apt_install openssl; }
# A headless browser (driven by playwright-core) for the status-page rendering checks.
peer_chromium() { command -v chromium >/dev/null && return 0; apt_install chromium; }

# Docker Compose v2 as a CLI plugin (`docker compose`), built from the Go module
# proxy. `go install module@version` refuses it (its go.mod has `exclude`
# directives), so it is built inside a throwaway module that copies its go.mod.
peer_compose() {
  docker compose version >/dev/null 2>&1 && return 0
  local bin="$CACHE_DIR/docker-compose/$COMPOSE_VERSION/docker-compose"
  [ -x "$bin" ] || build_compose "$bin"
  local dir
  for dir in "${PLUGIN_DIRS[@]}"; do
    { mkdir -p "$dir" && [ -w "$dir" ]; } 2>/dev/null || continue
    cmp -s "$bin" "$dir/docker-compose" || install -m 0755 "$bin" "$dir/docker-compose"
  done
  docker compose version >/dev/null 2>&1 || die "docker compose still unavailable after installing $bin"
}

build_compose() {
  local out=$1 go
  go=$(find_go) || die "Go is needed to build Docker Compose (expected at /usr/local/go/bin/go)"
  mkdir -p "$(dirname "$out")"
  exec 9>"$(dirname "$out")/.lock"
  flock 9
  [ -x "$out" ] && return 0 # built by a concurrent run meanwhile
  say "building Docker Compose $COMPOSE_VERSION from the Go module proxy (once; a few minutes)"
  local work started=$SECONDS rc=0
  work=$(mktemp -d)
  quiet compose_build_steps "$go" "$work" "$out.tmp" || rc=$?
  rm -rf "$work"
  ((rc == 0)) || { rm -f "$out.tmp"; die "building Docker Compose failed"; }
  mv "$out.tmp" "$out"
  say "built $out in $((SECONDS - started))s"
}

# compose_build_steps GO WORKDIR OUT, in a subshell. Steps are chained with &&
# because errexit does not apply to a command run as `cmd || ...`.
compose_build_steps() (
  go=$1
  cd "$2" || exit
  export GOTOOLCHAIN=auto GOFLAGS=-mod=mod CGO_ENABLED=0
  info=$("$go" mod download -json "$COMPOSE_MODULE@$COMPOSE_VERSION") || { echo "$info"; exit 1; }
  src=$(sed -n 's/^\t"Dir": "\(.*\)",$/\1/p' <<<"$info")
  sed 's#^module .*#module vigil.local/compose-plugin#' "$src/go.mod" >go.mod &&
    cat "$src/go.sum" >go.sum &&
    "$go" get "$COMPOSE_MODULE@$COMPOSE_VERSION" &&
    "$go" build -trimpath -o "$3" \
      -ldflags="-s -w -X $COMPOSE_MODULE/internal.Version=$COMPOSE_VERSION" "$COMPOSE_MODULE/cmd"
)

# ---------------------------------------------------------------------------

main() {
  local peer
  (($#)) || set -- "${PEERS[@]}"
  for peer in "$@"; do
    declare -F "peer_$peer" >/dev/null || die "unknown peer '$peer' (known: ${PEERS[*]})"
    "peer_$peer"
  done
}

main "$@"
