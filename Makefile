# Thin wrapper: every target installs missing Debian packages, configures and builds.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
# make reproduce ALLOW_DIRTY=1: write the committed report from uncommitted changes (it says so).
ALLOW_DIRTY ?=

.PHONY: all setup configure build test bench reproduce reproduce-quick update-reference clean

all: build

setup:
	@bash scripts/setup.sh

configure: setup
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

test: build
	cd $(BUILD) && ctest --no-tests=error --output-on-failure -j $(JOBS)

bench: build
	@cmake --build $(BUILD) -j $(JOBS) --target benches
	@for b in $(BUILD)/bench_*; do [ -x "$$b" ] && "$$b" --benchmark_min_time=0.2; done

reproduce: build
	$(BUILD)/plab reproduce --jobs $(JOBS) --readme README.md $(if $(ALLOW_DIRTY),--allow-dirty)

reproduce-quick: build
	$(BUILD)/plab reproduce --quick --jobs $(JOBS) --check

update-reference: build
	$(BUILD)/plab reproduce --quick --jobs $(JOBS) --update-reference

clean:
	rm -rf $(BUILD)
