#!/usr/bin/env bash
# Throwaway PostgreSQL 15 cluster on a free loopback port, for the API suite and the benchmarks.
#   eval "$(scripts/ci/pg-cluster.sh start [DIR])"   → exports DATABASE_URL and PG_CLUSTER_DIR
#   scripts/ci/pg-cluster.sh stop DIR
# PostgreSQL refuses to run as root, so the cluster runs as the `postgres` user (created if missing).
set -euo pipefail
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
cmd=${1:-start}
dir=${2:-$(mktemp -d /tmp/canteen-pg.XXXXXX)}

as_pg() {
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi
}

case "$cmd" in
  start)
    if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then useradd --system --home-dir /var/lib/postgresql postgres; fi
    port=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    chmod 700 "$dir"
    as_pg "$PGBIN/initdb -D $dir/data -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >$dir/initdb.log 2>&1"
    as_pg "$PGBIN/pg_ctl -D $dir/data -l $dir/server.log -o \"-p $port -c listen_addresses=127.0.0.1 -k $dir -c fsync=off -c synchronous_commit=off -c max_connections=100\" -w start >/dev/null"
    echo "export DATABASE_URL=postgres://postgres@127.0.0.1:$port/postgres PG_CLUSTER_DIR=$dir"
    ;;
  stop)
    as_pg "$PGBIN/pg_ctl -D $dir/data -m fast -w stop >/dev/null" || true
    rm -rf "$dir"
    ;;
  *) echo "usage: $0 start|stop [DIR]" >&2; exit 2 ;;
esac
