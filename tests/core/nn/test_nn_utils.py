"""nn.utils: gradient clipping, parameter vectors, weight_norm, spectral_norm, conv-bn fusion."""
import copy
import math
import pickle

import numpy as np
import pytest

import core
import core.nn as nn
from core.nn import Parameter
from core.nn.utils import (clip_grad_norm_, clip_grad_value_, fuse_conv_bn_eval, fuse_conv_bn_weights,
                           parameters_to_vector, remove_spectral_norm, remove_weight_norm, spectral_norm,
                           vector_to_parameters, weight_norm)


def _params_with_grads(rng, shapes=((3, 4), (5,))):
    params = []
    for shape in shapes:
        p = Parameter(core.tensor(rng.standard_normal(shape)))
        p.grad = core.tensor(rng.standard_normal(shape))
        params.append(p)
    return params


@pytest.mark.parametrize("norm_type", [2.0, 1, 3.5, math.inf])
def test_clip_grad_norm(rng, norm_type):
    params = _params_with_grads(rng)
    grads = [p.grad.numpy().copy() for p in params]
    flat = np.concatenate([g.ravel() for g in grads])
    expected = np.abs(flat).max() if norm_type == math.inf else (np.abs(flat) ** norm_type).sum() ** (1 / norm_type)
    total = clip_grad_norm_(params, 0.5, norm_type)
    assert np.isclose(total.item(), expected)
    coef = 0.5 / (expected + 1e-6)
    for p, g in zip(params, grads):
        assert np.allclose(p.grad.numpy(), g * coef)
    # Under the limit: untouched.
    params = _params_with_grads(rng)
    before = [p.grad.numpy().copy() for p in params]
    clip_grad_norm_(params, 1e6, norm_type)
    assert all(np.array_equal(p.grad.numpy(), b) for p, b in zip(params, before))


def test_clip_grad_norm_edge_cases(rng):
    p = _params_with_grads(rng, ((4,),))[0]
    g = p.grad.numpy().copy()
    assert np.isclose(clip_grad_norm_(p, 1e6).item(), np.linalg.norm(g))  # a single tensor
    assert clip_grad_norm_([Parameter(core.ones(2))], 1.0).item() == 0.0  # no grads
    bad = Parameter(core.ones(2))
    bad.grad = core.tensor([1.0, float("inf")])
    with pytest.raises(RuntimeError, match="The total norm of order 2.0 for gradients from `parameters` is non-finite"):
        clip_grad_norm_([bad], 1.0, error_if_nonfinite=True)
    assert math.isinf(clip_grad_norm_([bad], 1.0).item())
    with pytest.warns(UserWarning, match="clip_grad_norm is now deprecated"):
        nn.utils.clip_grad_norm([p], 1.0)


def test_clip_grad_value(rng):
    params = _params_with_grads(rng)
    grads = [p.grad.numpy().copy() for p in params]
    clip_grad_value_(params, 0.3)
    for p, g in zip(params, grads):
        assert np.allclose(p.grad.numpy(), np.clip(g, -0.3, 0.3))
    clip_grad_value_(Parameter(core.ones(1)), 1)  # no grad: nothing to do


def test_parameters_vector_roundtrip():
    m = nn.Linear(3, 2)
    vec = parameters_to_vector(m.parameters())
    assert vec.shape == (8,)
    assert np.allclose(vec.detach().numpy()[:6], m.weight.detach().numpy().ravel())
    vector_to_parameters(core.arange(8.0), m.parameters())
    assert m.weight.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]] and m.bias.tolist() == [6.0, 7.0]
    assert type(m.weight) is Parameter and m.weight.requires_grad
    (parameters_to_vector(m.parameters()) * 2).sum().backward()
    assert np.allclose(m.bias.grad.numpy(), 2)
    with pytest.raises(TypeError, match="expected torch.Tensor, but got: list"):
        vector_to_parameters([1.0], m.parameters())


@pytest.mark.parametrize("dim", [0, 1, None, -1])
def test_weight_norm(dim):
    m = nn.Linear(4, 3)
    w = m.weight.detach().numpy().copy()
    weight_norm(m, dim=dim)
    assert list(m.state_dict()) == ["bias", "weight_g", "weight_v"]
    g = m.weight_g.detach().numpy()
    if dim == 0:
        assert g.shape == (3, 1) and np.allclose(g[:, 0], np.linalg.norm(w, axis=1))
    elif dim == 1:
        assert g.shape == (1, 4) and np.allclose(g[0], np.linalg.norm(w, axis=0))
    else:
        assert g.shape == () and np.isclose(g, np.linalg.norm(w))
    x = core.ones(2, 4)
    assert np.allclose(m(x).detach().numpy(), x.numpy() @ w.T + m.bias.detach().numpy(), atol=1e-6)
    with core.no_grad():
        m.weight_g.mul_(2)
    out = m(x)
    assert np.allclose(out.detach().numpy(), x.numpy() @ (2 * w).T + m.bias.detach().numpy(), atol=1e-5)
    out.sum().backward()
    assert m.weight_g.grad is not None and m.weight_v.grad is not None
    with pytest.raises(RuntimeError, match="Cannot register two weight_norm hooks on the same parameter weight"):
        weight_norm(m)
    clone = pickle.loads(pickle.dumps(m))
    assert np.allclose(clone(x).detach().numpy(), out.detach().numpy())
    remove_weight_norm(m)
    assert list(m.state_dict()) == ["bias", "weight"] and type(m.weight) is Parameter
    assert np.allclose(m.weight.detach().numpy(), 2 * w, atol=1e-5)
    with pytest.raises(ValueError, match="weight_norm of 'weight' not found in Linear"):
        remove_weight_norm(m)


def test_spectral_norm():
    core.manual_seed(0)
    m = nn.Linear(6, 4)
    w = m.weight.detach().numpy().copy()
    spectral_norm(m, n_power_iterations=30)
    sd = m.state_dict()
    assert list(sd) == ["bias", "weight_orig", "weight_u", "weight_v"]
    assert sd._metadata[""]["spectral_norm"] == {"weight.version": 1}
    assert m.weight_u.shape == (4,) and m.weight_v.shape == (6,)
    out = m(core.ones(2, 6))
    sigma = np.linalg.svd(w, compute_uv=False)[0]
    assert np.allclose(m.weight.detach().numpy(), w / sigma, atol=1e-5)
    out.sum().backward()
    assert m.weight_orig.grad is not None
    # eval: no power iteration, u and v stay
    u = m.weight_u.numpy().copy()
    m.eval()
    m(core.ones(1, 6))
    assert np.array_equal(m.weight_u.numpy(), u)
    m2 = spectral_norm(nn.Linear(6, 4))
    m2.load_state_dict(m.state_dict())
    assert np.array_equal(m2.weight_u.numpy(), u)
    with pytest.raises(RuntimeError, match="Cannot register two spectral_norm hooks"):
        spectral_norm(m)
    with pytest.raises(ValueError, match="Expected n_power_iterations to be positive, but got n_power_iterations=0"):
        spectral_norm(nn.Linear(2, 2), n_power_iterations=0)
    remove_spectral_norm(m)
    assert list(m.state_dict()) == ["bias", "weight"] and not m._state_dict_hooks
    assert np.allclose(m.weight.detach().numpy(), w / sigma, atol=1e-5)
    with pytest.raises(ValueError, match="spectral_norm of 'weight' not found"):
        remove_spectral_norm(m)


def test_spectral_norm_dim_and_legacy_checkpoint():
    m = nn.Bilinear(3, 4, 5)
    spectral_norm(m, dim=1)
    assert m.weight_u.shape == (3,) and m.weight_v.shape == (20,)
    # A version-0 checkpoint (weight, weight_orig, weight_u; no weight_v) gets its v solved.
    lin = spectral_norm(nn.Linear(5, 3))
    lin(core.ones(1, 5))
    sd = lin.state_dict()
    sd._metadata[""].pop("spectral_norm")
    sd["weight"] = lin.weight.detach()
    del sd["weight_v"]
    fresh = spectral_norm(nn.Linear(5, 3))
    fresh.load_state_dict(sd)
    fresh.eval()
    assert np.allclose(fresh(core.ones(1, 5)).detach().numpy(), lin.eval()(core.ones(1, 5)).detach().numpy(), atol=1e-4)


class _StandInConv(nn.Module):
    """A 1x1 convolution over (N, C, L) written with einsum (Conv classes land elsewhere)."""

    def __init__(self, cin, cout, bias=True):
        super().__init__()
        self.weight = Parameter(core.randn(cout, cin, 1))
        self.bias = Parameter(core.randn(cout)) if bias else None

    def forward(self, x):
        out = core.einsum("oi,bil->bol", self.weight[:, :, 0], x)
        return out if self.bias is None else out + self.bias.view(1, -1, 1)


class _StandInBN(nn.Module):
    def __init__(self, c, affine=True):
        super().__init__()
        self.eps = 1e-5
        self.weight = Parameter(core.rand(c) + 0.5) if affine else None
        self.bias = Parameter(core.randn(c)) if affine else None
        self.register_buffer("running_mean", core.randn(c))
        self.register_buffer("running_var", core.rand(c) + 0.5)

    def forward(self, x):
        shape = (1, -1, 1)
        out = (x - self.running_mean.view(shape)) / (self.running_var.view(shape) + self.eps).sqrt()
        return out if self.weight is None else out * self.weight.view(shape) + self.bias.view(shape)


@pytest.mark.parametrize("conv_bias,affine", [(True, True), (False, True), (True, False)])
def test_fuse_conv_bn_eval(conv_bias, affine):
    conv, bn = _StandInConv(3, 4, conv_bias).eval(), _StandInBN(4, affine).eval()
    x = core.randn(2, 3, 5)
    expected = bn(conv(x)).detach().numpy()
    fused = fuse_conv_bn_eval(conv, bn)
    assert fused is not conv and type(fused.weight) is Parameter and type(fused.bias) is Parameter
    assert np.allclose(fused(x).detach().numpy(), expected, atol=1e-5)
    assert conv.bias is None or conv.bias is not fused.bias
    with pytest.raises(AssertionError, match="Fusion only for eval!"):
        fuse_conv_bn_eval(conv.train(), bn)


def test_fuse_conv_bn_weights_generic_shapes():
    w, rm, rv = core.randn(4, 2, 3, 3, 3), core.randn(4), core.rand(4) + 0.1
    fw, fb = fuse_conv_bn_weights(w, None, rm, rv, 1e-3, None, None)
    scale = 1 / np.sqrt(rv.numpy() + 1e-3)
    assert np.allclose(fw.detach().numpy(), w.numpy() * scale.reshape(-1, 1, 1, 1, 1), atol=1e-6)
    assert np.allclose(fb.detach().numpy(), -rm.numpy() * scale, atol=1e-6)
    assert fw.is_leaf and fw.requires_grad
