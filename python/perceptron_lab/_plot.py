"""Pictures of runs with matplotlib: Result.plot and plot_traces (docs/plot.md#python).

The numbers come from the compiled module, as `plab plot` draws them: the curve from the run's
records, the bounds from the C++ evaluation on the run's prefixes (bounds/prefix_bounds.hpp: the
hard bounds on rounds 1..t for t = 1, 2, 4, ..., T), the legend name from the trace's metadata.
"""
import json as _json
import os as _os
import warnings as _warnings

import numpy as _np

from . import _core

_METRICS = ("online_error", "mistakes", "support_size")
_AXES = ("rounds", "support")
_YLABEL = {"mistakes": "mistakes M_t", "online_error": "online error M_t / t", "support_size": "support size |S_t|"}
_XLABEL = {"rounds": "round t", "support": "support size |S_t|"}
# The bounds' colours, in row order: those of `plab plot` (experiments/report/trace_series.cpp).
_BOUND_COLORS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#8c564b", "#9467bd",
                 "#7f7f7f", "#bcbd22"]


def _pyplot():
    """matplotlib.pyplot, or an ImportError that says how to install it."""
    try:
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise ImportError("perceptron_lab's plots need matplotlib: install Debian's python3-matplotlib "
                          "(apt-get install python3-matplotlib) for /usr/bin/python3") from e
    return plt


class _Run:
    """What a plot reads of one run: its metadata, records and bound points (all from _core)."""

    def __init__(self, name, meta, arrays, points_json, no_bound_reason):
        self.name, self.meta, self.arrays = name, meta, arrays
        self._points_json, self._no_bound_reason = points_json, no_bound_reason

    def bound_points(self):
        return _json.loads(self._points_json())

    def no_bound_reason(self):
        return self._no_bound_reason()


def _as_run(t, bounds: bool) -> _Run:
    """A Result, or the path of a trace written by `plab run --trace` / Result.trace_csv (read and
    checked as `plab plot` reads it; a malformed trace raises DataError naming file and line)."""
    if hasattr(t, "_o") and hasattr(t, "meta"):
        o = t._o
        return _Run("run", t.meta(), t.trace, o.bound_points_json, o.no_bound_reason)
    if isinstance(t, (str, bytes, _os.PathLike)):
        path = _os.fsdecode(_os.fspath(t))
        f = _core.read_trace(path, bounds)
        return _Run(path, _json.loads(f.meta_json()), f.trace_arrays(), f.bound_points_json, f.no_bound_reason)
    raise TypeError(f"plot_traces: expected a Result or a trace file path, got {type(t).__name__}")


def _check_support(run: _Run, what: str):
    why = _core.no_support_reason(_json.dumps(run.meta))
    if why:
        raise ValueError(f"{run.name}: {what} does not apply: {why}")


def _curve(run: _Run, metric: str, x: str):
    a = run.arrays
    t = a["t"].astype(_np.float64)
    m = _np.cumsum(a["mistake"].astype(_np.float64))
    y = {"mistakes": m, "online_error": m / t, "support_size": a["support_size"].astype(_np.float64)}[metric]
    return (t if x == "rounds" else a["support_size"].astype(_np.float64)), y


def _draw_bounds(ax, run: _Run, metric: str, x: str):
    """Each bound's points: solid where it says something, faded where vacuous (joined where one
    becomes the other), at the rounds the bound covers."""
    points = run.bound_points()
    if not points:
        _warnings.warn(f"{run.name}: no bound drawn: {run.no_bound_reason()}", stacklevel=3)
        return
    support = run.arrays["support_size"]
    ids = list(dict.fromkeys(p["id"] for p in points))
    for i, bid in enumerate(ids):
        pts = [p for p in points if p["id"] == bid]
        xs = _np.array([p["rounds"] if x == "rounds" else support[p["rounds"] - 1] for p in pts], dtype=_np.float64)
        ys = _np.array([p["value"] / (p["rounds"] if metric == "online_error" else 1) for p in pts])
        vac = _np.array([p["vacuous"] for p in pts], dtype=bool)
        near = vac | _np.r_[False, vac[:-1]] | _np.r_[vac[1:], False]
        color = _BOUND_COLORS[i % len(_BOUND_COLORS)]
        name = pts[0]["name"]
        if (~vac).any():
            ax.plot(xs, _np.where(vac, _np.nan, ys), "o-", ms=3, lw=1.5, color=color, label=name, gid=f"bound:{bid}")
        if near.any():
            ax.plot(xs, _np.where(near, ys, _np.nan), "o--", ms=3, lw=1.0, color=color, alpha=0.4,
                    mfc="none", label=None if (~vac).any() else f"{name} (vacuous)", gid=f"vacuous:{bid}")
    comp = run.meta.get("comparator") or {}
    ax.set_xscale("log")
    ax.set_yscale("log")
    if x == "rounds":
        T = float(run.arrays["t"][-1])
        ax.plot([1, T], [1, T] if metric == "mistakes" else [1, 1], ":", color="#999999",
                label="t (a mistake every round)" if metric == "mistakes" else "1 (a mistake every round)")
    ax.set_title(f"bounds against the comparator '{comp.get('name', 'none')}' (||g0|| = {comp.get('norm', 0):.4g}); "
                 "faded: vacuous", fontsize=8)


def plot_traces(traces, ax=None, *, metric: str = "mistakes", x: str = "rounds", bounds: bool = False):
    """One figure of runs: each a Result or a trace file, a curve named by its metadata (learner,
    options, kernel, data). bounds=True (one run only): its hard bounds on its prefixes, from the
    C++ evaluation `plab plot --bounds` draws; a run without bounds to draw gives a warning.
    metric: online_error | mistakes | support_size; x: rounds | support. Returns the axes."""
    if metric not in _METRICS:
        raise ValueError(f"metric = {metric!r}: expected one of {', '.join(_METRICS)}")
    if x not in _AXES:
        raise ValueError(f"x = {x!r}: expected one of {', '.join(_AXES)}")
    traces = list(traces)
    if not traces:
        raise ValueError("plot_traces: give at least one Result or trace file")
    if bounds and len(traces) != 1:
        raise ValueError(f"bounds=True draws the bounds of one run: give one, got {len(traces)}")
    if bounds and metric == "support_size":
        raise ValueError("bounds=True: the bounds are on the mistakes; use metric='mistakes' or 'online_error'")
    runs = [_as_run(t, bounds) for t in traces]
    for r in runs:
        if metric == "support_size":
            _check_support(r, "metric='support_size'")
        if x == "support":
            _check_support(r, "x='support'")
    if ax is None:
        _, ax = _pyplot().subplots(figsize=(8, 5))
    else:
        _pyplot()
    for r in runs:
        xs, ys = _curve(r, metric, x)
        ax.plot(xs, ys, color="black" if len(runs) == 1 else None, lw=2,
                label=_core.trace_label(_json.dumps(r.meta)), gid="curve")
    if bounds:
        _draw_bounds(ax, runs[0], metric, x)
    ax.set_xlabel(_XLABEL[x])
    ax.set_ylabel(_YLABEL[metric])
    ax.legend(fontsize=7, loc="upper right" if metric == "online_error" and not bounds else "upper left")
    return ax
