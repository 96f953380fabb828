"""perceptron_lab: perceptron-lab's online learners and mistake bounds on numpy and scipy data.

    import perceptron_lab as pl
    X, y = pl.load("a9a")                      # registry data set -> (scipy CSR, labels)
    r = pl.run("kernel-perceptron", X, y, kernel="rbf", gamma=0.04)
    r.mistakes, r.trace["score"], r.bounds    # the same records and bounds as `plab run`

docs/python.md documents every function; results equal `plab run`'s bit for bit (tested).
"""
# The imports are private (underscored): the package's namespace is __all__ and __version__.
import json as _json
import operator as _operator
import os as _os

import numpy as _np

from . import _core
from ._core import DataError, ModelError, NonFiniteError
from ._version import __version__
from ._plot import plot_traces

# The compiled module's exception types carry no docstring of their own; help() shows these.
DataError.__doc__ = "A data set that cannot be found or read (a ValueError); the message says why (docs/inputs.md)."
ModelError.__doc__ = "A model file or pickle that cannot be read, or a damaged one (a ValueError; docs/models.md)."
NonFiniteError.__doc__ = ("Arithmetic that left the doubles during a run (a FloatingPointError; "
                          "docs/learners.md#non-finite).")

__all__ = ["learners", "options", "load", "run", "bounds", "load_model", "Result", "Learner", "DataError",
           "ModelError", "NonFiniteError", "data_search_path", "plot_traces"]

def _none_if_nan(v: float):
    """None for a NaN (a value not computed or not kept), as the CLI's JSON writes null."""
    return None if v != v else v


def learners() -> list[dict]:
    """Every learner: name, summary, multiclass, options (names), bounds (bool)."""
    return _json.loads(_core.learners_json())


def options(algo: str) -> list[dict]:
    """The options `algo` takes (its own, the kernel's, and perceptron_lab.run's: the comparator's, shuffle
    and threads), as declared beside their owners: name, scope (learner, kernel or run), type, default,
    range, allowed, owners, help."""
    return _json.loads(_core.options_json(algo))


def data_search_path() -> list[str]:
    """Directories searched for registry data sets: $PLAB_DATA, then ../shared/datasets (from the cwd)."""
    return _core.data_search_path()


def load(name: str, labels: str | None = None):
    """A registry data set (or a LIBSVM/CSV file path) as (X, y): X a scipy.sparse CSR matrix of
    float64, y a float64 array (+-1, or the original class labels of a multiclass set).
    `labels` is plab's label map, e.g. "3:+1,*:-1" (docs/inputs.md)."""
    import scipy.sparse as sp
    data, indices, indptr, shape, y, classes, _ = _core.load(name, labels or "")
    X = sp.csr_matrix((data, indices, indptr), shape=shape)
    if classes:
        y = _np.asarray(classes, dtype=_np.float64)[y.astype(_np.int64)]
    return X, y


def _whole(what: str, v) -> int:
    """v as an int: integers (numpy's too, 0-d arrays included) and whole floats (2.0) pass, 2.9 is
    refused naming `what` (as plab's flags and the option table refuse a fraction) rather than
    truncated; so are strings, booleans and complex numbers (docs/python.md#options)."""
    if isinstance(v, _np.ndarray) and v.ndim == 0:
        v = v.item()
    if isinstance(v, (str, bytes, bool, _np.bool_)) or _np.iscomplexobj(v):
        raise ValueError(f"{what} = {v!r} is not a whole number")
    try:
        return _operator.index(v)
    except TypeError:
        pass
    try:
        f = float(v)
    except (TypeError, ValueError):
        raise ValueError(f"{what} = {v!r} is not a whole number") from None
    if not f.is_integer():
        raise ValueError(f"{what} = {v!r} is not a whole number")
    return int(f)


def _count(what: str, v, hi: int = 2**64 - 1) -> int:
    """_whole within 0 .. hi (a seed, a thread count), refused naming `what` outside it."""
    n = _whole(what, v)
    if not 0 <= n <= hi:
        raise ValueError(f"{what} = {v!r} is out of range: expected a whole number in 0 .. {hi}")
    return n


def _whole_keywords(algo: str) -> set:
    """The keywords of `algo` declared as counts or integers (budget, degree, comparator_seed, ...):
    each is read by _whole, one rule for all of them."""
    return {o["name"] for o in options(algo) if o["type"] in ("count", "integer")}


def _spec(algo: str, given: dict):
    """The keywords given (a keyword left None is not given) for the library's one configuration
    step, which fills the defaults and refuses a keyword that does not apply (docs/python.md#options)."""
    spec = _core.LearnerSpec()
    spec.algo = algo
    whole = _whole_keywords(algo) if isinstance(algo, str) and algo in {l["name"] for l in learners()} else set()
    spec.options_json = _json.dumps({k: _whole(k, v) if k in whole else _plain(k, v)
                                     for k, v in given.items() if v is not None})
    return spec


def _plain(what: str, v):
    """numpy scalars and 0-d arrays as the JSON numbers and booleans the option table reads; a
    complex number or an array is refused naming the keyword."""
    if isinstance(v, _np.ndarray):
        if v.ndim != 0:
            raise ValueError(f"{what} must be a single value, got an array of shape {v.shape}")
        v = v.item()
    if isinstance(v, _np.generic):
        v = v.item()
    if isinstance(v, complex):
        raise ValueError(f"{what} = {v!r} is complex: expected a real number")
    return v


def _check_sparse(X, what: str = "X"):
    """A scipy.sparse CSR or CSC matrix's arrays, checked before anything reads them: scipy's own
    methods (sum_duplicates, tocsr, has_canonical_format) index data through indptr unchecked, so an
    edited indptr would read or write past the arrays (docs/python.md#copies). A masked array is
    refused here too (the first check of every entry point)."""
    _unmasked(what, X)
    fmt = getattr(X, "format", None)
    if fmt not in ("csr", "csc"):
        return
    try:
        rows, cols = X.shape
    except (TypeError, ValueError):
        raise ValueError(f"{what} has shape {getattr(X, 'shape', None)!r}: expected (rows, columns)") from None
    major, minor = (rows, cols) if fmt == "csr" else (cols, rows)
    indptr, indices, data = (_np.asarray(a) for a in (X.indptr, X.indices, X.data))
    for name, a in (("indptr", indptr), ("indices", indices)):
        if a.ndim != 1 or a.dtype.kind not in "iu":
            raise ValueError(f"{what}.{name} must be a 1-D integer array, got dtype {a.dtype} and shape {a.shape}")
    if data.ndim != 1:
        raise ValueError(f"{what}.data must be 1-D, got shape {data.shape}")
    if indptr.shape[0] != major + 1:
        raise ValueError(f"{what}.indptr has {indptr.shape[0]} entries: a {fmt} matrix of shape {X.shape} has "
                         f"{major + 1}")
    if indptr[0] != 0:
        raise ValueError(f"{what}.indptr[0] = {int(indptr[0])}: it must be 0")
    step = _np.diff(indptr.astype(_np.int64) if indptr.dtype.kind == "u" else indptr)
    if (step < 0).any():
        i = int(_np.flatnonzero(step < 0)[0])
        raise ValueError(f"{what}.indptr decreases: {what}.indptr[{i + 1}] = {int(indptr[i + 1])} < "
                         f"{what}.indptr[{i}] = {int(indptr[i])} (it must be non-decreasing)")
    nnz = int(indptr[-1])
    if not nnz == indices.shape[0] == data.shape[0]:
        raise ValueError(f"{what}.indptr[-1] = {nnz}, but {what}.indices has {indices.shape[0]} entries and "
                         f"{what}.data {data.shape[0]} (all three must be the number of non-zeros)")
    if nnz and (int(indices.min()) < 0 or int(indices.max()) >= minor):
        bad = int(_np.flatnonzero((indices < 0) | (indices >= minor))[0])
        raise ValueError(f"{what}.indices[{bad}] = {int(indices[bad])} is outside 0 .. {minor - 1}")


def _matrix(X):
    """X as ("csr", matrix) or ("dense", 2-D float64 array). Copies only when X is not float64,
    is sparse but not CSR, or is a CSR with unsorted or duplicate indices (docs/python.md#copies):
    the Dataset then reads a float64 CSR's arrays in place."""
    _unmasked("X", X)
    try:
        import scipy.sparse as sp
        if sp.issparse(X):
            _check_sparse(X)
            if X.format != "csr":
                X = X.tocsr()
            if X.dtype != _np.float64:
                if X.dtype.kind not in "biuf":
                    raise ValueError(f"X has dtype {X.dtype}: expected real numbers (float64)")
                X = X.astype(_np.float64)
            if not X.has_canonical_format:
                X = X.copy()
                X.sum_duplicates()
            return "csr", X
    except ImportError:
        pass
    A = _np.asarray(X)
    if A.dtype != _np.float64:
        if A.dtype.kind not in "biuf":
            raise ValueError(f"X has dtype {A.dtype}: expected a 2-D array of real numbers (float64)")
        A = A.astype(_np.float64)
    if A.ndim != 2:
        raise ValueError(f"X must be 2-D (rows x features), got shape {A.shape}")
    return "dense", A


def _unmasked(what: str, v):
    """Refuses a numpy masked array: reading its data would drop the mask, and the masked entries
    would be learned (or counted) as if they were there."""
    if isinstance(v, _np.ma.MaskedArray):
        raise ValueError(f"{what} is a masked array: its mask would be ignored; fill or drop the masked entries first "
                         f"({what}.filled(value) or {what}.compressed())")


def _dataset(X, y, classes, name=""):
    """The library's Dataset of X with labels y (+-1 or class indices) and class labels `classes`."""
    kind, A = _matrix(X)
    y = _np.ascontiguousarray(y, dtype=_np.float64)
    if kind == "csr":
        return _core.dataset_csr(A.data, A.indices, A.indptr, A.shape[1], y, classes, name or "scipy.sparse")
    return _core.dataset_dense(A, y, classes, name or "numpy")


def _labels(algo: str, y, n: int):
    """(labels as the learner reads them, class labels): +-1 for binary learners; class indices
    into the sorted distinct labels for multiclass ones (as plab's --labels classes)."""
    _unmasked("y", y)
    y = _np.asarray(y)
    if y.ndim != 1 or y.shape[0] != n:
        raise ValueError(f"y must be 1-D with one label per row of X ({n} rows), got shape {y.shape}")
    if y.dtype.kind not in "biuf":
        raise ValueError(f"y has dtype {y.dtype}: labels must be numbers (the sklearn estimator maps any class labels)")
    y = y.astype(_np.float64)
    if not _np.all(_np.isfinite(y)):
        raise ValueError(f"y[{int(_np.flatnonzero(~_np.isfinite(y))[0])}] is not finite")
    if _core.is_multiclass(algo):
        classes = _np.unique(y)
        if classes.size < 2:
            raise ValueError(f"{algo} is a multiclass learner and y has {classes.size} class(es): it needs at least 2")
        return _np.searchsorted(classes, y).astype(_np.float64), classes.tolist()
    bad = ~((y == 1.0) | (y == -1.0))
    if bad.any():
        raise ValueError(f"{algo} is a binary learner: y must be +1/-1, got {_np.unique(y[bad])[:5].tolist()} "
                         "(map the labels, e.g. _np.where(y == 3, 1, -1), or use a multiclass learner)")
    return y, []


class Result:
    """One finished run: counts, the per-round trace, the bounds and the summary of `plab run`."""

    def __init__(self, outcome, data_meta: dict, shuffle):
        self._o = outcome
        self._data = data_meta
        self._shuffle = shuffle
        self.mistakes: int = outcome.mistakes
        self.updates: int = outcome.updates
        self.margin_errors: int = outcome.margin_errors
        self.support_size: int = outcome.support_size
        self.seconds: float = outcome.seconds  # wall time of learning only, as plab run's
        self._trace = None

    @property
    def trace(self) -> dict:
        """{column: numpy array}: the trace CSV's columns (int64, float64, bool; `update` str).
        Cells the CSV leaves empty are NaN (reals) or -1 (indices), their values in the record."""
        if self._trace is None:
            self._trace = self._o.trace_arrays()
        return self._trace

    @property
    def bounds(self) -> list[dict]:
        """Every bound row: id, name, value, param, holds, kind, vacuous, applicable, reason, ...
        (docs/bounds.md); empty with bounds=False."""
        return _bound_rows(self._o.bounds_json())

    def meta(self) -> dict:
        """The trace's metadata line: run_meta of the pipeline plus the data and the shuffle seed."""
        m = _json.loads(self._o.meta_json())
        m["data"] = self._data
        m["shuffle_seed"] = self._shuffle
        return m

    @property
    def summary(self) -> dict:
        """The dict `plab run --summary` writes (without `git`: the module's revision is not stamped)."""
        s = self.meta()
        s["results"] = {"rounds": len(self.trace["t"]), "mistakes": self.mistakes, "updates": self.updates,
                        "margin_errors": self.margin_errors, "support_size": self.support_size,
                        "seconds": self.seconds, "f_norm2": _none_if_nan(self._o.f_norm2),
                        "f_norm2_exact": _none_if_nan(self._o.f_norm2_exact)}
        s["bounds"] = _json.loads(self._o.bounds_json())
        return s

    def trace_csv(self, meta: bool = True) -> str:
        """The trace as `plab run --trace` writes it, by the same writer (experiments/run/trace.hpp)."""
        return self._o.trace_csv(_json.dumps(self.meta()) if meta else "")

    def plot(self, ax=None, bounds: bool = True, *, metric: str = "mistakes", x: str = "rounds"):
        """The run's curve on matplotlib axes (new ones when ax is None) and, with bounds, its hard
        bounds on its prefixes as `plab plot --bounds` draws them (plot_traces; docs/plot.md#python).
        Needs matplotlib (Debian: python3-matplotlib). Returns the axes."""
        return plot_traces([self], ax, metric=metric, x=x, bounds=bounds)

    def __repr__(self):
        return (f"Result(mistakes={self.mistakes}, updates={self.updates}, support_size={self.support_size}, "
                f"seconds={self.seconds:.3f})")


def run(algo: str, X, y, *, kernel: str | None = None, gamma: float | None = None, coef0: float | None = None,
        degree: int | None = None, shuffle: int | None = None, bounds: bool = True, comparator: str | None = None,
        svm_C: float | None = None, comparator_seed: int | None = None, threads: int = 0, **options) -> Result:
    """One online pass of `algo` over the rows of X (in order, or permuted by seed `shuffle` as
    `plab run --shuffle`), then the bounds against the comparator: `plab run`'s pipeline.
    A keyword left None is not given: its declared default applies (perceptron_lab.options(algo)),
    and one given that its owner does not take (gamma with kernel="linear") is a ValueError.
    threads: as `plab run --threads` (0 = the hardware threads); the results are the same bits on any.
    X: 2-D float64 numpy array or scipy.sparse CSR; y: +-1 (binary learners) or class labels
    (multiclass learners). options: the learner's (perceptron_lab.options(algo))."""
    _, X = _matrix(X)  # checked and converted once; _dataset then reads it as it is
    n = X.shape[0]
    if n == 0:
        raise ValueError("X has no rows: a run needs at least one round")
    labels, classes = _labels(algo, y, n)
    data = _dataset(X, labels, classes)
    args = _core.RunArgs()
    args.spec = _spec(algo, dict(options, kernel=kernel, gamma=gamma, coef0=coef0, degree=degree, comparator=comparator,
                                 svm_C=svm_C, comparator_seed=comparator_seed))
    args.shuffle = None if shuffle is None else _count("shuffle", shuffle)
    args.bounds = bool(bounds)
    # Its range is checked where it is declared (plab run --threads, a negative count too); beyond
    # an int64 the binding could not carry it there.
    n = _whole("threads", threads)
    if not -2**63 <= n < 2**63:
        raise ValueError(f"threads = {threads!r} is out of range: expected a whole number in 0 .. 2^63 - 1")
    args.threads = n
    outcome = _core.run(data, args)
    meta = {"name": "scipy.sparse" if hasattr(X, "format") else "numpy", "size": data.rows, "dim": data.dim,
            "source": "python"}
    return Result(outcome, meta, args.shuffle)


def _bound_rows(text: str) -> list[dict]:
    rows = _json.loads(text)
    for r in rows:
        r["reason"] = r["why_not"]
    return rows


def _rounds_flags(v, n: int, what: str) -> list[bool]:
    _unmasked(what, v)
    a = _np.asarray(v)
    if a.ndim != 1 or a.shape[0] != n:
        raise ValueError(f"{what} must be 1-D with one entry per row of X ({n} rows), got shape {a.shape}")
    if a.dtype.kind not in "biu":
        raise ValueError(f"{what} must be booleans (or 0/1), one per round, got dtype {a.dtype}")
    if not _np.all((a == 0) | (a == 1)):
        raise ValueError(f"{what}[{int(_np.flatnonzero((a != 0) & (a != 1))[0])}] is not 0/1")
    return a.astype(bool).tolist()


def bounds(X, y, *, mistakes, updates=None, kernel: str | None = None, gamma: float | None = None,
           coef0: float | None = None, degree: int | None = None, comparator: str | None = None,
           svm_C: float | None = None, comparator_seed: int | None = None, f_norm2: float | None = None) -> list[dict]:
    """The Perceptron's mistake bounds beside a learner that is not ours (docs/bounds.md#external):
    rows of kind "reference", never a failed check. X, y (+-1): the rounds in the order the learner
    saw them; mistakes / updates: one boolean per round (updates defaults to mistakes); f_norm2:
    the learner's ||f_T||^2 when it has one (the Cauchy-Schwarz row reads it)."""
    _, X = _matrix(X)
    n = X.shape[0]
    if n == 0:
        raise ValueError("X has no rows: the bounds need at least one round")
    labels, _ = _labels("perceptron", y, n)
    args = _core.ExternalArgs()
    args.spec = _spec("perceptron", dict(kernel=kernel, gamma=gamma, coef0=coef0, degree=degree, comparator=comparator,
                                         svm_C=svm_C, comparator_seed=comparator_seed))
    args.mistakes = _rounds_flags(mistakes, n, "mistakes")
    args.updates = args.mistakes if updates is None else _rounds_flags(updates, n, "updates")
    if f_norm2 is not None:
        if isinstance(f_norm2, (str, bytes, bool)) or _np.iscomplexobj(f_norm2):
            raise ValueError(f"f_norm2 = {f_norm2!r} is not a real number")
        f_norm2 = float(f_norm2)
        if not (_np.isfinite(f_norm2) and f_norm2 >= 0.0):  # as plab bounds refuses it
            raise ValueError(f"f_norm2 must be >= 0 and finite (a squared norm), got {f_norm2!r}")
    args.f_norm2 = f_norm2
    return _bound_rows(_core.external_bounds(_dataset(X, labels, []), args))


class Learner:
    """One learner fed one example at a time (river's learn_one / predict_one).

    Learner(algo, *, dim=None, classes=None, kernel=None, gamma=None, coef0=None, degree=None, **options)
    dim: the number of features (fixed at the first example when None: a 1-D array's length, a
    dict's highest column + 1). classes: the class labels of a multiclass learner (required there).
    x: a dict {column: value} (0-based columns), a 1-D array or a 1-row scipy.sparse matrix.
    """

    def __init__(self, algo: str, *, dim: int | None = None, classes=None, kernel: str | None = None,
                 gamma: float | None = None, coef0: float | None = None, degree: int | None = None, **options):
        self.algo = algo
        self._spec = _spec(algo, dict(options, kernel=kernel, gamma=gamma, coef0=coef0, degree=degree))
        self._multiclass = _core.is_multiclass(algo)
        if self._multiclass and (classes is None or len(classes) < 2):
            raise ValueError(f"{algo} is a multiclass learner: give classes=[...] (at least 2 labels)")
        if not self._multiclass and classes is not None:
            raise ValueError(f"{algo} is a binary learner (labels +1/-1): it takes no classes=, got {classes!r}")
        self.classes = None if classes is None else list(classes)
        if self.classes is not None and any(isinstance(c, (float, _np.floating)) and c != c for c in self.classes):
            raise ValueError(f"classes = {self.classes!r} has a NaN label: a NaN never equals a y")
        numeric = self.classes is not None and all(
            isinstance(c, (int, float, _np.integer, _np.floating)) and not isinstance(c, bool) for c in self.classes)
        # A model file lists numeric classes finite and ascending (plab's --labels classes order).
        if numeric and not all(abs(float(c)) < float("inf") for c in self.classes):
            raise ValueError(f"classes = {self.classes!r}: a class label must be finite")
        if numeric and any(not a < b for a, b in zip(self.classes, self.classes[1:])) and \
                len(set(self.classes)) == len(self.classes):
            raise ValueError(f"classes = {self.classes!r}: numeric class labels must be in ascending order "
                             f"(as a model file stores them), e.g. classes={sorted(self.classes)!r}")
        if self.classes is not None and len(set(self.classes)) != len(self.classes):
            raise ValueError(f"classes = {self.classes!r} has a label twice: each class once")
        self._index = {c: i for i, c in enumerate(self.classes or [])}
        self._core = None
        if dim is not None:
            self._make(_whole("dim", dim))
        else:  # the options are checked now, not at the first example
            _core.Learner(self._spec, 1, len(self.classes) if self._multiclass else 0)

    def _make(self, dim: int):
        if not 1 <= dim < 2**32:
            raise ValueError(f"dim must be in 1 .. 2^32 - 1, got {dim}")
        self._core = _core.Learner(self._spec, dim, len(self.classes) if self._multiclass else 0)

    def _x(self, x):
        """x as a dict or a 1-D float64 array; the learner made on the first one when dim was not given."""
        _unmasked("x", x)
        if isinstance(x, dict):
            x = {self._column(k): self._value(k, v) for k, v in x.items()}
            if self._core is None:
                self._make(max(x, default=0) + 1)
            return x
        if hasattr(x, "tocsr"):
            _check_sparse(x, "x")
            if x.dtype.kind not in "biuf":
                raise ValueError(f"x has dtype {x.dtype}: expected real numbers (float64), as run() reads X")
            r = x.tocsr()
            if r.shape[0] != 1:
                raise ValueError(f"x: a sparse row must have 1 row, got shape {r.shape}")
            if self._core is None:
                self._make(r.shape[1])
            if not r.has_canonical_format:  # a column given twice sums, as run() reads it
                r = r.copy()
                r.sum_duplicates()
            return {int(j): float(v) for j, v in zip(r.indices, r.data)}
        if _np.iscomplexobj(x):
            raise ValueError("x is complex: expected real numbers (float64), as run() reads X")
        a = _np.asarray(x, dtype=_np.float64)
        if a.ndim != 1:
            raise ValueError(f"x must be a dict, a 1-D array or a sparse row, got shape {a.shape}")
        if self._core is None:
            self._make(a.shape[0])
        return a

    @staticmethod
    def _column(k) -> int:
        """A dict row's column: a whole number in 0 .. 2^32 - 2 (0-based; dim is at most 2^32 - 1)."""
        j = _whole("x's column", k)
        if not 0 <= j < 2**32 - 1:
            raise ValueError(f"x's column {k!r} is out of range: columns are 0-based, 0 .. 2^32 - 2")
        return j

    @staticmethod
    def _value(k, v) -> float:
        """A dict row's value: a real number (a string, a complex number or a container is refused)."""
        if isinstance(v, _np.ndarray) and v.ndim == 0:
            v = v.item()
        if isinstance(v, (str, bytes, bool, _np.bool_)) or _np.iscomplexobj(v) or not isinstance(
                v, (int, float, _np.integer, _np.floating)):
            raise ValueError(f"x[{k!r}] = {v!r}: expected a real number")
        return float(v)

    def _y(self, y) -> float:
        if self._multiclass:
            if y not in self._index:
                raise ValueError(f"y = {y!r} is not one of classes {self.classes}")
            return float(self._index[y])
        if y not in (1, -1):
            raise ValueError(f"{self.algo} is a binary learner: y must be +1 or -1, got {y!r}")
        return float(y)

    def learn_one(self, x, y) -> dict:
        """One round: score, decide, update. Returns the round record (the trace's columns)."""
        x, y = self._x(x), self._y(y)
        return self._core.learn_one(x, y)

    def score_one(self, x):
        """f(x) of the current hypothesis (binary), or {class: f_c(x) - max_{r != c} f_r(x)}."""
        x = self._x(x)
        s = self._core.score_one(x)
        if self._multiclass:
            return dict(zip(self.classes, s))
        return s[0]

    def predict_one(self, x):
        """+1 when f(x) > 0 else -1 (a tie is an error in training, so -1); multiclass: the first arg max."""
        s = self.score_one(x)
        if self._multiclass:
            return max(s, key=s.get)
        return 1 if s > 0 else -1

    @property
    def rounds(self) -> int:
        """The rounds learned so far (continuing a loaded model's count)."""
        return 0 if self._core is None else self._core.rounds

    @property
    def support_size(self) -> int:
        """|S|: the supports the current hypothesis keeps (the primal perceptron: its updates)."""
        return 0 if self._core is None else self._core.support_size

    def _numeric_classes(self) -> list[float]:
        """The class labels as the model file stores them: numbers, else the class indices."""
        if not self._multiclass:
            return []
        if all(isinstance(c, (int, float, _np.integer, _np.floating)) and not isinstance(c, bool) for c in self.classes):
            return [float(c) for c in self.classes]
        return [float(i) for i in range(len(self.classes))]

    def save(self, path: str) -> None:
        """Writes the learner's model file (docs/models.md), atomically: `plab predict --model`,
        `plab run --init-model` and load_model() read it. Pickling writes the same bytes."""
        if self._core is None:
            raise ValueError("the learner has seen no example yet: nothing to save (give dim= or learn first)")
        self._core.save(_os.fspath(path), self._numeric_classes())


def load_model(path) -> Learner:
    """The Learner of a model file written by Learner.save or `plab run --save-model`: every
    double as saved, the rounds continuing after its own (docs/models.md)."""
    core = _core.Learner.from_path(_os.fspath(path))  # the first line is checked before the rest is read
    lr = Learner.__new__(Learner)
    lr.algo, lr._spec, lr._core = core.spec.algo, core.spec, core
    lr._multiclass = _core.is_multiclass(lr.algo)
    classes = core.model_classes
    lr.classes = [int(c) if float(c).is_integer() else c for c in classes] if lr._multiclass else None
    lr._index = {c: i for i, c in enumerate(lr.classes or [])}
    return lr
