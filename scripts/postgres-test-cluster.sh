#!/usr/bin/env bash
# Starts a throw-away PostgreSQL cluster on loopback in a temp directory, runs the given
# command with TRESOR_TEST_POSTGRES_URL pointing at it, then stops and deletes the cluster.
# Usage: scripts/postgres-test-cluster.sh COMMAND [ARGS…]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
"$here/install-deps.sh" postgres

bindir="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
dir="$(mktemp -d /tmp/tresor-pg.XXXXXX)"
# why a port the system hands out: a random one could fall in the range outgoing connections use.
port="${TRESOR_PG_PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
run_as=()
# why: initdb refuses to run as root; the cluster belongs to the postgres system user then.
if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || useradd --system --home "$dir" postgres
  chown postgres "$dir"
  run_as=(runuser -u postgres --)
fi
cleanup() {
  "${run_as[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
"${run_as[@]}" "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log"; exit 1; }
"${run_as[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
  -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=300 -c fsync=${TRESOR_PG_FSYNC:-on}" start >/dev/null \
  || { cat "$dir/server.log"; exit 1; }
export TRESOR_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$port/postgres"
export TRESOR_PG_BINDIR="$bindir"
# For scripts that restart the server (scripts/chaos-test.sh): its data directory and its user.
export TRESOR_PG_DATADIR="$dir/data"
export TRESOR_PG_RUN_AS="${run_as[*]:-}"
echo "PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (temp dir $dir)"
"$@"
