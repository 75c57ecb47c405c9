#!/usr/bin/env bash
# Point-in-time recovery with pgBackRest: the Patroni cluster of scripts/patroni-cluster.sh archives
# its WAL continuously into a pgBackRest repository on local disk; a full backup, a load of
# transfers and payments (clients retrying with their Idempotency-Key), an incremental backup, more
# load, a moment T noted, more load, then a mistake (a mass update of the customers' names and a
# dropped table). The repository is restored to T into a fresh data directory and started alone:
# everything acknowledged before T is there, nothing sent after T, the mistake is not, `ledger
# check` and `audit verify` pass.
# Usage: scripts/pitr-test.sh   (make test runs it)
set -euo pipefail
cd "$(dirname "$0")/.."
tresor="${TRESOR_BIN:-.build/debug/tresor}"
# shellcheck source=scripts/patroni-cluster.sh
source scripts/patroni-cluster.sh pitr
restored=""
cleanup() {
  local status=$?
  if [ "$status" != 0 ]; then
    for log in "$work"/serve-*.log "$work"/n?.log "$work"/restore.log; do
      [ -f "$log" ] && { echo "--- last lines of $log"; tail -n 25 "$log"; }
    done
  fi
  [ -n "$restored" ] && "${as_postgres[@]}" "$pg_bindir/pg_ctl" -D "$work/restore" -m immediate stop >/dev/null 2>&1
  stop_instances
  patroni_down
  rm -rf "$work"
}
trap cleanup EXIT

# One pgBackRest configuration per node (each archives from its own data directory); the
# repository is shared, as it would be on a backup server or in S3.
for node in n1 n2 n3; do
  mkdir -p "$work/$node"
  cat >"$work/$node/pgbackrest.conf" <<CONF
[global]
repo1-path=$work/repo
repo1-retention-full=2
start-fast=y
archive-async=n
log-level-console=warn
log-level-file=off
lock-path=$work/$node/pgbackrest-lock
[tresor]
pg1-path=$work/$node/data
pg1-socket-path=$work/$node
pg1-user=postgres
CONF
done
mkdir -p "$work/repo"
patroni_parameters='        archive_mode: "on"
        archive_timeout: 60'
patroni_node_parameters="    archive_command: pgbackrest --config=$work/@NODE@/pgbackrest.conf --stanza=tresor archive-push \"%p\""
patroni_up
chown -R postgres "$work/repo" "$work"/n? 2>/dev/null || true
primary=$(nodes_at primary)
backrest() { "${as_postgres[@]}" pgbackrest --config="$work/$primary/pgbackrest.conf" --stanza=tresor "$@"; }
# pg1-port: the primary's own port (pgBackRest talks to PostgreSQL itself, not through the proxy).
backrest --pg1-port="${pg_ports[$primary]}" stanza-create
backrest --pg1-port="${pg_ports[$primary]}" backup --type=full
echo "pitr: full backup of $primary taken"

psql "$db_url" -qc "CREATE DATABASE tresor"
db="${db_url%/*}/tresor"
start a --demo
start b
front_proxy a b
python3 scripts/chaos_load.py "$proxy_port" "$work/acks.tsv" 24 4 &
load=$!
sleep 8
backrest --pg1-port="${pg_ports[$primary]}" backup --type=incr
echo "pitr: incremental backup taken under load"
sleep 4
target=$(date -u '+%Y-%m-%d %H:%M:%S.%6N+00')
target_epoch=$(date -d "$target" +%s.%N)
echo "pitr: T = $target"
status=0
wait "$load" || status=$?
[ "$status" = 0 ] || { echo "pitr test: the load saw a 5xx"; exit 1; }
echo "pitr: the mistake: every customer renamed, the payments table dropped"
psql "$db" -qc "UPDATE customers SET name = 'X'" -c "DROP TABLE payments CASCADE"
# why: `check` switches the WAL segment and waits until it is archived, so the restore reaches T.
backrest --pg1-port="${pg_ports[$primary]}" check
backrest info | sed 's/^/pitr: /'

restore_port=$(free_port)
mkdir -p "$work/restore"
chown postgres "$work/restore" 2>/dev/null || true
chmod 700 "$work/restore"
restore_started=$(date +%s.%N)
backrest --pg1-path="$work/restore" --type=time "--target=$target" --target-action=promote restore
# why these options: the restored configuration is the old primary's (its port, its socket, its
# archive_command); the copy must run beside the cluster without writing to its repository.
"${as_postgres[@]}" "$pg_bindir/pg_ctl" -D "$work/restore" -l "$work/restore.log" -w -t 120 \
  -o "-p $restore_port -k $work/restore -c listen_addresses=127.0.0.1 -c archive_mode=off -c hot_standby=on" start >/dev/null
restored=1
restored_url="postgres://postgres@127.0.0.1:$restore_port"
for _ in $(seq 1 300); do
  [ "$(psql "$restored_url/postgres" -qAtc 'SELECT pg_is_in_recovery()' 2>/dev/null)" = f ] && break
  sleep 0.2
done
echo "pitr: restored to T and promoted on port $restore_port in $(python3 -c "import time; print(round(time.time() - $restore_started, 1))") s (restore, WAL replay, promotion)"

python3 - "$work/acks.tsv" "$target_epoch" "$restored_url/tresor" <<'PY'
import subprocess, sys
acks = [line.rstrip("\n").split("\t") for line in open(sys.argv[1]) if line.strip()]
target = float(sys.argv[2])
def keys(sql):
    out = subprocess.run(["psql", sys.argv[3], "-qAtc", sql], check=True, capture_output=True, text=True).stdout
    return set(out.split())
present = keys("SELECT idem_key FROM idempotency_keys UNION ALL SELECT idem_key FROM payments")
money = [a for a in acks if a[0] != "receipt"]
before = [a for a in money if float(a[5]) < target]
after = [a for a in money if float(a[4]) > target]
lost = [a[1] for a in before if a[1] not in present]
leaked = [a[1] for a in after if a[1] in present]
names = keys("SELECT count(*) FROM customers WHERE name = 'X'")
print(f"pitr: {len(before)} writes acknowledged before T, {len(lost)} missing after the restore; "
      f"{len(after)} sent after T, {len(leaked)} present; {len(money) - len(before) - len(after)} in flight at T")
if lost or leaked or not before or not after or names != {"0"}:
    print(f"pitr test: lost {lost[:5]}, after T {leaked[:5]}, customers renamed {names}")
    sys.exit(1)
PY
"$tresor" ledger check --db "$restored_url/tresor"
"$tresor" audit verify --db "$restored_url/tresor"
echo "pitr test: passed"
