"""default_collate / default_convert: samples -> batches, as torch.utils.data does.

Tensors and numpy arrays are stacked with one numpy copy per sample (no Python per element);
inside a DataLoader worker the stacked batch is written straight into shared memory.
"""
import collections.abc
import copy
import re

import numpy as np

import core
from core._native import _C
from core.utils.data import _worker

__all__ = ["default_collate", "default_convert", "collate", "default_collate_fn_map"]

# numpy dtypes that cannot become tensors: bytes, str, void, object.
_NON_NUMERIC = re.compile(r"[SaUO]")
default_collate_err_msg_format = ("default_collate: batch must contain tensors, numpy arrays, numbers, "
                                  "dicts or lists; found {}")


def _numpy_dtype(dtype):
    from core._creation import _NUMPY_OF

    return _NUMPY_OF.get(dtype)


def _check_same_shape(shapes):
    first = shapes[0]
    for i, shape in enumerate(shapes):
        if shape != first:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got {list(first)} at entry 0 "
                               f"and {list(shape)} at entry {i}")


def _stack_arrays(arrays):
    # One output allocation (shared memory in a worker) and one copy per sample.
    _check_same_shape([a.shape for a in arrays])
    dtypes = {a.dtype for a in arrays}
    dtype = dtypes.pop() if len(dtypes) == 1 else np.result_type(*dtypes)
    out = _worker.empty_batch((len(arrays),) + arrays[0].shape, dtype)
    for i, a in enumerate(arrays):
        out[i] = a
    return core.from_numpy(out)


def collate_tensor_fn(batch, *, collate_fn_map=None):
    if _numpy_dtype(batch[0].dtype) is not None and all(t.dtype == batch[0].dtype for t in batch):
        return _named_like_stack(_stack_arrays([t.numpy() for t in batch]), batch)
    return core.stack(batch, 0)  # mixed dtypes promote as torch.stack; bfloat16 has no numpy view


def _named_like_stack(out, batch):
    # The names core.stack gives: the samples' names unified, the new batch dim unnamed.
    if any(_C._has_names(t) for t in batch):
        names = batch[0].names
        for t in batch[1:]:
            names = _C._unify_names(names, t.names)
        out.names = (None,) + tuple(names)
    return out


def collate_numpy_array_fn(batch, *, collate_fn_map=None):
    if _NON_NUMERIC.search(batch[0].dtype.str) is not None:
        raise TypeError(default_collate_err_msg_format.format(batch[0].dtype))
    return _stack_arrays(batch)


def collate_numpy_scalar_fn(batch, *, collate_fn_map=None):
    return core.from_numpy(np.asarray(batch))


def collate_float_fn(batch, *, collate_fn_map=None):
    return core.tensor(batch, dtype=core.float64)


def collate_int_fn(batch, *, collate_fn_map=None):
    return core.tensor(batch)


def collate_str_fn(batch, *, collate_fn_map=None):
    return batch


default_collate_fn_map = {
    core.Tensor: collate_tensor_fn,
    np.ndarray: collate_numpy_array_fn,
    (np.bool_, np.number, np.object_): collate_numpy_scalar_fn,
    float: collate_float_fn,
    int: collate_int_fn,  # bool too: torch.tensor([True, False]) is a bool tensor
    str: collate_str_fn,
    bytes: collate_str_fn,
}


def _rebuild_mapping(elem, items):
    # The sample's own mapping type when it can be rebuilt, else a dict.
    try:
        if isinstance(elem, collections.abc.MutableMapping):
            clone = copy.copy(elem)
            clone.update(items)
            return clone
        return type(elem)(items)
    except TypeError:
        return items


def _rebuild_sequence(elem, items):
    try:
        if isinstance(elem, collections.abc.MutableSequence):
            clone = copy.copy(elem)
            for i, item in enumerate(items):
                clone[i] = item
            return clone
        return type(elem)(items)
    except TypeError:
        return items


def collate(batch, *, collate_fn_map=None):
    """Merges a list of samples: the function registered for the first sample's type in
    `collate_fn_map` (exact type first, then isinstance), else recursion into mappings,
    namedtuples and sequences."""
    elem = batch[0]
    elem_type = type(elem)
    if collate_fn_map is not None:
        if elem_type in collate_fn_map:
            return collate_fn_map[elem_type](batch, collate_fn_map=collate_fn_map)
        for collate_type, fn in collate_fn_map.items():
            if isinstance(elem, collate_type):
                return fn(batch, collate_fn_map=collate_fn_map)
    if isinstance(elem, collections.abc.Mapping):
        return _rebuild_mapping(elem, {key: collate([d[key] for d in batch], collate_fn_map=collate_fn_map)
                                       for key in elem})
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # namedtuple
        return elem_type(*(collate(samples, collate_fn_map=collate_fn_map) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        size = len(elem)
        if any(len(sample) != size for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        # Inner batches are tuples, as in torch (a string field collates to a tuple of strings).
        items = [collate(samples, collate_fn_map=collate_fn_map) for samples in zip(*batch)]
        return items if isinstance(elem, tuple) else _rebuild_sequence(elem, items)  # tuples -> lists, as torch
    raise TypeError(default_collate_err_msg_format.format(elem_type))


def default_collate(batch):
    """Stacks tensors, numpy arrays and numbers along a new first dimension (numbers become
    float64 / int64 / bool tensors), keeps strings as lists, and recurses into dicts, lists,
    tuples and namedtuples."""
    return collate(batch, collate_fn_map=default_collate_fn_map)


def default_convert(data):
    """Without batching: numpy arrays and numpy scalars become tensors (sharing memory);
    containers are converted element by element; everything else is returned as is."""
    elem_type = type(data)
    if isinstance(data, core.Tensor):
        return data
    if elem_type.__module__ == "numpy" and elem_type.__name__ not in ("str_", "bytes_", "string_"):
        if isinstance(data, np.ndarray) and _NON_NUMERIC.search(data.dtype.str) is not None:
            return data
        return core.as_tensor(data) if isinstance(data, np.ndarray) else core.from_numpy(np.asarray(data))
    if isinstance(data, collections.abc.Mapping):
        return _rebuild_mapping(data, {key: default_convert(data[key]) for key in data})
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return elem_type(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        return _rebuild_sequence(data, [default_convert(d) for d in data])
    return data
