"""repr(tensor) and core.set_printoptions, against hand-written PyTorch-style expectations."""
import math

import numpy as np
import pytest

import core


@pytest.fixture(autouse=True)
def default_printoptions():
    core.set_printoptions(profile="default")
    yield
    core.set_printoptions(profile="default")


@pytest.mark.parametrize("make,expected", [
    (lambda: core.tensor(3.0), "tensor(3.)"),
    (lambda: core.tensor(-0.0), "tensor(-0.)"),
    (lambda: core.tensor(2.5), "tensor(2.5000)"),
    (lambda: core.tensor(7), "tensor(7)"),
    (lambda: core.tensor(True), "tensor(True)"),
    (lambda: core.tensor(1e-5), "tensor(1.0000e-05)"),
    (lambda: core.tensor(math.nan), "tensor(nan)"),
    (lambda: core.tensor([1.0, 2.0, 3.0]), "tensor([1., 2., 3.])"),
    (lambda: core.tensor([1.0, 2.5]), "tensor([1.0000, 2.5000])"),
    (lambda: core.tensor([-1.0, 20.0, -300.0]), "tensor([  -1.,   20., -300.])"),
    (lambda: core.tensor([1.0, 2000.0]), "tensor([1.0000e+00, 2.0000e+03])"),
    (lambda: core.tensor([1e-5, 1.0]), "tensor([1.0000e-05, 1.0000e+00])"),
    (lambda: core.tensor([1e9, 2e9]), "tensor([1.0000e+09, 2.0000e+09])"),
    (lambda: core.tensor([math.nan, 1.0]), "tensor([nan, 1.])"),
    (lambda: core.tensor([math.inf, -math.inf, 1.5]), "tensor([   inf,   -inf, 1.5000])"),
    (lambda: core.tensor([0.0, -0.0, 1.0]), "tensor([0., -0., 1.])"),
    (lambda: core.tensor([0.0, 0.0]), "tensor([0., 0.])"),
    (lambda: core.tensor([1, -22, 333]), "tensor([  1, -22, 333])"),
    (lambda: core.tensor([True, False]), "tensor([ True, False])"),
    (lambda: core.tensor([[1.0, 2.5], [3.0, 4.0]]), "tensor([[1.0000, 2.5000],\n        [3.0000, 4.0000]])"),
    (lambda: core.tensor([[[1, 2]], [[3, 4]]]), "tensor([[[1, 2]],\n\n        [[3, 4]]])"),
    (lambda: core.tensor([1, 2], dtype=core.int32), "tensor([1, 2], dtype=core.int32)"),
    (lambda: core.tensor([1, 2], dtype=core.uint8), "tensor([1, 2], dtype=core.uint8)"),
    (lambda: core.tensor([1.0, 2.0], dtype=core.float64), "tensor([1., 2.], dtype=core.float64)"),
    (lambda: core.tensor([1.5, 2.0], dtype=core.float16), "tensor([1.5000, 2.0000], dtype=core.float16)"),
    (lambda: core.tensor([1.0, 3.0], dtype=core.bfloat16), "tensor([1., 3.], dtype=core.bfloat16)"),
    (lambda: core.tensor([1 + 2j, -3.5 - 0.5j]), "tensor([ 1.0000+2.0000j, -3.5000-0.5000j])"),
    (lambda: core.tensor([1 + 2j, 3 - 4j]), "tensor([1.+2.j, 3.-4.j])"),
    (lambda: core.tensor(1.5 - 2.25j), "tensor(1.5000-2.2500j)"),
    (lambda: core.tensor([]), "tensor([])"),
    (lambda: core.zeros((0, 3)), "tensor([], size=(0, 3))"),
    (lambda: core.tensor([], dtype=core.int64), "tensor([], dtype=core.int64)"),
    (lambda: core.zeros((2, 0), dtype=core.bool), "tensor([], size=(2, 0), dtype=core.bool)"),
    (lambda: core.arange(10), "tensor([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])"),
])
def test_repr(make, expected):
    assert repr(make()) == expected
    assert str(make()) == expected


def test_line_wrapping_at_80_columns():
    t = core.arange(30.0) / 7
    lines = repr(t).split("\n")
    assert lines[0] == "tensor([0.0000, 0.1429, 0.2857, 0.4286, 0.5714, 0.7143, 0.8571, 1.0000, 1.1429,"
    assert lines[1].startswith("        1.2857,")
    assert all(len(line) <= 80 for line in lines)


def test_summarised_above_threshold():
    assert repr(core.arange(1001)) == "tensor([   0,    1,    2,  ...,  998,  999, 1000])"
    assert repr(core.arange(1000)).count("...") == 0
    text = repr(core.arange(2000).reshape(40, 50))
    assert text.startswith("tensor([[   0,    1,    2,  ...,   47,   48,   49],\n")
    assert "        ...,\n" in text
    assert text.endswith("[1950, 1951, 1952,  ..., 1997, 1998, 1999]])")


def test_printoptions():
    t = core.tensor([1.23456, 2.5])
    core.set_printoptions(precision=2)
    assert repr(t) == "tensor([1.23, 2.50])"
    core.set_printoptions(sci_mode=True)  # precision stays, sci_mode forced
    assert repr(t) == "tensor([1.23e+00, 2.50e+00])"
    core.set_printoptions(profile="default")
    assert repr(t) == "tensor([1.2346, 2.5000])"
    core.set_printoptions(threshold=5)
    assert repr(core.arange(10)) == "tensor([0, 1, 2,  ..., 7, 8, 9])"
    core.set_printoptions(threshold=5, edgeitems=1)
    assert repr(core.arange(10)) == "tensor([0,  ..., 9])"
    core.set_printoptions(profile="full")
    assert "..." not in repr(core.arange(2000))
    core.set_printoptions(profile="short")
    assert core.get_printoptions() == dict(precision=2, threshold=1000, edgeitems=2, linewidth=80, sci_mode=None)
    core.set_printoptions(sci_mode=False)
    assert repr(core.tensor([1e-6, 1.0])) == "tensor([0.00, 1.00])"


def test_linewidth():
    core.set_printoptions(linewidth=20)
    assert repr(core.arange(6)) == "tensor([0, 1, 2, 3,\n        4, 5])"


def test_printoptions_context_restores():
    with core.printoptions(precision=1):
        assert repr(core.tensor([0.25, 1.5])) == "tensor([0.2, 1.5])"
    assert core.get_printoptions()["precision"] == 4


def test_default_dtype_float64():
    try:
        core.set_default_dtype(core.float64)
        assert repr(core.tensor([1.5])) == "tensor([1.5000])"
        assert repr(core.tensor([1.5], dtype=core.float32)) == "tensor([1.5000], dtype=core.float32)"
        assert repr(core.tensor([1j])) == "tensor([0.+1.j])"  # complex128 pairs with float64
        assert repr(core.tensor([1j], dtype=core.complex64)) == "tensor([0.+1.j], dtype=core.complex64)"
        assert repr(core.zeros((0,), dtype=core.float32)) == "tensor([], dtype=core.float32)"
    finally:
        core.set_default_dtype(core.float32)


def test_non_contiguous_and_numpy_backed():
    t = core.tensor([[1, 2, 3], [4, 5, 6]]).transpose(0, 1)
    assert repr(t) == "tensor([[1, 4],\n        [2, 5],\n        [3, 6]])"
    assert repr(core.from_numpy(np.arange(4.0)[::2])) == "tensor([0., 2.], dtype=core.float64)"


def test_suffix_wraps_to_new_line():
    t = core.arange(20, dtype=core.int32) * 1000
    text = repr(t)
    assert text.endswith("18000, 19000],\n       dtype=core.int32)")


def test_tensor_contents_and_subclass_suffixes():
    class Tracked(core.Tensor):
        requires_grad = True

    t = core._C._make_subclass(Tracked, core.tensor([1.0]))
    assert repr(t) == "tensor([1.], requires_grad=True)"
    assert core.tensor([1.0]).__repr__(tensor_contents="[...]") == "tensor([...])"


@pytest.mark.skipif(hasattr(core.Tensor, "dequantize"), reason="the quantization layer prints qtensors")
def test_quantized_repr_without_quantizer_shows_stored_values():
    text = repr(core.empty((2,), dtype=core.quint8))
    assert text.startswith("tensor([") and "size=(2,), dtype=core.quint8" in text
