#!/usr/bin/env bash
# An upgrade while the bank serves: two instances of the OLD binary serve the demo bank on one
# PostgreSQL behind HAProxy under the chaos test's load (transfers and payments retried with their
# Idempotency-Key, receipts); two instances of the NEW binary start beside them, the first one
# migrating the database while the old ones keep booking; then the old ones stop, one after the
# other. Every acknowledged write exists exactly once, no 5xx but 503 with Retry-After, and the
# new binary's `ledger check` and `audit verify` pass (the day totals of migration 026 included,
# kept by its trigger while the old binary wrote).
# Usage: scripts/postgres-test-cluster.sh scripts/upgrade-test.sh OLD_TRESOR [NEW_TRESOR]
#   (make upgrade-test PREVIOUS=REF builds REF's release binary in a worktree of its own)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh chaos
old=${1:?the old binary} new=${2:-.build/debug/tresor}
: "${TRESOR_TEST_POSTGRES_URL:?run under scripts/postgres-test-cluster.sh}"
work="$(mktemp -d /tmp/tresor-upgrade.XXXXXX)"
# shellcheck source=scripts/instances.sh
source scripts/instances.sh
cleanup() {
  local status=$?
  [ "$status" != 0 ] && for log in "$work"/serve-*.log; do echo "--- last lines of $log"; tail -n 20 "$log"; done
  stop_instances
  rm -rf "$work"
}
trap cleanup EXIT
name="upgrade_$RANDOM$RANDOM"
psql "$TRESOR_TEST_POSTGRES_URL" -qc "CREATE DATABASE $name"
db="${TRESOR_TEST_POSTGRES_URL%/*}/$name"
migrations() { psql "$db" -qAtc "SELECT count(*) FROM schema_migrations" 2>/dev/null || echo "?"; }

tresor=$old
start old1 --demo --scheduler-interval-seconds 0
start old2 --scheduler-interval-seconds 0
echo "upgrade: two instances of the old binary ($old) on $(migrations) migrations"
ports[new1]=$(free_port) ports[new2]=$(free_port)
front_proxy old1 old2 new1 new2
python3 scripts/chaos_load.py "$proxy_port" "$work/acks.tsv" 50 6 &
load=$!
sleep 8
tresor=$new
start new1
echo "upgrade: the new binary started and migrated to $(migrations) migrations while the old ones served"
start new2
sleep 8
echo "upgrade: old1 stops (SIGTERM: it finishes what it was answering)"
kill -TERM "${pids[old1]}"
sleep 8
echo "upgrade: old2 stops"
kill -TERM "${pids[old2]}"
status=0
wait "$load" || status=$?
python3 scripts/chaos_verify.py "$proxy_port" "$work/acks.tsv"
"$new" ledger check --db "$db"
"$new" audit verify --db "$db"
[ "$status" = 0 ] || { echo "upgrade test: a request was answered 5xx other than 503, or 503 without Retry-After"; exit 1; }
echo "upgrade test: passed"
