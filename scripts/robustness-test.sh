#!/usr/bin/env bash
# Odd input on every surface of a demo server (scripts/robustness_probe.py): dates at the ends
# of the calendar, every query parameter, every JSON body field (customer and staff), every XML
# channel field, every web form field; then the camt.053, CSV and .ics files read back after it.
# Fails on a 5xx, a server that stops answering, or a file that does not read.
# Usage: scripts/robustness-test.sh   (after swift build and scripts/api-contract-test.sh, whose
# Python environment has PyYAML; make test runs it)
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/contract-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import yaml" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "PyYAML==6.0.2"
fi
. scripts/demo-server.sh robustness
.build/debug/tresor staff add --banks "$work/banks" --bank tresor --name robustness --password robustness-password >/dev/null
if ! "$venv/bin/python" scripts/robustness_probe.py "http://127.0.0.1:$port" robustness robustness-password \
  Sources/TresorServer/Resources/openapi.yaml Sources/TresorServer/Resources/xml; then
  tail -40 "$work/serve.log"
  exit 1
fi
