#!/usr/bin/env bash
# Browser tests of the web app: a real headless Chromium at 375x812 driven by Selenium against
# `tresor serve --demo` with the two demo banks (Tresor Demo Bank at 127.0.0.1, Banque du Léman at
# leman.localhost), each on a fresh SQLite file. Screenshots of failures go to .build/web-artifacts.
# Usage: scripts/web-test.sh [PATTERN]   (a file name pattern of Tests/web; default every test_*.py)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh test
venv=.build/web-venv
# icalendar (PyPI) reads the appointments' .ics files: a parser written elsewhere than ours;
# axe-selenium-python bundles axe-core, the accessibility audit every screen must pass;
# cryptography signs as the demo phone does when it pairs with the self-service station;
# hypothesis generates the input of the property tests of the parsers (test_properties.py);
# pycamt, a camt.053 reader written for banks' files, reads the statements as a customer's
# accounting software would; pyotp computes the authenticator app's codes (RFC 6238) as a phone would; fido2 (Yubico)
# writes passkey credentials with CBOR and COSE code of its own.
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import selenium, icalendar, axe_selenium_python, PIL, cryptography, hypothesis, pycamt, pyotp, fido2" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "selenium==4.25.0" "icalendar==6.1.0" "axe-selenium-python==2.1.6" "pillow==13.0.0" "cryptography==44.0.0" "hypothesis==6.112.0" "pycamt==1.1.1" "pyotp==2.9.0" "fido2==1.1.3"
fi
. scripts/demo-server.sh web
# why TMPDIR inside $work: Chromium leaves a folder of its own there at every start when
# chromedriver stops it, and the tests write downloaded files; the trap removes them all.
mkdir "$work/tmp"
TMPDIR="$work/tmp" TRESOR_WEB_URL="http://127.0.0.1:$port" TRESOR_WEB_SECOND_BANK_URL="http://leman.localhost:$port" TRESOR_WEB_TANS="$work/tresor-demo-tans.txt" TRESOR_WEB_STATION="$work/tresor-demo-station.json" TRESOR_WEB_BANKS="$work/banks" TRESOR_WEB_ARTIFACTS="$PWD/.build/web-artifacts" "$venv/bin/python" -m unittest discover -s Tests/web -p "${1:-test_*.py}" -v
