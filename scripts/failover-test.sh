#!/usr/bin/env bash
# PostgreSQL failover without loss: three `tresor serve` behind HAProxy on a Patroni cluster of
# three nodes with synchronous replication (scripts/patroni-cluster.sh), under a load of transfers
# and payments whose clients retry with the same Idempotency-Key, while the primary's Patroni and
# PostgreSQL die with kill -9, the old primary comes back (and must rejoin as a replica, rewound
# if needed), then a standby dies. Afterwards every acknowledged transfer and payment exists
# exactly once, `ledger check` and `audit verify` pass, no request was answered a 5xx other than
# 503 with Retry-After, and writes resumed within 15 s of the kill; the time goes to
# bench/results/ha.json.
# Usage: scripts/failover-test.sh   (make test runs it)
set -euo pipefail
cd "$(dirname "$0")/.."
tresor="${TRESOR_BIN:-.build/debug/tresor}"
# shellcheck source=scripts/patroni-cluster.sh
source scripts/patroni-cluster.sh failover
cleanup() {
  local status=$?
  if [ "$status" != 0 ]; then
    for log in "$work"/serve-*.log "$work"/n?.log; do echo "--- last lines of $log"; tail -n 25 "$log"; done
  fi
  stop_instances
  patroni_down
  rm -rf "$work"
}
trap cleanup EXIT

patroni_up
echo "failover: Patroni cluster up: primary $(nodes_at primary), synchronous standby $(nodes_at sync)"
psql "$db_url" -qc "CREATE DATABASE tresor"
db="${db_url%/*}/tresor"
start a --demo
start b
start c
front_proxy a b c

python3 scripts/chaos_load.py "$proxy_port" "$work/acks.tsv" 75 8 &
load=$!
sleep 8
old=$(nodes_at primary)
echo "failover: kill -9 of the primary $old (Patroni and PostgreSQL)"
node_kill "$old"
killed_at=$(date +%s.%N)
wait_for 30 "new primary" primary
new=$(nodes_at primary)
echo "failover: $new is the primary after $(python3 -c "import time; print(round(time.time() - $killed_at, 1))") s"
sleep 5
echo "failover: $old starts again"
node_start "$old"
wait_for 90 "$old back as a replica" replica "$old"
echo "failover: $old streams from $new (rewound: $(grep -c 'pg_rewind' "$work/$old.log" || true) log lines name pg_rewind)"
sleep 3
standby=$(nodes_at sync | head -n 1)
echo "failover: kill -9 of the synchronous standby $standby"
node_kill "$standby"
sleep 8
echo "failover: $standby starts again"
node_start "$standby"
status=0
wait "$load" || status=$?
wait_for 90 "$standby back as a replica" replica "$standby"

python3 scripts/chaos_verify.py "$proxy_port" "$work/acks.tsv"
"$tresor" ledger check --db "$db"
"$tresor" audit verify --db "$db"
[ "$status" = 0 ] || { echo "failover test: a request was answered 5xx other than 503, or 503 without Retry-After"; exit 1; }
# Writes resumed when the first write sent after the kill was acknowledged.
resumed=$(python3 - "$work/acks.tsv" "$killed_at" <<'PY'
import sys
killed = float(sys.argv[2])
after = [float(f[5]) for f in (line.rstrip("\n").split("\t") for line in open(sys.argv[1])) if f[0] != "receipt" and float(f[4]) > killed]
print(round(min(after) - killed, 2) if after else "none")
PY
)
unavailable=$(cat "$work"/serve-*.log | grep -c "database unavailable" || true)
echo "failover: writes resumed $resumed s after the kill; $unavailable requests answered 503 database_unavailable meanwhile"
[ "$resumed" != none ] || { echo "failover test: no write was acknowledged after the kill"; exit 1; }
mkdir -p bench/results
python3 - "$resumed" "$unavailable" "$(grep -c . "$work/acks.tsv")" <<'PY' >bench/results/ha.json
import json, platform, sys, datetime
print(json.dumps({
    "what": "scripts/failover-test.sh: kill -9 of the primary's Patroni and PostgreSQL under load, "
            "three tresor serve behind HAProxy, Patroni ttl 10 / loop_wait 1 / retry_timeout 3, synchronous_mode",
    "seconds_to_resume_writes": float(sys.argv[1]),
    "limit_seconds": 15,
    "answered_503_database_unavailable": int(sys.argv[2]),
    "acknowledged_writes_and_receipts": int(sys.argv[3]),
    "machine": f"{platform.machine()}, {__import__('os').cpu_count()} cores",
    "measured": datetime.date.today().isoformat(),
}, indent=2))
PY
python3 -c "import sys; sys.exit(0 if float('$resumed') <= 15 else 1)" \
  || { echo "failover test: writes resumed after $resumed s, more than 15 s"; exit 1; }
echo "failover test: passed"
