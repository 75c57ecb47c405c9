#!/usr/bin/env bash
# Waits until the `tresor serve` on 127.0.0.1:PORT answers GET /healthz; fails after SECONDS
# (default 60) with the server's LOG, so a test never runs against a server that is not there.
# why 60 s: a debug build starting the demo banks took 4 s on a loaded 2-core machine, and the
# scripts' former 10 s were within reach of a slower CI runner.
# Usage: scripts/await-healthy.sh PORT LOG [SECONDS]
set -euo pipefail
port=$1 log=$2 seconds=${3:-60}
for _ in $(seq 1 $((seconds * 10))); do
  curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && exit 0
  sleep 0.1
done
cat "$log" 2>/dev/null || true
echo "the server on port $port did not answer /healthz within $seconds s"
exit 1
