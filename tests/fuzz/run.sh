#!/usr/bin/env bash
# Builds the libFuzzer harnesses (clang, ASan+UBSan) in build-fuzz/ and runs each one for SECONDS
# (default 20) from its committed corpus; new inputs go to a scratch directory, never into the
# corpus. A crash, a sanitizer report or an unexpected exception fails (docs/testing.md#fuzzing).
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-20}
if ! command -v clang++ >/dev/null; then
  echo "fuzz: clang++ not found, harnesses not built (scripts/setup.sh installs it)" >&2
  exit 0
fi
cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ -DPLAB_FUZZ=ON >/dev/null
cmake --build build-fuzz -j "$(nproc)" --target fuzz_libsvm fuzz_csv fuzz_trace fuzz_model fuzz_stream
for name in libsvm csv trace model stream; do
  scratch=$(mktemp -d)
  echo "fuzz: $name for ${secs} s" >&2
  build-fuzz/tests/fuzz/fuzz_$name -max_total_time="$secs" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 "$scratch" "tests/fuzz/corpus/$name" 2>&1 | tail -n 12
  rm -rf "$scratch"
done
