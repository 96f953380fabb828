# perceptron_lab.run gives the trace `plab run --trace` writes, byte for byte
# with the same writer, and the same results and bound rows (the one pipeline, the same flags).
import json

import numpy as np

import perceptron_lab as pl
from conftest import run_cli

# Keys of the trace's metadata that describe the run (the data block differs: a file vs arrays).
RUN_KEYS = ("algo", "kernel", "options", "comparator", "f_norm2_exact", "classes")


def body(csv_text):
    """The trace without its metadata line: the header and one row per round."""
    first, rest = csv_text.split("\n", 1)
    assert first.startswith("# {")
    return rest


def check_same(cli_text, summary_path, result, has_bounds=True):
    py_text = result.trace_csv()
    assert body(py_text) == body(cli_text)  # every cell, byte for byte
    cli_meta = json.loads(cli_text.split("\n", 1)[0][2:])
    py_meta = json.loads(py_text.split("\n", 1)[0][2:])
    for k in RUN_KEYS:
        assert py_meta.get(k) == cli_meta.get(k), k
    summary = json.loads(summary_path.read_text())
    for k in ("mistakes", "updates", "margin_errors", "support_size", "f_norm2", "f_norm2_exact", "rounds"):
        assert result.summary["results"][k] == summary["results"][k], k
    strip = lambda rows: [{k: v for k, v in r.items() if k != "reason"} for r in rows]
    assert strip(result.bounds) == summary["bounds"]
    assert any(b["applicable"] for b in result.bounds) == has_bounds


def check_arrays(result, cli_text):
    """The trace dict's arrays hold the same values as the CLI's CSV cells (same doubles)."""
    lines = body(cli_text).rstrip("\n").split("\n")
    header = lines[0].split(",")
    assert header == list(result.trace) == pl._core.trace_columns()
    cells = [line.split(",") for line in lines[1:]]
    for j, name in enumerate(header):
        col = result.trace[name]
        assert len(col) == len(cells)
        if name == "update":
            assert col.tolist() == [c[j] for c in cells]
        elif col.dtype == np.float64:
            want = np.array([float(c[j]) if c[j] else np.nan for c in cells])
            assert np.array_equal(col, want, equal_nan=True), name
        else:
            want = np.array([int(c[j]) if c[j] else -1 for c in cells])
            assert np.array_equal(col.astype(np.int64), want), name


def test_kernel_perceptron_a9a(a9a, plab_bin, tmp_path):
    X, y = a9a
    cli, summary = run_cli(plab_bin, tmp_path, "--algo", "kernel-perceptron", "--data", "a9a",
                           "--kernel", "rbf", "--gamma", "0.04")
    r = pl.run("kernel-perceptron", X, y, kernel="rbf", gamma=0.04)
    check_same(cli, summary, r)
    check_arrays(r, cli)


def test_projectron_pp_dogma_a9a(a9a, plab_bin, tmp_path):
    X, y = a9a
    n = 8000
    cli, summary = run_cli(plab_bin, tmp_path, "--algo", "projectron++", "--data", "a9a", "--kernel", "rbf",
                           "--gamma", "0.04", "--eta", "0.1", "--eta-convention", "dogma", "--limit", str(n))
    r = pl.run("projectron++", X[:n], y[:n], kernel="rbf", gamma=0.04, eta=0.1, eta_convention="dogma")
    check_same(cli, summary, r)


def test_multiclass_usps(usps, plab_bin, tmp_path):
    X, y = usps
    n = 3000
    cli, summary = run_cli(plab_bin, tmp_path, "--algo", "multiclass-perceptron", "--data", "usps", "--kernel", "rbf",
                           "--gamma", "0.01", "--limit", str(n))
    r = pl.run("multiclass-perceptron", X[:n], y[:n], kernel="rbf", gamma=0.01)
    assert r.summary["classes"] == sorted(set(y[:n].tolist()))
    check_same(cli, summary, r)


def test_shuffled_primal_perceptron(a9a, plab_bin, tmp_path):
    X, y = a9a
    cli, summary = run_cli(plab_bin, tmp_path, "--algo", "perceptron", "--data", "a9a", "--shuffle", "7", "--no-bounds")
    r = pl.run("perceptron", X, y, shuffle=7, bounds=False)  # the SVM comparator on 32561 rows: 10 s more
    check_same(cli, summary, r, has_bounds=False)


def test_dense_fortran_equals_cli(a9a, plab_bin, tmp_path):
    """The dense, Fortran-ordered copy of the data: the same rounds as the CLI's on the file."""
    X, y = a9a
    n = 3000
    cli, summary = run_cli(plab_bin, tmp_path, "--algo", "pa1", "--data", "a9a", "--limit", str(n),
                           "--kernel", "poly", "--degree", "2", "--gamma", "0.1", "--C", "0.5")
    D = np.asfortranarray(X[:n].toarray())
    r = pl.run("pa1", D, y[:n], kernel="poly", degree=2, gamma=0.1, C=0.5)
    check_same(cli, summary, r, has_bounds=False)  # PA-I: no mistake bound is evaluated


def test_threads_give_the_same_trace():
    """run(threads=N): the kernel rows split between N threads, the trace the same bytes (docs/threads.md)."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(400, 30))
    y = np.where(rng.uniform(size=400) < 0.5, 1.0, -1.0)
    texts = [pl.run("pa1", X, y, kernel="rbf", gamma=0.1, threads=n).trace_csv() for n in (1, 2, 3)]
    assert texts[1] == texts[0] and texts[2] == texts[0]
    try:
        pl.run("pa1", X, y, threads=-1)
    except ValueError as e:
        assert "threads" in str(e)
    else:
        raise AssertionError("threads=-1 was accepted")
