"""The package as Python users expect it: __version__ is the project's, the namespaces hold only
what they export, and every public function, class and method has a docstring that help() shows."""
import inspect
import re
from pathlib import Path

import perceptron_lab as pl
import perceptron_lab.sklearn as plsk

SRC = Path(__file__).resolve().parents[2]


def test_version_is_the_cmake_project_version():
    text = (SRC / "CMakeLists.txt").read_text()
    assert pl.__version__ == re.search(r"project\(perceptron_lab VERSION ([0-9.]+)", text)[1]


def _public(module):
    return {n for n in vars(module) if not n.startswith("_")}


def test_namespaces_hold_only_what_they_export():
    # "sklearn" is the submodule, bound as an attribute once imported (above).
    assert _public(pl) - {"sklearn"} == set(pl.__all__)
    assert _public(plsk) == set(plsk.__all__)
    for stray in ("np", "os", "json", "Any", "annotations"):
        assert not hasattr(pl, stray), stray


def _documented(obj):
    """A docstring of its own (a class's is not inherited from its base)."""
    doc = obj.__doc__ if inspect.isclass(obj) else inspect.getdoc(obj)
    return bool(doc and doc.strip())


def test_every_public_function_class_and_method_has_a_docstring():
    undocumented = []
    for module in (pl, plsk):
        for name in module.__all__:
            obj = getattr(module, name)
            if not (inspect.isclass(obj) or callable(obj)):
                continue  # data (MULTICLASS_OF)
            if not _documented(obj):
                undocumented.append(f"{module.__name__}.{name}")
            if inspect.isclass(obj) and obj.__module__.startswith("perceptron_lab") and not issubclass(obj, Exception):
                for m, v in vars(obj).items():
                    if not m.startswith("_") and (callable(v) or isinstance(v, property)) and not _documented(v):
                        undocumented.append(f"{module.__name__}.{name}.{m}")
    assert undocumented == []
