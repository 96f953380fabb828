#!/usr/bin/env python3
"""Independent reference for the voted / averaged Perceptron (Freund & Schapire 1999;
docs/learners.md#voted-perceptron), one epoch, kernel form with explicit hypotheses v_j (no
prefix sums).
Stdlib only. Gaussian sigma = 1 (gamma = 0.5), 1-D inputs. Prints c_j and, for test points,
sum_j c_j <v_j,x> and sum_j c_j sign(<v_j,x>) (sign(0) = 0), unnormalised, plus T."""
import math

def kern(a, b): return math.exp(-0.5 * (a - b) ** 2)

def train(seq):
    V = [[]]; c = [0]   # v_1 = 0 as an empty list of (x, y) terms
    for x, y in seq:
        if y * sum(yy * kern(xx, x) for xx, yy in V[-1]) > 0: c[-1] += 1
        else: V.append(V[-1] + [(x, y)]); c.append(1)
    return V, c

def sign(v): return (v > 0) - (v < 0)

if __name__ == '__main__':
    seq = [(0.0, 1), (0.3, -1), (2.0, 1), (0.15, 1), (1.0, -1), (0.2, 1), (2.1, 1), (0.35, -1),
           (0.0, 1), (1.1, -1), (-1.0, 1), (3.0, 1)]
    V, c = train(seq)
    print('T =', len(seq), 'c =', c)
    for z in (-0.5, 0.0, 0.25, 0.7, 1.5, 2.5):
        vals = [sum(yy * kern(xx, z) for xx, yy in v) for v in V]
        print('  {{{}, {:.15f}, {:.1f}, {:.15f}}},'.format(
            z, sum(cj * vj for cj, vj in zip(c, vals)), sum(cj * sign(vj) for cj, vj in zip(c, vals)), vals[-1]))
