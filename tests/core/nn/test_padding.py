"""F.pad modes with PyTorch 1.8's argument checks, gradients of every mode."""
import numpy as np
import pytest

import core
import core.nn.functional as F
from core import autograd

_rng = np.random.default_rng(6)


def _t(shape, grad=False):
    t = core.tensor(_rng.standard_normal(shape))
    return t.requires_grad_() if grad else t


def test_modes_values():
    x = core.arange(5.).view(1, 1, 5)
    assert F.pad(x, (2, 1), mode="reflect").tolist() == [[[2, 1, 0, 1, 2, 3, 4, 3]]]
    assert F.pad(x, (2, 1), mode="replicate").tolist() == [[[0, 0, 0, 1, 2, 3, 4, 4]]]
    assert F.pad(x, (2, 1), mode="circular").tolist() == [[[3, 4, 0, 1, 2, 3, 4, 0]]]
    assert F.pad(x, (1, 1), value=7).tolist() == [[[7, 0, 1, 2, 3, 4, 7]]]
    assert F.pad(x, (-1, 1)).tolist() == [[[1, 2, 3, 4, 0]]]


@pytest.mark.parametrize("call,kind,fragment", [
    (lambda: F.pad(core.zeros(1, 1, 4), (1,)), RuntimeError, "divisible by 2"),
    (lambda: F.pad(core.zeros(4), (1, 1, 1, 1)), RuntimeError, "less than or equal to two times the input dimension"),
    (lambda: F.pad(core.zeros(1, 1, 4), (1, 1), mode="reflect", value=1), RuntimeError, "doesn't take in value"),
    (lambda: F.pad(core.zeros(1, 1, 4), (1, 1, 1, 1), mode="reflect"), RuntimeError, "3D tensors expect 2 values"),
    (lambda: F.pad(core.zeros(1, 1, 4, 4), (1, 1), mode="replicate"), RuntimeError, "4D tensors expect 4 values"),
    (lambda: F.pad(core.zeros(4, 4), (1, 1), mode="reflect"), NotImplementedError, "Only 3D, 4D, 5D padding"),
    (lambda: F.pad(core.zeros(1, 1, 3), (3, 0), mode="reflect"), RuntimeError, "Padding size should be less than"),
    (lambda: F.pad(core.zeros(1, 1, 3), (1, 1), mode="wrap"), NotImplementedError, "wrap"),
])
def test_errors(call, kind, fragment):
    with pytest.raises(kind, match=fragment):
        call()


@pytest.mark.parametrize("shape,pad,mode", [((1, 2, 5), (2, 1), "reflect"), ((1, 2, 4, 5), (1, 2, 3, 0), "reflect"),
                                            ((1, 2, 4), (2, 3), "replicate"), ((1, 1, 3, 4), (2, 0, 1, 3), "replicate"),
                                            ((1, 1, 2, 3, 3), (1, 1, 0, 1, 2, 1), "replicate"),
                                            ((1, 1, 3, 4), (1, 2, 2, 1), "circular"), ((1, 2, 3, 4), (1, -1, 2, 0), "constant")])
def test_gradients(shape, pad, mode):
    x = _t(shape, grad=True)
    assert autograd.gradcheck(lambda t: F.pad(t, pad, mode), (x,))
    assert autograd.gradgradcheck(lambda t: F.pad(t, pad, mode), (x,))


# ---------------------------------------------------------------- modules

import core.nn as nn  # noqa: E402


@pytest.mark.parametrize("module,expected,mode", [
    (lambda: nn.ConstantPad1d(2, 3.5), "ConstantPad1d(padding=(2, 2), value=3.5)", "constant"),
    (lambda: nn.ConstantPad2d((1, 2, 0, 1), 1.0), "ConstantPad2d(padding=(1, 2, 0, 1), value=1.0)", "constant"),
    (lambda: nn.ConstantPad3d(1, 0.5), "ConstantPad3d(padding=(1, 1, 1, 1, 1, 1), value=0.5)", "constant"),
    (lambda: nn.ZeroPad2d(2), "ZeroPad2d(padding=(2, 2, 2, 2), value=0.0)", "constant"),
    (lambda: nn.ReflectionPad1d(2), "ReflectionPad1d((2, 2))", "reflect"),
    (lambda: nn.ReflectionPad2d((1, 0, 2, 1)), "ReflectionPad2d((1, 0, 2, 1))", "reflect"),
    (lambda: nn.ReplicationPad1d(1), "ReplicationPad1d((1, 1))", "replicate"),
    (lambda: nn.ReplicationPad2d(1), "ReplicationPad2d((1, 1, 1, 1))", "replicate"),
    (lambda: nn.ReplicationPad3d(1), "ReplicationPad3d((1, 1, 1, 1, 1, 1))", "replicate"),
])
def test_modules(module, expected, mode):
    m = module()
    assert repr(m) == expected
    n = len(m.padding) // 2
    x = _t((1, 2) + (3, 4, 5)[:n])
    value = getattr(m, "value", 0)
    ref = F.pad(x, m.padding, mode, value) if mode == "constant" else F.pad(x, m.padding, mode)
    np.testing.assert_array_equal(m(x).numpy(), ref.numpy())


def test_channels_last_kept():
    x = _t((2, 3, 4, 5)).contiguous(memory_format=core.channels_last)
    for mode in ("constant", "reflect", "replicate"):
        assert F.pad(x, (1, 1, 2, 0), mode).is_contiguous(memory_format=core.channels_last)
    assert F.pad(x, (1, 1, 2, 0), "circular").is_contiguous()
