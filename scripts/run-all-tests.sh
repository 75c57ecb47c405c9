#!/usr/bin/env bash
# Every test suite, run inside scripts/postgres-test-cluster.sh (which exports TRESOR_TEST_POSTGRES_URL).
# why each suite runs whatever the last one did: a failure early must not hide the later ones.
# One summary of every suite at the end; the exit status is 1 if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."
export TRESOR_REQUIRE_POSTGRES=1
logs="$(mktemp -d /tmp/tresor-suites.XXXXXX)"
trap 'rm -rf "$logs"' EXIT
# Every `tresor serve` the suites start also appends its log lines, as JSON, to one file; the
# last suite reads every line for what must never be logged (scripts/log_scan.py).
export TRESOR_LOG_FILE="$logs/servers.jsonl"
summary=()
failed=0

# suite NAME COMMAND…: runs COMMAND with its output shown and kept, and notes the result.
suite() {
  local name="$1" log started status result detail=""
  shift
  log="$logs/${#summary[@]}.log"
  echo "=== $name: $*"
  started=$(date +%s)
  "$@" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  result=passed
  if [ "$status" -ne 0 ]; then
    result="FAILED (exit $status)"
    failed=1
  fi
  # The suite's own count where it prints one (Swift Testing, unittest).
  detail=$(grep -aE '^(✔|✘|􁁛|􀢄)? ?Test run with [0-9]+ tests|^Ran [0-9]+ tests' "$log" | tail -n 1 | sed -E 's/^[^A-Z]*//')
  summary+=("$(printf '%-34s %-18s %5ss  %s' "$name" "$result" "$(($(date +%s) - started))" "$detail")")
  if [ "$status" -ne 0 ]; then
    # Swift Testing names each failed test; unittest marks them FAIL/ERROR.
    grep -aE '(✘|􀢄) Test .*(failed|recorded an issue)|^(FAIL|ERROR): ' "$log" | grep -v 'Test run with' | head -n 20 |
      sed 's/^/      /' >"$log.failures"
    while IFS= read -r line; do summary+=("$line"); done <"$log.failures"
  fi
}

suite "format and self-containment" make --no-print-directory lint
suite "TresorKit client = openapi.yaml" scripts/generate-client.sh --check
suite "Swift tests" swift test --skip-build
suite "crash test (SQLite)" scripts/crash-test.sh sqlite
suite "crash test (PostgreSQL)" scripts/crash-test.sh postgres
suite "browser tests" scripts/web-test.sh
suite "clearing interop (pyiso20022)" scripts/clearing-interop-test.sh
suite "API contract (schemathesis)" scripts/api-contract-test.sh
suite "API contract, every check (schemathesis --checks all)" scripts/api-contract-all-checks.sh
suite "Web Push (http_ece, kill -9)" scripts/push-test.sh
suite "robustness probe" scripts/robustness-test.sh
suite "chaos test" scripts/chaos-test.sh
suite "failover (Patroni, kill -9)" scripts/failover-test.sh
suite "point-in-time restore (pgBackRest)" scripts/pitr-test.sh
suite "server logs (JSON)" scripts/log-test.sh
suite "every server log line of this run" python3 scripts/log_scan.py "$TRESOR_LOG_FILE"

echo
echo "=== Summary"
printf '%s\n' "${summary[@]}"
exit "$failed"
