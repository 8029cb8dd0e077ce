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
    (lambda: F.pad(core.zeros(1, 1, 4), (1,)), AssertionError, "divisible by 2"),
    (lambda: F.pad(core.zeros(4), (1, 1, 1, 1)), AssertionError, "Padding length too large"),
    (lambda: F.pad(core.zeros(1, 1, 4), (1, 1), mode="reflect", value=1), AssertionError, "doesn't take in value"),
    (lambda: F.pad(core.zeros(1, 1, 4), (1, 1, 1, 1), mode="reflect"), AssertionError, "3D tensors expect 2 values"),
    (lambda: F.pad(core.zeros(1, 1, 4, 4), (1, 1), mode="replicate"), AssertionError, "4D tensors expect 4 values"),
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
