#!/usr/bin/env bash
# Starts an S3-compatible object store (moto's server, from PyPI, in .build/s3-venv) on
# loopback, runs the given command with TRESOR_TEST_S3_ENDPOINT pointing at it, then stops it.
# Usage: scripts/s3-test-server.sh COMMAND [ARGS…]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh test
venv=.build/s3-venv
if [ ! -x "$venv/bin/moto_server" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "moto[server]==5.2.5"
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
log=$(mktemp /tmp/tresor-s3.XXXXXX)
"$venv/bin/moto_server" -H 127.0.0.1 -p "$port" >"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
export TRESOR_TEST_S3_ENDPOINT="http://127.0.0.1:$port"
export TRESOR_REQUIRE_S3=1
"$@"
