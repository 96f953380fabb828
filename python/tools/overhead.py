"""What the Python layer costs (docs/python.md#overhead), measured on a9a in one command:

    PYTHONPATH=build/python /usr/bin/python3 python/tools/overhead.py [--plab build/plab] [--reps 15] [--learn-one]

run(): kernel-perceptron (rbf, gamma 0.04) and projectron++ (rbf, gamma 0.04, eta 0.1, dogma) on the
whole of a9a from perceptron_lab.load, without bounds, against `plab run` with the same options,
interleaved (CLI then Python, Python then CLI, ...: a change of machine load hits both alike),
after one warm-up run of each that is not counted:
  learning:   Result.seconds against the CLI summary's results.seconds (the same clock around the
              same loop of the same pipeline);
  end to end: the wall time of the pl.run call (checks, X read in place, learning, result) against
              the wall time of the plab process (start-up, reading and checksumming a9a.xz,
              learning, writing the summary).
Nothing is subtracted. Medians and [min..max] ranges over the repetitions, and the median and
range of the per-repetition ratio Python / CLI. --learn-one adds learn_one's cost per call in a
Python loop against the learner's own time per round."""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time

import numpy as np

import perceptron_lab as pl

ALGOS = [("kernel-perceptron", {"kernel": "rbf", "gamma": 0.04}),
         ("projectron++", {"kernel": "rbf", "gamma": 0.04, "eta": 0.1, "eta_convention": "dogma"})]


def cli_args(algo, opts):
    args = ["--algo", algo, "--data", "a9a", "--no-bounds", "--quiet"]
    for k, v in opts.items():
        args += ["--" + k.replace("_", "-"), str(v)]
    return args


def cli_once(plab, algo, opts):
    """(wall seconds of the plab process, its summary's learning seconds, mistakes)."""
    with tempfile.TemporaryDirectory() as tmp:
        summary = os.path.join(tmp, "summary.json")
        t = time.perf_counter()
        subprocess.run([plab, "run", *cli_args(algo, opts), "--summary", summary], check=True)
        wall = time.perf_counter() - t
        with open(summary) as f:
            res = json.load(f)["results"]
    return wall, res["seconds"], res["mistakes"]


def py_once(X, y, algo, opts):
    t = time.perf_counter()
    r = pl.run(algo, X, y, bounds=False, **opts)
    return time.perf_counter() - t, r.seconds, r.mistakes


def spread(xs, fmt):
    return f"{fmt(statistics.median(xs))} [{fmt(min(xs))}..{fmt(max(xs))}]"


def secs(v):
    return f"{v:.3f} s"


def pct(v):
    return f"{100 * (v - 1):+.1f}%"


def measure_run(plab, X, y, reps):
    for algo, opts in ALGOS:
        cli_once(plab, algo, opts), py_once(X, y, algo, opts)  # warm-up (page cache, first touch), not counted
        cli, py = [], []
        runs = [lambda: cli.append(cli_once(plab, algo, opts)), lambda: py.append(py_once(X, y, algo, opts))]
        for i in range(reps):  # CLI first on even repetitions, Python first on odd ones
            for one in (runs if i % 2 == 0 else runs[::-1]):
                one()
        if {m for _, _, m in cli} != {m for _, _, m in py}:
            raise SystemExit(f"{algo}: mistakes differ between the CLI and Python: {cli} {py}")
        print(f"\n{algo} ({', '.join(f'{k}={v}' for k, v in opts.items())}), {py[0][2]} mistakes")
        for what, i in [("learning (Result.seconds vs summary seconds)", 1), ("end to end (wall time)", 0)]:
            c, p = [r[i] for r in cli], [r[i] for r in py]
            print(f"  {what}:\n    CLI    {spread(c, secs)}\n    Python {spread(p, secs)}\n"
                  f"    Python / CLI per repetition: median {spread([b / a for a, b in zip(c, p)], pct)}")


def measure_conversion(X, y, reps):
    """pl._dataset: the checks of X's rows and their norms, labels and checksum (X read in place)."""
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        pl._dataset(X, y, [])
        ts.append(time.perf_counter() - t)
    print(f"\nX -> Dataset (pl._dataset, in place): {spread(ts, lambda v: f'{v * 1e3:.2f} ms')}")


def measure_learn_one(X, y):
    D = X.toarray()
    n = 20000
    for algo, opts in [("perceptron", {}), ("kernel-perceptron", {"kernel": "rbf", "gamma": 0.04})]:
        r = pl.run(algo, D[:n], y[:n], bounds=False, **opts)
        per_round = r.seconds / n
        rows = [(X.indices[X.indptr[i]:X.indptr[i + 1]], X.data[X.indptr[i]:X.indptr[i + 1]]) for i in range(n)]
        for name, xs in [("1-D array", [D[i] for i in range(n)]),
                         ("dict", [{int(j): float(v) for j, v in zip(*row)} for row in rows])]:
            lr = pl.Learner(algo, dim=D.shape[1], **opts)
            t = time.perf_counter()
            for i in range(n):
                lr.learn_one(xs[i], y[i])
            call = (time.perf_counter() - t) / n
            print(f"learn_one {algo:18s} x as {name:9s}: {call * 1e6:7.2f} us/call, learner {per_round * 1e6:7.2f} "
                  f"us/round: overhead {(call - per_round) * 1e6:6.2f} us/call")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--plab", default="build/plab")
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--learn-one", action="store_true", help="also time learn_one in a Python loop")
    a = ap.parse_args()
    X, y = pl.load("a9a")
    print(f"a9a: {X.shape[0]} rows, {X.nnz} non-zeros (indices {X.indices.dtype}, indptr {X.indptr.dtype}); "
          f"{a.reps} interleaved repetitions; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start")
    measure_conversion(X, y, a.reps)
    measure_run(a.plab, X, y, a.reps)
    if a.learn_one:
        print()
        measure_learn_one(X, y)
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
