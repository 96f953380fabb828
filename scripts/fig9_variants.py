#!/usr/bin/env python3
"""Fig. 9 (figure R4) variant search: multiclass Perceptron, PA-I and Projectron++ under settings
the paper leaves open, one setting at a time (docs/conventions.md#r4, "Planned search").

An independent numpy re-implementation of the three multiclass learners of `plab run`
(docs/learners.md#multiclass): the baseline variants follow the same round rules (classes in
ascending label order, competitor = first arg max over the other classes, ties are mistakes,
PA-I's max-loss step tau = min(C, l/(2k(x,x))), Projectron++ in DOGMA's convention with eta per
squared distance and the margin slack l - (d_y + d_c)/(2 eta)), and on the same permutation they
give plab's mistakes and support sizes (checked with --check-plab). The variants:

  --order asc | desc | first        tie-break priority of the classes (the class order): ascending
                                    label, descending, or order of first appearance in the stream
  --pa  maxloss | maxloss-k | uniform-violators | all-violators | prediction
        maxloss: +tau on y, -tau on the competitor, tau = min(C, l/(2k)) (DOGMA, Crammer et al. 2006);
        maxloss-k: tau = min(C, l/k);
        uniform-violators: -1/|V| of the step on each class r != y with f_r > f_y - 1,
          tau = min(C, l_max/((1 + 1/|V|) k));
        all-violators: every violated constraint r takes its own max-loss step
          tau_r = min(C, l_r/(2k)), y takes the sum;
        prediction: the prediction-based loss (competitor = arg max over all classes, so only
          mistakes update)
  --pp  dogma | eta | independent | margin-always | shared
        dogma: DOGMA 0.31's multiclass rule (mistake: both classes projected iff both squared
          distances <= eta; margin update iff l - (d_y + d_c)/(2 eta) > 0);
        eta: the margin slack l - (d_y + d_c)/eta (the binary code's);
        independent: on a mistake each class is projected iff its own squared distance <= eta;
        margin-always: every margin error is projected, tau = min(l/|Pz|^2, 1) (the limit of any
          margin test);
        shared: one basis for all classes, the whole support set (each class projects onto the
          span of every support, one inverse Gram matrix; x joins it on a mistake with a squared
          distance above eta; margin slack l - 2d/(2 eta))
  --epochs K                        K passes, a fresh permutation per pass after the first;
                                    reports the mistakes of every pass
  --eta-relative                    the --eta values are fractions of k(x,x) = (gamma + coef0)^degree
                                    (for coef0 > 0, where squared distances scale with k)
  --paper fig9a.csv|fig9b.csv       adds the paper's Projectron++ error at our support size (the
                                    mean of its digitized curves, experiments/published/jmlr2009/)

Data: USPS zip.train(.gz) (label, 256 values in [-1, 1]; mapped to [0, 1] by (x+1)/2) or MNIST
train-images-idx3-ubyte(.gz) with --mnist-labels (pixels/255); every image is scaled to unit norm
and the kernel is (gamma <x,x'> + coef0)^degree (R4: gamma 1, coef0 0, degree 13 / 7). The
permutation of --shuffle S is plab's (std::mt19937_64 seeded with S, Fisher-Yates from the top,
rejection sampling for the bound), so `plab run --shuffle S` sees the same rounds.

Run (one permutation per --shuffle value; prints one JSON line per run):
  python3 scripts/fig9_variants.py --usps DATA/usps/zip.train.gz --learner pa1 --shuffle 1 2 3
  python3 scripts/fig9_variants.py --usps ... --learner projectron++ --eta 0.999 --pp margin-always
  python3 scripts/fig9_variants.py --mnist DATA/mnist/train-images-idx3-ubyte.gz \
      --mnist-labels DATA/mnist/train-labels-idx1-ubyte.gz --degree 7 --learner pa1 --shuffle 1
  add --check-plab PATH/TO/plab to run `plab run` (on its registry data set) on the same permutation
  and compare the counts
  (the baseline variants only; at eta = 1 the two can differ: an empty class's squared distance is
  k(x,x) = 1 up to one rounding, and which side of eta it falls on differs).
Needs numpy. USPS keeps the whole Gram matrix (7291^2 doubles, 0.4 GB); MNIST computes kernel rows
against the support set only.
"""
import argparse
import gzip
import json
import os
import subprocess
import sys

import numpy as np

# plab's Rng (core/random.hpp: std::mt19937_64, rejection `below`, Fisher-Yates), re-implemented
# once for the test fixtures.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "tools"))
from synthetic_reference import Rng  # noqa: E402


def permutation(n, seed):
    """plab's Rng(seed).permutation(n) (core/random.hpp)."""
    return np.array(Rng(seed).permutation(n), dtype=np.int64)


def _open(path):
    return gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb")


def load_usps(path):
    with _open(path) as f:
        a = np.loadtxt(f)
    return (a[:, 1:] + 1.0) / 2.0, a[:, 0].astype(np.int64)


def load_mnist(images, labels):
    with _open(images) as f:
        b = f.read()
    n, r, c = int.from_bytes(b[4:8], "big"), int.from_bytes(b[8:12], "big"), int.from_bytes(b[12:16], "big")
    x = np.frombuffer(b, dtype=np.uint8, offset=16).reshape(n, r * c).astype(np.float64) / 255.0
    with _open(labels) as f:
        lb = f.read()
    y = np.frombuffer(lb, dtype=np.uint8, offset=8).astype(np.int64)
    return x, y


class Kernel:
    """Kernel rows k(x_i, x_j) on unit-norm rows; the full Gram matrix when it is small."""

    def __init__(self, x, gamma, coef0, degree, full):
        self.x, self.g, self.c, self.p = x, gamma, coef0, degree
        self.G = None
        if full:
            self.G = (gamma * (x @ x.T) + coef0) ** degree
        self.diag = (gamma * np.einsum("ij,ij->i", x, x) + coef0) ** degree
        self.buf, self.nbuf = None, 0

    def row(self, i, sup, S):
        """k(x_i, s) for the first S supports sup[:S] (supports are only ever appended)."""
        if self.G is not None:
            return self.G[i, sup[:S]]
        if self.buf is None:
            self.buf = np.empty((len(sup), self.x.shape[1]))
        if self.nbuf < S:
            self.buf[self.nbuf:S] = self.x[sup[self.nbuf:S]]
            self.nbuf = S
        return (self.g * (self.buf[:S] @ self.x[i]) + self.c) ** self.p


def class_rank(order_rule, y_stream, m):
    """rank[c]: tie-break priority of class c (lower wins a tie, as the first arg max)."""
    if order_rule == "asc":
        return np.arange(m)
    if order_rule == "desc":
        return np.arange(m)[::-1].copy()
    if order_rule == "first":
        seen = []
        for c in y_stream:
            if c not in seen:
                seen.append(int(c))
            if len(seen) == m:
                break
        seen += [c for c in range(m) if c not in seen]
        rank = np.empty(m, dtype=np.int64)
        rank[seen] = np.arange(m)
        return rank
    raise ValueError(order_rule)


def first_argmax(f, rank, exclude=None):
    """The first arg max of f in the order given by rank (exclude: a class left out)."""
    best, bc = None, None
    for c in np.argsort(rank):
        if c == exclude:
            continue
        if best is None or f[c] > best:
            best, bc = f[c], c
    return int(bc)


def run(K, order, y, m, learner, a):
    """One pass (or a.epochs passes) over order; returns mistakes per pass and the support size."""
    n_total = len(order)
    K.nbuf = 0  # the support rows cached by K belong to the previous run
    rank = class_rank(a.order, y[order], m)
    cap = n_total + 1
    sup = np.empty(cap, dtype=np.int64)   # support set: data indices
    coef = np.zeros((cap, m))
    S = 0
    # Projectron++: per-class basis (positions in sup) and inverse Gram matrix
    basis = [[] for _ in range(m)]
    kinv = [np.zeros((0, 0)) for _ in range(m)]
    mistakes, margin_upd = [], 0
    T = n_total // a.epochs
    miss = 0
    for t, i in enumerate(order):
        if t > 0 and t % T == 0:
            mistakes.append(int(miss))
            miss = 0
        kii = K.diag[i]
        kr = K.row(i, sup, S) if S else np.zeros(0)
        f = kr @ coef[:S] if S else np.zeros(m)
        yi = int(y[i])
        if learner == "pa1" and a.pa == "prediction":
            c = first_argmax(f, rank)
            if c == yi:
                c = first_argmax(f, rank, exclude=yi)
                is_mistake = False
            else:
                is_mistake = True
        else:
            c = first_argmax(f, rank, exclude=yi)
            is_mistake = f[yi] <= f[c]
        miss += int(is_mistake)
        margin_err = (not is_mistake) and f[yi] < 1.0 + f[c]
        if learner == "perceptron":
            if is_mistake:
                sup[S] = i; coef[S, :] = 0; coef[S, yi] = 1.0; coef[S, c] = -1.0; S += 1
        elif learner == "pa1":
            if a.pa == "prediction" and not is_mistake:
                continue
            if not (is_mistake or margin_err):
                continue
            loss = 1.0 - (f[yi] - f[c])
            sup[S] = i; coef[S, :] = 0
            if a.pa in ("maxloss", "prediction"):
                tau = min(a.C, loss / (2.0 * kii))
                coef[S, yi] = tau; coef[S, c] = -tau
            elif a.pa == "maxloss-k":
                tau = min(a.C, loss / kii)
                coef[S, yi] = tau; coef[S, c] = -tau
            elif a.pa == "uniform-violators":
                V = [r for r in range(m) if r != yi and f[r] > f[yi] - 1.0]
                tau = min(a.C, loss / ((1.0 + 1.0 / len(V)) * kii))
                coef[S, yi] = tau
                for r in V:
                    coef[S, r] = -tau / len(V)
            elif a.pa == "all-violators":
                for r in range(m):
                    if r != yi and f[r] > f[yi] - 1.0:
                        tr = min(a.C, (1.0 - f[yi] + f[r]) / (2.0 * kii))
                        coef[S, yi] += tr; coef[S, r] = -tr
            else:
                raise ValueError(a.pa)
            S += 1
        elif learner == "projectron++":
            if not (is_mistake or margin_err):
                continue
            eta = a.eta
            if a.pp == "shared":
                # one basis for every class: the whole support set (f_c in span(S) for every c)
                if S:
                    d = kinv[0] @ kr
                    delta = max(kii - kr @ d, 0.0)
                    if delta <= 1e-12 * kii:
                        delta = 0.0
                else:
                    d, delta = np.zeros(0), kii
                if is_mistake:
                    if delta <= eta or delta < 2.0 ** -52:
                        if S:
                            coef[:S, yi] += d; coef[:S, c] -= d
                    else:
                        if S:
                            new = np.empty((S + 1, S + 1))
                            new[:-1, :-1] = kinv[0] + np.outer(d, d) / delta
                            new[:-1, -1] = -d / delta
                            new[-1, :-1] = -d / delta
                            new[-1, -1] = 1.0 / delta
                            kinv[0] = new
                        else:
                            kinv[0] = np.array([[1.0 / kii]])
                        sup[S] = i; coef[S, :] = 0; coef[S, yi] = 1.0; coef[S, c] = -1.0; S += 1
                else:
                    loss = 1.0 - f[yi] + f[c]
                    pz2 = 2.0 * (kii - delta)
                    slack = loss - 2.0 * delta / (2.0 * eta)
                    if slack > 0 and pz2 > 0 and S:
                        tau = min(loss / pz2, 1.0, 2.0 * slack / pz2)
                        margin_upd += 1
                        coef[:S, yi] += tau * d; coef[:S, c] -= tau * d
                continue
            proj = {}
            for cl in (yi, c):
                b = basis[cl]
                if b:
                    kb = kr[b]
                    d = kinv[cl] @ kb
                    delta = max(kii - kb @ d, 0.0)
                    if delta <= 1e-12 * kii:
                        delta = 0.0
                else:
                    kb, d, delta = np.zeros(0), np.zeros(0), kii
                proj[cl] = (kb, d, delta)
            dy, dc = proj[yi][2], proj[c][2]
            if is_mistake:
                both = dy <= eta and dc <= eta
                added = False
                for cl, sign in ((yi, 1.0), (c, -1.0)):
                    kb, d, delta = proj[cl]
                    if a.pp == "independent":
                        do_proj = delta <= eta or delta < 2.0 ** -52
                    else:
                        do_proj = both or delta < 2.0 ** -52
                    if do_proj:
                        if len(d):
                            coef[np.array(basis[cl]), cl] += sign * d
                    else:
                        if not added:
                            sup[S] = i; coef[S, :] = 0; S += 1; added = True
                        pos = S - 1
                        coef[pos, cl] = sign
                        # grow the inverse Gram matrix of class cl by the block formula
                        if len(d):
                            A = kinv[cl] + np.outer(d, d) / delta
                            new = np.empty((len(d) + 1, len(d) + 1))
                            new[:-1, :-1] = A
                            new[:-1, -1] = -d / delta
                            new[-1, :-1] = -d / delta
                            new[-1, -1] = 1.0 / delta
                            kinv[cl] = new
                        else:
                            kinv[cl] = np.array([[1.0 / kii]])
                        basis[cl].append(pos)
            else:
                loss = 1.0 - f[yi] + f[c]
                dsum = dy + dc
                pz2 = 2.0 * kii - dsum
                if a.pp == "eta":
                    slack = loss - dsum / eta
                elif a.pp == "margin-always":
                    slack = np.inf
                else:
                    slack = loss - dsum / (2.0 * eta)
                if slack > 0 and pz2 > 0:
                    tau = min(loss / pz2, 1.0, 2.0 * slack / pz2)
                    margin_upd += 1
                    for cl, sign in ((yi, 1.0), (c, -1.0)):
                        d = proj[cl][1]
                        if len(d):
                            coef[np.array(basis[cl]), cl] += sign * tau * d
        else:
            raise ValueError(learner)
    mistakes.append(int(miss))
    return {"mistakes": mistakes, "support_size": int(S), "margin_updates": margin_upd}


def paper_projectron(csv_path, x):
    """The paper's Projectron++ online error at support size x: the mean over its digitized curves
    (experiments/published/jmlr2009/fig9a.csv, fig9b.csv) of each curve's linear interpolation;
    None outside the range every curve covers."""
    curves = {}
    with open(csv_path) as f:
        next(f)
        for line in f:
            c = line.rstrip("\n").split(",")
            if c[2] == "Projectron++" and c[3] == "line":
                curves.setdefault(c[4], []).append((float(c[5]), float(c[6])))
    vals = []
    for pts in curves.values():
        pts.sort()
        xs, ys = [q[0] for q in pts], [q[1] for q in pts]
        if not xs[0] <= x <= xs[-1]:
            return None
        vals.append(float(np.interp(x, xs, ys)))
    return sum(vals) / len(vals)


PLAB_ALGO = {"perceptron": "multiclass-perceptron", "pa1": "multiclass-pa1",
             "projectron++": "multiclass-projectron++"}


def plab_counts(plab, a, seed):
    cmd = [plab, "run", "--algo", PLAB_ALGO[a.learner], "--data", "usps" if a.usps else "mnist",
           "--preprocess", "pm1-to-01,unit-norm" if a.usps else "unit-norm", "--kernel", "poly",
           "--gamma", repr(a.gamma), "--coef0", repr(a.coef0), "--degree", str(a.degree),
           "--shuffle", str(seed), "--no-bounds", "--quiet", "--summary", "/dev/stdout"]
    if a.learner == "pa1":
        cmd += ["--C", repr(a.C)]
    if a.learner == "projectron++":
        cmd += ["--eta", repr(a.eta), "--eta-convention", "dogma"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    r = json.loads(out)["results"]
    return {"mistakes": r["mistakes"], "support_size": r["support_size"]}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--usps", help="USPS zip.train(.gz)")
    p.add_argument("--mnist", help="MNIST train-images-idx3-ubyte(.gz)")
    p.add_argument("--mnist-labels", help="MNIST train-labels-idx1-ubyte(.gz)")
    p.add_argument("--learner", choices=["perceptron", "pa1", "projectron++"], required=True)
    p.add_argument("--shuffle", type=int, nargs="+", default=[1])
    p.add_argument("--gamma", type=float, default=1.0)
    p.add_argument("--coef0", type=float, default=0.0)
    p.add_argument("--degree", type=int, default=13)
    p.add_argument("--C", type=float, default=1.0)
    p.add_argument("--eta", type=float, nargs="+", default=[0.999])
    p.add_argument("--eta-relative", action="store_true",
                   help="eta is a fraction of k(x,x) = (gamma + coef0)^degree (unit-norm inputs)")
    p.add_argument("--order", choices=["asc", "desc", "first"], default="asc")
    p.add_argument("--pa", default="maxloss",
                   choices=["maxloss", "maxloss-k", "uniform-violators", "all-violators", "prediction"])
    p.add_argument("--pp", default="dogma", choices=["dogma", "eta", "independent", "margin-always", "shared"])
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--paper", metavar="CSV", help="the digitized panel (fig9a.csv / fig9b.csv): "
                   "adds the paper's Projectron++ error at our support size")
    p.add_argument("--check-plab", metavar="PLAB", help="compare with `plab run` on the same permutation")
    a = p.parse_args()
    if bool(a.usps) == bool(a.mnist):
        p.error("give --usps or --mnist")
    if a.usps:
        x, y = load_usps(a.usps)
    else:
        x, y = load_mnist(a.mnist, a.mnist_labels)
    x = x / np.linalg.norm(x, axis=1, keepdims=True)
    m = int(y.max()) + 1
    K = Kernel(x, a.gamma, a.coef0, a.degree, full=bool(a.usps))
    n = len(y)
    etas = list(a.eta)
    for seed in a.shuffle:
        order = permutation(n, seed)
        if a.epochs > 1:
            order = np.concatenate([order] + [permutation(n, seed * 1000003 + e) for e in range(1, a.epochs)])
        for eta in (etas if a.learner == "projectron++" else [None]):
            a.eta = eta * (a.gamma + a.coef0) ** a.degree if eta is not None and a.eta_relative else eta
            r = run(K, order, y, m, a.learner, a)
            rec = {"data": "usps" if a.usps else "mnist", "learner": a.learner, "shuffle": seed,
                   "degree": a.degree, "gamma": a.gamma, "coef0": a.coef0, "order": a.order,
                   "epochs": a.epochs, **r}
            if a.learner == "pa1":
                rec.update(pa=a.pa, C=a.C)
            if a.learner == "projectron++":
                rec.update(pp=a.pp, eta=eta, eta_abs=a.eta)
                if a.paper:
                    pe = paper_projectron(a.paper, r["support_size"])
                    rec["error"] = r["mistakes"][0] / n
                    rec["paper_error"] = pe
            if a.check_plab:
                ref = plab_counts(a.check_plab, a, seed)
                rec["plab"] = ref
                rec["plab_equal"] = ref == {"mistakes": r["mistakes"][0], "support_size": r["support_size"]}
            print(json.dumps(rec), flush=True)


if __name__ == "__main__":
    main()
