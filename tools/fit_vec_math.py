"""Fits the float32 polynomials of core/csrc/kernels/vec_math.h and reports their error.

exp: e^r = 1 + r + r^2 P(r) on |r| <= ln2/2 (a little more: n comes from a rounded product),
P minimising the relative error of e^r.

erf(x) = x + x * P(x^2) below |x| = 0.921875, and 1 - exp(-x^2) * R(|x| - 2.5) above (to 4,
where erf rounds to 1 in float32). P minimises the absolute error of erf(x)/x - 1, R the
relative error of erfc(x) * exp(x^2).

The normal tail of gelu: Phi(-a) = u * exp(-a^2/2) * Q(u) with u = 1 / (1 + k a), one form for
every a = |x| up to 14.5 (where Phi(-a) rounds to 0 in float32), Q fitted in relative error.

Every fit is iteratively reweighted least squares on Chebyshev nodes in float64; the
coefficients are rounded to float32 one at a time from the lowest, refitting the rest, so the
rounding of each is compensated by the next. The report evaluates erf's float32 formula
(Horner steps as FMAs, emulated in float64: a product of two floats is exact there) against
float64 erf; the tests measure the built library itself.

    python tools/fit_vec_math.py
"""
import math

import numpy as np

SPLIT, TOP, CENTRE = 0.921875, 4.0, 2.5
DEGREE_P, DEGREE_R = 6, 11
EXP_RANGE, DEGREE_EXP = 0.3467, 5
TAIL_SCALE, TAIL_TOP, DEGREE_Q = np.float32(0.3 / math.sqrt(2)), 14.5, 8
erf = np.vectorize(math.erf, otypes=[np.float64])
erfc = np.vectorize(math.erfc, otypes=[np.float64])


def chebyshev_nodes(lo, hi, n):
    k = np.arange(n)
    return (lo + hi) / 2 + (hi - lo) / 2 * np.cos(np.pi * (k + 0.5) / n)


def minimax(z, y, degree, weight, rounds=100):
    """float32 coefficients (lowest first) nearly equalising the worst of |P(z) - y| * weight."""
    fixed = []
    for i in range(degree + 1):
        rest = y - np.polyval(np.array(fixed[::-1]), z) if fixed else y
        basis = np.vander(z, degree + 1, increasing=True)[:, i:]
        w = weight.copy()
        for _ in range(rounds):
            coef = np.linalg.lstsq(basis * w[:, None], rest * w, rcond=None)[0]
            err = np.abs(basis @ coef - rest) * weight
            w *= 1 + 5 * err / err.max()
        fixed.append(float(np.float32(coef[0])))
    coef = np.array(fixed, np.float32)
    return coef, (np.abs(np.polyval(coef[::-1].astype(np.float64), z) - y) * weight).max()


def fma32(a, b, c):
    return (a.astype(np.float64) * b + c).astype(np.float32)


def horner32(coef, z):
    r = np.full_like(z, coef[-1])
    for c in coef[-2::-1]:
        r = fma32(r, z, c)
    return r


def erf32(x, p, r):
    ax = np.abs(x)
    small = fma32(x, horner32(p, x * x), x)
    t = np.minimum(ax, np.float32(TOP))
    tail = np.exp(-(t * t).astype(np.float64)).astype(np.float32) * horner32(r, t - np.float32(CENTRE))
    return np.where(ax < np.float32(SPLIT), small, np.copysign(np.float32(1) - tail, x))


def show(name, coef, err):
    print(f"{name} (fit error {err:.2e}):", ", ".join(f"{c:.9e}f" for c in coef))


def main():
    r = chebyshev_nodes(-EXP_RANGE, EXP_RANGE, 4000)
    show("exp P", *minimax(r, (np.expm1(r) - r) / (r * r), DEGREE_EXP, weight=r * r / np.exp(r)))

    x = chebyshev_nodes(1e-4, SPLIT, 6000)
    p, p_err = minimax(x * x, erf(x) / x - 1, DEGREE_P, weight=np.ones_like(x))
    x = chebyshev_nodes(SPLIT, TOP, 8000)
    y = erfc(x) * np.exp(x * x)
    r, r_err = minimax(x - CENTRE, y, DEGREE_R, weight=1 / y)
    show("erf P", p, p_err)
    show("erf R", r, r_err)
    xs = np.arange(0, np.float32(4.5).view(np.int32), 101, dtype=np.int32).view(np.float32)
    want = erf(xs.astype(np.float64))
    ulp = np.spacing(np.abs(want).astype(np.float32)).astype(np.float64)
    err = np.abs(erf32(xs, p, r).astype(np.float64) - want) / ulp
    print(f"erf in float32: max {err.max():.2f} ulp at x = {xs[err.argmax()]!r}")

    a = np.concatenate([chebyshev_nodes(0, TAIL_TOP, 6000), np.linspace(0, TAIL_TOP, 6001)])
    u = 1 / (1 + TAIL_SCALE * a)
    y = erfc(a / math.sqrt(2)) / 2 * np.exp(a * a / 2) / u  # erfc * exp loses nothing to 14.5
    show("normal_cdf Q", *minimax(u, y, DEGREE_Q, weight=1 / y))


if __name__ == "__main__":
    main()
