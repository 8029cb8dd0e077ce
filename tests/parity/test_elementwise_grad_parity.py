"""Gradients of the elementwise family against PyTorch: torch.autograd.grad on the same inputs
and upstream gradients, first and second order, for every differentiable op (functions,
methods and in-place forms), including kinks, ties and special values."""
import numpy as np
import pytest

import core

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

_rng = np.random.default_rng(7)
A = _rng.standard_normal((3, 4))
B = _rng.standard_normal(4)             # broadcasts against A
C = _rng.standard_normal((3, 1))
P = _rng.uniform(0.5, 2.0, (3, 4))      # positive
Q = _rng.uniform(0.5, 2.0, 4)
U = _rng.uniform(-0.9, 0.9, (3, 4))     # inside (-1, 1)
G1 = _rng.uniform(1.2, 3.0, (3, 4))     # > 1 (acosh)
PR = _rng.uniform(0.05, 0.95, (3, 4))   # probabilities (logit)
W = _rng.uniform(0.0, 1.0, (3, 1))      # lerp weights
# special points: kinks, ties, zeros, boundaries
ZEROS = np.array([0.0, -0.0, 1.5, -2.0, 0.0])
TIE_A = np.array([1.0, 2.0, 3.0, -1.0, 0.5])
TIE_B = np.array([1.0, 3.0, 2.0, -1.0, 0.75])
CLAMP_X = np.array([-2.0, -1.0, 0.0, 1.0, 2.0, 0.5])
POW_BASE = np.array([0.0, 0.0, 0.0, 2.0, 1.5])
POW_EXP = np.array([0.0, 2.0, 1.5, 0.0, -1.0])
SPECIAL = np.array([np.nan, np.inf, -np.inf, 1.5, -0.0, 7.0])


def _x1(op, *args, **kwargs):
    """In-place op on a non-leaf copy of x."""
    return lambda m, x, *ys: getattr(x * 1, op)(*ys, *args, **kwargs)


# PyTorch has no derivative for these in-place forms: compare with its out-of-place op.
NO_TORCH_INPLACE = {"asinh_", "acosh_", "atanh_"}


def _inplace(name):
    ours = _x1(name)
    return lambda m, x: getattr(m, name[:-1])(x) if m is torch and name in NO_TORCH_INPLACE else ours(m, x)


def _unary(name, arr, second=True):
    return [(name, lambda m, x: getattr(m, name)(x), [arr], second),
            (name + ".method", lambda m, x: getattr(x, name)(), [arr], second),
            (name + "_", _inplace(name + "_"), [arr], second)]


def _binary(name, a, b, second=True, inplace=True, number=True):
    cases = [(name, lambda m, x, y: getattr(m, name)(x, y), [a, b], second)]
    if number:  # PyTorch's atan2/hypot/maximum... take no Python number
        cases.append((name + ".number", lambda m, x: getattr(m, name)(x, 1.5), [a], second))
    if inplace:
        cases.append((name + "_", _x1(name + "_"), [a, b], second))
    return cases


UNARY = [("neg", A), ("negative", A), ("abs", A), ("absolute", A), ("sign", A), ("sgn", A), ("sqrt", P),
         ("rsqrt", P), ("reciprocal", P), ("exp", A), ("exp2", A), ("expm1", A), ("log", P), ("log2", P),
         ("log10", P), ("log1p", P), ("sin", A), ("cos", A), ("tan", U), ("asin", U), ("acos", U), ("atan", A),
         ("sinh", A), ("cosh", A), ("tanh", A), ("asinh", A), ("acosh", G1), ("atanh", U), ("sigmoid", A),
         ("erf", A), ("erfc", A), ("erfinv", U), ("floor", A * 3), ("ceil", A * 3), ("trunc", A * 3),
         ("fix", A * 3), ("frac", A * 3), ("square", A), ("round", A * 3)]

BINARY = [("sub", A, B), ("mul", A, B), ("div", A, Q), ("true_divide", A, Q), ("remainder", A * 3, Q),
          ("fmod", A * 3, Q), ("copysign", A, B), ("xlogy", A, Q), ("pow", P, B), ("float_power", P, B)]

CASES = []
for _name, _arr in UNARY:
    CASES += _unary(_name, _arr)
for _name, _a, _b in BINARY:
    CASES += _binary(_name, _a, _b)
for _name, _a, _b in [("subtract", A, B), ("multiply", A, B), ("divide", A, Q)]:
    CASES += _binary(_name, _a, _b, inplace=False)
CASES += _binary("atan2", A, B, number=False) + _binary("hypot", A, B, number=False)
for _name in ("maximum", "minimum", "fmax", "fmin"):
    CASES += _binary(_name, A, B, inplace=False, number=False)
    CASES.append((_name + ".ties", lambda m, x, y, n=_name: getattr(m, n)(x, y), [TIE_A, TIE_B], True))
CASES += [
    ("add.alpha", lambda m, x, y: m.add(x, y, alpha=2.5), [A, B], True),
    ("sub.alpha", lambda m, x, y: m.sub(x, y, alpha=-0.5), [A, B], True),
    ("rsub", lambda m, x, y: m.rsub(x, y, alpha=2.0), [A, B], True),
    ("rsub.number", lambda m, x: m.rsub(x, 3.0), [A], True),
    ("div.trunc", lambda m, x, y: m.div(x, y, rounding_mode="trunc"), [A * 3, Q], True),
    ("div.floor", lambda m, x, y: x.div(y, rounding_mode="floor"), [A * 3, Q], True),
    ("div_.floor", _x1("div_", rounding_mode="floor"), [A * 3, Q], True),
    ("rdiv.number", lambda m, x: 2.0 / x, [P], True),
    ("pow.scalar_exp", lambda m, x: m.pow(x, 2.5), [P], True),
    ("pow.int_exp", lambda m, x: x ** 3, [A], True),
    ("pow.neg_int_exp", lambda m, x: x ** -2, [P], True),
    ("pow.scalar_base", lambda m, x: m.pow(2.0, x), [A], True),
    ("rpow.number", lambda m, x: 1.5 ** x, [A], True),
    ("pow.zero_base", lambda m, x, y: m.pow(x, y), [POW_BASE, POW_EXP], False),
    ("pow.zero_base.self", lambda m, x: m.pow(x, m.tensor(POW_EXP)), [POW_BASE], True),
    ("float_power.scalar", lambda m, x: m.float_power(x, 2), [A], True),
    ("abs.zero", lambda m, x: m.abs(x), [ZEROS], True),
    # second order: PyTorch's formula (result / self, masked) gives NaN at self == 0; ours 0
    ("copysign.zero", lambda m, x, y: m.copysign(x, y), [ZEROS, TIE_A], False),
    ("xlogy.zeros", lambda m, x, y: m.xlogy(x, y), [np.array([0.0, 0.0, 1.5, 2.0]), np.array([0.0, 2.0, 3.0, 0.5])], True),
    ("lerp", lambda m, x, y, w: m.lerp(x, y, w), [A, B, W], True),
    ("lerp.number", lambda m, x, y: m.lerp(x, y, 0.3), [A, B], True),
    ("lerp_", _x1("lerp_"), [A, B, W], True),
    ("clamp.numbers", lambda m, x: m.clamp(x, -0.5, 0.7), [A], True),
    ("clamp.min", lambda m, x: x.clamp(min=0.2), [A], True),
    ("clamp.max", lambda m, x: x.clamp(max=0.2), [A], True),
    ("clamp.tensors", lambda m, x, lo, hi: m.clamp(x, lo, hi), [A, B - 0.5, C + 0.5], True),
    ("clamp.tensor_min_only", lambda m, x, lo: m.clamp(x, min=lo), [A, B], True),
    ("clamp.boundaries", lambda m, x: m.clamp(x, -1.0, 1.0), [CLAMP_X], True),
    ("clamp.boundary_tensors", lambda m, x, lo, hi: m.clamp(x, lo, hi),
     [CLAMP_X, np.full(6, -1.0), np.array([1.0, 1.0, 1.0, 1.0, -3.0, 0.5])], True),
    ("clamp.min_gt_max", lambda m, x, lo, hi: m.clamp(x, lo, hi), [A, np.full(4, 1.0), np.full(4, 0.0)], True),
    ("clamp_", _x1("clamp_", -0.5, 0.7), [A], True),
    ("clip", lambda m, x, lo, hi: m.clip(x, lo, hi), [A, B, C + 1], True),
    ("clip_", _x1("clip_", max=0.3), [A], True),
    ("clamp_min", lambda m, x, lo: m.clamp_min(x, lo), [A, B], True),
    ("clamp_min.number", lambda m, x: m.clamp_min(x, 0.1), [A], True),
    ("clamp_min_", _x1("clamp_min_", 0.1), [A], True),
    ("clamp_max", lambda m, x, hi: m.clamp_max(x, hi), [A, B], True),
    ("clamp_max_", _x1("clamp_max_", 0.1), [A], True),
    ("logit", lambda m, x: m.logit(x), [PR], True),
    ("logit.eps", lambda m, x: m.logit(x, eps=0.2), [PR], True),
    ("logit_", _x1("logit_", 0.1), [PR], True),
    ("nan_to_num", lambda m, x: m.nan_to_num(x), [SPECIAL], True),
    ("nan_to_num.values", lambda m, x: x.nan_to_num(1.0, 2.0, -3.0), [SPECIAL], True),
    ("nan_to_num_", _x1("nan_to_num_"), [SPECIAL], True),
    ("round.decimals", lambda m, x: m.round(x, decimals=2), [A], True),
    ("positive", lambda m, x: m.positive(x) * 2, [A], True),
    ("real", lambda m, x: m.real(x) * 2, [A], True),
    ("conj", lambda m, x: m.conj(x) * 2, [A], True),
    ("angle", lambda m, x: m.angle(x), [A], True),
    ("eq_", _x1("eq_"), [A, B], True),
    ("ne_", _x1("ne_"), [A, B], True),
    ("lt_", _x1("lt_", 0.5), [A], True),
    ("le_", _x1("le_"), [A, B], True),
    ("gt_", _x1("gt_"), [A, B], True),
    ("ge_", _x1("ge_"), [A, B], True),
    ("chain", lambda m, x, y: m.sigmoid(x * y).exp().log1p() / m.hypot(x, y), [A, B], True),
]


def _np(m, g):
    return g.detach().numpy(force=True) if m is torch else g.detach().numpy()  # torch: ZeroTensors


def _run(m, fn, arrays, seeds, second_seeds=None):
    inputs = [m.tensor(a).requires_grad_() for a in arrays]
    out = fn(m, *inputs)
    grads = m.autograd.grad([out], inputs, [m.tensor(s) for s in seeds], allow_unused=True,
                            create_graph=second_seeds is not None)
    first = [None if g is None else _np(m, g) for g in grads]
    if second_seeds is None:
        return out.detach().numpy(), first, None
    used = [(g, s) for g, s in zip(grads, second_seeds) if g is not None and g.requires_grad]
    if not used:
        return out.detach().numpy(), first, [None] * len(inputs)
    second = m.autograd.grad([g for g, _ in used], inputs, [m.tensor(s) for _, s in used], allow_unused=True)
    return out.detach().numpy(), first, [None if g is None else _np(m, g) for g in second]


def _close(ours, theirs, label):
    if theirs is None or not np.any(theirs):
        assert ours is None or not np.any(ours), label
    else:
        assert ours is not None, label
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12, equal_nan=True, err_msg=label)


@pytest.mark.parametrize("label,fn,arrays,second", CASES, ids=[c[0] for c in CASES])
def test_gradients_match_torch(label, fn, arrays, second):
    rng = np.random.default_rng(len(label))
    probe = fn(torch, *[torch.tensor(a) for a in arrays])
    seeds = [rng.standard_normal(tuple(probe.shape))]
    second_seeds = [rng.standard_normal(a.shape) for a in arrays] if second else None
    ours = _run(core, fn, arrays, seeds, second_seeds)
    theirs = _run(torch, fn, arrays, seeds, second_seeds)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-12, atol=1e-12, equal_nan=True)
    for part in (1, 2) if second else (1,):
        for i, (o, t) in enumerate(zip(ours[part], theirs[part])):
            _close(o, t, f"{label} order {part} input {i}")


def test_grad_fn_names_match_torch():
    def names(m):
        x = m.tensor(P).requires_grad_()
        # (one table entry per op: torch numbers its rsub.Scalar, pow.Scalar, clamp(Scalar) apart)
        outs = [m.sub(x, 1.0), x * x, x / 2, x ** 2, m.maximum(x, x),
                m.clamp(x, m.tensor(0.1, dtype=x.dtype)), m.clamp_min(x, 0.1), x.exp(), x.sigmoid(), x.abs(), x.sqrt(), m.atan2(x, x),
                m.remainder(x, 0.3), m.fmod(x, 0.3), m.lerp(x, x, 0.5), m.xlogy(x, x), m.hypot(x, x),
                m.logit(x), m.nan_to_num(x), m.frac(x), m.floor(x)]
        return [type(o.grad_fn).__name__ if m is torch else o.grad_fn.name() for o in outs]
    assert names(core) == names(torch)


def test_floor_divide_gradient_is_zero():
    # PyTorch 2.x raises "derivative not implemented"; its documented (1.8) rule is zeros.
    x = core.tensor(A * 3).requires_grad_()
    y = core.tensor(Q).requires_grad_()
    gx, gy = core.autograd.grad(core.floor_divide(x, y).sum(), [x, y])
    assert not gx.numpy().any() and not gy.numpy().any()
    with pytest.raises(RuntimeError):
        torch.floor_divide(torch.tensor(A, requires_grad=True), torch.tensor(Q)).sum().backward()


# ---------------------------------------------------------------- complex inputs (first order)
# PyTorch's convention: grad_input = grad_output * conj(f'(z)) for holomorphic f.
_z = (_rng.uniform(0.2, 0.8, (2, 3)) + 1j * _rng.uniform(-0.6, 0.6, (2, 3))).astype(np.complex64)
_w = (_rng.uniform(0.5, 1.5, 3) + 1j * _rng.uniform(-0.5, 0.5, 3)).astype(np.complex64)
COMPLEX_UNARY = ["exp", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "reciprocal", "square",
                 "sin", "cos", "tan", "sinh", "cosh", "tanh", "asin", "acos", "atan", "asinh", "atanh", "sigmoid",
                 "neg", "conj", "positive"]
COMPLEX_CASES = [(n, lambda m, x, n=n: getattr(m, n)(x), [_z]) for n in COMPLEX_UNARY] + [
    ("abs", lambda m, x: m.abs(x), [_z]),
    ("mul", lambda m, x, y: x * y, [_z, _w]),
    ("div", lambda m, x, y: x / y, [_z, _w]),
    ("pow", lambda m, x, y: m.pow(x, y), [_z, _w]),
    ("pow.number", lambda m, x: x ** 2.5, [_z]),
    ("lerp", lambda m, x, y: m.lerp(x, y, 0.25), [_z, _w]),
    ("real", lambda m, x: m.real(x), [_z]),
    ("add.alpha", lambda m, x, y: m.add(x, y, alpha=1 - 2j), [_z, _w]),
    ("sub.alpha", lambda m, x, y: m.sub(x, y, alpha=0.5 + 1j), [_z, _w]),
    ("rsub.alpha", lambda m, x, y: m.rsub(x, y, alpha=2j), [_z, _w]),
    ("imag", lambda m, x: m.imag(x), [_z]),
    ("angle", lambda m, x: m.angle(x), [_z]),
    ("angle.zero", lambda m, x: m.angle(x), [np.array([0j, 1 + 1j, -2j], np.complex64)]),
]


@pytest.mark.parametrize("label,fn,arrays", COMPLEX_CASES, ids=[c[0] for c in COMPLEX_CASES])
def test_complex_gradients_match_torch(label, fn, arrays):
    rng = np.random.default_rng(len(label))
    probe = fn(torch, *[torch.tensor(a) for a in arrays])
    seed = rng.standard_normal(tuple(probe.shape))
    if probe.is_complex():
        seed = (seed + 1j * rng.standard_normal(seed.shape)).astype(np.complex64)
    else:
        seed = seed.astype(np.float32)
    results = []
    for m in (core, torch):
        inputs = [m.tensor(a).requires_grad_() for a in arrays]
        out = fn(m, *inputs)
        results.append([_np(m, g) for g in m.autograd.grad([out], inputs, [m.tensor(seed)])])
    for i, (o, t) in enumerate(zip(*results)):
        np.testing.assert_allclose(o, t, rtol=1e-4, atol=1e-5, err_msg=f"{label} input {i}")
