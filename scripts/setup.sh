#!/usr/bin/env bash
# Installs the Debian packages perceptron-lab needs, only those missing (idempotent).
set -euo pipefail
pkgs=(build-essential cmake pkg-config libeigen3-dev libspectra-dev libboost-dev libboost-iostreams-dev
      libboost-math-dev libboost-filesystem-dev libboost-system-dev libcli11-dev nlohmann-json3-dev libfmt-dev librapidcheck-dev
      libgtest-dev libgmock-dev libbenchmark-dev libssl-dev gnuplot-nox libgnuplot-iostream-dev python3-jsonschema
      xz-utils bzip2 gzip libopenmpi-dev openmpi-bin clang libclang-rt-dev libsvm-tools
      python3-pdfminer poppler-utils python3-pil python3-numpy  # MPI: docs/cluster.md; clang + libFuzzer: tests/fuzz/run.sh; libsvm-tools: svm-predict, tests/test_libsvm_export.cpp; pdfminer..numpy: scripts/digitize_jmlr2009.py
      pybind11-dev python3-dev python3-scipy python3-sklearn python3-pytest python3-hypothesis  # the Python package: docs/python.md
      python3-matplotlib  # Result.plot and plot_traces: docs/plot.md#python
      python3-venv python3-setuptools python3-wheel)  # pip install . into a virtual environment: docs/python.md#pip
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "setup: installing ${missing[*]}" >&2
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
