#!/usr/bin/env python3
"""Independent reference for the Forgetron (docs/learners.md#forgetron,
docs/learners.md#forgetron-basic), stdlib only, every f(.) and ||f|| recomputed from scratch. Gaussian sigma = 1 (gamma = 0.5), 1-D inputs, fixture F's sequence.
Self-tuned numbers must match docs/bounds.md#fixture-f; the basic rule's numbers are new here."""
import math

def kern(a, b): return math.exp(-0.5 * (a - b) ** 2)

def forgetron_phi(sigma_r, p, Q, M):   # docs/learners.md#forgetron-self-tuned, verbatim
    A, b, c = sigma_r ** 2 - 2 * sigma_r * p, 2 * sigma_r, Q - 15.0 / 32.0 * M
    disc = b * b - 4 * A * c
    if A > 0 or (A < 0 and disc > 0 and (-b - math.sqrt(disc)) / (2 * A) > 1):
        return min(1.0, (-b + math.sqrt(disc)) / (2 * A))
    if A == 0: return min(1.0, -c / b)
    return 1.0

def forgetron(seq, B, basic=False):
    S, Q, M, log = [], 0.0, 0, []   # S: list of [id, x, y, sigma], oldest first
    f = lambda z: sum(sg * yy * kern(xx, z) for _, xx, yy, sg in S)
    for t, (x, y) in enumerate(seq, 1):
        s = f(x); phi, psi = None, None
        if y * s <= 0:
            M += 1; S.append([t, x, y, 1.0]); phi, psi = 1.0, 0.0
            if len(S) > B:
                _, xr, yr, sr = S[0]; fr = f(xr)
                if basic:
                    nrm = math.sqrt(sum(a[3] * a[2] * b[3] * b[2] * kern(a[1], b[1]) for a in S for b in S))
                    U = 0.25 * math.sqrt((B + 1) / math.log(B + 1))
                    phi = min((B + 1) ** (-1.0 / (2 * (B + 1))), U / nrm)
                else:
                    phi = forgetron_phi(sr, yr * fr, Q, M)
                for e in S: e[3] *= phi
                lam, mu = phi * sr, yr * phi * fr
                psi = lam * lam + 2 * lam - 2 * lam * mu; Q += psi
                S.pop(0)
        log.append((t, s, phi, psi, Q))
    return S, log

if __name__ == '__main__':
    seq = [(0.0, 1), (0.3, -1), (2.0, 1), (0.15, 1), (1.0, -1), (0.2, 1), (2.1, 1), (0.35, -1),
           (0.0, 1), (1.1, -1)]
    for basic in (False, True):
        S, log = forgetron(seq, 2, basic)
        print('basic =', basic, 'B = 2: t, s, phi, psi, Q')
        for t, s, phi, psi, Q in log:
            print('  {{{}, {:.15f}, {:.15f}, {:.15f}, {:.15f}}},'.format(t, s, phi, psi, Q))
        print('  survivors', [(i, yy * sg) for i, _, yy, sg in S])
    for B in (83, 84, 100, 1000):
        print(B, 0.25 * math.sqrt((B + 1) / math.log(B + 1)), (B + 1) ** (-1.0 / (2 * (B + 1))))
