# One reading of every input for every entry point (docs/python.md): what run() refuses or sums,
# Learner and its options refuse or sum too.
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

import perceptron_lab as pl


def test_a_duplicate_sparse_column_sums_in_learn_one_as_in_run():
    # Column 0 given twice (2 and 1): run() sums it to 3, so k(x,x) = 9 for the linear kernel.
    row = sp.csr_matrix((np.array([2.0, 1.0]), np.array([0, 0]), np.array([0, 2])), shape=(1, 2))
    lr = pl.Learner("kernel-perceptron", dim=2)
    rec = lr.learn_one(row, 1)
    assert rec["kxx"] == 9.0
    r = pl.run("kernel-perceptron", row, np.array([1.0]))
    assert r.trace["kxx"][0] == 9.0


def test_complex_rows_are_refused_everywhere():
    lr = pl.Learner("kernel-perceptron", dim=2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="complex"):
            lr.learn_one(np.array([1 + 2j, 0]), 1)
    with pytest.raises(ValueError, match="complex"):
        pl.run("kernel-perceptron", np.array([[1 + 2j, 0.0]]), np.array([1.0]))


@pytest.mark.parametrize("call, name", [
    (lambda X, y: pl.run("kernel-perceptron", X, y, kernel="poly", degree=2.9), "degree"),
    (lambda X, y: pl.run("kernel-perceptron", X, y, shuffle=1.9), "shuffle"),
    (lambda X, y: pl.Learner("kernel-perceptron", dim=7.9), "dim"),
])
def test_fractional_counts_are_refused_not_truncated(call, name):
    X, y = np.eye(2), np.array([1.0, -1.0])
    with pytest.raises(ValueError, match=f"{name} = .* is not a whole number"):
        call(X, y)
    # whole floats are read as integers
    assert pl.run("kernel-perceptron", X, y, kernel="poly", degree=2.0).summary["results"]["rounds"] == 2


def test_duplicate_classes_are_refused():
    with pytest.raises(ValueError, match="twice"):
        pl.Learner("multiclass-perceptron", dim=2, classes=[1, 1, 2])


@pytest.mark.parametrize("kw, name", [
    (dict(shuffle=-1), "shuffle"), (dict(shuffle=2**64), "shuffle"),
    (dict(threads=2**64), "threads"),
])
def test_seeds_and_threads_out_of_range_are_value_errors(kw, name):
    X, y = np.eye(2), np.array([1.0, -1.0])
    with pytest.raises(ValueError, match=f"^{name} = .* is out of range"):
        pl.run("kernel-perceptron", X, y, **kw)
    assert pl.run("kernel-perceptron", X, y, shuffle=2**64 - 1).summary["results"]["rounds"] == 2


def test_a_negative_dict_column_is_named():
    with pytest.raises(ValueError, match=r"x's column -1 is out of range"):
        pl.Learner("kernel-perceptron").learn_one({-1: 1.0}, 1)


def test_a_nan_class_is_refused():
    with pytest.raises(ValueError, match="NaN"):
        pl.Learner("multiclass-perceptron", dim=2, classes=[0.0, 1.0, float("nan")])
    with pytest.raises(ValueError, match="NaN"):
        pl.Learner("multiclass-perceptron", dim=2, classes=[0.0, np.float64("nan")])


def test_numeric_classes_a_model_file_can_hold():
    # A model file lists numeric classes finite and ascending: a Learner that could not be saved
    # (and read back) is refused when it is made.
    with pytest.raises(ValueError, match="ascending order"):
        pl.Learner("multiclass-perceptron", dim=2, classes=[2, 0, 1])
    with pytest.raises(ValueError, match="finite"):
        pl.Learner("multiclass-perceptron", dim=2, classes=[0, 1, float("inf")])
    pl.Learner("multiclass-perceptron", dim=2, classes=["b", "a"])  # not numbers: saved as indices


def test_a_column_beyond_the_primal_perceptrons_memory_is_a_value_error():
    with pytest.raises(ValueError, match="feature index"):
        pl.Learner("perceptron").learn_one({2**31: 1.0}, 1)


def test_masked_arrays_are_refused_not_unmasked():
    X, y = np.eye(3), np.array([1.0, -1.0, 1.0])
    mX = np.ma.masked_array(X, mask=X > 0.5)
    with pytest.raises(ValueError, match="X is a masked array"):
        pl.run("kernel-perceptron", mX, y)
    with pytest.raises(ValueError, match="y is a masked array"):
        pl.run("kernel-perceptron", X, np.ma.masked_array(y, mask=[1, 0, 0]))
    with pytest.raises(ValueError, match="x is a masked array"):
        pl.Learner("kernel-perceptron", dim=3).learn_one(np.ma.masked_array([1.0, 0, 0], mask=[1, 0, 0]), 1)
    with pytest.raises(ValueError, match="mistakes is a masked array"):
        pl.bounds(X, y, mistakes=np.ma.masked_array([1, 0, 1], mask=[0, 0, 1]))
