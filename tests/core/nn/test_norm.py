"""Normalization: batch/layer/group/instance norm and local response norm against numpy,
running-stat updates, channels-last, gradients (first and second order), errors, modules."""
import numpy as np
import pytest

import core
import core.nn.functional as F
from core.autograd import gradcheck, gradgradcheck


def _rng(seed=0):
    return np.random.default_rng(seed)


def _bn_ref(v, w, b, mean, var, eps):
    shape = (1, -1) + (1,) * (v.ndim - 2)
    return (v - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps) * w.reshape(shape) + b.reshape(shape)


@pytest.mark.parametrize("shape", [(4, 3), (4, 3, 5), (2, 3, 4, 5), (2, 3, 2, 2, 3)])
@pytest.mark.parametrize("dtype,tol", [(np.float64, 1e-10), (np.float32, 1e-5)])
def test_batch_norm_training_and_running_stats(shape, dtype, tol):
    r = _rng()
    v = r.normal(3.0, 2.0, shape).astype(dtype)
    w, b = r.normal(size=shape[1]).astype(dtype), r.normal(size=shape[1]).astype(dtype)
    rm0, rv0 = r.normal(size=shape[1]).astype(dtype), r.uniform(1, 2, shape[1]).astype(dtype)
    rm, rv = core.tensor(rm0), core.tensor(rv0)
    version = rm._version
    out = F.batch_norm(core.tensor(v), rm, rv, core.tensor(w), core.tensor(b), True, 0.3, 1e-5)
    axes = tuple(i for i in range(len(shape)) if i != 1)
    mean, var = v.astype(np.float64).mean(axes), v.astype(np.float64).var(axes)
    n = v.size // shape[1]
    np.testing.assert_allclose(out.numpy(), _bn_ref(v.astype(np.float64), w, b, mean, var, 1e-5), rtol=tol, atol=tol)
    np.testing.assert_allclose(rm.numpy(), 0.7 * rm0 + 0.3 * mean, rtol=tol, atol=tol)
    np.testing.assert_allclose(rv.numpy(), 0.7 * rv0 + 0.3 * var * n / (n - 1), rtol=tol, atol=tol)
    assert rm._version > version
    # eval: the running statistics
    ev = F.batch_norm(core.tensor(v), rm, rv, core.tensor(w), core.tensor(b), False, 0.3, 1e-5)
    np.testing.assert_allclose(ev.numpy(), _bn_ref(v.astype(np.float64), w, b, rm.numpy(), rv.numpy(), 1e-5),
                               rtol=tol, atol=tol)


def test_batch_norm_channels_last_keeps_layout_and_values():
    v = _rng(1).normal(size=(2, 5, 3, 4))
    x = core.tensor(v).permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)
    w, b = core.tensor(_rng(2).normal(size=5)), core.tensor(_rng(3).normal(size=5))
    for training in (True, False):
        rm, rv = core.zeros(5, dtype=core.float64), core.ones(5, dtype=core.float64)
        out = F.batch_norm(x, rm, rv, w, b, training)
        rm2, rv2 = core.zeros(5, dtype=core.float64), core.ones(5, dtype=core.float64)
        ref = F.batch_norm(core.tensor(v), rm2, rv2, w, b, training)
        assert out.stride() == x.stride()
        np.testing.assert_allclose(out.numpy(), ref.numpy(), rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(rv.numpy(), rv2.numpy(), rtol=1e-12)
    xg = x.detach().requires_grad_()
    wg = w.detach().requires_grad_()
    assert gradcheck(lambda t, ww: F.batch_norm(t, None, None, ww, b, True), [xg, wg])


def test_batch_norm_half_and_no_affine():
    v = _rng(4).normal(size=(4, 3, 2)).astype(np.float16)
    out = F.batch_norm(core.tensor(v), None, None, training=True)
    assert out.dtype == core.float16
    ref = _bn_ref(v.astype(np.float64), np.ones(3), np.zeros(3), v.astype(np.float64).mean((0, 2)),
                  v.astype(np.float64).var((0, 2)), 1e-5)
    np.testing.assert_allclose(out.float().numpy(), ref, rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("affine", [True, False])
def test_batch_norm_gradients(training, affine):
    r = _rng(5)
    x = core.tensor(r.normal(size=(3, 2, 4))).requires_grad_()
    inputs = [x]
    if affine:
        inputs += [core.tensor(r.normal(size=2)).requires_grad_(), core.tensor(r.normal(size=2)).requires_grad_()]
    rm, rv = core.tensor(r.normal(size=2)), core.tensor(r.uniform(1, 2, 2))

    def fn(t, *wb):
        w, b = wb if wb else (None, None)
        return F.batch_norm(t, rm.clone(), rv.clone(), w, b, training, 0.1, 1e-3)

    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)


def test_bias_only_gradient():
    x = core.tensor(_rng(6).normal(size=(4, 3))).requires_grad_()
    b = core.zeros(3, dtype=core.float64).requires_grad_()
    F.batch_norm(x, None, None, None, b, True).sum().backward()
    np.testing.assert_allclose(b.grad.numpy(), [4.0, 4.0, 4.0])


@pytest.mark.parametrize("shape,normalized", [((3, 4), (4,)), ((2, 3, 4), (3, 4)), ((5,), (5,))])
def test_layer_norm(shape, normalized):
    r = _rng(7)
    v = r.normal(2.0, 3.0, shape)
    w, b = r.normal(size=normalized), r.normal(size=normalized)
    axes = tuple(range(len(shape) - len(normalized), len(shape)))
    ref = (v - v.mean(axes, keepdims=True)) / np.sqrt(v.var(axes, keepdims=True) + 1e-5) * w + b
    out = F.layer_norm(core.tensor(v), normalized, core.tensor(w), core.tensor(b))
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-10, atol=1e-10)
    o32 = F.layer_norm(core.tensor(v.astype(np.float32)), normalized, core.tensor(w.astype(np.float32)))
    np.testing.assert_allclose(o32.numpy(), ref - b, rtol=1e-4, atol=1e-4)
    inputs = [core.tensor(v).requires_grad_(), core.tensor(w).requires_grad_(), core.tensor(b).requires_grad_()]
    fn = lambda x, ww, bb: F.layer_norm(x, normalized, ww, bb, 1e-3)  # noqa: E731
    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)
    assert gradcheck(lambda x: F.layer_norm(x, normalized), inputs[:1])


def test_native_layer_norm_statistics_shape():
    out, mean, rstd = core.native_layer_norm(core.randn(2, 3, 4), [4], None, None, 1e-5)
    assert mean.shape == (2, 3, 1) and rstd.shape == (2, 3, 1)


@pytest.mark.parametrize("shape,groups", [((2, 4, 3), 2), ((2, 6, 2, 2), 3), ((3, 4), 4), ((1, 4, 5), 1)])
def test_group_norm(shape, groups):
    r = _rng(8)
    v = r.normal(1.0, 2.0, shape)
    c = shape[1]
    w, b = r.normal(size=c), r.normal(size=c)
    g = v.reshape(shape[0], groups, -1)
    norm = ((g - g.mean(2, keepdims=True)) / np.sqrt(g.var(2, keepdims=True) + 1e-5)).reshape(shape)
    bshape = (1, c) + (1,) * (len(shape) - 2)
    ref = norm * w.reshape(bshape) + b.reshape(bshape)
    out = F.group_norm(core.tensor(v), groups, core.tensor(w), core.tensor(b))
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-10, atol=1e-10)
    inputs = [core.tensor(v).requires_grad_(), core.tensor(w).requires_grad_(), core.tensor(b).requires_grad_()]
    fn = lambda x, ww, bb: F.group_norm(x, groups, ww, bb, 1e-3)  # noqa: E731
    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)


def test_instance_norm_and_running_stats():
    r = _rng(9)
    v = r.normal(size=(2, 3, 5))
    rm, rv = core.zeros(3, dtype=core.float64), core.ones(3, dtype=core.float64)
    out = F.instance_norm(core.tensor(v), rm, rv, use_input_stats=True, momentum=0.5)
    ref = (v - v.mean(2, keepdims=True)) / np.sqrt(v.var(2, keepdims=True) + 1e-5)
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(rm.numpy(), 0.5 * v.mean(2).mean(0), rtol=1e-10)
    np.testing.assert_allclose(rv.numpy(), 0.5 + 0.5 * v.var(2, ddof=1).mean(0), rtol=1e-10)
    ev = F.instance_norm(core.tensor(v), rm, rv, use_input_stats=False)
    np.testing.assert_allclose(ev.numpy(), (v - rm.numpy()[:, None]) / np.sqrt(rv.numpy()[:, None] + 1e-5), rtol=1e-10)
    x = core.tensor(v).requires_grad_()
    w = core.tensor(r.normal(size=3)).requires_grad_()
    assert gradcheck(lambda t, ww: F.instance_norm(t, weight=ww, eps=1e-3), [x, w])
    assert gradgradcheck(lambda t, ww: F.instance_norm(t, weight=ww, eps=1e-3), [x, w])


def test_local_response_norm():
    v = _rng(10).normal(size=(2, 5, 3))
    size, alpha, beta, k = 3, 1e-2, 0.75, 2.0
    sq = np.pad(v ** 2, ((0, 0), (size // 2, (size - 1) // 2), (0, 0)))
    div = np.stack([sq[:, i:i + size].sum(1) for i in range(5)], 1) * alpha / size + k
    out = F.local_response_norm(core.tensor(v), size, alpha, beta, k)
    np.testing.assert_allclose(out.numpy(), v / div ** beta, rtol=1e-12)
    x = core.tensor(v).requires_grad_()
    assert gradcheck(lambda t: F.local_response_norm(t, 2, 0.1, 0.75, 1.0), [x])
    with pytest.raises(ValueError, match="Expected 3D or higher"):
        F.local_response_norm(core.randn(2, 3), 2)


@pytest.mark.parametrize("call,exc,fragment", [
    (lambda: F.batch_norm(core.randn(1, 3), None, None, training=True), ValueError, "Expected more than 1 value per channel"),
    (lambda: F.batch_norm(core.randn(4, 3), core.zeros(4), core.ones(3)), RuntimeError, "running_mean should contain 3 elements not 4"),
    (lambda: F.batch_norm(core.randn(4, 3), None, None), RuntimeError, "running_mean and running_var must be defined"),
    (lambda: F.batch_norm(core.ones(4, 3, dtype=core.int64), None, None, training=True), NotImplementedError, "batch_norm"),
    (lambda: F.layer_norm(core.randn(2, 4), (3,)), RuntimeError, r"Given normalized_shape=\[3\], expected input with shape \[\*, 3\]"),
    (lambda: F.layer_norm(core.randn(2, 4), (4,), core.ones(3)), RuntimeError, "Expected weight to be of same shape"),
    (lambda: F.group_norm(core.randn(2, 3, 4), 2), RuntimeError, "divisible by num_groups"),
    (lambda: F.instance_norm(core.randn(2, 3, 4), use_input_stats=False), RuntimeError, "running_mean and running_var to be defined"),
])
def test_errors(call, exc, fragment):
    with pytest.raises(exc, match=fragment):
        call()


def test_batch_norm_then_inplace_activations_backward():
    # batch norm saves only its statistics (not its output), so in-place activations after it
    # (MobileNetV3's BN -> ReLU(inplace) / Hardswish(inplace)) leave its backward valid.
    x = core.randn(4, 3, 5, 5, dtype=core.float64).requires_grad_()
    w = core.ones(3, dtype=core.float64).requires_grad_()
    for act in (F.relu_, lambda t: F.hardswish(t, inplace=True)):
        y = act(F.batch_norm(x, None, None, w, None, True))
        y.sum().backward()
        assert x.grad is not None and w.grad is not None
        x.grad = None
        w.grad = None
    assert gradcheck(lambda t: F.relu_(F.batch_norm(t, None, None, None, None, True)), [x])
