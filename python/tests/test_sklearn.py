# perceptron_lab.sklearn.OnlineKernelClassifier: scikit-learn's own estimator checks, GridSearchCV,
# and fit = the run pipeline's online pass.
import numpy as np
import pytest
from sklearn.model_selection import GridSearchCV
from sklearn.utils.estimator_checks import check_estimator

import perceptron_lab as pl
from perceptron_lab.sklearn import OnlineKernelClassifier

# Checks skipped, each with its reason (docs/python.md#scikit-learn).
SKIPPED: dict[str, str] = {}  # none: a fitted model pickles through its model file


def checks():
    for est, check in check_estimator(OnlineKernelClassifier(gamma=0.5), generate_only=True):
        name = getattr(check, "func", check).__name__
        yield pytest.param(est, check, id=name,
                           marks=[pytest.mark.skip(reason=SKIPPED[name])] if name in SKIPPED else [])


@pytest.mark.parametrize("estimator, check", list(checks()))
def test_sklearn_check(estimator, check):
    check(estimator)


def data(n=400, seed=0, classes=(0, 1)):
    rng = np.random.default_rng(seed)
    y = rng.choice(np.asarray(classes), size=n)
    X = rng.normal(size=(n, 4)) + np.searchsorted(np.asarray(classes), y)[:, None] * 1.5
    return X, y


def test_fit_is_the_run_pipelines_pass():
    """fit (shuffle=seed) makes the mistakes of pl.run with the same seed, on labels mapped to +-1."""
    X, y = data(classes=("no", "yes"))
    clf = OnlineKernelClassifier("projectron++", kernel="rbf", gamma=0.5, shuffle=3, eta=0.2).fit(X, y)
    r = pl.run("projectron++", X, np.where(y == "yes", 1.0, -1.0), kernel="rbf", gamma=0.5, eta=0.2, shuffle=3,
               bounds=False)
    assert clf.mistakes_ == r.mistakes and clf.learner_.support_size == r.support_size
    assert list(clf.classes_) == ["no", "yes"] and clf.score(X, y) > 0.8


def test_partial_fit_continues_the_pass():
    X, y = data()
    whole = OnlineKernelClassifier(gamma=0.5).fit(X, y)
    parts = OnlineKernelClassifier(gamma=0.5)
    for k in range(0, len(y), 70):
        parts.partial_fit(X[k:k + 70], y[k:k + 70], classes=[0, 1])
    assert parts.mistakes_ == whole.mistakes_
    assert np.array_equal(parts.decision_function(X), whole.decision_function(X))


def test_multiclass_uses_the_multiclass_learner():
    X, y = data(classes=(3, 5, 8))
    clf = OnlineKernelClassifier("kernel-perceptron", gamma=0.5).fit(X, y)
    assert clf.algo_ == "multiclass-perceptron" and clf.decision_function(X).shape == (len(y), 3)
    r = pl.run("multiclass-perceptron", X, y.astype(float), kernel="rbf", gamma=0.5, bounds=False)
    assert clf.mistakes_ == r.mistakes
    with pytest.raises(ValueError, match="binary learner"):
        OnlineKernelClassifier("forgetron", budget=10).fit(X, y)


def test_multiclass_counterparts_are_the_registrys():
    # Each binary learner's counterpart is declared beside it in the registry (perceptron_lab.learners()):
    # a binary learner mapped to a multiclass one, the Perceptron's and the RBP's among them.
    from perceptron_lab.sklearn import MULTICLASS_OF
    kinds = {l["name"]: l["multiclass"] for l in pl.learners()}
    assert MULTICLASS_OF and all(not kinds[b] and kinds[m] for b, m in MULTICLASS_OF.items())
    assert MULTICLASS_OF["kernel-perceptron"] == "multiclass-perceptron" and MULTICLASS_OF["rbp"] == "mrbp"


def test_grid_search():
    X, y = data(300)
    grid = GridSearchCV(OnlineKernelClassifier("forgetron", budget=20),
                        {"gamma": [0.1, 1.0], "budget": [10, 50]}, cv=3, n_jobs=2).fit(X, y)  # workers: unfitted pickles
    assert grid.best_params_["gamma"] in (0.1, 1.0) and grid.best_params_["budget"] in (10, 50)
    assert grid.best_estimator_.budget == grid.best_params_["budget"]
    assert grid.score(X, y) > 0.7


def test_a_kernel_parameter_the_kernel_does_not_take_is_refused_at_fit():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(40, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    for params in ({"kernel": "linear", "gamma": 3}, {"kernel": "linear", "degree": 3}, {"kernel": "rbf", "coef0": 1}):
        with pytest.raises(ValueError, match=next(k for k in params if k != "kernel")):
            OnlineKernelClassifier(algo="projectron++", **params).fit(X, y)
    # Not given is None, and get_params says so (clone() keeps it).
    assert OnlineKernelClassifier().get_params()["gamma"] is None
    OnlineKernelClassifier(algo="projectron++", kernel="linear").fit(X, y)
