# perceptron_lab.bounds: the Perceptron's bounds beside a learner that is not ours
# (docs/bounds.md#external). The data- and comparator-only rows must equal the ones of a run of
# this suite on the same data and comparator (they read nothing of the learner); every row is a
# reference, never a failed check.
import numpy as np
import pytest

import perceptron_lab as pl

DATA_ONLY = ["novikoff", "fs_thm2_all_t", "mr4_all_t", "mr6_all_t"]


def blobs(n=300, d=4, seed=3):
    """Two clouds a wide gap apart along the first axis, labels +-1: separable, so every row of
    the Perceptron family applies (an independent toy set)."""
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    X = 0.3 * rng.normal(size=(n, d))
    X[:, 0] = y * (1.0 + rng.random(n))
    return X, y


def rows(b):
    return {r["id"]: r for r in b}


def test_data_only_rows_equal_a_run_of_ours():
    X, y = blobs()
    run = pl.run("kernel-perceptron", X, y, comparator="svm")
    mistakes = run.trace["mistake"].astype(bool)
    ours, theirs = rows(run.bounds), rows(pl.bounds(X, y, mistakes=mistakes, comparator="svm"))
    for bid in DATA_ONLY:
        assert theirs[bid]["applicable"], theirs[bid]["reason"]
        assert theirs[bid]["value"] == ours[bid]["value"], bid  # same bits: same data, same comparator
        assert theirs[bid]["empirical"] == run.mistakes
    for r in theirs.values():
        assert r["kind"] == "reference" and not r["hard"], r["id"]


def test_a_learner_above_the_reference_is_reported_not_failed():
    X, y = blobs(seed=4)
    b = rows(pl.bounds(X, y, mistakes=np.ones(len(y), dtype=bool), comparator="svm"))
    nov = b["novikoff"]
    assert nov["applicable"] and nov["empirical"] == len(y)
    assert nov["value"] < len(y) and not nov["holds"] and not nov["hard"]


def test_cs_certificate_reads_the_learners_norm_only_when_given():
    X, y = blobs(seed=5)
    run = pl.run("kernel-perceptron", X, y, comparator="svm")
    m = run.trace["mistake"].astype(bool)
    assert not rows(pl.bounds(X, y, mistakes=m, comparator="svm"))["cs_certificate"]["applicable"]
    cs = rows(pl.bounds(X, y, mistakes=m, comparator="svm", f_norm2=run.summary["results"]["f_norm2_exact"]))
    assert cs["cs_certificate"]["applicable"] and cs["cs_certificate"]["holds"]  # the Perceptron's own f_T


@pytest.mark.parametrize("kwargs, words", [
    (dict(mistakes=[True, False]), ["one entry per row"]),
    (dict(mistakes=np.zeros(300, dtype=bool), updates=np.full(300, 2)), ["updates", "0/1"]),
    (dict(mistakes=np.zeros(300)), ["mistakes", "booleans"]),
    (dict(mistakes=np.zeros(300, dtype=bool), kernel="rfb"), ["rfb", "rbf"]),
    (dict(mistakes=np.zeros(300, dtype=bool), comparator="svn"), ["svn"]),
])
def test_errors_name_what_is_wrong(kwargs, words):
    X, y = blobs()
    with pytest.raises(ValueError) as e:
        pl.bounds(X, y, **kwargs)
    for w in words:
        assert w in str(e.value)


def test_labels_must_be_binary():
    X, _ = blobs()
    with pytest.raises(ValueError, match="y must be"):
        pl.bounds(X, np.arange(300) % 3, mistakes=np.zeros(300, dtype=bool))
