#!/usr/bin/env bash
# Web Push end to end against a local HTTPS push service that verifies each VAPID JWT and
# decrypts each message with http_ece (PyPI), with a kill -9 of the server mid-delivery
# (scripts/push_check.py says what is checked).
# Usage: scripts/push-test.sh   (after swift build; make test runs it)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh test
venv=.build/push-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import http_ece, cryptography, h2" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "http_ece==1.2.1" "cryptography==50.0.2" "h2==4.3.0"
fi
work=$(mktemp -d /tmp/tresor-push.XXXXXX)
trap 'rm -rf "$work"' EXIT
"$venv/bin/python" scripts/push_check.py "$PWD/.build/debug/tresor" "$work"
.build/debug/tresor ledger check --banks "$work/banks" --bank tresor
