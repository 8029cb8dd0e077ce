"""torch.nn.functional.pad (PyTorch 1.8 semantics) on the core's pad op."""
import core
from core._native import _C

__all__ = ["pad"]

_pad_op = _C._functions["pad"]


def _keep_layout(out, input, mode):
    # Like PyTorch, constant / reflect / replicate padding of a channels-last batch stays
    # channels-last (circular padding does not).
    if mode != "circular" and input.dim() == 4 and not input.is_contiguous() \
            and input.is_contiguous(memory_format=core.channels_last):
        return out.contiguous(memory_format=core.channels_last)
    return out


def pad(input, pad, mode="constant", value=0):
    assert len(pad) % 2 == 0, "Padding length must be divisible by 2"
    assert len(pad) // 2 <= input.dim(), "Padding length too large"
    if mode == "constant":
        return _keep_layout(_pad_op(input, list(pad), "constant", float(value)), input, mode)
    assert value == 0, 'Padding mode "{}"" doesn\'t take in value argument'.format(mode)
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError("Unrecognised padding mode {}".format(mode))
    if input.dim() == 3:
        assert len(pad) == 2, "3D tensors expect 2 values for padding"
    elif input.dim() == 4:
        assert len(pad) == 4, "4D tensors expect 4 values for padding"
    elif input.dim() == 5:
        assert len(pad) == 6, "5D tensors expect 6 values for padding"
    else:
        raise NotImplementedError("Only 3D, 4D, 5D padding with non-constant padding are supported for now")
    return _keep_layout(_pad_op(input, list(pad), mode), input, mode)
