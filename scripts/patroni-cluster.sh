#!/usr/bin/env bash
# Sourced by scripts/failover-test.sh and scripts/pitr-test.sh: a PostgreSQL cluster as a bank's
# database team runs it, on loopback in $work: one etcd, three PostgreSQL nodes under Patroni with
# synchronous replication (a commit is on two nodes before it is acknowledged), and an HAProxy
# whose port ($db_port) leads to the current primary by Patroni's REST check (`/primary`).
# why HAProxy and not a multi-host connection string: Tresor's pool then needs nothing of its own
# to find the primary, a failover closes the old primary's connections at the proxy
# (`on-marked-down shutdown-sessions`), and the same proxy is what the README's topology runs.
# Usage: source scripts/patroni-cluster.sh NAME — installs what is missing, makes $work (a temp dir
# named after NAME), brings in scripts/instances.sh; patroni_up then sets $db_url (the `postgres`
# database).
# why ttl 10, loop_wait 1, retry_timeout 3: the leader key lapses 10 s after the primary's
# Patroni dies, so a standby takes over within the 15 s the bank allows (Patroni's defaults are
# 30/10/10); loop_wait + 2 × retry_timeout stays below ttl, as Patroni requires.
scripts/install-deps.sh ha
work="$(mktemp -d "/tmp/tresor-$1.XXXXXX")"
# why: PostgreSQL runs as the postgres user and must reach its node's folder inside.
chmod 755 "$work"
# shellcheck source=scripts/instances.sh
source scripts/instances.sh
pg_bindir="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
declare -A rest_ports pg_ports patroni_pids
as_postgres=()
etcd_pid="" db_proxy=""
# Extra lines for `bootstrap.dcs.postgresql.parameters` (indented 8, the whole cluster) and for
# each node's own `postgresql.parameters` (indented 4, @NODE@ replaced by its name), e.g. archiving.
patroni_parameters="${patroni_parameters:-}"
patroni_node_parameters="${patroni_node_parameters:-}"

patroni_up() {  # etcd, three nodes and the proxy, waited for until a primary and a sync standby run
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --home "$work" postgres
    # why setpriv: it execs, so the pid kept is Patroni's own (runuser would stay its parent).
    as_postgres=(setpriv --reuid=postgres --regid=postgres --init-groups --)
  fi
  chown postgres "$work" 2>/dev/null || true
  local etcd_port peer_port node
  etcd_port=$(free_port) peer_port=$(free_port)
  "${as_postgres[@]}" etcd --name etcd --data-dir "$work/etcd" --listen-client-urls "http://127.0.0.1:$etcd_port" \
    --advertise-client-urls "http://127.0.0.1:$etcd_port" --listen-peer-urls "http://127.0.0.1:$peer_port" \
    --initial-advertise-peer-urls "http://127.0.0.1:$peer_port" --initial-cluster "etcd=http://127.0.0.1:$peer_port" \
    >"$work/etcd.log" 2>&1 &
  etcd_pid=$!
  disown
  for node in n1 n2 n3; do
    rest_ports[$node]=$(free_port) pg_ports[$node]=$(free_port)
    mkdir -p "$work/$node"
    chown postgres "$work/$node" 2>/dev/null || true
    cat >"$work/$node.yml" <<YML
scope: tresor
name: $node
restapi:
  listen: 127.0.0.1:${rest_ports[$node]}
  connect_address: 127.0.0.1:${rest_ports[$node]}
etcd3:
  host: 127.0.0.1:$etcd_port
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 1
    retry_timeout: 3
    maximum_lag_on_failover: 1048576
    synchronous_mode: true
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        max_connections: 300
        wal_log_hints: "on"
        max_wal_senders: 10
        max_replication_slots: 10
$patroni_parameters
  initdb:
    - encoding: UTF8
    - no-locale
postgresql:
  listen: 127.0.0.1:${pg_ports[$node]}
  connect_address: 127.0.0.1:${pg_ports[$node]}
  data_dir: $work/$node/data
  bin_dir: $pg_bindir
  pgpass: $work/$node/pgpass
  pg_hba:
    - local all all trust
    - host all all 127.0.0.1/32 trust
    - host replication all 127.0.0.1/32 trust
  authentication:
    superuser: {username: postgres, password: postgres}
    replication: {username: replicator, password: replicator}
    rewind: {username: postgres, password: postgres}
  parameters:
    unix_socket_directories: $work/$node
${patroni_node_parameters//@NODE@/$node}
YML
  done
  for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$etcd_port/health" >/dev/null && break; sleep 0.1; done
  node_start n1
  wait_for 60 "a primary" primary
  node_start n2
  node_start n3
  db_port=$(free_port)
  local servers=""
  for node in n1 n2 n3; do
    servers+="  server $node 127.0.0.1:${pg_ports[$node]} check port ${rest_ports[$node]}"$'\n'
  done
  cat >"$work/haproxy-db.cfg" <<CFG
global
  maxconn 1000
defaults
  mode tcp
  timeout connect 1s
  timeout client 30m
  timeout server 30m
listen primary
  bind 127.0.0.1:$db_port
  option httpchk GET /primary
  http-check expect status 200
  default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
$servers
CFG
  haproxy -f "$work/haproxy-db.cfg" >"$work/haproxy-db.log" 2>&1 &
  db_proxy=$!
  disown
  wait_for 120 "a synchronous standby" sync
  db_url="postgres://postgres@127.0.0.1:$db_port/postgres"
  for _ in $(seq 1 100); do psql "$db_url" -qAtc 'select 1' >/dev/null 2>&1 && return; sleep 0.2; done
  echo "patroni cluster: the proxy did not lead to the primary"
  return 1
}

node_start() {  # node_start NODE: its Patroni (which starts, rewinds or clones its PostgreSQL)
  "${as_postgres[@]}" patroni "$work/$1.yml" >>"$work/$1.log" 2>&1 &
  patroni_pids[$1]=$!
  disown
}

# The nodes answering 200 at a Patroni REST endpoint (primary, sync, replica, health).
nodes_at() {
  local node
  for node in n1 n2 n3; do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:${rest_ports[$node]}/$1")" = 200 ] && echo "$node"
  done
  return 0
}

wait_for() {  # wait_for SECONDS WHAT ENDPOINT [NODE]: until a node (or NODE) answers 200 there
  local seconds=$1 what=$2 endpoint=$3 node=${4:-}
  local answering
  for _ in $(seq 1 $((seconds * 5))); do
    answering=$(nodes_at "$endpoint")
    if [ -n "$node" ]; then
      grep -qx "$node" <<<"$answering" && return 0
    else
      [ -n "$answering" ] && return 0
    fi
    sleep 0.2
  done
  echo "patroni cluster: no ${what} within $seconds s"
  patronictl -c "$work/n1.yml" list 2>&1 || true
  return 1
}

node_kill() {  # node_kill NODE: its Patroni and all of its PostgreSQL with kill -9, as when the machine dies
  local postmaster
  kill -9 "${patroni_pids[$1]}" 2>/dev/null || true
  postmaster=$(head -n 1 "$work/$1/data/postmaster.pid" 2>/dev/null || true)
  if [ -n "$postmaster" ]; then
    # why stopped first: its backends are killed while still its children, and it forks no more.
    kill -STOP "$postmaster" 2>/dev/null || true
    pkill -9 -P "$postmaster" 2>/dev/null || true
    kill -9 "$postmaster" 2>/dev/null || true
  fi
}

patroni_down() {  # everything stopped, for an EXIT trap
  local node
  for node in n1 n2 n3; do [ -n "${patroni_pids[$node]:-}" ] && node_kill "$node"; done
  [ -n "$db_proxy" ] && kill "$db_proxy" 2>/dev/null
  [ -n "$etcd_pid" ] && kill -9 "$etcd_pid" 2>/dev/null
  return 0
}
