"""Notebook-style example of perceptron_lab (docs/python.md): train online learners, compare their
mistakes with the proven mistake bounds, print the table and plot them with Result.plot and
plot_traces (with matplotlib when installed; docs/plot.md#python).

Run from the repository root:  PYTHONPATH=build/python python3 examples/bounds_vs_mistakes.py [OUT.png]
"""
import sys

import numpy as np

import perceptron_lab as pl

# %% Data: a9a from the data search path, or a generated linearly separable set without it.
try:
    X, y = pl.load("a9a")
    name, kernel = "a9a", {"kernel": "rbf", "gamma": 0.04}
except pl.DataError:
    X, y = pl.load("synthetic:separable:rho=0.1,n=3000")
    name, kernel = "synthetic separable", {}
n = min(X.shape[0], 8000)
X, y = X[:n], y[:n]
print(f"{name}: {X.shape[0]} rounds, {X.shape[1]} features")

# %% Runs: the kernel Perceptron and Projectron++ (DOGMA's eta convention), same order.
runs = {
    "Kernel Perceptron": pl.run("kernel-perceptron", X, y, shuffle=1, **kernel),
    "Projectron++": pl.run("projectron++", X, y, shuffle=1, eta=0.1, eta_convention="dogma", **kernel),
}

# %% Table: every bound that applies, its value, whether the run's mistakes stay below it.
for label, r in runs.items():
    print(f"\n{label}: {r.mistakes} mistakes, {r.updates} updates, {r.support_size} supports, {r.seconds:.2f} s")
    print(f"  {'bound':48s} {'kind':12s} {'value':>12s}  holds")
    for b in r.bounds:
        if b["applicable"]:
            print(f"  {b['name'][:48]:48s} {b['kind']:12s} {b['value']:12.1f}  {b['holds']}")

# %% Plot: each run's cumulative mistakes under its hard bounds on the prefixes 1..t, t = 1, 2, 4, ...
# (Result.plot: the numbers `plab plot --bounds` draws; faded where a bound is vacuous), then both
# runs' online error in one figure (plot_traces).
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("\nmatplotlib is not installed (Debian: apt-get install python3-matplotlib): no plot")
    sys.exit(0)
fig, axes = plt.subplots(1, 3, figsize=(20, 5.5))
for ax, (label, r) in zip(axes, runs.items()):
    r.plot(ax=ax)
    ax.set_title(f"{label} on {name}: mistakes and bounds", fontsize=9)
pl.plot_traces(runs.values(), ax=axes[2], metric="online_error")
axes[2].set_title(f"online error on {name}", fontsize=9)
out = sys.argv[1] if len(sys.argv) > 1 else "bounds_vs_mistakes.png"
fig.savefig(out, dpi=110, bbox_inches="tight")
print(f"\nplot: {out}")
