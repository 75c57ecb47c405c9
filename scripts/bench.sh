#!/usr/bin/env bash
# make bench: run inside scripts/postgres-test-cluster.sh with a release build.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 scripts/bench.py "$@"
python3 scripts/bench_web.py
# Scan corpus: share of slips decoded to the exact payment, receipts read right, time per image.
exec python3 scripts/bench_scan.py .build/release/tresor
