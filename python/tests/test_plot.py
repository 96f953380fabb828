"""Result.plot and plot_traces (docs/plot.md#python): the curve is the run's own records, the bound
points are those `plab bounds --trace` gives on the trace cut after each plotted round, a trace a
metric does not apply to is refused naming it, and without matplotlib the error names the package."""
import csv
import json
import subprocess

import numpy as np
import pytest

import perceptron_lab as pl
from conftest import run_cli

DEKEL = "synthetic:dekel:n=300,seed=2"


@pytest.fixture
def plt():
    mpl = pytest.importorskip("matplotlib", reason="matplotlib is not installed (Debian: python3-matplotlib)")
    mpl.use("Agg")
    import matplotlib.pyplot as plt
    yield plt
    plt.close("all")


def lines_by_gid(ax, prefix):
    return {l.get_gid()[len(prefix):]: l for l in ax.get_lines() if (l.get_gid() or "").startswith(prefix)}


def finite_points(line):
    x, y = np.asarray(line.get_xdata(), float), np.asarray(line.get_ydata(), float)
    return {(float(a), float(b)) for a, b in zip(x, y) if np.isfinite(b)}


def cut_bounds(plab_bin, tmp_path, csv_text):
    """{bound id: {(rounds, value)}}: the applicable hard rows of `plab bounds --trace --json` on the
    trace cut after rounds 1, 2, 4, ..., T (metadata rounds = t; before T no f_norm2_exact, as if it had
    stopped there: the library's prefix_facts)."""
    meta_line, header, *rows = csv_text.rstrip("\n").split("\n")
    T, t, out = len(rows), 1, {}
    while True:
        meta = json.loads(meta_line[2:])
        meta["rounds"] = t
        if t < T:
            meta.pop("f_norm2_exact", None)
        cut, js = tmp_path / "cut.csv", tmp_path / "cut.json"
        cut.write_text("\n".join(["# " + json.dumps(meta), header, *rows[:t]]) + "\n")
        subprocess.run([plab_bin, "bounds", "--trace", str(cut), "--json", str(js)], check=True, capture_output=True)
        for b in json.loads(js.read_text())["bounds"]:
            if b["applicable"] and b["hard"] and b["kind"] not in ("reference", "expectation") and b["value"] is not None:
                out.setdefault(b["id"], set()).add((float(b["rounds"]), float(b["value"])))
        if t == T:
            return out
        t = min(2 * t, T)


def test_result_plot_draws_the_run_and_the_bounds_plab_bounds_gives_on_its_prefixes(plt, plab_bin, tmp_path):
    X, y = pl.load(DEKEL)
    r = pl.run("projectron++", X, y, kernel="rbf", gamma=1.0, eta=0.1)
    ax = r.plot()
    (curve,) = lines_by_gid(ax, "curve").values()
    assert np.array_equal(curve.get_ydata(), np.cumsum(r.trace["mistake"]))
    assert np.array_equal(curve.get_xdata(), r.trace["t"])
    solid, faded = lines_by_gid(ax, "bound:"), lines_by_gid(ax, "vacuous:")
    drawn = {}
    for bid in set(solid) | set(faded):
        drawn[bid] = finite_points(solid[bid]) if bid in solid else set()
        if bid in faded:
            drawn[bid] |= finite_points(faded[bid])
    expected = cut_bounds(plab_bin, tmp_path, r.trace_csv())
    assert expected and drawn == expected
    # At T the points are the run's own rows (the pipeline's evaluation, not a prefix).
    T = float(len(r.trace["t"]))
    for b in r.bounds:
        if b["id"] in drawn and b["rounds"] == T:
            assert (T, b["value"]) in drawn[b["id"]]
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"


def test_plot_traces_names_each_trace_from_its_metadata(plt, plab_bin, tmp_path):
    paths = []
    for algo in ("kernel-perceptron", "projectron"):
        (tmp_path / algo).mkdir()
        run_cli(plab_bin, tmp_path / algo, "--algo", algo, "--data", DEKEL, "--kernel", "rbf", "--gamma", "1")
        paths.append(tmp_path / algo / "trace.csv")
    ax = pl.plot_traces(paths, metric="online_error")
    curves = [l for l in ax.get_lines() if l.get_gid() == "curve"]
    assert len(curves) == 2
    for path, line, algo in zip(paths, curves, ("kernel-perceptron", "projectron")):
        with open(path) as f:
            next(f)
            rows = list(csv.DictReader(f))
        t = np.array([int(r["t"]) for r in rows], float)
        m = np.cumsum([int(r["mistake"]) for r in rows])
        assert np.allclose(line.get_ydata(), m / t, rtol=0, atol=0)
        learner, _, rest = line.get_label().partition(", ")
        assert learner.split(" ")[0] == algo and rest == "rbf gamma=1, " + DEKEL
    assert {t.get_text() for t in ax.get_legend().get_texts()} == {c.get_label() for c in curves}


def test_a_metric_that_does_not_apply_is_refused_naming_the_run(plt):
    X, y = pl.load(DEKEL)
    r = pl.run("perceptron", X, y)
    with pytest.raises(ValueError, match="support_size'? does not apply: the primal Perceptron keeps one weight vector"):
        r.plot(metric="support_size", bounds=False)
    with pytest.raises(ValueError, match="bounds=True draws the bounds of one run"):
        pl.plot_traces([r, r], bounds=True)


def test_a_run_without_bounds_is_drawn_with_a_warning(plt):
    X, y = pl.load(DEKEL)
    r = pl.run("kernel-perceptron", X, y, kernel="rbf", gamma=1.0, bounds=False)
    with pytest.warns(UserWarning, match="no bound drawn: the run was made with bounds=False"):
        ax = r.plot()
    assert [l.get_gid() for l in ax.get_lines()] == ["curve"]


def test_a_malformed_trace_is_refused_as_plab_bounds_refuses_it(plab_bin, tmp_path):
    text, _ = run_cli(plab_bin, tmp_path, "--algo", "kernel-perceptron", "--data", DEKEL, "--kernel", "rbf")
    bad = tmp_path / "cut.csv"
    bad.write_text("\n".join(text.split("\n")[:40]) + "\n")  # 38 of 300 rounds
    cli = subprocess.run([plab_bin, "bounds", "--trace", str(bad)], capture_output=True, text=True)
    assert cli.returncode == 2
    with pytest.raises(pl.DataError) as e:
        pl.plot_traces([bad])
    assert str(e.value) in cli.stderr and str(e.value).startswith(f"{bad}:40: ")


def test_without_matplotlib_the_error_names_the_debian_package(monkeypatch):
    import sys
    X, y = pl.load(DEKEL)
    r = pl.run("kernel-perceptron", X, y, kernel="rbf", gamma=1.0)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match="python3-matplotlib"):
        r.plot()
