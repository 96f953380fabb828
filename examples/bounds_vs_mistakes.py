"""Notebook-style example of perceptron_lab (docs/python.md): train online learners, compare their
mistakes with the proven mistake bounds, plot them (with matplotlib when installed) and print
the table.

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

# %% Plot: cumulative mistakes against t, and each run's smallest bound that is not vacuous.
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("\nmatplotlib is not installed: no plot")
    sys.exit(0)
fig, ax = plt.subplots(figsize=(7, 4.5))
for (label, r), color in zip(runs.items(), ["black", "tab:orange"]):
    t = r.trace["t"]
    ax.plot(t, np.cumsum(r.trace["mistake"]), color=color, label=f"{label}: mistakes")
    rows = [b for b in r.bounds if b["applicable"] and not b["vacuous"] and b["kind"] != "check"]
    if rows:
        best = min(rows, key=lambda b: b["value"])
        ax.axhline(best["value"], color=color, linestyle="--", label=f"{label}: {best['name'][:40]}")
ax.set_xlabel("round t")
ax.set_ylabel("mistakes")
ax.set_title(f"Mistakes and mistake bounds on {name}")
ax.legend(fontsize=8)
out = sys.argv[1] if len(sys.argv) > 1 else "bounds_vs_mistakes.png"
fig.savefig(out, dpi=120, bbox_inches="tight")
print(f"\nplot: {out}")
