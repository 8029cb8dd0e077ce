"""The fused softmax / log_softmax gradients against numpy formulas, every dim and dtype."""
import numpy as np
import pytest

import core
from core import _C

FUSED = {False: _C._internal["_softmax_backward_data"], True: _C._internal["_log_softmax_backward_data"]}


def reference(g, y, dim, log):
    if log:
        return g - np.exp(y) * g.sum(dim, keepdims=True)
    return y * (g - (g * y).sum(dim, keepdims=True))


@pytest.mark.parametrize("log", [False, True])
@pytest.mark.parametrize("shape,dim", [((7,), 0), ((4, 9), 1), ((4, 9), 0), ((3, 5, 6), 1), ((2, 3, 4, 5), -1),
                                       ((0, 3), 1), ((300, 70), 1)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_fused_gradient_matches_formula(log, shape, dim, dtype):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape).astype(dtype)
    g = rng.standard_normal(shape).astype(dtype)
    op = core.log_softmax if log else core.softmax
    y = op(core.from_numpy(x), dim).numpy()
    ours = FUSED[log](core.from_numpy(g), core.from_numpy(y), dim).numpy()
    tol = 1e-5 if dtype == "float32" else 1e-12
    np.testing.assert_allclose(ours, reference(g, y, dim, log), rtol=tol, atol=tol)


@pytest.mark.parametrize("log", [False, True])
def test_backward_uses_fused_path_and_double_backward_still_works(log):
    x = core.randn(3, 4, dtype=core.float64, requires_grad=True)
    op = core.log_softmax if log else core.softmax
    w = core.randn(3, 4, dtype=core.float64)
    (gx,) = core.autograd.grad((op(x, 1) * w).sum(), x)
    expected = FUSED[log](w, op(x.detach(), 1), 1)
    np.testing.assert_allclose(gx.numpy(), expected.numpy(), rtol=1e-12)
    assert core.autograd.gradgradcheck(lambda t: op(t, 1), (x,))


def test_fused_errors_name_the_op():
    with pytest.raises(RuntimeError, match="_softmax_backward_data.*shapes differ"):
        FUSED[False](core.ones(2, 3), core.ones(3, 2), 1)
    with pytest.raises(TypeError, match="_log_softmax_backward_data.*floating"):
        FUSED[True](core.ones(2, dtype=core.int64), core.ones(2, dtype=core.int64), 0)
