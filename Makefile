# Thin wrapper: every target installs missing Debian packages, configures and builds.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
# make reproduce ALLOW_DIRTY=1: write the committed report from uncommitted changes (it says so).
ALLOW_DIRTY ?=

.PHONY: all setup configure build test bench bench-report bench-peers reproduce reproduce-quick update-reference clean

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

# docs/performance.md, from the benchmarks' JSON (scripts/bench_report.py).
BENCH_OUT = $(BUILD)/perf-report
BENCH_JSON = --benchmark_repetitions=3 --benchmark_display_aggregates_only=true --benchmark_out_format=json
bench-report: build
	@cmake --build $(BUILD) -j $(JOBS) --target bench_projectron bench_threads bench_learners bench_multiclass
	@rm -rf $(BENCH_OUT) && mkdir -p $(BENCH_OUT) && cat /proc/loadavg > $(BENCH_OUT)/load_before
	$(BUILD)/bench_projectron --benchmark_filter='FmaPeak|MulAddPeak' $(BENCH_JSON) --benchmark_out=$(BENCH_OUT)/peak.json
	$(BUILD)/bench_threads --benchmark_filter='StreamTriad/1/' $(BENCH_JSON) --benchmark_out=$(BENCH_OUT)/triad.json
	$(BUILD)/bench_learners $(BENCH_JSON) --benchmark_out=$(BENCH_OUT)/a9a.json
	$(BUILD)/bench_multiclass --benchmark_filter=WholePassMnist $(BENCH_JSON) --benchmark_out=$(BENCH_OUT)/mnist.json
	@# The AVX2 path on a CPU that has AVX-512 (numerics/simd.hpp), each against its own peak.
	if grep -qw avx512f /proc/cpuinfo; then \
	  PLAB_SIMD=avx2 $(BUILD)/bench_learners $(BENCH_JSON) --benchmark_out=$(BENCH_OUT)/a9a_avx2.json && \
	  PLAB_SIMD=avx2 $(BUILD)/bench_multiclass --benchmark_filter=WholePassMnist $(BENCH_JSON) --benchmark_out=$(BENCH_OUT)/mnist_avx2.json; fi
	@cat /proc/loadavg > $(BENCH_OUT)/load_after
	/usr/bin/python3 scripts/bench_report.py $(BENCH_OUT) docs/performance.md

# plab against LIBOL's KOL on a9a and ijcnn1 (scripts/bench_peers.py): make bench-peers KOL=<KOL checkout>.
# Writes its table into docs/performance.md; PLAB_SIMD=avx2 measures (and writes) the AVX2 path. Not part of test.
REPEATS ?= 5
KOL_CXXFLAGS ?=
bench-peers: build
	@test -n "$(KOL)" || { echo "make bench-peers: give the KOL checkout: make bench-peers KOL=<dir>"; exit 2; }
	/usr/bin/python3 scripts/bench_peers.py --kol "$(KOL)" --plab $(BUILD)/plab --build-dir $(BUILD)/kol \
	  --repeats $(REPEATS) --out docs/performance.md $(if $(KOL_CXXFLAGS),--kol-cxxflags "$(KOL_CXXFLAGS)") \
	  --command "make bench-peers KOL=<checkout>$(if $(filter-out 5,$(REPEATS)), REPEATS=$(REPEATS))"

reproduce: build
	$(BUILD)/plab reproduce --jobs $(JOBS) --readme README.md $(if $(ALLOW_DIRTY),--allow-dirty)

reproduce-quick: build
	$(BUILD)/plab reproduce --quick --jobs $(JOBS) --check

update-reference: build
	$(BUILD)/plab reproduce --quick --jobs $(JOBS) --update-reference

clean:
	rm -rf $(BUILD)
