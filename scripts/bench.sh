#!/usr/bin/env bash
# make bench: run inside scripts/postgres-test-cluster.sh with a release build.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 scripts/bench.py "$@"
python3 scripts/bench_web.py
# First paint, layout shift and weight of the main screens in Chromium (the web tests' venv).
scripts/install-deps.sh test
[ -x .build/web-venv/bin/python ] || { python3 -m venv .build/web-venv && .build/web-venv/bin/pip install --quiet "selenium==4.25.0"; }
.build/web-venv/bin/python scripts/bench_paint.py
# Scan corpus: share of slips decoded to the exact payment, receipts read right, time per image.
exec python3 scripts/bench_scan.py .build/release/tresor
