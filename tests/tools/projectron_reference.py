#!/usr/bin/env python3
"""Independent reference for tests/test_projectron.cpp (standard library only).

Extends the reference computation behind docs/bounds.md#fixture-p with the DOGMA convention
(docs/conventions.md#eta: project iff ||delta||^2 <= eta; Projectron++ margin update iff l - ||delta||^2/eta > 0,
tau = min(l/pk2, 1, 2(l - ||delta||^2/eta)/pk2)) and ICML Eq. (13) eta_t.
Run: python3 tests/tools/projectron_reference.py   (prints the traces the C++ test embeds).
"""
import math

SEQ = [(0.0, +1), (0.3, -1), (2.0, +1), (0.15, +1), (1.0, -1), (0.2, +1), (2.1, +1), (0.35, -1)]


def kern(a, b, s=1.0):
    return math.exp(-(a - b) ** 2 / (2 * s * s))


def projectron(seq, eta, plusplus=False, conv='paper', U=0.0, margin_factor=1.0):
    SV, alpha, Kinv, M, log = [], [], [], 0, []
    for t, (x, y) in enumerate(seq, 1):
        kt = [kern(s, x) for s in SV]
        f = sum(a * k for a, k in zip(alpha, kt))
        kxx = kern(x, x)
        d = [sum(r * k for r, k in zip(row, kt)) for row in Kinv]
        pk2 = sum(a * b for a, b in zip(kt, d))
        dl2 = max(kxx - pk2, 0.0)
        dl = math.sqrt(dl2)
        loss = max(0.0, 1 - y * f)
        kind, tau, eta_t = 'none', 0.0, None
        if y * f <= 0:
            M += 1
            tau = 1.0
            if U > 0:
                eta_t = (2 * loss - pk2 - 0.5) / (2 * U)
                small = dl <= eta_t
            elif conv == 'paper':
                small = dl <= eta
            else:
                small = dl2 <= eta
            if SV and (small or dl2 <= 1e-8 * kxx):  # projectron.hpp kGuard
                alpha = [a + y * di for a, di in zip(alpha, d)]
                kind = 'project'
            else:
                n = len(SV)
                kind = 'add'
                if n == 0:
                    Kinv = [[1.0 / kxx]]
                else:
                    v = d + [-1.0]
                    Kinv = [row + [0.0] for row in Kinv] + [[0.0] * (n + 1)]
                    Kinv = [[Kinv[i][j] + v[i] * v[j] / dl2 for j in range(n + 1)] for i in range(n + 1)]
                SV.append(x)
                alpha.append(float(y))
        elif plusplus and 0 < y * f < 1:
            eta_m = margin_factor * eta  # margin threshold '2eta': the margin test divides by 2 eta
            if conv == 'paper':
                ok = eta_m > 0 and pk2 > 0 and loss >= dl / eta_m
                if ok:
                    tau = min(loss / pk2, 2 * (loss - dl / eta_m) / pk2, 1.0)
            else:
                ok = eta_m > 0 and pk2 > 0 and loss - dl2 / eta_m > 0
                if ok:
                    tau = min(loss / pk2, 1.0, 2 * (loss - dl2 / eta_m) / pk2)
            if ok:
                alpha = [a + y * tau * di for a, di in zip(alpha, d)]
                kind = 'margin_project'
            else:
                kind = 'margin_skip'
        rec = dict(t=t, s=f, kind=kind, dl=dl if kind != 'none' else None,
                   pk2=pk2 if kind != 'none' else None, tau=tau, eta_t=eta_t, S=len(SV))
        log.append(rec)
    norm2 = sum(alpha[i] * alpha[j] * kern(SV[i], SV[j]) for i in range(len(SV)) for j in range(len(SV)))
    return SV, alpha, Kinv, M, math.sqrt(norm2), log


def show(title, res):
    SV, alpha, Kinv, M, fn, log = res
    print(f'== {title}')
    for r in log:
        dl = '' if r['dl'] is None else f"{r['dl']:.9f}"
        pk = '' if r['pk2'] is None else f"{r['pk2']:.9f}"
        et = '' if r['eta_t'] is None else f" eta_t={r['eta_t']:.9f}"
        print(f"t={r['t']} s={r['s']:+.9f} {r['kind']:15s} dl={dl:12s} pk2={pk:12s} "
              f"tau={r['tau']:.9f} |S|={r['S']}{et}")
    print('SV =', SV)
    print('alpha =', ', '.join(f'{a:.9f}' for a in alpha))
    print(f'M = {M}  ||f_T|| = {fn:.9f}')
    print('Kinv =', [[round(v, 9) for v in row] for row in Kinv])


if __name__ == '__main__':
    # Sanity: these two must reproduce docs/bounds.md#fixture-p / docs/bounds.md#fixture-pp (Fixtures P and PP).
    show('paper Projectron eta=0.6 (Fixture P)', projectron(SEQ, 0.6))
    show('paper Projectron++ eta=0.6 (Fixture PP)', projectron(SEQ, 0.6, plusplus=True))
    show('ICML eta_t U=1 (docs/bounds.md#fixture-p end)', projectron(SEQ, 0.6, U=1.0))
    # Convention cases where paper and DOGMA differ (used by the C++ test).
    show('paper Projectron eta=0.2', projectron(SEQ, 0.2))
    show('dogma Projectron eta=0.2', projectron(SEQ, 0.2, conv='dogma'))
    # Margin rules: paper eta=0.01 skips both late margin errors, DOGMA eta=0.01 updates on all
    # three (the third with the 2(l - ||delta||^2/eta)/pk2 term binding); paper eta=0.02 has
    # its 2(l - ||delta||/eta)/pk2 term binding.
    show('paper Projectron++ eta=0.01', projectron(SEQ, 0.01, plusplus=True))
    show('dogma Projectron++ eta=0.01', projectron(SEQ, 0.01, plusplus=True, conv='dogma'))
    show('paper Projectron++ eta=0.02', projectron(SEQ, 0.02, plusplus=True))
    # Margin threshold '2eta' (docs/conventions.md#margin-threshold): the margin test and tau use 2 eta,
    # the mistake test keeps eta. Paper eta=0.6: round 3's skip (l < ||delta||/0.6) becomes an update
    # (l > ||delta||/1.2); DOGMA eta=0.005: the margin test is the eta=0.01 one, the mistake test not.
    show('paper Projectron++ eta=0.6 margin 2eta', projectron(SEQ, 0.6, plusplus=True, margin_factor=2.0))
    show('dogma Projectron++ eta=0.005 margin 2eta', projectron(SEQ, 0.005, plusplus=True, conv='dogma', margin_factor=2.0))
