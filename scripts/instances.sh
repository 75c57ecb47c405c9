#!/usr/bin/env bash
# Sourced by scripts/chaos-test.sh and scripts/failover-test.sh: several `tresor serve` on one
# database behind an HAProxy, as a bank runs them. Expects $work (a temp dir), $tresor (the binary)
# and $db (the database URL) to be set; fills the arrays pids and ports by instance name.
declare -A pids ports
proxy=""

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

start() {  # start INSTANCE [ARGS…]: one `tresor serve` on the shared database, waited for
  local instance=$1 binary=$tresor
  shift
  [[ $binary = /* ]] || binary="$PWD/$binary"
  [ -n "${ports[$instance]:-}" ] || ports[$instance]=$(free_port)
  (cd "$work" && exec "$binary" serve --db "$db" --host 127.0.0.1 --port "${ports[$instance]}" "$@" \
    >>"$work/serve-$instance.log" 2>&1) &
  pids[$instance]=$!
  # why: its kill -9 is the test's doing; the shell need not report it.
  disown
  scripts/await-healthy.sh "${ports[$instance]}" "$work/serve-$instance.log"
}

front_proxy() {  # front_proxy INSTANCE…: HAProxy on $proxy_port in front of the instances, waited for
  proxy_port=$(free_port)
  # why: what the proxy answers itself (an instance died mid-request, none is up) is the API's own
  # 503 shape with Retry-After, so a client retries with the same key as for the server's 503.
  local code body instance servers=""
  for code in 502 503 504; do
    body='{"error":{"code":"service_unavailable","field":null,"message":"Please try again in a moment.","suggested":"1"}}'
    printf 'HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\nCache-Control: no-store\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s' \
      "${#body}" "$body" >"$work/$code.http"
  done
  for instance in "$@"; do servers+="  server $instance 127.0.0.1:${ports[$instance]} check"$'\n'; done
  cat >"$work/haproxy.cfg" <<CFG
global
  maxconn 512
defaults
  mode http
  timeout connect 1s
  timeout client 30s
  timeout server 30s
  option redispatch
  retries 2
  errorfile 502 $work/502.http
  errorfile 503 $work/503.http
  errorfile 504 $work/504.http
frontend bank
  bind 127.0.0.1:$proxy_port
  default_backend tresor
backend tresor
  balance roundrobin
  option httpchk GET /healthz
  default-server inter 300ms fall 1 rise 2
$servers
CFG
  haproxy -f "$work/haproxy.cfg" >"$work/haproxy.log" 2>&1 &
  proxy=$!
  for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$proxy_port/healthz" >/dev/null && return; sleep 0.1; done
}

stop_instances() {  # every instance killed, the proxy stopped (for an EXIT trap)
  local pid
  for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  [ -n "$proxy" ] && kill "$proxy" 2>/dev/null
  return 0
}
