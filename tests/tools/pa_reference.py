#!/usr/bin/env python3
"""Independent reference for PA-I (Crammer et al., JMLR 2006, Fig. 1;
docs/conventions.md#paper-vs-dogma).
Stdlib only. Part 1: Gaussian sigma = 1 (gamma = 0.5) on 1-D inputs, C = 0.7, paper convention.
Part 2: linear kernel where y s == 1 happens exactly, paper vs DOGMA (adds with coefficient 0)."""
import math

def pa1(seq, C, kern, dogma=False):
    S, log = [], []
    for t, (x, y) in enumerate(seq, 1):
        s = sum(a * kern(xs, x) for xs, a in S); loss = 1 - y * s; coef = None
        if loss > 0 or (dogma and loss == 0):
            tau = min(loss / kern(x, x), C); coef = y * tau; S.append((x, coef))
        norm2 = sum(a * b * kern(xa, xb) for xa, a in S for xb, b in S)
        log.append((t, s, coef, len(S), norm2))
    return S, log

def show(log):
    for t, s, coef, n, n2 in log:
        print('  {{{}, {:.15f}, {}, {}, {:.15f}}},'.format(
            t, s, 'kNone' if coef is None else '%.15f' % coef, n, n2))

if __name__ == '__main__':
    g = lambda a, b: math.exp(-0.5 * (a - b) ** 2)
    seq = [(0.0, 1), (0.3, -1), (2.0, 1), (0.15, 1), (1.0, -1), (0.2, 1), (2.1, 1), (0.35, -1),
           (0.0, 1), (1.1, -1)]
    print('gaussian, C = 0.7, paper: t, s, coef, |S|, ||f||^2'); show(pa1(seq, 0.7, g)[1])
    lin = lambda a, b: a * b
    seq2 = [(1.0, 1), (1.0, 1), (-2.0, -1), (0.5, 1), (3.0, -1)]
    for dogma in (False, True):
        print('linear, C = 1, dogma =', dogma); show(pa1(seq2, 1.0, lin, dogma)[1])
