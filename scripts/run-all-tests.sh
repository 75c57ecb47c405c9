#!/usr/bin/env bash
# Every test, run inside scripts/postgres-test-cluster.sh (which exports TRESOR_TEST_POSTGRES_URL).
set -euo pipefail
cd "$(dirname "$0")/.."
export TRESOR_REQUIRE_POSTGRES=1
swift test --skip-build
scripts/crash-test.sh sqlite
scripts/crash-test.sh postgres
scripts/web-test.sh
scripts/api-contract-test.sh
scripts/robustness-test.sh
scripts/chaos-test.sh
