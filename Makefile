# The commands the README gives: `make run` and `make test` set up everything they need.
SWIFT ?= swift
BIN_RELEASE = .build/release/pkgbuild
FUZZ_SECONDS ?= 60

.PHONY: run test build release bench fuzz soak bootstrap clean

bootstrap:
	@scripts/bootstrap

build: bootstrap
	$(SWIFT) build

release: bootstrap
	$(SWIFT) build -c release

# The main job on the bundled demo data.
run: release
	@scripts/demo $(BIN_RELEASE)

# The suite runs beside a throwaway PostgreSQL + PostGIS cluster, stopped on every exit.
# TEST_FLAGS='--filter PostgreSQLTests' runs part of it.
test: bootstrap
	$(SWIFT) build --build-tests
	@scripts/with-pg-test-cluster $(SWIFT) test --skip-build $(TEST_FLAGS)

bench:
	@scripts/bootstrap --bench
	$(SWIFT) build -c release
	@bench/run $(BIN_RELEASE)

fuzz: bootstrap
	@fuzz/run $(FUZZ_SECONDS)

# The model-based sync test at length (Tests/Model): make soak SEED=7 STEPS=5000, with KINDS=
# to choose the step kinds, BACKEND=postgresql for a PostGIS source (in the throwaway cluster
# `make test` starts) and SOAK_FLAGS=--shrink (or --pending-exit-2, --verbose, --keep DIR).
SEED ?= 1
STEPS ?= 2000
KINDS ?= attr,geom,insert,delete,revert,replace,swap,latin1,office,oneway,kill
BACKEND ?= geopackage
SOAK_FLAGS ?=
soak: bootstrap
	$(SWIFT) build
	@scripts/with-pg-test-cluster /usr/bin/python3 Tests/Model/driver.py --pkgbuild .build/debug/pkgbuild \
		--seed $(SEED) --steps $(STEPS) --kinds $(KINDS) --backend $(BACKEND) $(SOAK_FLAGS)

clean:
	rm -rf .build out bench/work
