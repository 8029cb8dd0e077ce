"""F.normalize, cosine_similarity and pairwise_distance (PyTorch 1.8's eps semantics)."""
import numpy as np
import pytest

import core
import core.nn.functional as F
from core.autograd import gradcheck, gradgradcheck


def _pair(shape=(4, 5), seed=0):
    r = np.random.default_rng(seed)
    return r.normal(size=shape), r.normal(size=shape)


@pytest.mark.parametrize("p", [1.0, 2.0, 3.0])
def test_pairwise_distance_adds_eps_to_the_difference(p):
    a, b = _pair()
    ref = (np.abs(a - b + 1e-6) ** p).sum(-1) ** (1 / p)
    np.testing.assert_allclose(F.pairwise_distance(core.tensor(a), core.tensor(b), p).numpy(), ref, rtol=1e-12)
    out = F.pairwise_distance(core.tensor(a), core.tensor(b), p, keepdim=True)
    assert out.shape == (4, 1)
    z = F.pairwise_distance(core.zeros(2, 3), core.zeros(2, 3))
    np.testing.assert_allclose(z.numpy(), np.sqrt(3) * 1e-6, rtol=1e-5)


def test_pairwise_distance_broadcasts_and_1d():
    a, b = _pair((3,))
    np.testing.assert_allclose(F.pairwise_distance(core.tensor(a), core.tensor(b)).numpy(),
                               np.linalg.norm(a - b + 1e-6), rtol=1e-12)
    c, d = _pair((4, 3))
    np.testing.assert_allclose(F.pairwise_distance(core.tensor(c), core.tensor(d[:1])).numpy(),
                               np.linalg.norm(c - d[:1] + 1e-6, axis=-1), rtol=1e-12)


def test_cosine_similarity_clamps_the_product_of_norms():
    a, b = _pair()
    ref = (a * b).sum(1) / np.sqrt(np.maximum((a * a).sum(1) * (b * b).sum(1), 1e-16))
    np.testing.assert_allclose(F.cosine_similarity(core.tensor(a), core.tensor(b)).numpy(), ref, rtol=1e-12)
    zero = F.cosine_similarity(core.zeros(2, 3), core.ones(2, 3))
    np.testing.assert_array_equal(zero.numpy(), [0.0, 0.0])
    assert F.cosine_similarity(core.tensor(a), core.tensor(b), dim=0).shape == (5,)


def test_normalize():
    a, _ = _pair()
    ref = a / np.maximum(np.linalg.norm(a, axis=1, keepdims=True), 1e-12)
    np.testing.assert_allclose(F.normalize(core.tensor(a)).numpy(), ref, rtol=1e-12)
    ref1 = a / np.abs(a).sum(0, keepdims=True)
    np.testing.assert_allclose(F.normalize(core.tensor(a), p=1, dim=0).numpy(), ref1, rtol=1e-12)
    np.testing.assert_array_equal(F.normalize(core.zeros(2, 3)).numpy(), np.zeros((2, 3)))
    out = core.empty(4, 5, dtype=core.float64)
    assert F.normalize(core.tensor(a), out=out) is out


@pytest.mark.parametrize("fn", [
    lambda x, y: F.pairwise_distance(x, y),
    lambda x, y: F.pairwise_distance(x, y, 3.0),
    lambda x, y: F.cosine_similarity(x, y),
    lambda x, y: F.normalize(x) * y,
])
def test_gradients(fn):
    a, b = _pair((3, 4))
    inputs = [core.tensor(a).requires_grad_(), core.tensor(b).requires_grad_()]
    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)
