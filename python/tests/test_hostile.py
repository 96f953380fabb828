# Hostile Python inputs refused with a ValueError naming what is wrong, before anything reads them
# (docs/python.md#readings, #sparse-checks; docs/inputs.md#json): deep JSON, edited CSR arrays,
# strings and complex values in rows, binary learners given classes, integer options.
import hashlib
import json
import pickle
import subprocess
import sys

import numpy as np
import pytest
import scipy.sparse as sp

import perceptron_lab as pl
from perceptron_lab import _core
from perceptron_lab.sklearn import OnlineKernelClassifier

DEEP = "[" * 100000 + "]" * 100000


def _edited_indptr(v):
    X = sp.csr_matrix(np.eye(6))
    X.indptr = X.indptr.astype(np.int64)
    X.indptr[2] = v
    return X


@pytest.mark.parametrize("v", [7, 5, -1, 100, 10**8])
def test_an_edited_indptr_is_refused_before_scipy_reads_it(v):
    y = np.array([1, -1] * 3)
    # In a child process: before the check, scipy's sum_duplicates wrote past the arrays (a crash).
    code = ("import numpy as np, scipy.sparse as sp, perceptron_lab as pl\n"
            "from perceptron_lab.sklearn import OnlineKernelClassifier as C\n"
            f"X = sp.csr_matrix(np.eye(6)); X.indptr = X.indptr.astype(np.int64); X.indptr[2] = {v}\n"
            "y = np.array([1, -1] * 3)\n"
            "for f in (lambda: pl.run('perceptron', X, y), lambda: C().fit(X, y), lambda: C().partial_fit(X, y)):\n"
            "    try:\n        f()\n    except ValueError as e:\n        assert 'X.indptr' in str(e), e\n"
            "    else:\n        raise SystemExit('accepted')\n"
            "print('refused')\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "refused" in r.stdout, (r.returncode, r.stdout, r.stderr[-2000:])
    with pytest.raises(ValueError, match="X.indptr"):
        pl.run("perceptron", _edited_indptr(v), y)


def test_other_csr_faults_name_the_array():
    X = sp.csr_matrix(np.eye(4))
    X.indices = X.indices.copy()
    X.indices[1] = 9
    with pytest.raises(ValueError, match=r"X.indices\[1\] = 9"):
        pl.run("perceptron", X, np.array([1, -1, 1, -1]))
    X = sp.csr_matrix(np.eye(4))
    X.indptr = X.indptr[:-1].copy()
    with pytest.raises(ValueError, match="X.indptr has 4 entries"):
        pl.run("perceptron", X, np.array([1, -1, 1, -1]))
    X = sp.csr_matrix(np.eye(4))
    X.indptr = X.indptr.copy()
    X.indptr[0] = 1
    with pytest.raises(ValueError, match=r"X.indptr\[0\] = 1"):
        pl.run("perceptron", X, np.array([1, -1, 1, -1]))
    r = sp.csr_matrix(np.eye(3)[:1])
    r.indptr = np.array([0, 3], dtype=r.indptr.dtype)
    with pytest.raises(ValueError, match="x.indptr"):
        pl.Learner("perceptron", dim=3).learn_one(r, 1)


def test_row_values_are_real_numbers():
    lr = pl.Learner("perceptron", dim=3)
    with pytest.raises(ValueError, match="expected a real number"):
        lr.learn_one({1: "2.5"}, 1)
    with pytest.raises(ValueError, match="complex"):
        lr.learn_one(sp.csr_matrix(np.array([[1j, 0, 0]])), 1)
    with pytest.raises(ValueError, match="column"):
        lr.learn_one({"1": 2.5}, 1)
    assert lr.rounds == 0
    lr.learn_one({1: np.float32(2.5), 2: 3}, 1)
    assert lr.rounds == 1


def test_bounds_refuse_a_negative_squared_norm():
    X, y = np.eye(4), np.array([1, -1, 1, -1])
    for bad in (-1.0, float("nan"), float("inf"), "3"):
        with pytest.raises(ValueError, match="f_norm2"):
            pl.bounds(X, y, mistakes=[1, 0, 0, 0], f_norm2=bad)
    assert pl.bounds(X, y, mistakes=[1, 0, 0, 0], f_norm2=1.0)


def test_a_binary_learner_takes_no_classes():
    with pytest.raises(ValueError, match="binary learner"):
        pl.Learner("bpa-s", classes=[0, 1], budget=5)


def test_every_integer_option_reads_whole_floats_and_0d_arrays_alike():
    for kw in ({"budget": 2.0}, {"budget": np.array(5)}, {"budget": np.int64(5)}):
        pl.Learner("rbp", kernel="rbf", **kw)
    pl.Learner("kernel-perceptron", kernel="poly", degree=2.0)
    pl.Learner("kernel-perceptron", kernel="poly", degree=np.array(2))
    for kw in ({"budget": 2.5}, {"budget": "5"}, {"budget": True}, {"degree": 2.5}):
        with pytest.raises(ValueError, match="budget|degree"):
            pl.Learner("rbp" if "budget" in kw else "kernel-perceptron", kernel="poly", **kw)
    with pytest.raises(ValueError, match="budget"):
        pl.Learner("rbp", kernel="rbf", budget=np.array([5, 6]))


def test_a_count_above_its_range_names_the_option_and_its_cost():
    with pytest.raises(ValueError, match=r"features.*bytes"):
        pl.run("fogd", np.eye(4), np.array([1, -1, 1, -1]), kernel="rbf", features=10**9)


def test_deep_json_in_a_model_and_in_pickled_options_is_refused(tmp_path):
    lr = pl.Learner("kernel-perceptron", dim=3, kernel="rbf")
    lr.learn_one({0: 1.0}, 1)
    p = tmp_path / "m.plab"
    lr.save(str(p))
    raw = p.read_bytes()
    body = raw[raw.index(b"\n") + 1:]
    hl = body.index(b"\n")
    header = json.loads(body[:hl])
    header["labels"] = "@@"
    text = json.dumps(header, separators=(",", ":")).replace('"@@"', DEEP).encode() + body[hl:]
    p.write_bytes(b"plab-model format 1 bytes %d sha256 %s\n" % (len(text), hashlib.sha256(text).hexdigest().encode())
                  + text)
    with pytest.raises(ValueError, match="field 'labels'"):
        pl.load_model(str(p))
    spec = _core.LearnerSpec()
    with pytest.raises(ValueError, match="deeper than 64"):
        spec.options_json = '{"budget": ' + DEEP + "}"
    fresh = _core.LearnerSpec.__new__(_core.LearnerSpec)  # as pickle.loads restores one
    with pytest.raises(ValueError, match="deeper than 64"):
        fresh.__setstate__(("perceptron", '{"x": ' + DEEP + "}"))
    assert pickle.loads(pickle.dumps(lr)).rounds == 1


def _outcome(make):
    try:
        make()
        return "accepted"
    except ValueError as e:
        return str(e)


def test_every_declared_integer_option_reads_a_whole_float_as_its_integer():
    # Which keywords are integers comes from the declarations (perceptron_lab.options), so every
    # one of them, a learner's or the kernel's, reads 2.0 as 2 and refuses 2.5 naming itself.
    seen = set()
    for algo in (l["name"] for l in pl.learners()):
        kernel = "linear" if algo == "perceptron" else "rbf"
        base = {"budget": 4} if any(o["name"] == "budget" for o in pl.options(algo)) else {}
        for o in pl.options(algo):
            if o["type"] not in ("count", "integer") or o["scope"] == "run":
                continue
            name = o["name"]
            k = "poly" if name == "degree" else kernel
            if algo == "perceptron" and name == "degree":
                continue
            seen.add(name)

            def make(v):
                return lambda: pl.Learner(algo, kernel=k, **{**base, name: v})

            assert _outcome(make(2.0)) == _outcome(make(2)), (algo, name)
            frac = _outcome(make(2.5))
            assert frac != "accepted" and name in frac, (algo, name, frac)
    assert {"budget", "degree"} <= seen


def test_a_kernel_the_learner_does_not_take_is_named_as_python_writes_it():
    with pytest.raises(ValueError, match=r"kernel='linear' is not a kernel of fogd \(it takes rbf\)"):
        pl.Learner("fogd", kernel="linear")


def test_a_bad_label_map_is_named_as_python_spells_it():
    # The keyword, not the command line's --labels: the front end spells the option it was given.
    with pytest.raises(ValueError, match=r"^labels: bad item '3:\+2'"):
        pl.load("synthetic:dekel:n=20", labels="3:+2")
