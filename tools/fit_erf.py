"""Fits the float32 erf polynomials of core/csrc/kernels/vec_math.h and reports their error.

erf(x) = x + x * P(x^2) below |x| = 0.921875, and 1 - exp(-x^2) * R(|x| - 2.5) above (to 4,
where erf rounds to 1 in float32). P minimises the absolute error of erf(x)/x - 1, R the
relative error of erfc(x) * exp(x^2); both by iteratively reweighted least squares on
Chebyshev nodes in float64. The report evaluates the float32 formula (each operation rounded,
no FMA) against float64 erf.

The normal tail of gelu: erfc(t) = u * exp(-t^2) * Q(u) with u = 1 / (1 + t * 0.3), one form
for every t >= 0 (relative error about 2e-8), Q fitted in relative error the same way.

    python tools/fit_erf.py
"""
import math

import numpy as np

SPLIT, TOP, CENTRE = 0.921875, 4.0, 2.5
DEGREE_P, DEGREE_R = 6, 11
TAIL_SCALE, DEGREE_Q = 0.3, 8
erf = np.vectorize(math.erf, otypes=[np.float64])
erfc = np.vectorize(math.erfc, otypes=[np.float64])


def chebyshev_nodes(lo, hi, n):
    k = np.arange(n)
    return (lo + hi) / 2 + (hi - lo) / 2 * np.cos(np.pi * (k + 0.5) / n)


def minimax(z, y, degree, relative, rounds=60):
    """Polynomial coefficients (lowest first) nearly equalising the worst error."""
    basis = np.vander(z, degree + 1, increasing=True)
    scale = 1 / np.abs(y) if relative else np.ones_like(y)
    weight = scale.copy()
    for _ in range(rounds):
        coef = np.linalg.lstsq(basis * weight[:, None], y * weight, rcond=None)[0]
        err = np.abs(basis @ coef - y) * scale
        weight *= 1 + 5 * err / err.max()
    return coef.astype(np.float32), err.max()


def horner32(coef, z):
    r = np.full_like(z, coef[-1])
    for c in coef[-2::-1]:
        r = r * z + c
    return r


def erf32(x, p, r):
    ax = np.abs(x)
    small = x + x * horner32(p, x * x)
    t = np.minimum(ax, np.float32(TOP))
    tail = np.exp(-(t * t).astype(np.float64)).astype(np.float32) * horner32(r, t - np.float32(CENTRE))
    return np.where(ax < np.float32(SPLIT), small, np.copysign(np.float32(1) - tail, x))


def main():
    x = chebyshev_nodes(1e-4, SPLIT, 6000)
    p, p_err = minimax(x * x, erf(x) / x - 1, DEGREE_P, relative=False)
    x = chebyshev_nodes(SPLIT, TOP, 8000)
    r, r_err = minimax(x - CENTRE, erfc(x) * np.exp(x * x), DEGREE_R, relative=True)
    print(f"P (fit error {p_err:.2e}):", ", ".join(f"{c:.9e}f" for c in p))
    print(f"R (fit error {r_err:.2e}):", ", ".join(f"{c:.9e}f" for c in r))
    xs = np.arange(0, np.float32(4.5).view(np.int32), 101, dtype=np.int32).view(np.float32)
    want = erf(xs.astype(np.float64))
    ulp = np.spacing(np.abs(want).astype(np.float32)).astype(np.float64)
    err = np.abs(erf32(xs, p, r).astype(np.float64) - want) / ulp
    print(f"float32 evaluation: max {err.max():.2f} ulp at x = {xs[err.argmax()]!r}")
    t = np.concatenate([chebyshev_nodes(0, 10, 20000), np.linspace(0, 10, 20001)])
    u = 1 / (1 + TAIL_SCALE * t)
    q, q_err = minimax(u, erfc(t) * np.exp(t * t) / u, DEGREE_Q, relative=True, rounds=80)
    print(f"Q (fit error {q_err:.2e}):", ", ".join(f"{c:.9e}f" for c in q))


if __name__ == "__main__":
    main()
