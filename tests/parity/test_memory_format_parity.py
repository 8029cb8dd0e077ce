"""Channels-last strides and layout propagation against PyTorch."""
import numpy as np
import pytest

import core

torch = pytest.importorskip("torch")

SHAPES = [(2, 3, 4, 5), (1, 8, 1, 1), (3, 1, 5, 2), (2, 3, 1, 4)]


@pytest.mark.parametrize("shape", SHAPES)
def test_strides_and_flags(shape):
    a = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    ours = core.from_numpy(a).contiguous(memory_format=core.channels_last)
    theirs = torch.from_numpy(a).contiguous(memory_format=torch.channels_last)
    assert ours.stride() == theirs.stride()
    assert ours.is_contiguous() == theirs.is_contiguous()
    assert ours.is_contiguous(memory_format=core.channels_last) == theirs.is_contiguous(memory_format=torch.channels_last)
    for op in ("exp", "clone", "neg"):
        assert getattr(ours, op)().stride() == getattr(theirs, op)().stride(), op
    assert (ours * 2).stride() == (theirs * 2).stride()
    assert core.empty_like(ours).stride() == torch.empty_like(theirs).stride()
