# A float64 CSR matrix is read in place (docs/python.md#copies): the library's Dataset points at the
# matrix's own data and (int32) indices buffers, keeps them alive, and computes the same squared
# norms as the copying path (Dataset::push_back, through a dense array).
import gc
import sys

import numpy as np
import pytest
import scipy.sparse as sp

import perceptron_lab as pl


def random_csr(n=300, d=40, seed=3):
    """Rows of varied length with values of varied scale (so the norms' roundings matter)."""
    rng = np.random.default_rng(seed)
    D = rng.normal(size=(n, d)) * np.exp(rng.normal(size=(n, d)) * 3)
    D[rng.random((n, d)) < 0.7] = 0.0
    return sp.csr_matrix(D), np.where(rng.random(n) < 0.5, 1.0, -1.0)


def addr(a):
    return a.__array_interface__["data"][0]


def test_data_and_int32_indices_are_read_in_place():
    X, y = random_csr()
    assert X.indices.dtype == np.int32 and X.indptr.dtype == np.int32  # scipy's default
    b = pl._dataset(X, y, [])._buffers()
    assert b["val"] == (addr(X.data), True)
    assert b["idx"] == (addr(X.indices), True)
    assert b["rowptr"][1] is False  # int32 indptr: widened into a copy of rows + 1 values


def test_int64_indptr_is_read_in_place_and_int64_indices_copied():
    X, y = random_csr()
    X.indptr = X.indptr.astype(np.int64)
    b = pl._dataset(X, y, [])._buffers()
    assert b["rowptr"] == (addr(X.indptr), True) and b["idx"] == (addr(X.indices), True)
    X.indices = X.indices.astype(np.int64)
    b = pl._dataset(X, y, [])._buffers()
    assert b["val"] == (addr(X.data), True) and b["rowptr"] == (addr(X.indptr), True)
    assert b["idx"][1] is False  # int64 indices: narrowed into a copy


def test_norms_equal_the_copying_path_bit_for_bit():
    X, y = random_csr()
    for M in (X, sp.csr_matrix((X.data, X.indices.astype(np.int64), X.indptr.astype(np.int64)), shape=X.shape)):
        borrowed = pl._dataset(M, y, [])
        copied = pl._dataset(M.toarray(), y, [])  # dense rows, through Dataset::push_back
        assert copied._buffers()["val"][1] is False
        assert np.array_equal(borrowed._sqnorm().view(np.uint64), copied._sqnorm().view(np.uint64))
    mixed = sp.csr_matrix((X.data, X.indices.astype(np.int64), X.indptr), shape=X.shape)
    r = pl.run("kernel-perceptron", X, y, kernel="rbf", gamma=1e-3).trace_csv(meta=False)
    assert pl.run("kernel-perceptron", X.toarray(), y, kernel="rbf", gamma=1e-3).trace_csv(meta=False) == r
    assert pl.run("kernel-perceptron", mixed, y, kernel="rbf", gamma=1e-3).trace_csv(meta=False) == r


def test_the_dataset_keeps_the_arrays_alive():
    X, y = random_csr()
    want = pl.run("kernel-perceptron", X, y, kernel="rbf", gamma=1e-3, bounds=False).trace_csv(meta=False)
    refs = sys.getrefcount(X.data), sys.getrefcount(X.indices)
    ds = pl._dataset(X, y, [])
    assert (sys.getrefcount(X.data), sys.getrefcount(X.indices)) == (refs[0] + 1, refs[1] + 1)
    del X
    gc.collect()
    junk = [np.full(40 * 300, 7.0) for _ in range(50)]  # would land in freed buffers
    args = pl._core.RunArgs()
    args.spec = pl._spec("kernel-perceptron", {"kernel": "rbf", "gamma": 1e-3})
    args.bounds = False
    out = pl._core.run(ds, args)
    assert out.trace_csv("") == want and junk


def test_in_place_rows_are_checked_and_named():
    X, y = random_csr(n=20)
    bad = X.copy()
    bad.data[bad.indptr[5] + 1] = np.nan
    with pytest.raises(ValueError, match=r"X\[5, \d+\] is nan"):
        pl.run("perceptron", bad, y)
    big = X.copy()
    big.data[big.indptr[7]] = 1e200
    with pytest.raises(ValueError, match=r"X\[7\]: squared norm"):
        pl.run("perceptron", big, y)
    unsorted = X.copy()
    s = slice(unsorted.indptr[3], unsorted.indptr[4])
    unsorted.indices[s] = unsorted.indices[s][::-1].copy()
    unsorted.data[s] = unsorted.data[s][::-1].copy()
    want = pl.run("perceptron", X, y).trace_csv(meta=False)
    assert pl.run("perceptron", unsorted, y).trace_csv(meta=False) == want  # sorted on a copy
    unsorted.has_canonical_format = True  # a flag that lies: the in-place check still names the row
    with pytest.raises(ValueError, match=r"X row 3: column indices must be strictly ascending"):
        pl._dataset(unsorted, y, [])
    with pytest.raises(ValueError, match=r"indptr\[0\] = 1"):  # scipy refuses it too; the module checks itself
        pl._core.dataset_csr(X.data, X.indices, X.indptr + 1, X.shape[1], y, [], "")
    with pytest.raises(ValueError, match=r"indptr\[19..20\] = \d+..\d+ is not a valid row range"):
        pl._core.dataset_csr(X.data[:-1], X.indices, X.indptr, X.shape[1], y, [], "")


def test_comparator_renumbers_the_features_of_borrowed_rows():
    """dim > non-zeros: the linear comparator renumbers the features on its own copy of the indices
    (bounds/comparator.cpp), the borrowed ones untouched; the same bounds as on the narrow matrix."""
    X, y = random_csr(n=120, d=12)
    wide = sp.csr_matrix((X.data, X.indices * 50000 + 7, X.indptr), shape=(120, 600000))
    before = wide.indices.copy()
    narrow, spread = (pl.run("perceptron", M, y, comparator="svm") for M in (X, wide))
    assert spread.bounds == narrow.bounds and spread.mistakes == narrow.mistakes
    assert np.array_equal(wide.indices, before)
