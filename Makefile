# Tresor: what a person does with the project. See README.md.
SHELL := /bin/bash
PORT ?= 8080
BANKS ?= ./demo-banks
SWIFT_FORMAT := swift format

.PHONY: run deps build test test-unit crash-test lint format bench bench-scale deb deb-test upgrade-test db-up clean

## Install what is missing, build, and serve the two demo banks on http://127.0.0.1:$(PORT) and
## http://leman.localhost:$(PORT), each on its own SQLite file in $(BANKS).
run: deps build
	.build/debug/tresor serve --host 127.0.0.1 --port $(PORT) --banks $(BANKS) --demo

deps:
	@scripts/install-deps.sh base

build:
	swift build --product tresor

## Install what is missing and run every test: lint, TresorKit's generated client against
## openapi.yaml, unit, API, the store contract suite on SQLite and a real PostgreSQL started on
## loopback in a temp dir, TresorKit and its example against a real server, the kill -9 crash test on
## both, the browser tests, the API against its OpenAPI document (schemathesis), the robustness probe
## and three instances behind HAProxy under faults. Every suite runs even when one fails; a summary
## of all of them ends the output (scripts/run-all-tests.sh).
test: deps
	@scripts/install-deps.sh test
	swift build --build-tests
	scripts/postgres-test-cluster.sh scripts/s3-test-server.sh scripts/run-all-tests.sh

## Check formatting with the one .swift-format at the root, and that nothing reads outside the
## checkout (a clone has nothing beside it).
lint:
	$(SWIFT_FORMAT) lint --strict --recursive Sources Tests Examples Package.swift
	python3 scripts/check-self-contained.py
	@# Foundation's Process crashes now and then on Linux (Sources/TresorSpawn/ChildProcess.swift says why).
	@! git grep -n -E '(\bProcess\(\)|: Process\b)' -- Sources Tests Examples || { echo "use ChildProcess, not Foundation's Process"; exit 1; }

format:
	$(SWIFT_FORMAT) --in-place --recursive Sources Tests Examples Package.swift

## Ledger throughput against raw SQL on SQLite and PostgreSQL; writes bench/results/ledger.json.
bench:
	@scripts/install-deps.sh base bench
	swift build -c release --product tresor
	scripts/postgres-test-cluster.sh scripts/bench.sh

## Customer reads on the demo bank and after a million credits to one business account, with
## the import and `ledger check` at 10 % and 100 %, on SQLite and PostgreSQL; writes
## bench/results/scale.json.
bench-scale:
	@scripts/install-deps.sh base bench
	swift build -c release --product tresor
	scripts/postgres-test-cluster.sh python3 scripts/bench_scale.py .build/release/tresor

## The Debian package dist/tresor_<version>_amd64.deb: release binary, resources, systemd units.
deb:
	scripts/make-deb.sh

## The package checked as it is installed (as root): lintian, systemd-analyze verify, dpkg -i, the
## demo served; PREVIOUS=REF installs that commit's package first and upgrades it.
deb-test:
	scripts/deb-test.sh $(if $(PREVIOUS),--previous $(PREVIOUS))

## An upgrade under load: PREVIOUS=REF's release binary (built in a worktree of its own) and this
## checkout's on one PostgreSQL, the new one migrating while the old ones serve.
upgrade-test: build
	@test -n "$(PREVIOUS)" || { echo "say PREVIOUS=REF (a commit to upgrade from)"; exit 2; }
	scripts/make-deb.sh --ref $(PREVIOUS) >/dev/null
	scripts/postgres-test-cluster.sh scripts/upgrade-test.sh .build-deb-$$(git rev-parse --short=12 $(PREVIOUS))/release/tresor

## A PostgreSQL on loopback for manual work; prints its URL, stops on Ctrl-C.
db-up:
	scripts/postgres-test-cluster.sh bash -c 'echo "TRESOR_DATABASE_URL=$$TRESOR_TEST_POSTGRES_URL"; sleep infinity'

clean:
	rm -rf .build tresor.sqlite* $(BANKS)
