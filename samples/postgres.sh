#!/usr/bin/env bash
# A private PostgreSQL 15 for `diag fleet`, in a folder of its own, on a loopback port:
#   eval "$(bash samples/postgres.sh start DIR [PORT])"   # prints: export DIAG_FLEET_DATABASE=…
#   bash samples/postgres.sh stop DIR
# As root, the server runs as the `postgres` account of Debian's package (PostgreSQL refuses
# root); otherwise as you. Trust authentication on 127.0.0.1 only: a scratch server, not a service.
set -euo pipefail
command=${1:?usage: postgres.sh start DIR [PORT] | stop DIR}
dir=${2:?usage: postgres.sh start DIR [PORT] | stop DIR}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$bin/initdb" ] || { echo "postgres.sh: no PostgreSQL server under /usr/lib/postgresql (make setup installs it)" >&2; exit 1; }
as_owner() {
    if [ "$(id -u)" = 0 ]; then setpriv --reuid=postgres --regid=postgres --init-groups -- "$@"; else "$@"; fi
}
case "$command" in
start)
    port=${3:-54329}
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    [ "$(id -u)" = 0 ] && chown postgres:postgres "$dir"
    if [ ! -f "$dir/data/PG_VERSION" ]; then
        as_owner "$bin/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 --locale=C >"$dir/initdb.log" 2>&1 \
            || { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
        -o "-k $dir -p $port -c listen_addresses=127.0.0.1" start >&2
    echo "export DIAG_FLEET_DATABASE=postgresql://postgres@127.0.0.1:$port/postgres"
    ;;
stop)
    dir=$(cd "$dir" && pwd)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >&2
    ;;
*)
    echo "postgres.sh: unknown command '$command'; accepted: start, stop" >&2; exit 64 ;;
esac
