#!/usr/bin/env bash
# make bench: run inside scripts/postgres-test-cluster.sh with a release build.
set -euo pipefail
cd "$(dirname "$0")/.."
# why one scratch folder: the benches' databases (gigabytes of SQLite after the soak), demo
# servers' folders and Chromium's profile and socket folders go there, and all of it is removed
# at exit; each was left in /tmp before (10 GB after a few dozen runs).
scratch=$(mktemp -d /tmp/tresor-bench-run.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
export TMPDIR="$scratch"
python3 scripts/bench.py "$@"
# A camt.054 of 100,000 credits imported on SQLite and PostgreSQL (bench/results/clearing.json).
python3 scripts/bench_clearing.py .build/release/tresor
python3 scripts/bench_web.py
# HTTPS against plain HTTP, HTTP/2 against HTTP/1.1 (bench/results/tls.json).
python3 scripts/bench_tls.py
# First paint, layout shift and weight of the main screens in Chromium (the web tests' venv).
scripts/install-deps.sh test
[ -x .build/web-venv/bin/python ] || { python3 -m venv .build/web-venv && .build/web-venv/bin/pip install --quiet "selenium==4.25.0"; }
.build/web-venv/bin/python scripts/bench_paint.py
# Scan corpus: share of slips decoded to the exact payment, receipts read right, time per image;
# and QR-bills as phones photograph them, generated for this run (Pillow and segno in a venv).
venv=.build/corpus-venv
if ! "$venv/bin/python" -c "import PIL, segno" 2>/dev/null; then
  python3 -m venv "$venv" && "$venv/bin/pip" install --quiet "pillow==13.0.0" "segno==1.6.6"
fi
phone="$scratch/phone"
mkdir "$phone"
"$venv/bin/python" scripts/corpus/phone.py "$phone"
TRESOR_PHONE_CORPUS="$phone" python3 scripts/bench_scan.py .build/release/tresor
