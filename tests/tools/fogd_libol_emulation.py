#!/usr/bin/python3
"""FOGD on a9a in file order under the suite's rule and under LIBOL KOL's (kernel_fogd.h), in numpy.

Measures how much each difference of rule between `plab run --algo fogd` and the toolbox's FOGD moves
the online error (docs/conventions.md#fogd-libol). The suite's rule (algorithms/fogd.hpp):
z(x) = (cos(u_i.x), sin(u_i.x)), u_i ~ N(0, 2 gamma I), w += eta y z on y w.z < 1, a mistake is
y w.z <= 0. The toolbox's differences, read in src/kernel/kernel_fogd.h:
  * "sin":   the first coordinate is a parabolic approximation of sin(u.x) after wrapping u.x into
             [-pi, pi]: a = (4/pi) v - (4/pi^2) v|v|, s = 0.225 (a|a| - a) + a;
  * "sign":  the second is sgn(u.x) sqrt(1 - s^2) = sgn(u.x)|cos(u.x)|, which is -cos(u.x) whenever
             u.x lies in (-pi/2, 0) or (pi/2, pi) after wrapping;
  * "seed":  u is drawn by std::default_random_engine seeded with time(NULL): every run has other
             frequencies (here: numpy draws, several seeds);
  * "nan":   near u.x = +-pi/2 the parabola exceeds 1 (its constants are 4/pi and -4/pi^2 rounded:
             the maximum of a is 1.0000106), so sqrt(1 - s^2) is NaN; the score w.z is then NaN, the
             round predicts sign(NaN) = -1 and, y s < 1 being false, does not update. With D = 400
             most rounds have such a coordinate;
  * a mistake is sign(f) != y with sign(0) = -1 (f = 0 on a positive label counts as a mistake,
             as here).
Variants: suite; sin; sign; sin+sign (both, the NaN clamped to 0); libol (all three).
Each variant: mean and range of the online error over `--seeds` frequency draws.

Usage: /usr/bin/python3 tests/tools/fogd_libol_emulation.py --data PATH/a9a.xz [--D 400] [--seeds 5]
"""
import argparse
import lzma
import math

import numpy as np


def read_libsvm(path):
    opener = lzma.open if path.endswith(".xz") else open
    ys, rows = [], []
    with opener(path, "rt") as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            ys.append(float(parts[0]))
            rows.append([(int(k), float(v)) for k, v in (p.split(":") for p in parts[1:])])
    d = max((k for r in rows for k, _ in r), default=0)
    X = np.zeros((len(rows), d))
    for i, r in enumerate(rows):
        for k, v in r:
            X[i, k - 1] = v
    return X, np.array(ys)


def parabolic_sin(v):
    """kernel_fogd.h: v wrapped into [-pi, pi] by +-6.28318531, then the parabola with its correction."""
    v = v.copy()
    while np.any(v < -3.14159265):
        v[v < -3.14159265] += 6.28318531
    while np.any(v > 3.14159265):
        v[v > 3.14159265] -= 6.28318531
    a = 1.273239 * v + -0.40528 * v * np.abs(v)
    return 0.225 * (a * np.abs(a) - a) + a, v


def features(UX, variant):
    if variant == "suite":
        return np.hstack([np.cos(UX), np.sin(UX)])
    if variant == "sign":  # exact sin, the toolbox's sgn(u.x)|cos(u.x)|
        v = np.mod(UX + math.pi, 2 * math.pi) - math.pi
        return np.hstack([np.sin(v), np.sign(v) * np.abs(np.cos(v))])
    s, v = parabolic_sin(UX)
    if variant == "sin":  # the parabolic sin, the exact cos
        return np.hstack([np.cos(v), s])
    if variant in ("sin+sign", "libol"):  # both; "libol" also keeps the NaN of sqrt(1 - s^2) when |s| > 1
        with np.errstate(invalid="ignore"):
            c = np.sqrt(1.0 - s * s if variant == "libol" else np.maximum(0.0, 1.0 - s * s))
        return np.hstack([s, np.where(v < 0, -c, c)])
    raise ValueError(variant)


def online_error(Z, y, eta):
    """A NaN score predicts -1 (the toolbox's Sign: x > 0 ? 1 : -1) and, y s < 1 being false, never updates."""
    w = np.zeros(Z.shape[1])
    mistakes = 0
    for t in range(len(y)):
        s = float(w @ Z[t])
        if (y[t] * s <= 0.0) if not math.isnan(s) else y[t] > 0:
            mistakes += 1
        if y[t] * s < 1.0:
            w += eta * y[t] * Z[t]
    return mistakes / len(y)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True,
                    help="a9a as LIBSVM text, .xz read too (on the data search path: a9a/a9a.xz, docs/conventions.md#datasets)")
    ap.add_argument("--gamma", type=float, default=0.04)
    ap.add_argument("--eta", type=float, default=0.5)
    ap.add_argument("--D", type=int, nargs="+", default=[400])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--variants", nargs="+", default=["suite", "sin", "sign", "sin+sign", "libol"])
    a = ap.parse_args()
    X, y = read_libsvm(a.data)
    print(f"data {a.data}: T = {len(y)}, d = {X.shape[1]}, gamma = {a.gamma}, eta = {a.eta}")
    for D in a.D:
        for variant in a.variants:
            errs = []
            for seed in range(1, a.seeds + 1):
                rng = np.random.default_rng(seed)
                U = rng.normal(0.0, math.sqrt(2.0 * a.gamma), size=(X.shape[1], D))
                errs.append(online_error(features(X @ U, variant), y, a.eta))
            e = 100 * np.array(errs)
            print(f"D = {D:4d}  {variant:6s}  mean {e.mean():6.2f}%  range [{e.min():.2f}, {e.max():.2f}]  "
                  f"({a.seeds} draws)", flush=True)


if __name__ == "__main__":
    main()
