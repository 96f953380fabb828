# No crash on any input: random shapes, dtypes, layouts, NaN/inf/huge/tiny values and label sets
# either run or raise an exception a user can act on (ValueError; NonFiniteError when the
# arithmetic of a valid input overflows), never anything else.
import numpy as np
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import perceptron_lab as pl

# Mostly valid inputs (so that runs happen), with every kind of bad one mixed in.
VALUES = st.integers(0, 30).flatmap(lambda k: st.floats(-3, 3) if k > 2 else st.sampled_from(
    [0.0, np.nan, np.inf, -np.inf, 1e200, 1e-300, -1e-170]))
DTYPES = st.sampled_from([np.float64] * 6 + [np.float32, np.int32, np.int64, np.bool_, np.complex128, np.uint8])
LAYOUTS = st.sampled_from(["C", "F", "strided", "transposed", "csr", "csc", "list"])
ALGOS = st.sampled_from(["kernel-perceptron", "perceptron", "projectron++", "forgetron", "norma",
                         "multiclass-perceptron", "multiclass-projectron++"])


def layout(A, how):
    if how == "F":
        return np.asfortranarray(A)
    if how == "strided" and A.ndim == 2:
        wide = np.zeros((A.shape[0], 2 * A.shape[1]), dtype=A.dtype)
        wide[:, ::2] = A
        return wide[:, ::2]
    if how == "transposed" and A.ndim == 2:
        return np.ascontiguousarray(A.T).T
    if how in ("csr", "csc") and A.ndim == 2 and A.dtype != np.complex128:
        return sp.csr_matrix(A) if how == "csr" else sp.csc_matrix(A)
    if how == "list":
        return A.tolist()
    return A


@st.composite
def problems(draw):
    two_d = draw(st.integers(0, 4)) > 0  # (one_of would merge equal branches: no weighting by repetition)
    shape = draw(hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=8) if two_d else
                 hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4))
    with np.errstate(invalid="ignore", over="ignore"):  # nan/inf cast to ints: any value will do
        A = draw(hnp.arrays(np.float64, shape, elements=VALUES)).astype(draw(DTYPES))
    rows = shape[0] if len(shape) else 0
    n = rows if draw(st.integers(0, 5)) > 0 else draw(st.sampled_from([max(rows - 1, 0), rows + 1]))
    labels = draw(st.sampled_from(["pm1"] * 4 + ["classes", "nan", "column"]))
    y = draw({"pm1": hnp.arrays(np.float64, n, elements=st.sampled_from([1.0, -1.0])),
              "classes": hnp.arrays(np.float64, n, elements=st.sampled_from([0.0, 1.0, 2.0])),
              "nan": hnp.arrays(np.float64, n, elements=st.sampled_from([0.0, 1.0, np.nan])),
              "column": hnp.arrays(np.int64, (n, 1), elements=st.sampled_from([1, -1]))}[labels])
    return layout(A, draw(LAYOUTS)), y


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(problems(), ALGOS, st.sampled_from(["linear", "rbf", "poly"]), st.booleans())
def test_run_never_crashes(problem, algo, kernel, bounds):
    X, y = problem
    try:
        r = pl.run(algo, X, y, kernel=kernel, gamma=0.5, bounds=bounds)
    except ValueError:
        return
    except pl.NonFiniteError:
        return
    assert r.mistakes <= len(r.trace["t"]) == len(y)


KEYS = st.one_of(st.integers(-2, 6), st.integers(2**62, 2**70), st.text(max_size=1), st.booleans(), st.floats(0, 3))
XS = st.one_of(hnp.arrays(np.float64, st.integers(0, 5), elements=VALUES),
               st.dictionaries(st.integers(0, 5), VALUES, max_size=4),
               st.dictionaries(KEYS, st.one_of(VALUES, st.text(max_size=1), st.none()), max_size=4),
               st.lists(st.one_of(VALUES, st.text(max_size=1)), max_size=4))


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(st.lists(XS, min_size=1, max_size=6), st.sampled_from(["kernel-perceptron", "perceptron", "projectron++", "forgetron"]),
       st.one_of(st.none(), st.integers(1, 5)), st.sampled_from([1, -1, 1.0, 0, "a"]))
def test_learner_never_crashes(xs, algo, dim, y):
    lr = pl.Learner(algo, dim=dim, kernel="linear" if algo == "perceptron" else "rbf", **(
        {"budget": 2} if algo == "forgetron" else {}))
    for x in xs:
        try:
            lr.learn_one(x, y)
            lr.predict_one(x)
        except (ValueError, pl.NonFiniteError):
            pass
