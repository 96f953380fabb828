# perceptron_lab's API: catalogues, errors a user can act on, the round-at-a-time Learner against
# the run pipeline, input layouts, the released GIL and Ctrl-C.
import _thread
import threading
import time

import numpy as np
import pytest
import scipy.sparse as sp

import perceptron_lab as pl


def blobs(n=200, d=5, seed=0):
    """Two Gaussian clouds, labels +-1 (an independent toy set)."""
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    X = rng.normal(size=(n, d)) + 0.8 * y[:, None]
    return X, y


def test_catalogues():
    names = [l["name"] for l in pl.learners()]
    assert {"kernel-perceptron", "projectron++", "forgetron", "multiclass-perceptron"} <= set(names)
    opts = {o["name"]: o for o in pl.options("projectron++")}
    assert opts["eta"]["type"] == "real" and opts["eta"]["scope"] == "learner"
    assert opts["eta_convention"]["allowed"] == ["paper", "dogma"]
    assert {"linear", "poly", "rbf"} <= set(opts["kernel"]["allowed"]) and opts["comparator"]["scope"] == "run"
    assert opts["gamma"]["range"] == "> 0" and opts["eta"]["range"] == ">= 0"
    assert "budget" not in opts
    # run's own keywords, with their declared ranges; the options of files (labels, limit) are not run's
    assert opts["threads"]["scope"] == "run" and opts["threads"]["range"] == "<= 1024"
    assert opts["shuffle"]["type"] == "count" and "limit" not in opts and "labels" not in opts
    assert pl._core.record_columns() == pl._core.trace_columns()  # learn_one's dict keys = the CSV's columns


@pytest.mark.parametrize("call, words", [
    (lambda X, y: pl.run("kernel-perceptorn", X, y), ["kernel-perceptorn", "kernel-perceptron"]),
    (lambda X, y: pl.run("projectron", X, y, etta=0.1), ["etta", "eta"]),
    (lambda X, y: pl.run("kernel-perceptron", X, y, budget=10), ["budget", "kernel-perceptron"]),
    (lambda X, y: pl.run("projectron", X, y, eta_convention="dgma"), ["dgma", "dogma"]),
    (lambda X, y: pl.run("kernel-perceptron", X, y, kernel="rfb"), ["rfb", "rbf"]),
    (lambda X, y: pl.run("kernel-perceptron", X, y, kernel="rbf", gamma=-1), ["gamma"]),
    (lambda X, y: pl.run("kernel-perceptron", X[:, 0], y), ["2-D"]),
    (lambda X, y: pl.run("kernel-perceptron", X, y[:-1]), ["one label per row", "200 rows"]),
    (lambda X, y: pl.run("kernel-perceptron", X, (y > 0).astype(int)), ["+1/-1", "0"]),
    (lambda X, y: pl.run("multiclass-perceptron", X, np.ones_like(y)), ["at least 2"]),
    (lambda X, y: pl.run("kernel-perceptron", X[:0], y[:0]), ["no rows"]),
    (lambda X, y: pl.Learner("forgetron", budgt=3), ["budgt", "budget"]),
    (lambda X, y: pl.Learner("multiclass-perceptron"), ["classes"]),
    # A keyword whose owner (the kernel type, the comparator kind) does not take it, naming both,
    # as `plab run` exits 2 naming the flag.
    (lambda X, y: pl.run("kernel-perceptron", X, y, kernel="linear", gamma=3), ["gamma", "kernel='linear'"]),
    (lambda X, y: pl.run("kernel-perceptron", X, y, degree=3), ["degree", "poly", "kernel='linear' (the default)"]),
    (lambda X, y: pl.run("kernel-perceptron", X, y, kernel="rbf", coef0=1), ["coef0", "kernel='rbf'"]),
    (lambda X, y: pl.run("kernel-perceptron", X, y, comparator="truth", svm_C=2), ["svm_C", "comparator='truth'"]),
    (lambda X, y: pl.run("kernel-perceptron", X, y, bounds=False, comparator_seed=2), ["comparator_seed", "bounds=False"]),
    (lambda X, y: pl.Learner("projectron++", kernel="linear", gamma=3), ["gamma", "kernel='linear'"]),
    (lambda X, y: pl.Learner("projectron", svm_C=2), ["svm_C", "not of perceptron_lab.Learner"]),
    (lambda X, y: pl.bounds(X, y, mistakes=np.zeros(len(y), bool), comparator="zero", svm_C=2), ["svm_C", "'zero'"]),
])
def test_errors_name_the_fix(call, words):
    X, y = blobs()
    with pytest.raises(ValueError) as e:
        call(X, y)
    for w in words:
        assert w in str(e.value)


def test_a_keyword_left_none_is_its_declared_default():
    """None is "not given": the declared default applies, the same bits as the default given."""
    X, y = blobs()
    given = pl.run("kernel-perceptron", X, y, kernel="rbf", gamma=1.0, svm_C=1.0).summary
    default = pl.run("kernel-perceptron", X, y, kernel="rbf", gamma=None, svm_C=None).summary
    for s in (given, default):
        s["results"].pop("seconds")
    assert given == default
    assert pl.run("kernel-perceptron", X, y, kernel="poly", gamma=0.5, degree=3, coef0=1).mistakes >= 0


@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf])
def test_non_finite_names_the_cell(value):
    X, y = blobs()
    X[17, 3] = value
    with pytest.raises(ValueError, match=r"X\[17, 3\]"):
        pl.run("kernel-perceptron", X, y)
    with pytest.raises(ValueError, match=r"X\[17, 3\]"):
        pl.run("kernel-perceptron", sp.csr_matrix(X), y)


def test_huge_row_names_the_row():
    X, y = blobs()
    X[5, 0] = 1e200
    with pytest.raises(ValueError, match=r"X\[5\].*squared norm"):
        pl.run("kernel-perceptron", X, y)


def records_equal(a, b):
    for k in a:
        same = (a[k] == b[k]) or (isinstance(a[k], float) and np.isnan(a[k]) and np.isnan(b[k]))
        assert same, (k, a[k], b[k])


@pytest.mark.parametrize("algo, opts", [("kernel-perceptron", {}), ("projectron++", {"eta": 0.3}),
                                        ("forgetron", {"budget": 20}), ("norma", {"lambda": 0.01, "rho": 0.5})])
def test_learn_one_equals_run(algo, opts):
    """Every record of a round-at-a-time pass (dict, array and sparse-row inputs) equals the run's."""
    X, y = blobs(150)
    r = pl.run(algo, X, y, kernel="rbf", gamma=0.5, bounds=False, **opts)
    trace = r.trace
    inputs = [lambda i: X[i], lambda i: {j: v for j, v in enumerate(X[i]) if v != 0}, lambda i: sp.csr_matrix(X[i])]
    for make in inputs:
        lr = pl.Learner(algo, kernel="rbf", gamma=0.5, **opts)
        for i in range(len(y)):
            rec = lr.learn_one(make(i), y[i])
            want = {k: trace[k][i].item() for k in trace}
            want["index"] = -1  # the run records the data row; learn_one has none
            records_equal(rec, want)
        assert lr.rounds == len(y) and lr.support_size == r.support_size


def test_multiclass_learner_predicts_argmax():
    rng = np.random.default_rng(3)
    y = rng.choice([2.0, 5.0, 7.0], size=120)
    X = rng.normal(size=(120, 4)) + y[:, None]
    r = pl.run("multiclass-perceptron", X, y, kernel="rbf", gamma=0.3, bounds=False)
    lr = pl.Learner("multiclass-perceptron", classes=[2.0, 5.0, 7.0], kernel="rbf", gamma=0.3)
    for i in range(len(y)):
        pred = lr.predict_one(X[i])
        rec = lr.learn_one(X[i], y[i])
        assert [2.0, 5.0, 7.0][rec["pred"]] == pred  # the record's first arg max, from the class scores
        assert rec["mistake"] == r.trace["mistake"][i]


def test_layouts_give_the_same_run():
    """C, Fortran, strided views, float32 and int inputs, CSR int32/int64: the same rounds."""
    X, y = blobs(120, 6)
    X[np.abs(X) < 0.5] = 0.0
    base = pl.run("kernel-perceptron", X, y, kernel="rbf", gamma=0.2).trace_csv(meta=False)
    wide = np.zeros((120, 12))
    wide[:, ::2] = X
    csr64 = sp.csr_matrix(X)
    csr64.indices, csr64.indptr = csr64.indices.astype(np.int64), csr64.indptr.astype(np.int64)
    for variant in [np.asfortranarray(X), wide[:, ::2], csr64, sp.csr_matrix(X), sp.csc_matrix(X), X.tolist()]:
        assert pl.run("kernel-perceptron", variant, y, kernel="rbf", gamma=0.2).trace_csv(meta=False) == base
    Xi = np.round(X * 4).astype(np.int32)
    assert (pl.run("kernel-perceptron", Xi, y, kernel="rbf", gamma=0.2).trace_csv(meta=False)
            == pl.run("kernel-perceptron", Xi.astype(np.float64), y, kernel="rbf", gamma=0.2).trace_csv(meta=False))


def test_result_fields():
    X, y = blobs(300)
    r = pl.run("projectron++", X, y, kernel="rbf", gamma=0.5, eta=0.2, shuffle=4)
    assert r.mistakes == int(r.trace["mistake"].sum()) and r.updates <= len(y)
    assert r.support_size == r.trace["support_size"][-1]
    assert sorted(r.trace["index"].tolist()) == list(range(len(y)))  # a permutation of the rows
    keys = {"id", "name", "value", "param", "holds", "kind", "vacuous", "applicable", "reason"}
    assert r.bounds and all(keys <= set(b) for b in r.bounds)
    assert all(b["holds"] for b in r.bounds if b["applicable"] and b["hard"])
    s = r.summary
    assert s["algo"] == "projectron++" and s["options"]["eta"] == 0.2 and s["shuffle_seed"] == 4
    assert s["results"]["mistakes"] == r.mistakes


def noise(n):
    """Labels independent of X: half the rounds are mistakes, so a run costs O(n^2) kernel values."""
    rng = np.random.default_rng(1)
    return rng.normal(size=(n, 20)), np.where(rng.random(n) < 0.5, 1.0, -1.0)


def test_gil_released_during_run():
    # The main thread ticks about once a millisecond while the run lets go of the GIL, and about
    # once per call while it holds it; so its ticks are judged against the run's own length, not
    # against a count that a faster machine would not reach.
    X, y = noise(20000)
    ticks, spent, errors, done = [0], [0.0], [], threading.Event()

    def work():
        try:
            start = time.perf_counter()
            pl.run("kernel-perceptron", X, y, kernel="rbf", gamma=0.05, bounds=False)
            spent[0] = time.perf_counter() - start
        except BaseException as e:  # raised again below, in the test's thread
            errors.append(e)
        finally:
            done.set()

    t = threading.Thread(target=work)
    t.start()
    while not done.is_set():
        ticks[0] += 1
        time.sleep(0.001)
    t.join()
    if errors:
        raise errors[0]
    if spent[0] < 0.02:
        pytest.skip(f"the run took {spent[0]:.3f} s: too short to tell")
    assert ticks[0] >= max(5, spent[0] * 1000 / 4), (ticks[0], spent[0])  # the main thread ran while the other learned


def test_keyboard_interrupt_stops_a_run():
    X, y = noise(200000)
    timer = threading.Timer(0.5, _thread.interrupt_main)
    start = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        pl.run("kernel-perceptron", X, y, kernel="rbf", gamma=0.05, bounds=False)
    assert time.perf_counter() - start < 3.0
    X2, y2 = blobs()
    assert pl.run("kernel-perceptron", X2, y2).mistakes > 0  # the module still works


def test_an_unfitted_learner_pickles():
    """A Learner pickles through its model file (docs/python.md#pickling): test_models.py."""
    import pickle
    lr = pickle.loads(pickle.dumps(pl.Learner("kernel-perceptron", dim=3)))
    assert lr.rounds == 0 and lr.support_size == 0


def test_keyboard_interrupt_stops_a_fit():
    from perceptron_lab.sklearn import OnlineKernelClassifier
    X, y = noise(200000)
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        OnlineKernelClassifier(gamma=0.05).fit(X, y)
