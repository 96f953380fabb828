# Models from Python (docs/python.md#pickling, docs/models.md): a Learner and a fitted estimator
# pickle through the model file, Learner.save writes it, load_model reads it, and the file means
# the same to `plab predict` as to the package. Expectations come from a learner that was never
# pickled, learning the same rounds.
import pickle
import subprocess

import numpy as np
import pytest

import perceptron_lab as pl
from perceptron_lab.sklearn import OnlineKernelClassifier

CASES = [
    ("kernel-perceptron", dict(kernel="rbf", gamma=0.5)),
    ("projectron++", dict(kernel="rbf", gamma=0.5, eta=0.2, eta_convention="dogma")),
    ("rbp", dict(kernel="poly", gamma=0.5, coef0=1.0, degree=3, budget=20, seed=7)),
    ("forgetron", dict(kernel="rbf", gamma=0.5, budget=15)),
    ("averaged-perceptron", dict(kernel="linear")),
    ("norma", dict(kernel="rbf", gamma=0.5, **{"lambda": 0.01}, learning_rate=0.5)),
    ("bpa-nn", dict(kernel="rbf", gamma=0.5, budget=20)),
    ("bogd++", dict(kernel="rbf", gamma=0.5, budget=20, seed=3)),
    ("fogd", dict(kernel="rbf", gamma=0.5, features=50, seed=3)),
    ("nogd", dict(kernel="rbf", gamma=0.5, budget=30, rank=10)),
]


def same(a: dict, b: dict) -> bool:
    """Round records equal, value for value (NaN, an absent column, equals NaN)."""
    return a.keys() == b.keys() and all(a[k] == b[k] or (a[k] != a[k] and b[k] != b[k]) for k in a)


def blobs(n=240, d=4, seed=0):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    return rng.normal(size=(n, d)) + 0.6 * y[:, None], y


@pytest.mark.parametrize("algo, opts", CASES)
def test_a_pickled_learner_goes_on_as_the_one_never_pickled(algo, opts):
    X, y = blobs()
    a, b = pl.Learner(algo, dim=4, **opts), pl.Learner(algo, dim=4, **opts)
    for i in range(120):
        a.learn_one(X[i], y[i])
        b.learn_one(X[i], y[i])
    c = pickle.loads(pickle.dumps(b))
    assert c.rounds == 120 and c.support_size == a.support_size
    for i in range(120, len(y)):
        assert c.score_one(X[i]) == a.score_one(X[i])  # bit for bit
        assert same(c.learn_one(X[i], y[i]), a.learn_one(X[i], y[i]))


def test_a_multiclass_learner_keeps_its_class_labels():
    rng = np.random.default_rng(1)
    y = rng.choice(["cat", "dog", "eel"], size=150)
    X = rng.normal(size=(150, 3)) + np.searchsorted(["cat", "dog", "eel"], y)[:, None]
    a = pl.Learner("mrbp", dim=3, classes=["cat", "dog", "eel"], budget=30, kernel="rbf", gamma=0.5)
    for xi, yi in zip(X, y):
        a.learn_one(xi, yi)
    b = pickle.loads(pickle.dumps(a))
    assert b.classes == ["cat", "dog", "eel"]
    assert [b.predict_one(x) for x in X] == [a.predict_one(x) for x in X]


def test_save_load_and_plab_predict_agree(tmp_path, plab_bin):
    X, y = blobs(seed=2)
    a = pl.Learner("projectron++", dim=4, kernel="rbf", gamma=0.5, eta=0.1)
    for xi, yi in zip(X, y):
        a.learn_one(xi, yi)
    path = tmp_path / "m.plab"
    a.save(path)
    b = pl.load_model(path)
    assert b.algo == "projectron++" and b.rounds == len(y)
    assert [b.score_one(x) for x in X] == [a.score_one(x) for x in X]
    data = tmp_path / "d.svm"
    data.write_text("".join(f"{int(t):+d} " + " ".join(f"{j + 1}:{v!r}" for j, v in enumerate(x)) + "\n"
                            for x, t in zip(X, y)))
    out = subprocess.run([plab_bin, "predict", "--model", str(path), "--data", str(data)], check=True,
                         capture_output=True, text=True).stdout.splitlines()
    scores = [float(line.split(",")[2]) for line in out[1:]]
    assert scores == [a.score_one(x) for x in X]  # 17 significant digits: the same doubles


def test_a_fitted_estimator_pickles():
    X, y = blobs(seed=3)
    clf = OnlineKernelClassifier("forgetron", kernel="rbf", gamma=0.5, budget=25).fit(X, y)
    clone = pickle.loads(pickle.dumps(clf))
    assert np.array_equal(clone.decision_function(X), clf.decision_function(X))
    clone.partial_fit(X[:50], y[:50])
    clf.partial_fit(X[:50], y[:50])
    assert np.array_equal(clone.decision_function(X), clf.decision_function(X))


def test_a_damaged_model_is_a_model_error_naming_it(tmp_path):
    X, y = blobs()
    a = pl.Learner("kernel-perceptron", dim=4)
    a.learn_one(X[0], y[0])
    path = tmp_path / "m.plab"
    a.save(path)
    raw = bytearray(path.read_bytes())
    raw[-3] ^= 0xFF
    path.write_bytes(bytes(raw))
    with pytest.raises(pl.ModelError, match="m.plab"):
        pl.load_model(path)
    with pytest.raises(ValueError, match="pickled"):
        pickle.loads(pickle.dumps(a).replace(b"plab-model format 1", b"plab-model format 9"))
