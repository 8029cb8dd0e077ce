"""Helpers of torch.nn.modules.utils: an int (or a sequence) as an n-tuple, and stripping a
prefix (such as DistributedDataParallel's `module.`) from a state_dict's keys."""
from itertools import repeat

__all__ = ["consume_prefix_in_state_dict_if_present"]


def _ntuple(n):
    def parse(x):
        if isinstance(x, (list, tuple)):
            return tuple(x)
        return tuple(repeat(x, n))
    return parse


_single = _ntuple(1)
_pair = _ntuple(2)
_triple = _ntuple(3)
_quadruple = _ntuple(4)


def consume_prefix_in_state_dict_if_present(state_dict, prefix):
    """Strips `prefix` from the keys of `state_dict` (and of its `_metadata`) that start with it, in
    place: a checkpoint saved from a DistributedDataParallel then loads into the plain module."""
    for key in [k for k in state_dict if k.startswith(prefix)]:
        state_dict[key[len(prefix):]] = state_dict.pop(key)
    metadata = getattr(state_dict, "_metadata", None)
    if metadata is not None:
        for key in [k for k in metadata if k.startswith(prefix) or k == prefix.rstrip(".")]:
            stripped = "" if key == prefix.rstrip(".") else key[len(prefix):]
            metadata[stripped] = metadata.pop(key)
