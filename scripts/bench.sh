#!/usr/bin/env bash
# make bench: run inside scripts/postgres-test-cluster.sh with a release build.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 scripts/bench.py "$@"
exec python3 scripts/bench_web.py
