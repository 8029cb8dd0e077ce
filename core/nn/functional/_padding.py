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
    if len(pad) % 2 != 0:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.dim():
        raise RuntimeError(f"Padding length should be less than or equal to two times the input dimension but "
                           f"got padding length {len(pad)} and input of dimension {input.dim()}")
    if mode == "constant":
        return _keep_layout(_pad_op(input, list(pad), "constant", float(value)), input, mode)
    if value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError("Unrecognised padding mode {}".format(mode))
    expected = {3: 2, 4: 4, 5: 6}.get(input.dim())
    if expected is None:
        raise NotImplementedError("Only 3D, 4D, 5D padding with non-constant padding are supported for now")
    if len(pad) != expected:
        raise RuntimeError(f"{input.dim()}D tensors expect {expected} values for padding")
    return _keep_layout(_pad_op(input, list(pad), mode), input, mode)
