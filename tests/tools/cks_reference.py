#!/usr/bin/env python3
"""Independent reference for the Crammer-Kandola-Singer budget Perceptron (docs/learners.md#cks).
Stdlib only; recomputes every f(x_i) from scratch (no incremental bookkeeping), so it checks
the C++ learner's incremental F_i. Gaussian kernel sigma = 1 (gamma = 0.5), 1-D inputs.
Order: remove-then-insert (default) or insert-then-remove; argmax ties -> smallest id."""
import math

def kern(a, b): return math.exp(-0.5 * (a - b) ** 2)

def cks(seq, N, beta, insert_first=False):
    S = []  # list of (id, x, alpha)
    log = []
    for t, (x, y) in enumerate(seq, 1):
        f = lambda z: sum(a * kern(xs, z) for _, xs, a in S)
        s = f(x); kind, removed = 'none', -1
        def pick():
            best = None
            for (i, xi, a) in S:
                yi = 1.0 if a >= 0 else -1.0
                v = yi * (f(xi) - a * kern(xi, xi))
                if best is None or v > best[0] or (v == best[0] and i < best[1]): best = (v, i)
            return best[1]
        if y * s <= beta:
            kind = 'add'
            if not insert_first and len(S) >= N:
                removed = pick(); S = [e for e in S if e[0] != removed]; kind = 'evict'
            S.append((t, x, float(y)))
            if insert_first and len(S) > N:
                removed = pick(); S = [e for e in S if e[0] != removed]; kind = 'evict'
        log.append((t, s, kind, removed, len(S)))
    return S, log

if __name__ == '__main__':
    seq = [(0.0, 1), (0.3, -1), (2.0, 1), (0.15, 1), (1.0, -1), (0.2, 1), (2.1, 1), (0.35, -1),
           (0.0, 1), (1.1, -1)]
    for insert_first in (False, True):
        S, log = cks(seq, N=3, beta=0.5, insert_first=insert_first)
        print('insert_first =', insert_first, '(N = 3, beta = 0.5)')
        for t, s, kind, rem, n in log:
            print('  {{{}, {:.15f}, "{}", {}, {}}},'.format(t, s, kind, rem, n))
        print('  final ids', [i for i, _, _ in S], 'alpha', [a for _, _, a in S])
