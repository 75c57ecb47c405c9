#!/usr/bin/env bash
# Clearing against another implementation of ISO 20022 (pyiso20022, PyPI): it reads the pain.001 a
# demo server exports and writes the pain.002 answering it and a pacs.008 crediting a customer;
# the server imports both through the staff API (scripts/clearing_interop.py says what is checked).
# Usage: scripts/clearing-interop-test.sh   (after swift build; make test runs it)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh test
venv=.build/interop-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import pyiso20022, xsdata, lxml" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "pyiso20022==1.6.2" "xsdata==26.10" "lxml==6.1.3"
fi
. scripts/demo-server.sh interop
.build/debug/tresor staff add --banks "$work/banks" --bank tresor --name interop --password interop-password >/dev/null
"$venv/bin/python" scripts/clearing_interop.py "http://127.0.0.1:$port" "$work" "$PWD/.build/debug/tresor"
.build/debug/tresor ledger check --banks "$work/banks" --bank tresor
