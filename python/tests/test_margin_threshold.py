# Projectron++'s margin threshold (docs/conventions.md#margin-threshold) from Python: the same trace
# as `plab run --margin-threshold`, a different run from the default, and refused by the Projectron.
import pytest

import perceptron_lab as pl
from conftest import run_cli


def body(csv_text):
    return csv_text.split("\n", 1)[1]


def test_margin_threshold_matches_the_cli(a9a, plab_bin, tmp_path):
    X, y = a9a
    n = 2000
    opts = dict(kernel="rbf", gamma=0.04, eta=0.1, eta_convention="dogma")
    data = tmp_path / "head.svm"
    with open(data, "w") as f:
        for i in range(n):
            row = X[i]
            feats = " ".join(f"{j + 1}:{v:.17g}" for j, v in zip(row.indices, row.data))
            f.write(f"{int(y[i]):+d} {feats}\n")
    cli, _ = run_cli(plab_bin, tmp_path, "--algo", "projectron++", "--data", str(data), "--kernel", "rbf",
                     "--gamma", "0.04", "--eta", "0.1", "--eta-convention", "dogma", "--margin-threshold", "2eta")
    twice = pl.run("projectron++", X[:n], y[:n], margin_threshold="2eta", **opts)
    once = pl.run("projectron++", X[:n], y[:n], **opts)
    assert body(twice.trace_csv()) == body(cli)
    assert twice.summary["options"]["margin_threshold"] == "2eta"
    assert list(twice.trace["update"]) != list(once.trace["update"])  # the margin tests differ


def test_margin_threshold_is_projectron_pp_only(a9a):
    X, y = a9a
    with pytest.raises(ValueError, match="margin_threshold"):
        pl.run("projectron", X[:50], y[:50], kernel="rbf", gamma=0.04, margin_threshold="2eta")
    with pytest.raises(ValueError, match="2eta"):
        pl.run("projectron++", X[:50], y[:50], kernel="rbf", gamma=0.04, margin_threshold="3eta")
