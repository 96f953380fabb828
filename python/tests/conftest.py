# Shared fixtures of the Python tests: the package is imported from build/python (PYTHONPATH set
# by ctest), the CLI binary from $PLAB_BIN (this build's plab), the data from the search path.
import os
import subprocess
import tempfile

import pytest
from hypothesis.configuration import set_hypothesis_home_dir

# hypothesis's caches (st.text's character tables) go to the temporary folder, not the source tree.
set_hypothesis_home_dir(os.path.join(tempfile.gettempdir(), "perceptron_lab_hypothesis"))

import perceptron_lab as pl


@pytest.fixture(scope="session")
def plab_bin():
    path = os.environ.get("PLAB_BIN", "build/plab")
    if not os.path.exists(path):
        pytest.fail(f"the plab binary {path} is missing (ctest sets PLAB_BIN)")
    return path


def run_cli(plab_bin, tmp_path, *args):
    """Runs `plab run` with a trace and a summary; returns (trace text, summary path)."""
    trace, summary = tmp_path / "trace.csv", tmp_path / "summary.json"
    subprocess.run([plab_bin, "run", "--quiet", "--trace", str(trace), "--summary", str(summary), *args], check=True)
    return trace.read_text(), summary


def registry_set(name):
    try:
        return pl.load(name)
    except pl.DataError as e:
        pytest.skip(f"{name} not on the data search path: {e}")


@pytest.fixture(scope="session")
def a9a():
    return registry_set("a9a")


@pytest.fixture(scope="session")
def usps():
    return registry_set("usps")
