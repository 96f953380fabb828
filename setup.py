"""The build behind pyproject.toml: the module perceptron_lab._core is built by the project's CMake
(target _core, Release) in PLAB_PIP_BUILD_DIR (default build-pip/ beside this file), then copied
into the wheel with _version.py; the pure-Python files come from python/perceptron_lab/.
The module is built for Debian's /usr/bin/python3 (python/find_python.cmake): run pip from it or
from a virtual environment made from it."""
import os
import re
import shutil
import subprocess

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.abspath(os.environ.get("PLAB_PIP_BUILD_DIR") or os.path.join(ROOT, "build-pip"))


def project_version() -> str:
    """The one version of the project: CMakeLists.txt's project(perceptron_lab VERSION x.y.z)."""
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        return re.search(r"project\(perceptron_lab VERSION ([0-9.]+)", f.read()).group(1)


class CMakeBuild(build_ext):
    """Configures and builds the CMake target _core, then copies it and _version.py into the wheel."""

    def build_extension(self, ext):
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        subprocess.run(["cmake", "-S", ROOT, "-B", BUILD, "-DCMAKE_BUILD_TYPE=Release", "-DPLAB_PYTHON=ON"], check=True)
        subprocess.run(["cmake", "--build", BUILD, "--target", "_core", "-j", jobs], check=True)
        built = os.path.join(BUILD, "python", "perceptron_lab")
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        (so,) = [n for n in os.listdir(built) if n.startswith("_core.") and n.endswith(".so")]
        shutil.copy2(os.path.join(built, so), target)
        shutil.copy2(os.path.join(built, "_version.py"), os.path.dirname(target))


os.makedirs(BUILD, exist_ok=True)
setup(
    version=project_version(),
    ext_modules=[Extension("perceptron_lab._core", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    # setuptools' own files go beside the CMake build, not into the source tree or build/.
    options={"build": {"build_base": os.path.join(BUILD, "setuptools")}, "egg_info": {"egg_base": BUILD}},
)
