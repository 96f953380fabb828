#!/usr/bin/env python3
"""Independent reference for the multiclass learners (standard library only, exact).

Re-implements, round by round and in exact rational arithmetic (fractions.Fraction), the round logic
of DOGMA's k_perceptron_multi_train.m (Perceptron, max-score or uniform update; with model.maxSV = B
it is the Multiclass Random Budget Perceptron, MRBP), k_pa_multi_train.m (PA-I, update = 1) and
k_projectron2_multi_train.m (Projectron++). It was written from reading those files, not from the
C++ under test. On integer inputs with the linear kernel or a polynomial kernel
k(x, z) = (gamma <x, z> + coef0)^degree with rational gamma, coef0 every quantity is rational:
DOGMA's Projectron++ works with squared distances delta = k(x,x) - k_b^T Kinv k_b and inverse Gram
matrices grown by the block formula, never a square root.

Conventions (DOGMA's, with classes shifted from 1..m to 0..m-1):
  * scores f_c(x) = sum_j beta[j][c] k(x_j, x); all 0 when the support is empty (round 1);
  * competitor = FIRST arg max of f_c over c != y (lowest label on ties, like MATLAB's max);
    predicted = first arg max over all classes; mistake iff f_y <= f_comp (ties count);
    margin_error iff not mistake and f_y < f_comp + 1;
  * Perceptron: on a mistake x joins with +1 on y and -1 on the competitor (max-score) or
    -1/(m-1) on every other class (uniform);
  * MRBP: the max-score Perceptron; after an addition, if #supports > B the support at 1-based
    position j = ceil(B*rand) of the ORDERED support list is deleted (MATLAB column deletion keeps
    the order; the newest, at position B+1, is never drawn). The draws j in 1..B are an input list,
    one per eviction (fixture option eviction_draws);
  * PA-I: if f_y < 1 + f_comp, x joins with +tau on y and -tau on the competitor,
    tau = min((1 - (f_y - f_comp)) / (2 k(x,x)), C). The test is strict, so in exact arithmetic
    the loss is > 0 and tau > 0; a round with f_y - f_comp = 1 exactly is not an update. (DOGMA's
    zero-coefficient supports only come from double rounding of the test vs the loss.)
  * Projectron++ (eta is the tolerance on EACH squared distance): on f_y < f_comp + 1, with
    delta_true/delta_wrong the squared distances of k(x,.) from span(basis of y) and
    span(basis of comp) (k(x,x) if that basis is empty);
      - margin error (f_y > f_comp): loss = 1 - f_y + f_comp, delta = delta_true + delta_wrong;
        if loss - delta/(2 eta) > 0: tau = min(loss/(2Kii - delta), 1,
        2 (loss - delta/(2 eta))/(2Kii - delta)), f_y += tau P_y k(x,.), f_comp -= tau P_comp k(x,.)
        ("margin_project"), else "margin_skip";
      - mistake: class y is projected (f_y += P_y k(x,.)) iff (delta_true <= eta and
        delta_wrong <= eta) or delta_true < eps (eps = 2^-52, absolute), otherwise it gets +1 on
        the new support, its inverse Gram matrix grows and the new position joins its basis
        Y_cla{y}; the same for the competitor with -1 and delta_wrong; x joins the support iff
        delta_true > eta or delta_wrong > eta. Kind "add" when both classes took the new support,
        "project" otherwise (no support added, or one class projected).
Record kinds: none, add, evict (MRBP add + removal), project, margin_project, margin_skip.

Self-checks (assertions): ||f||^2 recomputed from the coefficients equals the recursion
||f||^2 + 2 sum_c a_c f_c(x) + sum_c a_c^2 ||u_c||^2 of every update (for the max-score Perceptron
2 (f_y - f_comp) + 2 k(x,x)); Kinv_c K_c = I exactly for every class; class-c coefficients vanish
outside class c's basis; the 2-class Perceptron equals the binary kernel Perceptron (label 1 -> +1,
label 0 -> -1) with f_y - f_other = 2 y_bin f_bin and the same mistakes; every fixture covers what
its "covers" list claims.

Doubles: the table's last column re-runs each Projectron++ fixture literally in doubles (DOGMA's
absolute eps = 2^-52). On eps_rule rounds an exact distance 0 comes out as ~1e-15 with kernel values
~10, the absolute guard no longer fires, and the class is ADDED with a near-singular inverse: the
double run leaves the exact one there (projectron_pp_poly4, t11 and t13). An implementation meant
to match these fixtures needs a relative guard there (e.g. distance <= 1e-8 k(x,x), like the binary
projectron.hpp kGuard); the eps_rule flag marks the rounds that depend on it.

Run:  python3 tests/tools/multiclass_reference.py            (prints the tables, checks the JSON)
      python3 tests/tools/multiclass_reference.py --write    (rewrites tests/data/multiclass_fixtures.json)

JSON (tests/data/multiclass_fixtures.json): {"generator", "conventions", "fixtures": [...]}; each
fixture: name, description, covers, learner (multiclass-perceptron | mrbp | multiclass-pa1 |
multiclass-projectron++), options {update, eta, C, budget, eviction_draws, eta_convention}, classes,
kernel {type, gamma, coef0, degree}, data [{x, y}], rounds [...], totals, final. Exact values are
strings "p/q" (always with a denominator); the same field with suffix _float holds the double.
Round record: t, x, y, scores (m values before the update), score (= f_y - f_comp), competitor,
predicted, mistake, margin_error, kind, support_size (after the round), norm2 (= sum_c ||f_c||^2
after the round), tau (0 when no update; 1 on Perceptron/Projectron++ mistakes), and for
Projectron++ delta_true, delta_wrong (null when not computed), true_action, wrong_action
(add | project | none), eps_rule (a class was projected only through the `< eps` guard: its exact
distance is 0 while the other one exceeds eta); for MRBP evict_draw (1-based j or null), evicted_t (round of the evicted
support or null).
"""
import json
import os
import sys
from fractions import Fraction as Fr

EPS = Fr(1, 2 ** 52)
HERE = os.path.dirname(os.path.abspath(__file__))
JSON_PATH = os.path.normpath(os.path.join(HERE, '..', 'data', 'multiclass_fixtures.json'))


def q(v):
    v = Fr(v)
    return f'{v.numerator}/{v.denominator}'


def make_kernel(spec):
    g, c0, d = Fr(spec['gamma']), Fr(spec['coef0']), spec['degree']
    if spec['type'] == 'linear':
        assert g == 1 and c0 == 0 and d == 1

    def k(a, b):
        return (g * sum(Fr(u) * Fr(v) for u, v in zip(a, b)) + c0) ** d
    return k


def linear():
    return dict(type='linear', gamma=Fr(1), coef0=Fr(0), degree=1)


def poly(gamma, coef0, degree):
    return dict(type='poly', gamma=Fr(gamma), coef0=Fr(coef0), degree=degree)


def first_argmax(f, skip=None):
    best = None
    for c, v in enumerate(f):
        if c != skip and (best is None or v > f[best]):
            best = c
    return best


def gram(xs, k):
    return [[k(a, b) for b in xs] for a in xs]


def norm2(SV, beta, k, m):
    K = gram(SV, k)
    n = len(SV)
    return sum(beta[i][c] * beta[j][c] * K[i][j] for c in range(m) for i in range(n) for j in range(n))


def matvec(A, v):
    return [sum(a * b for a, b in zip(row, v)) for row in A]


def base_record(t, x, y, f, m):
    comp = first_argmax(f, skip=y)
    mistake = f[y] <= f[comp]
    return dict(t=t, x=list(x), y=y, scores=list(f), score=f[y] - f[comp], competitor=comp,
                predicted=first_argmax(f), mistake=mistake,
                margin_error=(not mistake) and f[y] < f[comp] + 1, kind='none', tau=Fr(0))


# ----------------------------------------------------------------------------- Perceptron / MRBP
def run_perceptron(data, m, kspec, update='max-score', budget=None, draws=(), eviction='dogma'):
    k = make_kernel(kspec)
    SV, beta, S, recs, n2 = [], [], [], [], Fr(0)
    draws, used = list(draws), 0
    for t, (x, y) in enumerate(data, 1):
        f = [sum(b[c] * k(s, x) for s, b in zip(SV, beta)) for c in range(m)]
        r = base_record(t, x, y, f, m)
        comp = r['competitor']
        if budget is not None:
            r['evict_draw'], r['evicted_t'] = None, None
        if r['mistake']:
            kxx = k(x, x)
            if update == 'max-score':
                col = [Fr(0)] * m
                col[y], col[comp] = Fr(1), Fr(-1)
            else:
                col = [Fr(-1, m - 1)] * m
                col[y] = Fr(1)
            if eviction == 'overwrite' and budget is not None and len(S) == budget:
                # The new support takes slot j (1-based in insertion order) and keeps the slot's
                # coefficients of the classes other than y and comp (docs/learners.md#mrbp).
                j = draws[used]; used += 1
                assert 1 <= j <= budget
                col = [c if i in (y, comp) else old for i, (c, old) in enumerate(zip(col, beta[j - 1]))]
                r['evict_draw'], r['evicted_t'] = j, S[j - 1]
                del SV[j - 1], beta[j - 1], S[j - 1]
                SV.append(x); beta.append(col); S.append(t)
                n2 = norm2(SV, beta, k, m)
                r['kind'], r['tau'] = 'evict', Fr(1)
                r['support_size'], r['norm2'] = len(S), n2
                recs.append(r)
                continue
            SV.append(x); beta.append(col); S.append(t)
            expect = n2 + 2 * sum(a * fc for a, fc in zip(col, f)) + kxx * sum(a * a for a in col)
            if update == 'max-score':
                assert expect == n2 + 2 * (f[y] - f[comp]) + 2 * kxx
            assert norm2(SV, beta, k, m) == expect
            r['kind'], r['tau'] = 'add', Fr(1)
            if budget is not None and len(S) > budget:
                j = draws[used]; used += 1
                assert 1 <= j <= budget
                r['kind'], r['evict_draw'], r['evicted_t'] = 'evict', j, S[j - 1]
                del SV[j - 1], beta[j - 1], S[j - 1]
            n2 = norm2(SV, beta, k, m)
        r['support_size'], r['norm2'] = len(S), n2
        recs.append(r)
    return recs, dict(S=S, SV=SV, beta=beta, draws_used=used)


def run_binary_perceptron(data, kspec):
    """Binary kernel Perceptron on labels 1 -> +1, 0 -> -1: mistake iff y f <= 0, add x with y."""
    k = make_kernel(kspec)
    SV, alpha, recs = [], [], []
    for t, (x, lab) in enumerate(data, 1):
        yb = 1 if lab == 1 else -1
        fb = sum(a * k(s, x) for s, a in zip(SV, alpha))
        mis = yb * fb <= 0
        if mis:
            SV.append(x); alpha.append(Fr(yb))
        n2 = sum(a * b * k(u, v) for u, a in zip(SV, alpha) for v, b in zip(SV, alpha))
        recs.append(dict(t=t, y_bin=yb, f_bin=fb, mistake=mis, support_size=len(SV), norm2=n2))
    return recs


# ----------------------------------------------------------------------------- PA-I
def run_pa1(data, m, kspec, C):
    k = make_kernel(kspec)
    C = Fr(C)
    SV, beta, S, recs, n2 = [], [], [], [], Fr(0)
    for t, (x, y) in enumerate(data, 1):
        f = [sum(b[c] * k(s, x) for s, b in zip(SV, beta)) for c in range(m)]
        r = base_record(t, x, y, f, m)
        comp = r['competitor']
        if f[y] < 1 + f[comp]:
            kxx = k(x, x)
            tau = min((1 - (f[y] - f[comp])) / (2 * kxx), C)
            assert tau > 0
            col = [Fr(0)] * m
            col[y], col[comp] = tau, -tau
            SV.append(x); beta.append(col); S.append(t)
            expect = n2 + 2 * tau * (f[y] - f[comp]) + 2 * tau * tau * kxx
            n2 = norm2(SV, beta, k, m)
            assert n2 == expect
            r['kind'], r['tau'] = 'add', tau
        r['support_size'], r['norm2'] = len(SV), n2
        recs.append(r)
    return recs, dict(S=S, SV=SV, beta=beta)


# ----------------------------------------------------------------------------- Projectron++
def grow_inverse(Kinv, coeff, delta, kxx):
    """Block formula: [[Kinv, 0], [0, 0]] + [coeff; -1][coeff; -1]^T / delta (1/kxx if empty)."""
    if not Kinv:
        return [[1 / kxx]]
    n = len(Kinv)
    v = list(coeff) + [Fr(-1)]
    big = [row + [Fr(0)] for row in Kinv] + [[Fr(0)] * (n + 1)]
    return [[big[i][j] + v[i] * v[j] / delta for j in range(n + 1)] for i in range(n + 1)]


def sq_distance_by_elimination(basis, x, k):
    """k(x,x) - k_b^T K_b^{-1} k_b by Gaussian elimination on K_b a = k_b (independent of Kinv)."""
    n = len(basis)
    if n == 0:
        return k(x, x)
    A = [[k(u, v) for v in basis] + [k(u, x)] for u in basis]
    for col in range(n):
        piv = next(r for r in range(col, n) if A[r][col] != 0)
        A[col], A[piv] = A[piv], A[col]
        for r in range(n):
            if r != col and A[r][col] != 0:
                fac = A[r][col] / A[col][col]
                A[r] = [a - fac * b for a, b in zip(A[r], A[col])]
    a = [A[i][n] / A[i][i] for i in range(n)]
    return k(x, x) - sum(ai * k(u, x) for ai, u in zip(a, basis))


def check_projectron_state(SV, beta, Kinv, Ycla, k, m):
    for c in range(m):
        idx = Ycla[c]
        assert len(set(idx)) == len(idx)
        if idx:
            Kc = gram([SV[i] for i in idx], k)
            n = len(idx)
            P = [[sum(Kinv[c][i][l] * Kc[l][j] for l in range(n)) for j in range(n)] for i in range(n)]
            assert P == [[Fr(int(i == j)) for j in range(n)] for i in range(n)], 'Kinv K != I'
        else:
            assert not Kinv[c]
        for j in range(len(SV)):
            if j not in idx:
                assert beta[j][c] == 0, 'coefficient outside the class basis'


def run_projectron_pp(data, m, kspec, eta):
    k = make_kernel(kspec)
    eta = Fr(eta)
    SV, beta, S, recs, n2 = [], [], [], [], Fr(0)
    Kinv = [[] for _ in range(m)]
    Ycla = [[] for _ in range(m)]
    for t, (x, y) in enumerate(data, 1):
        kx = [k(s, x) for s in SV]
        f = [sum(b[c] * kv for b, kv in zip(beta, kx)) for c in range(m)]
        r = base_record(t, x, y, f, m)
        comp = r['competitor']
        r.update(delta_true=None, delta_wrong=None, true_action='none', wrong_action='none', eps_rule=False)
        if f[y] < f[comp] + 1:
            kxx = k(x, x)

            def project(c):
                """(basis, coefficients Kinv k_b, squared distance) of k(x,.) onto class c's span."""
                idx = Ycla[c]
                if not idx:
                    return idx, [], kxx
                kb = [kx[i] for i in idx]
                co = matvec(Kinv[c], kb)
                d = kxx - sum(a * b for a, b in zip(co, kb))
                assert d >= 0 and d == sq_distance_by_elimination([SV[i] for i in idx], x, k)
                return idx, co, d
            it, ct, dt = project(y)
            iw, cw, dw = project(comp)
            r['delta_true'], r['delta_wrong'] = dt, dw
            # per class: (coefficient a_c, squared norm of the update function u_c), for the recursion
            a_t, a_w = Fr(0), Fr(0)
            if f[y] > f[comp]:                                 # margin error
                loss = 1 - f[y] + f[comp]
                delta = dt + dw
                if loss - delta / (2 * eta) > 0:
                    den = 2 * kxx - delta
                    assert den > 0
                    tau = min(loss / den, Fr(1), 2 * (loss - delta / (2 * eta)) / den)
                    for i, a in zip(it, ct):
                        beta[i][y] += tau * a
                    for i, a in zip(iw, cw):
                        beta[i][comp] -= tau * a
                    r['kind'], r['tau'] = 'margin_project', tau
                    r['true_action'] = r['wrong_action'] = 'project'
                    a_t, u_t, a_w, u_w = tau, kxx - dt, tau, kxx - dw
                else:
                    r['kind'] = 'margin_skip'
            else:                                              # mistake
                small = dt <= eta and dw <= eta
                new = len(SV)
                vec = [Fr(0)] * m
                if small or dt < EPS:
                    for i, a in zip(it, ct):
                        beta[i][y] += a
                    r['true_action'], u_t = 'project', kxx - dt
                else:
                    vec[y] = Fr(1)
                    Kinv[y] = grow_inverse(Kinv[y], ct, dt, kxx)
                    Ycla[y].append(new)
                    r['true_action'], u_t = 'add', kxx
                if small or dw < EPS:
                    for i, a in zip(iw, cw):
                        beta[i][comp] -= a
                    r['wrong_action'], u_w = 'project', kxx - dw
                else:
                    vec[comp] = Fr(-1)
                    Kinv[comp] = grow_inverse(Kinv[comp], cw, dw, kxx)
                    Ycla[comp].append(new)
                    r['wrong_action'], u_w = 'add', kxx
                added = dt > eta or dw > eta
                # a class projected only through the absolute `< eps` guard (exact distance 0 here)
                r['eps_rule'] = not small and (dt < EPS or dw < EPS)
                assert added == ('add' in (r['true_action'], r['wrong_action']))
                if added:
                    beta.append(vec); S.append(t); SV.append(x)
                both = r['true_action'] == 'add' and r['wrong_action'] == 'add'
                r['kind'], r['tau'] = ('add' if both else 'project'), Fr(1)
                a_t, a_w = Fr(1), Fr(1)
            if a_t:
                expect = n2 + 2 * a_t * (f[y] - f[comp]) + a_t * a_t * (u_t + u_w)
                n2 = norm2(SV, beta, k, m)
                assert n2 == expect, (t, n2, expect)
            check_projectron_state(SV, beta, Kinv, Ycla, k, m)
        r['support_size'], r['norm2'] = len(S), n2
        recs.append(r)
    return recs, dict(S=S, SV=SV, beta=beta, Kinv=Kinv, Ycla=Ycla)


def run_projectron_pp_double(data, m, kspec, eta):
    """Diagnostic only: the same rounds literally in doubles (DOGMA's max(.,0) and absolute eps).
    Returns per round (kind, competitor, support size, delta_true, delta_wrong)."""
    g, c0, deg, eta = float(kspec['gamma']), float(kspec['coef0']), kspec['degree'], float(eta)

    def k(a, b):
        return (g * sum(float(u) * float(v) for u, v in zip(a, b)) + c0) ** deg
    eps = 2.0 ** -52
    SV, beta, Kinv, Ycla, out = [], [], [[] for _ in range(m)], [[] for _ in range(m)], []
    for x, y in data:
        kx = [k(s, x) for s in SV]
        f = [sum(b[c] * kv for b, kv in zip(beta, kx)) for c in range(m)]
        comp = first_argmax(f, skip=y)
        kind, dts = 'none', (None, None)
        if f[y] < f[comp] + 1:
            kxx = k(x, x)

            def project(c):
                idx = Ycla[c]
                if not idx:
                    return idx, [], kxx
                kb = [kx[i] for i in idx]
                co = [sum(kb[i] * Kinv[c][i][j] for i in range(len(idx))) for j in range(len(idx))]
                return idx, co, max(kxx - sum(a * b for a, b in zip(co, kb)), 0.0)
            it, ct, dt = project(y)
            iw, cw, dw = project(comp)
            dts = (dt, dw)
            if f[y] > f[comp]:
                loss, delta = 1 - f[y] + f[comp], dt + dw
                kind = 'margin_skip'
                if loss - delta / (2 * eta) > 0:
                    den = 2 * kxx - delta
                    tau = min(min(loss / den, 1.0), 2 * (loss - delta / (2 * eta)) / den)
                    for i, a in zip(it, ct):
                        beta[i][y] += tau * a
                    for i, a in zip(iw, cw):
                        beta[i][comp] -= tau * a
                    kind = 'margin_project'
            else:
                small, new, vec, acts = dt <= eta and dw <= eta, len(SV), [0.0] * m, []
                for c, idx, co, d, sg in ((y, it, ct, dt, 1.0), (comp, iw, cw, dw, -1.0)):
                    if small or d < eps:
                        for i, a in zip(idx, co):
                            beta[i][c] += sg * a
                        acts.append('project')
                    else:
                        vec[c] = sg
                        n = len(Kinv[c])
                        v = co + [-1.0]
                        big = [row + [0.0] for row in Kinv[c]] + [[0.0] * (n + 1)]
                        Kinv[c] = [[big[i][j] + v[i] * v[j] / d for j in range(n + 1)]
                                   for i in range(n + 1)] if n else [[1 / kxx]]
                        Ycla[c].append(new)
                        acts.append('add')
                if dt > eta or dw > eta:
                    SV.append(x)
                    beta.append(vec)
                kind = 'add' if acts == ['add', 'add'] else 'project'
        out.append((kind, comp, len(SV)) + dts)
    return out


# ----------------------------------------------------------------------------- fixtures
def F(*rows):
    """rows 'x1 x2 [x3] : y'."""
    out = []
    for s in rows:
        a, b = s.split(':')
        out.append((tuple(int(v) for v in a.split()), int(b)))
    return out


FIXTURES = []   # filled below


def fixture(name, learner, m, kspec, data, covers, description, **opts):
    FIXTURES.append(dict(name=name, learner=learner, m=m, kernel=kspec, data=data, covers=covers,
                         description=description, opts=opts))


fixture('perceptron_max_linear3', 'multiclass-perceptron', 3, linear(),
        F('1 0:2', '0 1:1', '1 1:0', '2 0:2', '0 2:0', '1 1:1', '-1 0:0', '1 -1:2'),
        ['first_round', 'competitor_tie', 'score_tie_mistake', 'predicted_tie', 'kind_add', 'kind_none'],
        'max-score update; round 1 (competitor 0 of the tie 0/1); competitor ties at t2 (0/2), t3 (1/2), '
        't5 (1/2); f_y = f_comp mistakes at t2, t5, t8; t4 correct; t7 correct with f_y - f_comp = 1 exactly',
        update='max-score')
fixture('perceptron_uniform_poly4', 'multiclass-perceptron', 4, poly(Fr(1, 2), 1, 2),
        F('1 0:2', '1 1:2', '-1 1:2', '0 1:1', '1 -1:3', '-1 0:0', '1 0:3', '1 -1:0'),
        ['first_round', 'competitor_tie', 'score_tie_mistake', 'predicted_tie', 'margin_error',
         'kind_add', 'kind_none'],
        'uniform update (-1/3 on the other classes), polynomial kernel (<x,z>/2 + 1)^2; t3 margin error '
        '(no update); t2, t3 correct rounds with a three-way competitor tie (0/1/3 -> 0); t7 f_y = f_comp '
        '(classes 3 and 2) mistake',
        update='uniform')
fixture('perceptron_binary2', 'multiclass-perceptron', 2, linear(),
        F('1 0:1', '0 1:0', '1 1:1', '2 -1:0', '-1 1:1', '1 2:0', '3 0:1', '0 -2:1'),
        ['first_round', 'score_tie_mistake', 'kind_add', 'kind_none'],
        'two classes = binary kernel Perceptron (label 1 -> +1, 0 -> -1): same mistakes, '
        'f_y - f_other = 2 y_bin f_bin, f_1 = -f_0 = f_bin, ||f||^2 = 2 ||f_bin||^2 (binary_perceptron rows)',
        update='max-score', binary_relation=True)
fixture('mrbp_budget2', 'mrbp', 3, linear(),
        F('1 0 0:1', '-1 0 1:1', '1 0 0:0', '0 0 1:1', '-1 0 1:2', '-1 0 1:0', '1 0 0:0', '1 1 0:1'),
        ['first_round', 'competitor_tie', 'score_tie_mistake', 'kind_add', 'kind_none', 'kind_evict',
         'two_evictions'],
        'MRBP, B = 2, max-score, 3 features; five evictions at positions j = 1, 2, 2, 1, 1 of the '
        'ordered support list (never the newest, position 3); t4 correct (no eviction)',
        budget=2, eviction_draws=[1, 2, 2, 1, 1])
fixture('mrbp_overwrite2', 'mrbp', 3, linear(),
        F('1 0 0:1', '-1 0 1:1', '1 0 0:0', '0 0 1:1', '-1 0 1:2', '-1 0 1:0', '1 0 0:0', '1 1 0:1'),
        ['first_round', 'competitor_tie', 'score_tie_mistake', 'kind_add', 'kind_none', 'kind_evict',
         'two_evictions'],
        'MRBP, B = 2, eviction overwrite: from t3 each mistake takes slot j = 1, 2, 2, 1 of the ordered '
        'list (B = 2 slots, the new support is never among them) and keeps that slot\'s coefficient of '
        'the class that is neither y nor the competitor',
        budget=2, eviction_draws=[1, 2, 2, 1], eviction='overwrite')
fixture('pa1_linear3', 'multiclass-pa1', 3, linear(),
        F('1 -1:2', '1 1:2', '2 0:2', '-1 1:1', '0 2:0', '-1 0:2', '0 2:1', '-1 0:1', '2 0:0'),
        ['first_round', 'competitor_tie', 'score_tie_mistake', 'margin_error', 'kind_add', 'kind_none',
         'pa_zero_loss_edge', 'pa_C_binds', 'pa_C_free'],
        'PA-I, C = 1/4 (dyadic, exact in doubles); t3 f_y - f_comp = 1 exactly: no update (loss 0); '
        't8 margin error updates with tau = C (loss/(2k) = 3/8); t9 f_y = f_comp, tau = 1/8 < C',
        C=Fr(1, 4))
fixture('projectron_pp_linear3', 'multiclass-projectron++', 3, linear(),
        F('1 2:0', '2 -1:2', '0 1:1', '2 0:0', '0 -1:0', '-1 0:1', '1 0:2', '1 1:2', '3 1:0', '1 -1:1',
          '1 1:0', '0 -1:1'),
        ['first_round', 'competitor_tie', 'score_tie_mistake', 'margin_error', 'kind_add', 'kind_none',
         'kind_project', 'kind_margin_project', 'kind_margin_skip', 'project_no_add', 'mixed_project_add',
         'zero_distance', 'positive_distance_within_eta', 'empty_class_basis', 'eps_rule'],
        'Projectron++ (DOGMA), eta = 1/2, linear; t2 class 2 basis empty while 0 and 1 have one; t3 both '
        'projected (1/5, 0); t4 true projected (0), competitor added (4/5); t6 margin skip; t10 true added, '
        'competitor projected; t12 margin projection tau = 3/10',
        eta=Fr(1, 2))
fixture('projectron_pp_poly4', 'multiclass-projectron++', 4, poly(Fr(1, 2), 1, 2),
        F('1 -1:0', '-1 1:3', '0 2:0', '1 2:1', '0 1:0', '0 1:0', '1 1:1', '-1 0:3', '2 -1:0', '1 3:1',
          '-1 1:1', '1 0:1', '1 0:2', '-1 1:0'),
        ['first_round', 'competitor_tie', 'score_tie_mistake', 'margin_error', 'kind_add', 'kind_none',
         'kind_project', 'kind_margin_project', 'kind_margin_skip', 'project_no_add', 'mixed_project_add',
         'zero_distance', 'positive_distance_within_eta', 'empty_class_basis', 'added_within_eta',
         'eps_rule'],
        'Projectron++ (DOGMA), eta = 1/2, m = 4, (<x,z>/2 + 1)^2 (6-dim feature space: class 0 basis fills '
        'it at t7); t7 competitor added although delta_wrong = 2/19 <= eta; class 2 empty until t13; '
        't8 margin skip, t12 margin projection; t11, t13 eps rule (a literal double run adds there instead); '
        'support 6 ends with all-zero coefficients',
        eta=Fr(1, 2))

fixture('projectron_pp_linear3d', 'multiclass-projectron++', 3, linear(),
        F('1 1 1:1', '1 -1 0:1', '1 0 0:0', '0 1 -1:0', '0 1 0:2', '1 0 0:0', '4 0 0:1', '0 1 0:2', '2 1 1:2'),
        ['first_round', 'competitor_tie', 'score_tie_mistake', 'margin_error', 'kind_add', 'kind_none',
         'kind_project', 'kind_margin_project', 'kind_margin_skip', 'project_no_add',
         'positive_distance_within_eta', 'empty_class_basis', 'added_within_eta', 'tau_eta_term'],
        'Projectron++ (DOGMA), eta = 1, linear, 3 features, no eps-rule round and no exact 0 or 1 margin '
        'after a projection (robust in doubles); t3, t6 both classes projected at distance 1/6; t4 margin '
        'skip; t7 margin 2 (none); t8 margin projection with the 2 (loss - delta/(2 eta))/(2Kii - delta) '
        'term binding (tau = 1/5), class 2 basis still empty; t9 competitor added at distance 1/6 <= eta '
        'because delta_true = 6 > eta',
        eta=Fr(1))
fixture('projectron_pp_dyadic', 'multiclass-projectron++', 3, poly(Fr(1, 4), 0, 1),
        F('1 0 0:1', '0 1 1:0', '1 1 1:0', '0 1 -1:1', '0 1 -1:0', '0 1 0:0', '1 -1 0:1'),
        ['first_round', 'first_round_no_support', 'distance_equals_eta', 'competitor_tie',
         'score_tie_mistake', 'margin_error', 'kind_add', 'kind_project', 'kind_margin_project',
         'kind_margin_skip', 'project_no_add', 'zero_distance', 'tau_one'],
        'Projectron++ (DOGMA), eta = 1/4, k = <x,z>/4 (poly degree 1), every value dyadic (exact in '
        'doubles); t1 mistake with k(x,x) = 1/4 = eta: both classes "projected" onto empty bases, no '
        'support (the support stays empty); t3, t7 margin skips; t6 margin projection with tau = 1 '
        'binding; class 2 never gets a basis',
        eta=Fr(1, 4))


def run(fx):
    o, L = fx['opts'], fx['learner']
    if L == 'multiclass-perceptron':
        return run_perceptron(fx['data'], fx['m'], fx['kernel'], update=o.get('update', 'max-score'))
    if L == 'mrbp':
        return run_perceptron(fx['data'], fx['m'], fx['kernel'], budget=o['budget'],
                              draws=o['eviction_draws'], eviction=o.get('eviction', 'dogma'))
    if L == 'multiclass-pa1':
        return run_pa1(fx['data'], fx['m'], fx['kernel'], o['C'])
    if L == 'multiclass-projectron++':
        return run_projectron_pp(fx['data'], fx['m'], fx['kernel'], o['eta'])
    raise ValueError(L)


# ----------------------------------------------------------------------------- coverage checks
def covered(fx, recs):
    """The coverage tags that the run actually exhibits."""
    tags = set()
    m = fx['m']
    r1 = recs[0]
    if r1['t'] == 1 and r1['mistake'] and all(s == 0 for s in r1['scores']):
        tags.add('first_round')
    for r in recs:
        f, y, c = r['scores'], r['y'], r['competitor']
        others = [v for i, v in enumerate(f) if i != y]
        if others.count(f[c]) >= 2 and r['t'] > 1:
            tags.add('competitor_tie')
        if f[y] == f[c] and r['t'] > 1:
            tags.add('score_tie_mistake')
        if r['predicted'] != first_argmax(f) or (f.count(max(f)) >= 2 and r['t'] > 1):
            tags.add('predicted_tie')
        if r['margin_error']:
            tags.add('margin_error')
        if r['mistake'] and r['kind'] == 'none':
            raise AssertionError('mistake without update')
        tags.add('kind_' + r['kind'])
        if r['score'] == 1 and fx['learner'] == 'multiclass-pa1':
            tags.add('pa_zero_loss_edge')
        if fx['learner'] == 'multiclass-pa1' and r['kind'] == 'add' and r['tau'] == Fr(fx['opts']['C']):
            tags.add('pa_C_binds')
        if fx['learner'] == 'multiclass-pa1' and r['kind'] == 'add' and r['tau'] < Fr(fx['opts']['C']):
            tags.add('pa_C_free')
        if r.get('true_action') == 'project' and r.get('wrong_action') == 'add' or \
                r.get('true_action') == 'add' and r.get('wrong_action') == 'project':
            tags.add('mixed_project_add')
        if r.get('eps_rule'):
            tags.add('eps_rule')
        if r.get('delta_true') is not None and Fr(fx['opts']['eta']) in (r['delta_true'], r['delta_wrong']):
            tags.add('distance_equals_eta')
        if r['t'] == 1 and r['support_size'] == 0:
            tags.add('first_round_no_support')
        if r['kind'] == 'margin_project':
            loss, delta = 1 - r['score'], r['delta_true'] + r['delta_wrong']
            den = 2 * make_kernel(fx['kernel'])(r['x'], r['x']) - delta
            terms = [loss / den, Fr(1), 2 * (loss - delta / (2 * Fr(fx['opts']['eta']))) / den]
            tags.add(['tau_loss_term', 'tau_one', 'tau_eta_term'][terms.index(r['tau'])])
        if r['norm2'] == 0 and r['kind'] == 'project' and r['t'] > 1:
            tags.add('projection_zeroes_f')
        if r.get('delta_true') is not None and r['mistake'] and \
                (r['true_action'] == 'add' and r['delta_true'] <= Fr(fx['opts']['eta']) or
                 r['wrong_action'] == 'add' and r['delta_wrong'] <= Fr(fx['opts']['eta'])):
            tags.add('added_within_eta')
        if r['kind'] == 'project' and r['support_size'] == (recs[r['t'] - 2]['support_size'] if r['t'] > 1 else 0):
            tags.add('project_no_add')
        if r.get('delta_true') is not None and r['mistake'] and \
                (r['delta_true'] == 0 or r['delta_wrong'] == 0):
            tags.add('zero_distance')
        if r.get('delta_true') is not None and r['mistake'] and \
                (0 < r['delta_true'] <= Fr(fx['opts']['eta']) or 0 < r['delta_wrong'] <= Fr(fx['opts']['eta'])):
            tags.add('positive_distance_within_eta')
    return tags


def empty_basis_rounds(fx, recs):
    """Projectron++: rounds where some class with an empty basis competes while another has one."""
    return [r['t'] for r in recs if r.get('delta_true') is not None and r['support_size'] > 0 and
            (r['delta_true'] == Fr(make_kernel(fx['kernel'])(r['x'], r['x'])) or
             r['delta_wrong'] == Fr(make_kernel(fx['kernel'])(r['x'], r['x'])))]


# ----------------------------------------------------------------------------- output
def fstr(v):
    return '-' if v is None else str(v)


def table(fx, recs, state):
    m = fx['m']
    ks = fx['kernel']
    opts = ', '.join(f'{a}={v}' for a, v in fx['opts'].items())
    print(f"== {fx['name']}: {fx['learner']} m={m} kernel={ks['type']}(gamma={ks['gamma']}, "
          f"coef0={ks['coef0']}, degree={ks['degree']}) {opts}")
    print(f"   {fx['description']}")
    pp = fx['learner'] == 'multiclass-projectron++'
    hdr = f"{'t':>3} {'x':>10} y  {'scores':<28} comp pred  M  ME {'kind':<15}|S| {'||f||^2':>12}"
    if pp:
        hdr += f"  {'d_true':>8} {'d_wrong':>8} {'tau':>8} act  literal-double DOGMA"
    elif fx['learner'] == 'multiclass-pa1':
        hdr += f"  {'tau':>8}"
    elif fx['learner'] == 'mrbp':
        hdr += '  draw evicted_t'
    print(hdr)
    dbl = run_projectron_pp_double(fx['data'], m, ks, fx['opts']['eta']) if pp else None
    for r in recs:
        sc = ' '.join(str(v) for v in r['scores'])
        line = (f"{r['t']:>3} {str(tuple(r['x'])):>10} {r['y']}  {sc:<28} {r['competitor']:>4} "
                f"{r['predicted']:>4}  {int(r['mistake'])}  {int(r['margin_error'])}  {r['kind']:<15}"
                f"{r['support_size']:>3} {str(r['norm2']):>12}")
        if pp:
            line += (f"  {fstr(r['delta_true']):>8} {fstr(r['delta_wrong']):>8} {str(r['tau']):>8} "
                     f"{r['true_action'][0]}{r['wrong_action'][0]}{'E' if r['eps_rule'] else ' '}")
            kd, cd, nd, dtd, dwd = dbl[r['t'] - 1]
            same = (kd, cd, nd) == (r['kind'], r['competitor'], r['support_size'])
            line += '  same' if same else f'  DIFFERS: {kd} |S|={nd} d=({dtd:.3g}, {dwd:.3g})'
        elif fx['learner'] == 'multiclass-pa1':
            line += f"  {str(r['tau']):>8}"
        elif fx['learner'] == 'mrbp':
            line += f"  {fstr(r['evict_draw']):>4} {fstr(r['evicted_t']):>9}"
        print(line)
    if pp:
        print('   act: true/wrong action a(dd) p(roject) n(one); E = a class projected only by the `< eps` rule'
              ' (exact distance 0 while the other > eta): rounding-sensitive in doubles')
    print('   final supports (x: coefficients per class):')
    for j, (x, b) in enumerate(zip(state['SV'], state['beta'])):
        print(f"     [{j}] {tuple(x)}: {' '.join(str(v) for v in b)}")
    if pp:
        for c in range(m):
            print(f"   class {c}: basis {state['Ycla'][c]}  Kinv {[[str(v) for v in row] for row in state['Kinv'][c]]}")
    print(f"   mistakes={sum(r['mistake'] for r in recs)} margin_errors={sum(r['margin_error'] for r in recs)}"
          f" covers={sorted(fx['covers'])}")
    print()


def exact_pair(d, key, v):
    if v is None:
        d[key], d[key + '_float'] = None, None
    elif isinstance(v, list):
        d[key], d[key + '_float'] = [q(a) for a in v], [float(a) for a in v]
    else:
        d[key], d[key + '_float'] = q(v), float(v)


def to_json(fx, recs, state):
    ks = fx['kernel']
    kern = dict(type=ks['type'], degree=ks['degree'])
    exact_pair(kern, 'gamma', ks['gamma'])
    exact_pair(kern, 'coef0', ks['coef0'])
    o = fx['opts']
    opts = dict(update=o.get('update', 'max-score') if fx['learner'] in ('multiclass-perceptron', 'mrbp') else None,
                budget=o.get('budget'), eviction_draws=o.get('eviction_draws'),
                eviction=o.get('eviction', 'dogma') if fx['learner'] == 'mrbp' else None,
                eta_convention='dogma' if fx['learner'] == 'multiclass-projectron++' else None)
    exact_pair(opts, 'eta', Fr(o['eta']) if 'eta' in o else None)
    exact_pair(opts, 'C', Fr(o['C']) if 'C' in o else None)
    rounds = []
    for r in recs:
        d = dict(t=r['t'], x=r['x'], y=r['y'])
        exact_pair(d, 'scores', r['scores'])
        exact_pair(d, 'score', r['score'])
        d.update(competitor=r['competitor'], predicted=r['predicted'], mistake=r['mistake'],
                 margin_error=r['margin_error'], kind=r['kind'], support_size=r['support_size'])
        exact_pair(d, 'norm2', r['norm2'])
        exact_pair(d, 'tau', r['tau'])
        if fx['learner'] == 'multiclass-projectron++':
            exact_pair(d, 'delta_true', r['delta_true'])
            exact_pair(d, 'delta_wrong', r['delta_wrong'])
            d.update(true_action=r['true_action'], wrong_action=r['wrong_action'], eps_rule=r['eps_rule'])
        if fx['learner'] == 'mrbp':
            d.update(evict_draw=r['evict_draw'], evicted_t=r['evicted_t'])
        rounds.append(d)
    sup = []
    for j, (x, b) in enumerate(zip(state['SV'], state['beta'])):
        e = dict(position=j, t=state['S'][j], x=list(x))
        exact_pair(e, 'beta', b)
        sup.append(e)
    final = dict(supports=sup)
    if 'Ycla' in state:
        final['basis'] = state['Ycla']
        final['Kinv'] = [[[q(v) for v in row] for row in K] for K in state['Kinv']]
    totals = dict(mistakes=sum(r['mistake'] for r in recs),
                  margin_errors=sum(r['margin_error'] for r in recs),
                  support_size=recs[-1]['support_size'])
    exact_pair(totals, 'norm2', recs[-1]['norm2'])
    return dict(name=fx['name'], description=fx['description'], covers=sorted(fx['covers']),
                learner=fx['learner'], options=opts, classes=fx['m'], kernel=kern,
                data=[dict(x=list(x), y=y) for x, y in fx['data']], rounds=rounds, totals=totals,
                final=final)


def binary_relation(fx, recs):
    brecs = run_binary_perceptron(fx['data'], fx['kernel'])
    print(f"   binary kernel Perceptron on the same data (label 1 -> +1, label 0 -> -1):")
    print(f"   {'t':>3} y_bin {'f_bin':>8}  M |S| ||f_bin||^2   multiclass score = 2 y_bin f_bin")
    for r, b in zip(recs, brecs):
        assert r['mistake'] == b['mistake']
        assert r['score'] == 2 * b['y_bin'] * b['f_bin']
        assert r['scores'][1] == -r['scores'][0] == b['f_bin']
        assert r['support_size'] == b['support_size']
        assert r['norm2'] == 2 * b['norm2']
        print(f"   {b['t']:>3} {b['y_bin']:>+5} {str(b['f_bin']):>8}  {int(b['mistake'])} "
              f"{b['support_size']:>3} {str(b['norm2']):>11}   {r['score']} = {2 * b['y_bin'] * b['f_bin']}")
    print()
    return [dict(t=b['t'], y_bin=b['y_bin'], f_bin=q(b['f_bin']), f_bin_float=float(b['f_bin']),
                 mistake=b['mistake'], support_size=b['support_size'], norm2=q(b['norm2']),
                 norm2_float=float(b['norm2'])) for b in brecs]


def main():
    out = []
    for fx in FIXTURES:
        recs, state = run(fx)
        got = covered(fx, recs)
        if fx['learner'] == 'multiclass-projectron++' and empty_basis_rounds(fx, recs):
            got.add('empty_class_basis')
        if fx['learner'] == 'mrbp' and sum(r['kind'] == 'evict' for r in recs) >= 2:
            got.add('two_evictions')
        missing = set(fx['covers']) - got
        assert not missing, (fx['name'], missing, sorted(got))
        assert 6 <= len(recs) <= 15
        if fx['learner'] == 'mrbp':
            assert state['draws_used'] == len(fx['opts']['eviction_draws']), 'unused eviction draws'
        table(fx, recs, state)
        j = to_json(fx, recs, state)
        if fx['opts'].get('binary_relation'):
            assert fx['m'] == 2
            j['binary_perceptron'] = binary_relation(fx, recs)
        out.append(j)
    doc = dict(generator='tests/tools/multiclass_reference.py',
               conventions='DOGMA k_perceptron_multi_train.m / k_pa_multi_train.m / '
                           'k_projectron2_multi_train.m, classes 0..m-1; see the script docstring',
               fixtures=out)
    text = json.dumps(doc, indent=1) + '\n'
    if '--write' in sys.argv:
        with open(JSON_PATH, 'w') as fh:
            fh.write(text)
        print('wrote', JSON_PATH)
    elif os.path.exists(JSON_PATH):
        with open(JSON_PATH) as fh:
            assert fh.read() == text, f'{JSON_PATH} is stale: rerun with --write'
        print('JSON up to date:', JSON_PATH)


if __name__ == '__main__':
    main()
