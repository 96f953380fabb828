#!/usr/bin/env python3
"""Independent reference for tests/test_synthetic.cpp (standard library only).

Re-implements std::mt19937_64 (C++ [rand.eng.mers] parameters), plab::Rng's transforms
(core/random.hpp: 53-bit uniform, rejection `below`, Box-Muller with spare, Fisher-Yates)
and the draw order documented in datasets/synthetic.cpp, then prints the first examples of each
generator for seed 42. Run: python3 tests/tools/synthetic_reference.py
"""
import math

M64 = (1 << 64) - 1


class MT19937_64:
    n, m = 312, 156

    def __init__(self, seed):
        self.mt = [0] * self.n
        self.mt[0] = seed & M64
        for i in range(1, self.n):
            prev = self.mt[i - 1]
            self.mt[i] = (6364136223846793005 * (prev ^ (prev >> 62)) + i) & M64
        self.idx = self.n

    def _twist(self):
        upper, lower = 0xFFFFFFFF80000000, 0x7FFFFFFF
        for i in range(self.n):
            x = (self.mt[i] & upper) | (self.mt[(i + 1) % self.n] & lower)
            xa = x >> 1
            if x & 1:
                xa ^= 0xB5026F5AA96619E9
            self.mt[i] = self.mt[(i + self.m) % self.n] ^ xa
        self.idx = 0

    def __call__(self):
        if self.idx >= self.n:
            self._twist()
        y = self.mt[self.idx]
        self.idx += 1
        y ^= (y >> 29) & 0x5555555555555555
        y ^= (y << 17) & 0x71D67FFFEDA60000
        y ^= (y << 37) & 0xFFF7EEE000000000
        y ^= y >> 43
        return y & M64


class Rng:
    def __init__(self, seed):
        self.eng = MT19937_64(seed)
        self.spare = None

    def uniform(self):
        return float(self.eng() >> 11) * 2.0 ** -53

    def below(self, n):
        limit = M64 - M64 % n
        while True:
            r = self.eng()
            if r < limit:
                return r % n

    def normal(self):
        if self.spare is not None:
            s, self.spare = self.spare, None
            return s
        while True:
            u1 = self.uniform()
            if u1 > 0.0:
                break
        u2 = self.uniform()
        r, th = math.sqrt(-2.0 * math.log(u1)), 2.0 * math.pi * u2
        self.spare = r * math.sin(th)
        return r * math.cos(th)

    def permutation(self, n):
        p = list(range(n))
        for i in range(n, 1, -1):
            j = self.below(i)
            p[i - 1], p[j] = p[j], p[i - 1]
        return p


def unit_vector(rng, d):
    u = [rng.normal() for _ in range(d)]
    s = 0.0
    for v in u:
        s += v * v
    nrm = math.sqrt(s)
    return [v / nrm for v in u]


def dot(a, b):
    s = 0.0
    for x, y in zip(a, b):
        s += x * y
    return s


def dekel(n, flip, seed):
    rng = Rng(seed)
    npos = (n + 1) // 2
    s0, s1 = math.sqrt(0.2), math.sqrt(2.0)
    pts = []
    for i in range(n):
        c = 1.0 if i < npos else -1.0
        x0 = c + s0 * rng.normal()
        x1 = c + s1 * rng.normal()
        y = -c if rng.uniform() < flip else c
        pts.append(([x0, x1], y))
    perm = rng.permutation(n)
    return [pts[perm[t]] for t in range(n)]


def dogma(n, seed):
    rng = Rng(seed)
    w0, w1 = rng.normal(), rng.normal()
    xs, ys = [], []
    for _ in range(n):
        x0, x1 = rng.normal(), rng.normal()
        xs.append([x0, x1])
        ys.append(1.0 if w0 * x0 + w1 * x1 > 0.0 else -1.0)
    perm = rng.permutation(n)
    for k in range(n // 10):
        ys[perm[k]] = -ys[perm[k]]
    return list(zip(xs, ys)), (w0, w1)


def separable(n, d, rho, r, seed):
    rng = Rng(seed)
    u = unit_vector(rng, d)
    j = rng.below(n)
    out = []
    for i in range(n):
        y = 1.0 if rng.uniform() < 0.5 else -1.0
        t = rng.uniform()
        m = rho if i == j else rho + (r - rho) * t
        a = y * m
        x = [a * uk for uk in u]
        if d >= 2:
            g = [rng.normal() for _ in range(d)]
            c = dot(g, u)
            g = [g[k] - c * u[k] for k in range(d)]
            gn = math.sqrt(dot(g, g))
            s = math.sqrt(max(0.0, r * r - m * m)) * rng.uniform()
            b = s / gn
            x = [a * u[k] + b * g[k] for k in range(d)]
        out.append((x, y))
    return out, u, j


def checkerboard(n, cells, flip, seed):
    rng = Rng(seed)
    out = []
    for _ in range(n):
        x = [rng.uniform(), rng.uniform()]
        ci, cj = math.floor(x[0] * cells), math.floor(x[1] * cells)
        y = 1.0 if (ci + cj) % 2 == 0 else -1.0
        if rng.uniform() < flip:
            y = -y
        out.append((x, y))
    return out


def drift(n, d, K, flip, seed):
    rng = Rng(seed)
    u = unit_vector(rng, d)
    out = []
    for t in range(n):
        if t > 0 and t % K == 0:
            u = unit_vector(rng, d)
        x = [rng.normal() for _ in range(d)]
        y = 1.0 if dot(u, x) > 0.0 else -1.0
        if rng.uniform() < flip:
            y = -y
        out.append((x, y))
    return out


def sparse(n, d, nnz, flip, seed):
    rng = Rng(seed)
    u = unit_vector(rng, d)
    out = []
    for _ in range(n):
        taken = set()
        for j in range(d - nnz, d):  # Floyd's algorithm
            c = rng.below(j + 1)
            taken.add(j if c in taken else c)
        ix = sorted(taken)
        v = [1.0 - rng.uniform() for _ in range(nnz)]
        s = 0.0
        for a in v:
            s += a * a
        nrm = math.sqrt(s)
        v = [a / nrm for a in v]
        m = 0.0
        for j, a in zip(ix, v):
            m += u[j] * a
        y = 1.0 if m > 0.0 else -1.0
        if rng.uniform() < flip:
            y = -y
        out.append((ix, v, y))
    return out, u


def show(name, pts, k=3):
    print(f"// {name}")
    for x, y in pts[:k]:
        print("{{" + ", ".join(repr(v) for v in x) + "}, " + repr(y) + "},")


if __name__ == "__main__":
    # Self-check of the engine: the standard requires the 10000th output of a default-constructed
    # mt19937_64 (seed 5489) to be 9981545732273789042.
    e = MT19937_64(5489)
    for _ in range(9999):
        e()
    assert e() == 9981545732273789042
    r = Rng(42)
    print("// Rng(42): bits, uniform, normal, normal, below(10)")
    print(r.eng(), repr(r.uniform()), repr(r.normal()), repr(r.normal()), r.below(10))
    show("dekel n=100 flip=0.1 seed=42", dekel(100, 0.1, 42))
    pts, w = dogma(100, 42)
    print("// dogma w =", repr(w[0]), repr(w[1]))
    show("dogma n=100 seed=42", pts)
    pts, u, j = separable(50, 3, 0.1, 1.0, 42)
    print("// separable u =", ", ".join(repr(v) for v in u), " j =", j)
    show("separable n=50 d=3 rho=0.1 r=1 seed=42", pts)
    show("checkerboard n=20 cells=4 flip=0.2 seed=42", checkerboard(20, 4, 0.2, 42))
    show("drift n=30 d=3 K=10 flip=0.1 seed=42 (rows 0-2)", drift(30, 3, 10, 0.1, 42))
    print("// drift row 10 (first after the redraw)")
    dr = drift(30, 3, 10, 0.1, 42)
    show("drift row 10", dr[10:], 1)
    rows, u = sparse(4, 1000, 5, 0.3, 42)
    print("// sparse n=4 d=1000 nnz=5 flip=0.3 seed=42: u[0], u[999]", repr(u[0]), repr(u[999]))
    for ix, v, y in rows:
        print("{{" + ", ".join(map(str, ix)) + "}, {" + ", ".join(repr(a) for a in v) + "}, " + repr(y) + "},")
