# Never a silent wrong answer or an unbounded resource from the Python surfaces: a non-finite score
# is a mistake in score(), threads are capped as plab run's, and a model file's header dim sizes
# nothing before its state is checked (docs/models.md#no-finite-score, docs/python.md).
import hashlib
import subprocess
import sys
import warnings

import numpy as np
import pytest

import perceptron_lab as pl
from perceptron_lab.sklearn import OnlineKernelClassifier


def test_threads_are_capped_as_plab_runs():
    # The run option's declared range, keyed by the keyword (one check for every front end).
    X, y = np.eye(3), np.array([1.0, -1.0, 1.0])
    with pytest.raises(ValueError, match=r"^threads must be <= 1024, got 1000000"):
        pl.run("perceptron", X, y, threads=10**6, bounds=False)
    with pytest.raises(ValueError, match=r"^threads must be a non-negative integer, got -1"):
        pl.run("perceptron", X, y, threads=-1, bounds=False)


def test_score_counts_non_finite_scores_as_mistakes():
    # Supports (1, 0) labelled +1 and (0, 1) labelled -1 in a cubic kernel: a row (1e110, 1e110)
    # scores inf - inf = NaN; "predict the first class" would make the row labelled -1 correct.
    clf = OnlineKernelClassifier("kernel-perceptron", kernel="poly", degree=3, gamma=1.0, coef0=0.0)
    clf.fit(np.eye(2), np.array([1, -1]))
    X_test, y_test = np.full((2, 2), 1e110), np.array([1, -1])
    assert np.isnan(clf.decision_function(X_test)).all()
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert clf.score(X_test, y_test) == 0.0
    assert any("2 rows have no finite score" in str(x.message) for x in w)
    assert clf.score(np.eye(2), np.array([1, -1])) == 1.0  # finite scores: the usual accuracy


def test_load_model_does_not_size_the_learner_by_the_header_dim(tmp_path):
    lr = pl.Learner("perceptron", dim=3)
    lr.learn_one(np.array([1.0, 0.0, 0.5]), 1)
    path = tmp_path / "m.plab"
    lr.save(str(path))
    first, content = path.read_bytes().split(b"\n", 1)
    header, payload = content.split(b"\n", 1)
    assert b'"dim":3' in header
    content = header.replace(b'"dim":3', b'"dim":134217728') + b"\n" + payload  # 2^27: 1 GiB of weights
    path.write_bytes(b"plab-model format 1 bytes %d sha256 %s\n" % (len(content), hashlib.sha256(content).hexdigest().encode())
                     + content)
    # In a fresh interpreter: its peak resident memory is the load's.
    code = ("import resource, perceptron_lab as pl\n"
            "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
            f"m = pl.load_model({str(path)!r})\n"
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before, m.score_one({0: 1.0}))\n")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout.split()
    assert int(out[0]) < 200_000, f"load_model grew the peak memory by {out[0]} KiB"
    assert float(out[1]) == 1.0


def test_a_nan_option_is_named():
    X, y = np.eye(3), np.array([1.0, -1.0, 1.0])
    with pytest.raises(ValueError, match=r"a value is NaN or infinite \(every option must be finite\)"):
        pl.run("projectron", X, y, eta=float("nan"), bounds=False)


def test_borrowed_arrays_are_read_only_during_a_run():
    import threading
    import scipy.sparse as sp
    rng = np.random.default_rng(3)
    X = sp.random(4000, 60, density=0.3, format="csr", random_state=4)
    X.sort_indices()
    y = np.where(rng.random(4000) < 0.5, 1.0, -1.0)
    refused = []
    t = threading.Thread(target=lambda: pl.run("kernel-perceptron", X, y, kernel="rbf", gamma=0.5, bounds=False))
    t.start()
    while t.is_alive():
        try:
            X.indices[0] = X.indices[0]
        except ValueError as e:
            refused.append(str(e))
    t.join()
    assert refused and "read-only" in refused[0]
    X.indices[0] = X.indices[0]  # writable again after the run


def test_a_model_path_is_checked_at_its_first_line():
    # /dev/zero never ends: from_path reads its first 200 bytes, refuses them, and stops.
    with pytest.raises(ValueError, match=r"/dev/zero: not a perceptron-lab model file"):
        pl._core.Learner.from_path("/dev/zero")


def test_many_classes_are_refused_naming_their_cost():
    # 20,000 rows, each its own class: the coefficient table (up to 20,000 supports x 20,000 classes
    # x 8 bytes = 3.2 GB) is refused before allocating, as by plab run (docs/inputs.md#class-cost).
    X = np.column_stack([np.arange(20000) % 7, np.ones(20000)]).astype(float)
    with pytest.raises(pl.DataError, match="20000 classes: multiclass-perceptron keeps one coefficient per class"):
        pl.run("multiclass-perceptron", X, np.arange(20000), bounds=False)
