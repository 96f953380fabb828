"""What the Python layer costs (docs/python.md#overhead), on a9a:
  1. run(): pl.run wall time against the CLI's pipeline time for the same run (plab run's wall
     time minus that of the same command on one round: start-up, loading and checksums);
  2. learn_one: seconds per call in a Python loop, against the learner's own seconds per round.
Usage: PYTHONPATH=build/python python3 python/tools/overhead.py [build/plab]"""
import json
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import perceptron_lab as pl

PLAB = sys.argv[1] if len(sys.argv) > 1 else "build/plab"
ARGS = ["--algo", "kernel-perceptron", "--data", "a9a", "--kernel", "rbf", "--gamma", "0.04", "--no-bounds", "--quiet"]
REPEAT = 5


def cli_seconds(extra):
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        t = time.perf_counter()
        subprocess.run([PLAB, "run", *ARGS, "--summary", f.name, *extra], check=True)
        wall = time.perf_counter() - t
        return wall, json.load(open(f.name))["results"]["seconds"]


def main():
    X, y = pl.load("a9a")
    cli = [cli_seconds([]) for _ in range(REPEAT)]
    base = statistics.median(cli_seconds(["--limit", "1"])[0] for _ in range(REPEAT))
    cli_pipeline = statistics.median(w for w, _ in cli) - base
    cli_learn = statistics.median(s for _, s in cli)
    py, py_learn = [], []
    for _ in range(REPEAT):
        t = time.perf_counter()
        r = pl.run("kernel-perceptron", X, y, kernel="rbf", gamma=0.04, bounds=False)
        py.append(time.perf_counter() - t)
        py_learn.append(r.seconds)
    t = time.perf_counter()
    for _ in range(REPEAT):
        pl._dataset(X, y, [])
    convert = (time.perf_counter() - t) / REPEAT
    py_run = statistics.median(py)
    print(f"a9a kernel-perceptron rbf: CLI learning {cli_learn:.3f} s, CLI pipeline {cli_pipeline:.3f} s; "
          f"pl.run {py_run:.3f} s (learning {statistics.median(py_learn):.3f} s, X to Dataset {convert * 1e3:.1f} ms)")
    print(f"run overhead: {100 * (py_run - cli_pipeline) / cli_learn:+.2f}% of the CLI's learning time "
          f"(conversion alone {100 * convert / cli_learn:.2f}%)")

    D = X.toarray()
    n = 20000
    for algo, opts in [("perceptron", {}), ("kernel-perceptron", {"kernel": "rbf", "gamma": 0.04})]:
        r = pl.run(algo, D[:n], y[:n], bounds=False, **opts)
        per_round = r.seconds / n
        for name, make in [("1-D array", lambda i: D[i]),
                           ("dict", lambda i: {int(j): float(v) for j, v in zip(X.indices[X.indptr[i]:X.indptr[i + 1]],
                                                                              X.data[X.indptr[i]:X.indptr[i + 1]])})]:
            xs = [make(i) for i in range(n)]
            lr = pl.Learner(algo, dim=D.shape[1], **opts)
            t = time.perf_counter()
            for i in range(n):
                lr.learn_one(xs[i], y[i])
            call = (time.perf_counter() - t) / n
            print(f"learn_one {algo:18s} x as {name:9s}: {call * 1e6:7.2f} us/call, learner {per_round * 1e6:7.2f} "
                  f"us/round: overhead {(call - per_round) * 1e6:6.2f} us/call")


if __name__ == "__main__":
    main()
