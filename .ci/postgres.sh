#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for the tests: `start` prints the URL to export as
# TEST_DATABASE_URL, `stop DIR` stops the cluster and removes its folder.
#
#   url=$(.ci/postgres.sh start) && export TEST_DATABASE_URL=${url%% *}  # … run the tests …
#   .ci/postgres.sh stop "${url##* }"
#
# The cluster lives in a fresh temporary folder, listens only on 127.0.0.1 on a free port, and
# trusts local connections (nothing else can reach it). initdb refuses to run as root, so as
# root the cluster belongs to a system user (mattekrig-ci, created when missing).
set -euo pipefail

bindir() {
    if command -v pg_ctl >/dev/null 2>&1; then dirname "$(command -v pg_ctl)"; return; fi
    local found
    found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    if [ -z "$found" ] && [ "$(id -u)" = 0 ]; then
        apt-get update -qq >&2 && apt-get install -y -qq postgresql >/dev/null
        found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    fi
    [ -n "$found" ] || { echo "PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }
    echo "$found"
}

as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u mattekrig-ci -- "$@"; else "$@"; fi
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
    local bin dir port
    bin=$(bindir)
    if [ "$(id -u)" = 0 ] && ! id mattekrig-ci >/dev/null 2>&1; then
        useradd --system --no-create-home --shell /usr/sbin/nologin mattekrig-ci
    fi
    dir=$(mktemp -d /tmp/mattekrig-pg.XXXXXX)
    chmod 755 "$dir"
    [ "$(id -u)" = 0 ] && chown mattekrig-ci "$dir"
    port=$(free_port)
    as_owner "$bin/initdb" -D "$dir/data" -U mattekrig -A trust -E UTF8 --no-locale >/dev/null
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -s \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off" start >&2
    echo "postgresql://mattekrig@127.0.0.1:$port/postgres $dir"
}

stop() {
    local dir=${1:?usage: postgres.sh stop DIR}
    local bin
    bin=$(bindir)
    [ -d "$dir/data" ] && as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w -s stop >&2 || true
    rm -rf "$dir"
}

case "${1:-}" in
    start) start ;;
    stop) stop "${2:-}" ;;
    *) echo "usage: $0 start | stop DIR" >&2; exit 2 ;;
esac
