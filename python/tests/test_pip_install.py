"""`pip install --no-build-isolation .` from a copy of the source tree into a fresh virtual
environment made with --system-site-packages (numpy, scipy from Debian), then the installed package
imported from outside the source tree learns (docs/python.md#pip). The copy rebuilds the module
with the project's CMake; its build folder sits one level under the copy, as build/ does under the
tree, so ccache (CCACHE_BASEDIR = the copy) reuses the objects of `make build`."""
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2]
PY = "/usr/bin/python3"

# Learns a hand-worked sequence with the installed package: the primal Perceptron from w = 0 on
# (1,0)+, (0,1)+, (-1,0)-, (0,-1)-: rounds 1 and 2 score 0 (a mistake each), w = (1,1) then scores
# -1 on both negatives: 2 mistakes. Prints the package's folder and version.
CHECK = """
import sys, numpy as np, perceptron_lab as pl
r = pl.run("perceptron", np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]]),
           np.array([1.0, 1.0, -1.0, -1.0]), bounds=False, threads=1)
assert r.mistakes == 2, r
import importlib.metadata as md
print(pl.__file__, pl.__version__, md.version("perceptron-lab"))
"""


def _missing_tools():
    """The modules the install needs that Debian's python3 lacks (scripts/setup.sh installs them)."""
    return [m for m in ("venv", "ensurepip", "setuptools", "wheel")
            if subprocess.run([PY, "-c", f"import {m}"], capture_output=True).returncode != 0]


def _ignore(folder, names):
    """What a fresh clone lacks: build folders, git metadata, results, caches."""
    top = Path(folder) == SRC
    return [n for n in names if n == "__pycache__" or (top and (n.startswith("build") or n in (".git", "results")))]


def test_pip_install_into_a_virtual_environment(tmp_path):
    missing = _missing_tools()
    if missing:
        pytest.skip(f"/usr/bin/python3 lacks {missing}: run scripts/setup.sh (python3-venv, python3-setuptools, "
                    "python3-wheel)")
    src, venv, outside = tmp_path / "src", tmp_path / "venv", tmp_path / "elsewhere"
    shutil.copytree(SRC, src, ignore=_ignore, symlinks=True)
    outside.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["CCACHE_BASEDIR"] = str(src)
    subprocess.run([PY, "-m", "venv", "--system-site-packages", str(venv)], check=True, env=env)
    r = subprocess.run([str(venv / "bin" / "pip"), "install", "--no-build-isolation", "--no-index", str(src)],
                       env=env, cwd=outside, capture_output=True, text=True)
    assert r.returncode == 0, f"pip install failed:\n{r.stdout[-6000:]}\n{r.stderr[-6000:]}"

    r = subprocess.run([str(venv / "bin" / "python"), "-c", CHECK], env=env, cwd=outside, capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
    where, version, dist_version = r.stdout.split()
    assert Path(where).resolve().is_relative_to(venv.resolve()), f"imported {where}, not the installed package"
    cmake_version = re.search(r"project\(perceptron_lab VERSION ([0-9.]+)", (SRC / "CMakeLists.txt").read_text())[1]
    assert version == cmake_version and dist_version == cmake_version
