#!/usr/bin/env python3
"""Independent reference for BPA-S, BOGD, BOGD++, FOGD and NOGD (docs/learners.md#bpa-s .. #nogd),
stdlib only: every f(.) and ||f||^2 recomputed from scratch from the coefficients, the removal
draws (over the supports in slot order: a removal moves the last slot into the hole) from a mt19937_64 written here from its definition (C++ std::mt19937_64, the engine of
plab::Rng), the eigenpairs by Jacobi rotations. Fixture F's 1-D sequence, Gaussian gamma = 0.5.
Prints the per-round scores and the final coefficients that tests/test_budget.cpp checks."""
import math

SEQ = [(0.0, 1), (0.3, -1), (2.0, 1), (0.15, 1), (1.0, -1), (0.2, 1), (2.1, 1), (0.35, -1), (0.0, 1), (1.1, -1)]
GAMMA = 0.5
def kern(a, b): return math.exp(-GAMMA * (a - b) ** 2)
M64 = (1 << 64) - 1

class MT64:  # std::mt19937_64 ([rand.predef]): w=64 n=312 m=156 r=31
    def __init__(self, seed):
        self.mt = [seed & M64]
        for i in range(1, 312):
            p = self.mt[-1]
            self.mt.append((6364136223846793005 * (p ^ (p >> 62)) + i) & M64)
        self.i = 312
    def __call__(self):
        if self.i >= 312:
            for k in range(312):
                y = (self.mt[k] & ~((1 << 31) - 1) & M64) | (self.mt[(k + 1) % 312] & ((1 << 31) - 1))
                v = self.mt[(k + 156) % 312] ^ (y >> 1)
                if y & 1: v ^= 0xB5026F5AA96619E9
                self.mt[k] = v
            self.i = 0
        y = self.mt[self.i]; self.i += 1
        y ^= (y >> 29) & 0x5555555555555555
        y ^= (y << 17) & 0x71D67FFFEDA60000
        y ^= (y << 37) & 0xFFF7EEE000000000
        y ^= y >> 43
        return y & M64

class Rng:  # core/random.hpp's transforms
    def __init__(self, seed): self.e = MT64(seed); self.spare = None
    def uniform(self): return (self.e() >> 11) * 2.0 ** -53
    def below(self, n):
        limit = M64 - M64 % n
        while True:
            r = self.e()
            if r < limit: return r % n
    def normal(self):
        if self.spare is not None:
            v, self.spare = self.spare, None; return v
        while True:
            u1 = self.uniform()
            if u1 > 0: break
        u2 = self.uniform()
        r, th = math.sqrt(-2 * math.log(u1)), 2 * math.pi * u2
        self.spare = r * math.sin(th)
        return r * math.cos(th)

def derive_seed(parent, salt):  # splitmix64 mixing, core/random.hpp
    z = (parent + 0x9E3779B97F4A7C15 * (salt + 1)) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)

def lane_sum(v):  # docs/learners.md#lane-sums: 16 interleaved partial sums, halved l + 8, + 4, + 2, + 1
    acc = [0.0] * 16
    for i, x in enumerate(v): acc[i % 16] += x
    for h in (8, 4, 2, 1):
        for l in range(h): acc[l] += acc[l + h]
    return acc[0]

def f_of(S, x): return sum(a * kern(xi, x) for _, xi, a in S)
def norm2(S): return sum(a * b * kern(xa, xb) for _, xa, a in S for _, xb, b in S)

def bpa_s(B, C):
    S, out = [], []   # S: [id, x, alpha]
    for t, (x, y) in enumerate(SEQ, 1):
        s = f_of(S, x); loss = 1 - y * s; removed = -1
        if loss > 0:
            tau = min(C, loss / kern(x, x)); beta = y * tau
            if len(S) >= B:   # arg min_r ||f_new - f||^2 (Wang-Vucetic BPA-S), written out in full
                best, qb, bb = None, math.inf, None
                for r in range(len(S)):
                    b = S[r][2] * kern(S[r][1], x) / kern(x, x) + y * tau
                    fnew = [e for k, e in enumerate(S) if k != r] + [[t, x, b]]
                    diff = [[0, e[1], -e[2]] for e in S] + [[0, e[1], e[2]] for e in fnew]
                    q = 0.5 * norm2(diff) + C * max(0.0, 1 - y * f_of(fnew, x))
                    if q < qb - 1e-15: best, qb, bb = r, q, b
                removed = S[best][0]; del S[best]; beta = bb
            S.append([t, x, beta])
        out.append((s, removed, norm2(S)))
    return out, S

def bogd(B, eta, lam, seed, plus):
    rng, S, out = Rng(seed), [], []
    c = 1 - eta * lam
    for t, (x, y) in enumerate(SEQ, 1):
        s = f_of(S, x); removed = -1
        if y * s < 1:
            if len(S) >= B:
                n = len(S)
                if plus:
                    w = [abs(a) * math.sqrt(kern(xi, xi)) for _, xi, a in S]
                    total = lane_sum(w)
                    p = [(1 - wi / total) / (n - 1) for wi in w]
                    while True:   # rejection: slot j uniform, taken with probability 1 - w_j / total
                        j = rng.below(n)
                        if rng.uniform() < 1 - w[j] / total: break
                    scale = [c / (1 - pi) for pi in p]
                else:
                    j = rng.below(n); scale = [c * n / (n - 1)] * n
                removed = S[j][0]   # slot order: the last support moves into the removed slot
                S = [[e[0], e[1], e[2] * scale[i]] for i, e in enumerate(S)]
                S[j] = S[-1]; S.pop()
            else:
                S = [[e[0], e[1], e[2] * c] for e in S]
            S.append([t, x, eta * y])
        else:
            S = [[e[0], e[1], e[2] * c] for e in S]
        out.append((s, removed, norm2(S)))
    return out, S

def fogd(D, eta, seed):
    u = [math.sqrt(2 * GAMMA) * v for v in (lambda r: [r.normal() for _ in range(D)])(Rng(derive_seed(seed, 0)))]
    w, out = [0.0] * (2 * D), []
    for x, y in SEQ:
        z = [math.cos(ui * x) for ui in u] + [math.sin(ui * x) for ui in u]
        s = sum(a * b for a, b in zip(w, z))
        if y * s < 1: w = [a + eta * y * b for a, b in zip(w, z)]
        out.append(s)
    return out, w

def jacobi(A):  # eigenpairs of a small symmetric matrix: (values, columns as lists)
    n = len(A); A = [row[:] for row in A]; V = [[float(i == j) for j in range(n)] for i in range(n)]
    for _ in range(100):
        off = max((abs(A[i][j]), i, j) for i in range(n) for j in range(n) if i != j)
        if off[0] < 1e-300: break
        _, p, q = off
        th = 0.5 * math.atan2(2 * A[p][q], A[q][q] - A[p][p]); cs, sn = math.cos(th), math.sin(th)
        for k in range(n):
            akp, akq = A[k][p], A[k][q]; A[k][p], A[k][q] = cs * akp - sn * akq, sn * akp + cs * akq
        for k in range(n):
            apk, aqk = A[p][k], A[q][k]; A[p][k], A[q][k] = cs * apk - sn * aqk, sn * apk + cs * aqk
        for k in range(n):
            vkp, vkq = V[k][p], V[k][q]; V[k][p], V[k][q] = cs * vkp - sn * vkq, sn * vkp + cs * vkq
    return [A[i][i] for i in range(n)], [[V[k][i] for k in range(n)] for i in range(n)]

def nogd(B, eta, k):
    S, out, M, w = [], [], None, None
    for t, (x, y) in enumerate(SEQ, 1):
        if M is None:
            s = f_of(S, x)
        else:
            kb = [kern(xi, x) for _, xi, _ in S]
            z = [sum(m * v for m, v in zip(row, kb)) for row in M]; s = sum(a * b for a, b in zip(w, z))
        if y * s < 1:
            if M is None and len(S) < B:
                S.append([t, x, eta * y])
            else:
                kb = [kern(xi, x) for _, xi, _ in S]
                if M is None:
                    lam, vec = jacobi([[kern(a[1], b[1]) for b in S] for a in S])
                    top = sorted(range(len(lam)), key=lambda i: -lam[i])[:k]
                    M = [[v / math.sqrt(lam[i]) for v in vec[i]] for i in top]
                    w = [math.sqrt(lam[i]) * sum(v * e[2] for v, e in zip(vec[i], S)) for i in top]
                z = [sum(m * v for m, v in zip(row, kb)) for row in M]
                w = [a + eta * y * b for a, b in zip(w, z)]
        out.append(s)
    beta = None if M is None else [sum(M[i][j] * w[i] for i in range(len(w))) for j in range(len(S))]
    return out, S, beta, (sum(v * v for v in w) if w else norm2(S))

if __name__ == "__main__":
    assert MT64(5489)() == 14514284786278117030  # std::mt19937_64's first output at the default seed
    for name, (out, S) in [("bpa-s B=2 C=1", bpa_s(2, 1.0)), ("bpa-s B=2 C=0.3", bpa_s(2, 0.3)),
                           ("bogd B=3 eta=0.5 lambda=0.1 seed=7", bogd(3, 0.5, 0.1, 7, False)),
                           ("bogd++ B=3 eta=0.5 lambda=0.1 seed=7", bogd(3, 0.5, 0.1, 7, True))]:
        print(name)
        for t, (s, rem, n2) in enumerate(out, 1): print(f"  t={t:2d} s={s:.15f} removed={rem:2d} norm2={n2:.15f}")
        print("  final", [(e[0], f"{e[2]:.15f}") for e in S])
    out, w = fogd(3, 0.5, 11)
    print("fogd D=3 eta=0.5 seed=11 (1-D: feature 0 only)")
    for t, s in enumerate(out, 1): print(f"  t={t:2d} s={s:.15f}")
    print("  norm2", f"{sum(v * v for v in w):.15f}")
    out, S, beta, n2 = nogd(3, 0.5, 2)
    print("nogd B=3 eta=0.5 k=2")
    for t, s in enumerate(out, 1): print(f"  t={t:2d} s={s:.15f}")
    print("  supports", [e[0] for e in S], "beta", [f"{b:.15f}" for b in beta], f"norm2={n2:.15f}")
