#!/usr/bin/env bash
# Measurement, not yet a gate: schemathesis with every check (`--checks all`, including
# positive_data_acceptance and negative_data_rejection), seed 7, 20 examples per operation,
# against a demo server, as a customer and as staff (logout left out: it would end the session
# the run uses). Writes each run's report to $out (default .build/contract-all/) and prints the
# counts; `make test` runs scripts/api-contract-test.sh (the checks that pass today) instead.
# Usage: scripts/api-contract-all-checks.sh   (after swift build)
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/contract-venv
if [ ! -x "$venv/bin/schemathesis" ] || ! "$venv/bin/schemathesis" --version 2>/dev/null | grep -q "4.32.5"; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "schemathesis==4.32.5"
fi
out=${out:-.build/contract-all}
mkdir -p "$out"
. scripts/demo-server.sh contractall
base="http://127.0.0.1:$port"
.build/debug/tresor staff add --banks "$work/banks" --bank tresor --name contract-test --password contract-test-password >/dev/null
token() { python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])'; }
customer=$(curl -sf -X POST "$base/v1/sessions" -d '{"contract":"10000012","password":"tresor-demo"}' | token)
staff=$(curl -sf -X POST "$base/v1/staff/sessions" -d '{"name":"contract-test","password":"contract-test-password"}' | token)
common=(--url "$base" --checks all --seed 7 --generation-database none --phases examples,coverage,fuzzing --workers 1 --no-color --max-examples 20
  --max-failures 500 --request-timeout 20 --warnings off)
"$venv/bin/schemathesis" run "$base/openapi.yaml" "${common[@]}" -H "Authorization: Bearer $customer" \
  --exclude-path-regex '^/v1/staff/' --exclude-path /v1/sessions/current --exclude-path '/v1/certificates/verify/{code}' \
  > "$out/customer.txt" 2>&1 || true
"$venv/bin/schemathesis" run "$base/openapi.yaml" "${common[@]}" -H "Authorization: Bearer $staff" \
  --include-path-regex '^/v1/staff/' --exclude-path /v1/staff/sessions > "$out/staff.txt" 2>&1 || true
for side in customer staff; do
  echo "$side: $(grep -cE '^_{3,} [A-Z]+ /' "$out/$side.txt" || true) operations with a failure (details in $out/$side.txt)"
done
