#!/usr/bin/env python3
"""Independent reference for the polynomial kernel's power (numerics/poly_pow.hpp): b^p rounded
to the nearest double, ties to even, by exact rational arithmetic (Python's int / int true
division rounds correctly). Stdlib only. Writes tests/data/poly_pow_fixtures.json (hex floats)
with: the R4 kernels' ranges, a wide range of magnitudes (subnormal and overflowing results),
exact ties, the inputs nearest a rounding boundary among many random ones, the inputs whose power
lies within 2^-50 (relative) of a rounding boundary next to a power of two, and signs.
Run with --check to verify the committed JSON is what this script writes (a CTest)."""
import json, math, os, random, sys
from fractions import Fraction

def rounded(b, p):
    """float(b**p) correctly rounded; inf when it overflows."""
    v = Fraction(b) ** p
    try:
        return float(v)
    except OverflowError:
        return math.inf if v > 0 else -math.inf

def boundary_distance(b, p):
    """Distance of |b|^p to the nearest rounding boundary, in ulps of the result (0 = tie)."""
    v = abs(Fraction(b) ** p)
    r = abs(rounded(b, p))
    if r == 0 or math.isinf(r):
        return 1.0
    u = Fraction(math.ulp(r))
    return float(abs(abs(v - Fraction(r)) - u / 2) / u)

def must_refuse(b, p):
    """True when pow_int's fast path may not answer b^p (docs/learners.md#poly-power): |b^p - r|,
    r = b^p rounded, is at least half the spacing of the doubles at r on its smaller side (a tie;
    when r = 2^k, a quarter of the spacing above it). Only for p >= 2 and r in [2^-900, 2^1000],
    where refusing has no other cause."""
    r = abs(rounded(b, p))
    if p < 2 or not 2.0 ** -900 <= r <= 2.0 ** 1000:
        return False
    half = Fraction(math.ulp(r)) / (4 if math.frexp(r)[0] == 0.5 else 2)
    return abs(abs(Fraction(b) ** p) - Fraction(r)) >= half

def near_power_of_two(p, k, above):
    """Bases b > 0 (up to 3, nearest first) whose b^p lies within 2^(k-50) of the rounding boundary
    just above 2^k (2^k (1 + 2^-53): the spacing above 2^k is 2^(k-52)) or just below it
    (2^k (1 - 2^-54): the spacing below is half, 2^(k-53)). Found among the 129 doubles around
    (that boundary)^(1/p), so h = 2^k with l of either sign, and the results 2^k -+ one ulp, occur."""
    edge = Fraction(2) ** k * (1 + Fraction(1, 2 ** 53) if above else 1 - Fraction(1, 2 ** 54))
    b = math.pow(2.0, k / p)
    for _ in range(64):
        b = math.nextafter(b, 0.0)
    pool = []
    for _ in range(129):
        d = abs(Fraction(b) ** p - edge)
        if d < Fraction(2) ** (k - 50):
            pool.append((d, b))
        b = math.nextafter(b, math.inf)
    return [b for _, b in sorted(pool)[:3]]

def cases():
    rng = random.Random(20261123)
    out = []
    # R4: MNIST (gamma 0.006, coef0 0.5, p 7), USPS (gamma 0.0024, coef0 0.5, p 13), pixel dots
    for g, p, dmax in ((0.006, 7, 350.0), (0.0024, 13, 800.0)):
        for _ in range(300):
            d = rng.uniform(0.0, dmax)
            out.append((g * d + 0.5, p))
    # magnitudes 2^-160 .. 2^160, degrees 1..20: subnormal, normal and overflowing results
    for _ in range(600):
        p = rng.randint(1, 20)
        b = math.ldexp(rng.uniform(1.0, 2.0), rng.randint(-160, 160))
        out.append((b, p))
    # exact ties: an odd M of 27 bits whose square has 54 bits (p = 2), of 18 bits whose cube has 54 (p = 3)
    for bits, p in ((27, 2), (18, 3)):
        n = 0
        while n < 20:
            M = rng.randrange(1 << (bits - 1), 1 << bits) | 1
            if (M ** p).bit_length() == 54:
                out.append((math.ldexp(M, rng.randint(-40, 0) - bits), p)); n += 1
    # ties on the subnormal grid: (2^-538 M)^2 with M odd of 3 bits -> M^2 2^-1076
    for M in (3, 5, 7):
        out.append((math.ldexp(M, -538), 2))
    # the nearest to a rounding boundary among 20000 random inputs per degree
    for p in (2, 3, 7, 13):
        pool = [rng.uniform(0.5, 3.0) for _ in range(20000)]
        pool.sort(key=lambda b: boundary_distance(b, p))
        out += [(b, p) for b in pool[:15]]
    # powers within 2^-50 of the boundary just below 2^k (a quarter of the spacing above h = 2^k) or
    # just above it, what certain()'s half spacing (2^-54 at h = 2^k, else 2^-53) decides: every
    # class k mod p (the bases near 2^(k/p) are those of k mod p scaled), powers 2^-39..2^38,
    # odd p also with -b. Only p = 7 (k = 4 mod 7) has a power strictly between the boundary below
    # and 2^k; p = 3 (k = 1 mod 3) and 13 (k = 4 mod 13) one in (2^k (1 + 2^-54), the boundary above).
    seen = set()
    for p in (2, 3, 7, 13):
        for r in range(p):
            k = r + p * (-3, 0, 2, -1, 1)[r % 5]
            for above in (False, True):
                for b in near_power_of_two(p, k, above):
                    for sb in ((b, -b) if p % 2 else (b,)):
                        if (sb, p) not in seen:
                            seen.add((sb, p)); out.append((sb, p))
    # signs, zero, one, and representable powers
    for b in (-1.5, -0.75, -3.0, 1.0, -1.0, 0.0, 2.0, 3.0, 0.5):
        for p in (0, 1, 2, 3, 7, 13):
            out.append((b, p))
    return out

def main():
    def text_of(r):
        return r.hex() if not math.isinf(r) else ("inf" if r > 0 else "-inf")
    # "refuse": the fast path must hand the case to pow_int_exact (must_refuse; ties, and powers a
    # quarter of the spacing above h = 2^k or more)
    rows = [dict({"b": b.hex(), "p": p, "pow": text_of(rounded(b, p))}, **({"refuse": True} if must_refuse(b, p) else {}))
            for b, p in cases()]
    # self-checks of the reference: ties are ties, and the powers of small integers are exact
    assert boundary_distance(math.ldexp(3, -538), 2) == 0.0 or rounded(math.ldexp(3, -538), 2) > 0
    # (2^27 - 1)^2 has 54 bits (a tie); 0x1.428a2f98d728bp+0^3 = 2 (1 + 1.11 2^-54) rounds to 2
    assert must_refuse(math.ldexp((1 << 27) - 1, -27), 2) and not must_refuse(1.5, 3) and not must_refuse(2.0, 7)
    assert must_refuse(float.fromhex("0x1.428a2f98d728bp+0"), 3) and rounded(float.fromhex("0x1.428a2f98d728bp+0"), 3) == 2.0
    assert rounded(3.0, 13) == 1594323.0 and rounded(-2.0, 3) == -8.0 and rounded(0.0, 0) == 1.0
    text = ('{"source": "tests/tools/poly_pow_reference.py", "cases": [\n' +
            ",\n".join(json.dumps(r) for r in rows) + "\n]}\n")
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "poly_pow_fixtures.json")
    if "--check" in sys.argv:
        if open(path).read() != text:
            sys.exit("tests/data/poly_pow_fixtures.json is not what poly_pow_reference.py writes: rerun it")
        print("poly_pow_fixtures.json is current (%d cases)" % len(rows))
    else:
        open(path, "w").write(text)
        print("wrote %d cases" % len(rows))

if __name__ == "__main__":
    main()
