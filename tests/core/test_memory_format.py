"""Memory formats: channels-last layout, conversions, and layout kept through elementwise ops."""
import pickle

import numpy as np
import pytest

import core


def nchw(*shape, seed=0):
    return core.from_numpy(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


def test_objects_and_pickle():
    assert repr(core.channels_last) == "core.channels_last"
    assert isinstance(core.contiguous_format, core.memory_format)
    for f in (core.contiguous_format, core.preserve_format, core.channels_last, core.channels_last_3d):
        assert pickle.loads(pickle.dumps(f)) is f


def test_contiguous_channels_last_strides_and_values():
    x = nchw(2, 3, 4, 5)
    y = x.contiguous(memory_format=core.channels_last)
    assert y.stride() == (60, 1, 15, 3)
    assert y.is_contiguous(memory_format=core.channels_last) and not y.is_contiguous()
    np.testing.assert_array_equal(y.numpy(), x.numpy())
    assert y.contiguous(memory_format=core.channels_last) is y  # already in that layout
    assert np.shares_memory(y.contiguous().numpy(), y.numpy()) is False


def test_channels_last_3d():
    x = nchw(2, 3, 4, 5, 6)
    y = x.contiguous(memory_format=core.channels_last_3d)
    assert y.stride() == (360, 1, 90, 18, 3)
    assert y.is_contiguous(memory_format=core.channels_last_3d)


def test_size_one_dims_are_both_layouts():
    x = nchw(4, 8, 1, 1)
    assert x.is_contiguous() and x.is_contiguous(memory_format=core.channels_last)


def test_rank_errors_name_the_op():
    with pytest.raises(RuntimeError, match=r"contiguous\(\).*rank 4.*channels_last"):
        nchw(2, 3).contiguous(memory_format=core.channels_last)
    with pytest.raises(RuntimeError, match="rank 5"):
        core.empty(2, 3, 4, 5, memory_format=core.channels_last_3d)
    with pytest.raises(TypeError):
        nchw(2, 3).contiguous(memory_format="channels_last")


def test_factories_and_like():
    e = core.empty(2, 3, 4, 5, memory_format=core.channels_last)
    assert e.is_contiguous(memory_format=core.channels_last)
    y = nchw(2, 3, 4, 5).contiguous(memory_format=core.channels_last)
    for like in (core.empty_like(y), core.zeros_like(y), core.ones_like(y), core.full_like(y, 2.0)):
        assert like.stride() == y.stride()
    assert core.zeros_like(y, memory_format=core.contiguous_format).is_contiguous()


def test_clone_and_to_preserve_layout():
    y = nchw(2, 3, 4, 5).contiguous(memory_format=core.channels_last)
    assert y.clone().stride() == y.stride()
    assert y.clone(memory_format=core.contiguous_format).is_contiguous()
    assert y.to(core.float64).stride() == y.stride()
    x = nchw(2, 3, 4, 5)
    assert x.to(memory_format=core.channels_last).is_contiguous(memory_format=core.channels_last)


@pytest.mark.parametrize("op", [lambda t: t.exp(), lambda t: t * 2 + 1, lambda t: t.clamp(-1, 1),
                                lambda t: core.lerp(t, t * 0, 0.5), lambda t: t + core.ones(5)])
def test_elementwise_keeps_channels_last(op):
    x = nchw(2, 3, 4, 5)
    y = x.contiguous(memory_format=core.channels_last)
    out = op(y)
    assert out.is_contiguous(memory_format=core.channels_last)
    np.testing.assert_allclose(out.numpy(), op(x).numpy(), rtol=1e-6)


def test_contiguous_backward_passes_gradient():
    x = nchw(2, 3, 4, 5).double().requires_grad_()
    y = x.contiguous(memory_format=core.channels_last)
    (y * y).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * x.detach().numpy())


def test_reshape_of_channels_last_copies_when_no_view_exists():
    x = nchw(2, 3, 4, 5)
    y = x.contiguous(memory_format=core.channels_last)
    out = y.reshape(6, 20)
    assert out.is_contiguous()
    np.testing.assert_array_equal(out.numpy(), x.numpy().reshape(6, 20))
    np.testing.assert_array_equal(y.reshape(-1).numpy(), x.numpy().reshape(-1))
