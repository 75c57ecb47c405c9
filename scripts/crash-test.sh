#!/usr/bin/env bash
# Crash safety: kill -9 the server in the middle of a load of transfers and payments, restart it,
# and check that every acknowledged one is still booked exactly once and the books balance.
# Usage: scripts/crash-test.sh [sqlite|postgres]   (postgres needs TRESOR_TEST_POSTGRES_URL)
set -euo pipefail
cd "$(dirname "$0")/.."
kind="${1:-sqlite}"
tresor="${TRESOR_BIN:-.build/debug/tresor}"
work="$(mktemp -d /tmp/tresor-crash.XXXXXX)"
# why a port the system hands out: one drawn at random from 30000–50000 lies in the range
# outgoing connections take theirs from, and a clean-clone CI run failed on it ("Address already
# in use") while the test suite's PostgreSQL connections held it.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
server=""
trap '[ -n "$server" ] && kill -9 "$server" 2>/dev/null; rm -rf "$work"' EXIT

if [ "$kind" = postgres ]; then
  name="crash_$RANDOM$RANDOM"
  psql "${TRESOR_TEST_POSTGRES_URL:?run under scripts/postgres-test-cluster.sh}" -qc "CREATE DATABASE $name"
  db="${TRESOR_TEST_POSTGRES_URL%/*}/$name"
else
  db="$work/crash.sqlite"
fi

start_server() {
  "$tresor" serve --db "$db" --port "$port" "$@" >>"$work/server.log" 2>&1 &
  server=$!
  scripts/await-healthy.sh "$port" "$work/server.log"
}

start_server --demo
python3 scripts/crash_load.py "$port" "$work/acks.tsv" 8 &
load=$!
sleep "${TRESOR_CRASH_AFTER_S:-2}"
kill -9 "$server"
wait "$server" 2>/dev/null || true
wait "$load" || true
: >"$work/server.log"
start_server
python3 scripts/crash_verify.py "$port" "$work/acks.tsv"
kill "$server"; wait "$server" 2>/dev/null || true; server=""
"$tresor" ledger check --db "$db"
echo "crash test ($kind): passed"
