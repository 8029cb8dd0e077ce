"""embedding / embedding_bag / one_hot: padding_idx, max_norm, scale_grad_by_freq, bag forms,
errors naming the op, gradients."""
import numpy as np
import pytest

import core
import core.nn.functional as F
from core import autograd

_rng = np.random.default_rng(7)


def _w(shape, grad=True):
    t = core.tensor(_rng.standard_normal(shape))
    return t.requires_grad_() if grad else t


def test_padding_idx_gets_no_gradient():
    w = _w((5, 3))
    idx = core.tensor([[0, 2, 2], [4, 2, 1]])
    F.embedding(idx, w, padding_idx=2).sum().backward()
    g = w.grad.numpy()
    assert not g[2].any() and g[0].tolist() == [1, 1, 1] and g[3].tolist() == [0, 0, 0]
    w.grad = None
    F.embedding(idx, w, padding_idx=-3).sum().backward()  # -3 is row 2
    assert not w.grad.numpy()[2].any()


def test_scale_grad_by_freq():
    w = _w((4, 2))
    F.embedding(core.tensor([1, 1, 1, 3]), w, scale_grad_by_freq=True).sum().backward()
    assert w.grad.tolist() == [[0, 0], [1, 1], [0, 0], [1, 1]]


def test_max_norm_renormalises_in_place():
    w = core.tensor([[3.0, 4.0], [0.3, 0.4], [6.0, 8.0]])
    version = w._version
    out = F.embedding(core.tensor([0, 1, 0]), w, max_norm=1.0)
    np.testing.assert_allclose(w.numpy()[0], [0.6, 0.8], atol=1e-6)
    np.testing.assert_allclose(w.numpy()[1], [0.3, 0.4])
    np.testing.assert_allclose(w.numpy()[2], [6.0, 8.0])  # not looked up: untouched
    np.testing.assert_allclose(out.numpy()[2], [0.6, 0.8], atol=1e-6)
    assert w._version > version


@pytest.mark.parametrize("call,kind,fragment", [
    (lambda: F.embedding(core.tensor([0.0]), _w((3, 2))), RuntimeError, "embedding.*Long, Int"),
    (lambda: F.embedding(core.tensor([3]), _w((3, 2))), IndexError, "out of range|out of bounds"),
    (lambda: F.embedding(core.tensor([0]), _w((3, 2)), padding_idx=3), AssertionError, "Padding_idx must be within"),
    (lambda: F.embedding(core.tensor([0]), _w((3, 2)), sparse=True), NotImplementedError, "sparse"),
    (lambda: F.embedding_bag(core.tensor([0, 1]), _w((3, 2))), ValueError, "offsets has to be a 1D Tensor but got None"),
    (lambda: F.embedding_bag(core.tensor([[0, 1]]), _w((3, 2)), core.tensor([0])), ValueError, "if input is 2D"),
    (lambda: F.embedding_bag(core.tensor([0, 1]), _w((3, 2)), core.tensor([0]), mode="median"), ValueError,
     "mode has to be one of sum, mean or max"),
    (lambda: F.embedding_bag(core.tensor([0, 1]), _w((3, 2)), core.tensor([0]), mode="max", scale_grad_by_freq=True),
     ValueError, "max mode does not support scaling"),
    (lambda: F.embedding_bag(core.tensor([0, 1]), _w((3, 2)), core.tensor([0]), per_sample_weights=core.ones(2)),
     NotImplementedError, "per_sample_weights is only supported for mode='sum'"),
    (lambda: F.embedding_bag(core.tensor([0, 1]), _w((3, 2)), core.tensor([1])), RuntimeError, "offsets\\[0\\] has to be 0"),
    (lambda: F.embedding_bag(core.tensor([0, 5]), _w((3, 2)), core.tensor([0])), IndexError, "embedding_bag"),
    (lambda: F.one_hot(core.tensor([0.0])), RuntimeError, "one_hot is only applicable to index tensor"),
    (lambda: F.one_hot(core.tensor([-1])), RuntimeError, "Class values must be non-negative"),
    (lambda: F.one_hot(core.tensor([3]), 3), RuntimeError, "Class values must be smaller than num_classes"),
    (lambda: F.one_hot(core.zeros(0, dtype=core.int64)), RuntimeError, "Can not infer total number of classes"),
])
def test_errors(call, kind, fragment):
    with pytest.raises(kind, match=fragment):
        call()


def test_bag_forms():
    w = _w((6, 2), grad=False)
    idx2 = core.tensor([[0, 1, 2], [3, 4, 5]])
    flat = F.embedding_bag(idx2.reshape(-1), w, core.tensor([0, 3]), mode="sum")
    np.testing.assert_allclose(F.embedding_bag(idx2, w, mode="sum").numpy(), flat.numpy())
    last = F.embedding_bag(idx2.reshape(-1), w, core.tensor([0, 3, 6]), mode="sum", include_last_offset=True)
    np.testing.assert_allclose(last.numpy(), flat.numpy())
    empty = F.embedding_bag(core.tensor([1, 2]), w, core.tensor([0, 0, 2]), mode="max")
    assert empty.numpy()[0].tolist() == [0, 0] and empty.shape == (3, 2)


@pytest.mark.parametrize("kw", [dict(mode="sum"), dict(mode="mean"), dict(mode="max"),
                                dict(mode="mean", padding_idx=1)])
def test_bag_gradients(kw):
    w = _w((6, 3))
    idx, off = core.tensor([0, 1, 4, 1, 5, 3, 0]), core.tensor([0, 2, 2, 5])
    assert autograd.gradcheck(lambda t: F.embedding_bag(idx, t, off, **kw), (w,))
    if kw["mode"] != "max":
        assert autograd.gradgradcheck(lambda t: F.embedding_bag(idx, t, off, **kw), (w,))
    psw = core.tensor(_rng.standard_normal(7)).requires_grad_()
    assert autograd.gradcheck(lambda t, p: F.embedding_bag(idx, t, off, mode="sum", per_sample_weights=p), (w, psw))


def test_bag_scale_grad_by_freq():
    # Each index's gradient is divided by its count in the batch (not the true derivative).
    w = _w((4, 2))
    F.embedding_bag(core.tensor([1, 1, 2]), w, core.tensor([0, 2]), mode="sum", scale_grad_by_freq=True).sum().backward()
    assert w.grad.tolist() == [[0, 0], [1, 1], [1, 1], [0, 0]]


def test_embedding_double_backward():
    w = _w((5, 3))
    idx = core.tensor([[1, 1, 4], [0, 2, 1]])
    for kw in ({}, dict(padding_idx=1), dict(scale_grad_by_freq=True)):
        assert autograd.gradgradcheck(lambda t: F.embedding(idx, t, **kw), (w,))


def test_one_hot_values():
    assert F.one_hot(core.tensor([2, 0])).tolist() == [[0, 0, 1], [1, 0, 0]]
    assert F.one_hot(core.tensor([[1]]), 3).dtype == core.int64


# ---------------------------------------------------------------- modules

import core.nn as nn  # noqa: E402


def test_embedding_module():
    core.manual_seed(0)
    e = nn.Embedding(10, 3, padding_idx=-2)
    assert repr(e) == "Embedding(10, 3, padding_idx=8)"
    assert list(e.state_dict().keys()) == ["weight"] and isinstance(e.weight, nn.Parameter)
    assert not e.weight.detach().numpy()[8].any()
    out = e(core.tensor([[8, 1]]))
    out.sum().backward()
    assert not e.weight.grad.numpy()[8].any()
    assert repr(nn.Embedding(4, 2, max_norm=1.0, norm_type=1.0, scale_grad_by_freq=True)) == \
        "Embedding(4, 2, max_norm=1.0, norm_type=1.0, scale_grad_by_freq=True)"
    with pytest.raises(AssertionError, match="Padding_idx must be within num_embeddings"):
        nn.Embedding(3, 2, padding_idx=3)


def test_from_pretrained():
    w = core.tensor([[1.0, 2.0], [3.0, 4.0]])
    e = nn.Embedding.from_pretrained(w)
    assert not e.weight.requires_grad and e(core.tensor([1])).tolist() == [[3.0, 4.0]]
    assert nn.Embedding.from_pretrained(w, freeze=False).weight.requires_grad
    b = nn.EmbeddingBag.from_pretrained(w, mode="sum")
    assert b(core.tensor([[0, 1]])).tolist() == [[4.0, 6.0]]
    with pytest.raises(AssertionError, match="2-dimensional"):
        nn.Embedding.from_pretrained(core.ones(3))


def test_embedding_bag_module():
    b = nn.EmbeddingBag(10, 3, mode="max")
    assert repr(b) == "EmbeddingBag(10, 3, mode=max)"
    assert b(core.tensor([1, 2, 3]), core.tensor([0, 1])).shape == (2, 3)
    w = b.weight.detach().numpy()
    np.testing.assert_allclose(b(core.tensor([1, 2, 3]), core.tensor([0, 1])).detach().numpy()[1],
                               np.maximum(w[2], w[3]))


def test_default_init_statistics():
    core.manual_seed(1)
    w = nn.Embedding(500, 64).weight.detach().numpy()
    assert abs(w.mean()) < 0.02 and abs(w.std() - 1.0) < 0.02
