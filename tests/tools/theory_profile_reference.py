#!/usr/bin/env python3
"""Independent reference for the "rho_profile" analysis (docs/bounds.md#mr4_all_t,
docs/bounds.md#mr8_i and docs/bounds.md#fs_thm2_all_t), stdlib only. Sequence = fixture B, docs/bounds.md#fixture-b (linear kernel, R^2), comparator
u = (4,1) given UNNORMALISED (the analysis divides by ||u||). Runs the Perceptron (update iff
y s <= 0), then prints M, r, r_I and, for each rho, the four profiles
  MR (4) all-T = (r/(2rho) + sqrt(r^2/(4rho^2) + sum_T l))^2        l = max(0, 1 - m/rho)
  MR (8) all-T = (r/rho + sqrt(sum_T l^2))^2                          (= Freund-Schapire Thm 2)
  MR (4) I     = same as (4) with sums over the mistake rounds and r_I
  MR (8) I     = same as (8) with sums over the mistake rounds and r_I
as C++ initialisers. Regenerate: python3 tests/tools/theory_profile_reference.py"""
import math

SEQ = [((1.0, 0.0), 1), ((0.0, 1.0), 1), ((-0.5, 1.0), -1), ((1.0, 1.0), 1), ((0.6, -0.2), -1)]
U = (4.0, 1.0)
RHOS = [0.242536, 0.5, 1.0, 2.0]  # the rows for B in docs/bounds.md#fixture-b, plus 2.0


def perceptron(seq):
    w = [0.0, 0.0]; I = []
    for t, (x, y) in enumerate(seq):
        if y * (w[0] * x[0] + w[1] * x[1]) <= 0:
            w = [w[0] + y * x[0], w[1] + y * x[1]]; I.append(t)
    return I


def mr4(L1, r, rho):
    a = r / rho
    return (a / 2 + math.sqrt(a * a / 4 + L1)) ** 2


def mr8(L2sq, r, rho):
    return (r / rho + math.sqrt(L2sq)) ** 2


def profile(rho, I):
    nu = math.hypot(*U)
    m = [y * (U[0] * x[0] + U[1] * x[1]) / nu for x, y in SEQ]
    loss = [max(0.0, 1 - mt / rho) for mt in m]
    r = max(math.hypot(*x) for x, _ in SEQ)
    rI = max(math.hypot(*SEQ[t][0]) for t in I)
    return [mr4(sum(loss), r, rho), mr8(sum(l * l for l in loss), r, rho),
            mr4(sum(loss[t] for t in I), rI, rho), mr8(sum(loss[t] ** 2 for t in I), rI, rho)]


if __name__ == '__main__':
    I = perceptron(SEQ)
    r = max(math.hypot(*x) for x, _ in SEQ)
    rI = max(math.hypot(*SEQ[t][0]) for t in I)
    print('// mistakes (1-based):', [t + 1 for t in I], 'M =', len(I), 'r = %.12f r_I = %.12f' % (r, rI))
    print('// rho: {MR (4) all-T, MR (8) all-T, MR (4) I, MR (8) I}')
    for rho in RHOS:
        print('  {%s, {%s}},' % (repr(rho), ', '.join('%.12f' % v for v in profile(rho, I))))
