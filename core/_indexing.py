"""Python-level functions of the views and indexing family."""
import builtins

from core._native import _C


def split(tensor, split_size_or_sections, dim=0):
    """Splits `tensor` into pieces of `split_size_or_sections` elements along `dim` (an index or
    a dim name; the last piece may be smaller), or into pieces of the listed sizes."""
    if isinstance(split_size_or_sections, (builtins.list, builtins.tuple)):
        return _C._functions["split_with_sizes"](tensor, split_size_or_sections, dim)
    return _C._functions["split"](tensor, split_size_or_sections, dim)
