"""Tensors as MPI buffers: themselves when contiguous (no copy), else a contiguous staging copy
written back after the operation; lists of tensors as one flat buffer when they lie end to end
in one storage (e.g. the chunks of one tensor), else a staged concatenation."""
import core
from core.distributed import _mpi


def check_tensor(tensor, op_name, what="tensor"):
    if not isinstance(tensor, core.Tensor):
        raise TypeError(f"{op_name}: {what} must be a core.Tensor, got {type(tensor).__name__}")
    if tensor.dtype.is_quantized:
        raise TypeError(f"{op_name}: {what} is quantized ({tensor.dtype}); send its int_repr() and qparams instead")


def check_list(tensors, size, op_name, what, dtype, shape=None):
    """`tensors` is a list of `size` tensors of `dtype` (and of `shape`, when given)."""
    if not isinstance(tensors, (list, tuple)):
        raise TypeError(f"{op_name}: {what} must be a list of tensors, got {type(tensors).__name__}")
    if len(tensors) != size:
        raise ValueError(f"{op_name}: {what} must hold one tensor per rank of the group ({size}), got {len(tensors)}")
    for i, t in enumerate(tensors):
        check_tensor(t, op_name, f"{what}[{i}]")
        if t.dtype != dtype:
            raise RuntimeError(f"{op_name}: {what}[{i}] has dtype {t.dtype}, expected {dtype}")
        if shape is not None and tuple(t.shape) != tuple(shape):
            raise RuntimeError(f"{op_name}: {what}[{i}] has shape {tuple(t.shape)}, expected {tuple(shape)}")


def displacements(counts):
    """Where each of consecutive parts of `counts` elements starts."""
    out, total = [], 0
    for c in counts:
        out.append(total)
        total += c
    return out


def _plain(tensor):
    return tensor.detach() if tensor.requires_grad else tensor


class Staged:
    """One tensor as MPI reads/writes it, in `dtype` (default: its own). `data` is the tensor
    itself when it is contiguous and of that dtype; otherwise a copy (of the values when `load`),
    which finish() writes back into the tensor."""

    def __init__(self, tensor, dtype=None, load=True):
        self.tensor = tensor
        dtype = tensor.dtype if dtype is None else dtype
        self.copied = not (tensor.is_contiguous() and dtype == tensor.dtype)
        if not self.copied:
            self.data = _plain(tensor)
        elif load:
            self.data = _plain(tensor).to(dtype).contiguous()
        else:
            self.data = core.empty(tuple(tensor.shape), dtype=dtype)

    def spec(self, mpi_type=None):
        return _mpi.buffer(self.data, mpi_type or _mpi.datatype(self.data.dtype, "MPI"))

    def finish(self):
        if self.copied:
            _plain(self.tensor).copy_(self.data)


class StagedList:
    """A list of same-dtype tensors as one flat buffer of `dtype`: a view over them when they lie
    end to end in one storage, else a concatenated copy (of the values when `load`)."""

    def __init__(self, tensors, dtype=None, load=True):
        self.tensors = list(tensors)
        dtype = self.tensors[0].dtype if dtype is None else dtype
        self.counts = [t.numel() for t in self.tensors]
        run = _end_to_end(self.tensors) if dtype == self.tensors[0].dtype else None
        self.copied = run is None
        if not self.copied:
            self.data = run
        elif load:
            self.data = core.cat([_plain(t).reshape(-1).to(dtype) for t in self.tensors])
        else:
            self.data = core.empty((sum(self.counts),), dtype=dtype)

    def spec(self, mpi_type=None):
        return _mpi.buffer(self.data, mpi_type or _mpi.datatype(self.data.dtype, "MPI"))

    def finish(self):
        if self.copied:
            for t, part in zip(self.tensors, self.data.split(self.counts)):
                _plain(t).copy_(part.view(tuple(t.shape)))


def _end_to_end(tensors):
    """One flat view covering `tensors` when each is contiguous and starts where the previous
    ends within the same storage; None otherwise."""
    first = tensors[0]
    if not all(t.is_contiguous() and t.dtype == first.dtype for t in tensors):
        return None
    itemsize = first.element_size()
    address = first.data_ptr()
    for t in tensors:
        if t.data_ptr() != address:
            return None
        address += t.numel() * itemsize
    total = sum(t.numel() for t in tensors)
    try:  # bounded by first's storage: addresses past it would belong to other allocations
        return _plain(first).as_strided((total,), (1,), first.storage_offset())
    except RuntimeError:
        return None
