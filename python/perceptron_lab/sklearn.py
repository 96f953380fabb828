"""scikit-learn estimator over perceptron-lab's online learners (docs/python.md#scikit-learn).

    from perceptron_lab.sklearn import OnlineKernelClassifier
    clf = OnlineKernelClassifier("projectron++", kernel="rbf", gamma=0.04, eta=0.1).fit(X, y)

fit is one online pass over the rows (in the given order, or permuted by `shuffle` as
`plab run --shuffle`); partial_fit continues the same pass. More than two classes: the
multiclass counterpart of a binary learner (MULTICLASS_OF), or a multiclass learner given as algo.
"""
# The imports are private (underscored): the module's namespace is __all__.
import json as _json
import warnings as _warnings

import numpy as _np
from sklearn.base import BaseEstimator as _BaseEstimator, ClassifierMixin as _ClassifierMixin
from sklearn.utils.multiclass import unique_labels as _unique_labels
from sklearn.utils.validation import check_is_fitted as _check_is_fitted

from . import _check_sparse, _core, _dataset, _spec, _unmasked

__all__ = ["OnlineKernelClassifier", "MULTICLASS_OF"]

# The multiclass learner used for a binary one on more than two classes, as the registry declares it
# (docs/learners.md#multiclass).
MULTICLASS_OF = {l["name"]: l["multiclass_counterpart"] for l in _json.loads(_core.learners_json())
                 if l["multiclass_counterpart"]}


class OnlineKernelClassifier(_ClassifierMixin, _BaseEstimator):
    """An online kernel learner as a scikit-learn classifier.

    algo: a learner name (perceptron_lab.learners()); kernel, gamma, coef0, degree: the kernel;
    shuffle: None (the given order) or a seed; **options: the learner's options (eta, budget, C...).
    A parameter left None is not given (its declared default applies); one given that the kernel
    or the learner does not take (gamma with kernel="linear") is a ValueError at fit.
    """

    def __init__(self, algo="kernel-perceptron", kernel="rbf", gamma=None, coef0=None, degree=None, shuffle=None,
                 **options):
        self.algo = algo
        self.kernel = kernel
        self.gamma = gamma
        self.coef0 = coef0
        self.degree = degree
        self.shuffle = shuffle
        for k, v in options.items():
            setattr(self, k, v)

    # The learner's options are keyword arguments, kept as attributes of their own names:
    # get_params/set_params list them beside the named parameters, so that clone() and
    # GridSearchCV pass them on. A name the learner does not take is refused when it is made (fit).
    def get_params(self, deep=True):
        """The named parameters and the learner's options given as keywords (scikit-learn's API)."""
        p = super().get_params(deep=deep)
        p.update(self._options())
        return p

    def set_params(self, **params):
        """Sets parameters and learner options by name (scikit-learn's API); returns self."""
        for k, v in params.items():
            setattr(self, k, v)
        return self

    def _options(self):
        """Public attributes that are not named parameters nor fitted ones (trailing _)."""
        named = set(self._get_param_names())
        return {k: v for k, v in vars(self).items() if k not in named and not k.startswith("_") and not k.endswith("_")}

    def _learner_algo(self, n_classes):
        if n_classes <= 2 or _core.is_multiclass(self.algo):
            return self.algo
        if self.algo not in MULTICLASS_OF:
            raise ValueError(f"{self.algo} is a binary learner and y has {n_classes} classes; use one of "
                             f"{sorted(set(MULTICLASS_OF.values()))} or a binary learner among {sorted(MULTICLASS_OF)}")
        return MULTICLASS_OF[self.algo]

    def _start(self, classes, n_features):
        self.classes_ = _np.asarray(classes)
        if self.classes_.size < 2:
            raise ValueError(f"y has {self.classes_.size} class: a classifier needs at least 2 classes")
        self.algo_ = self._learner_algo(self.classes_.size)
        self.multiclass_ = _core.is_multiclass(self.algo_)
        spec = _spec(self.algo_, dict(self._options(), kernel=self.kernel, gamma=self.gamma, coef0=self.coef0,
                                      degree=self.degree))
        self.learner_ = _core.Learner(spec, max(int(n_features), 1), self.classes_.size if self.multiclass_ else 0)
        self.mistakes_ = 0

    def _targets(self, y):
        """Class labels as the learner reads them: class indices, or -1/+1 (classes_[1] is +1)."""
        idx = _np.searchsorted(self.classes_, y)
        if _np.any(idx >= self.classes_.size) or _np.any(self.classes_[_np.minimum(idx, self.classes_.size - 1)] != y):
            raise ValueError(f"y has labels outside classes {self.classes_.tolist()}")
        return idx.astype(_np.float64) if self.multiclass_ else _np.where(idx == 1, 1.0, -1.0)

    def _learn(self, X, y, order):
        self.mistakes_ += self.learner_.learn_rows(_dataset(X, self._targets(y), []), order)
        return self

    def fit(self, X, y):
        """One online pass over the rows of X (permuted by seed `shuffle` when set), from scratch."""
        _check_sparse(X)
        _unmasked("y", y)
        X, y = self._validate_data(X, y, accept_sparse="csr", dtype=_np.float64, reset=True)
        self._start(_unique_labels(y), X.shape[1])
        order = [] if self.shuffle is None else _core.order(X.shape[0], int(self.shuffle))
        return self._learn(X, y, order)

    def partial_fit(self, X, y, classes=None):
        """Continues the online pass with the rows of X in the given order (rounds keep counting).
        The first call needs `classes` (all labels that will occur) unless y has them all."""
        first = not hasattr(self, "learner_")
        _check_sparse(X)
        _unmasked("y", y)
        X, y = self._validate_data(X, y, accept_sparse="csr", dtype=_np.float64, reset=first)
        if first:
            self._start(_unique_labels(y) if classes is None else _unique_labels(classes), X.shape[1])
        elif classes is not None and not _np.array_equal(_unique_labels(classes), self.classes_):
            raise ValueError(f"classes {list(classes)} differ from those of the first partial_fit {self.classes_.tolist()}")
        return self._learn(X, y, [])

    def decision_function(self, X):
        """f(x) per row (binary: > 0 means classes_[1]); multiclass: one column per class, the
        margin f_c(x) - max_{r != c} f_r(x), largest for the predicted class."""
        _check_is_fitted(self, "learner_")
        _check_sparse(X)
        X = self._validate_data(X, accept_sparse="csr", dtype=_np.float64, reset=False)
        return self.learner_.scores(_dataset(X, _np.zeros(X.shape[0]), []))

    def predict(self, X):
        """The predicted class label of each row: the sign of decision_function (a score of 0 is
        classes_[0]), or its first arg max for more than two classes."""
        return self._predicted(self.decision_function(X))

    def _predicted(self, s):
        if self.multiclass_:
            return self.classes_[_np.argmax(s, axis=1)]
        return self.classes_[(s > 0).astype(int)]

    def score(self, X, y, sample_weight=None):
        """Mean accuracy, where a row with no finite score is a mistake whatever its predicted label
        (as plab predict and plab run --test count it; docs/models.md#no-finite-score), with a warning
        that says how many rows had none."""
        _unmasked("y", y)
        s = self.decision_function(X)
        finite = _np.isfinite(s).all(axis=1) if s.ndim == 2 else _np.isfinite(s)
        right = (self._predicted(s) == _np.asarray(y)) & finite
        if not finite.all():
            _warnings.warn(f"{int((~finite).sum())} rows have no finite score (counted as mistakes)", RuntimeWarning,
                          stacklevel=2)
        return float(_np.average(right, weights=sample_weight))

