"""ReduceOp and how each (dtype, op) pair is reduced by MPI."""
import enum

import core
from core.distributed import _mpi

__all__ = ["ReduceOp"]


class ReduceOp(enum.Enum):
    """Element-wise reductions of all_reduce, reduce and reduce_scatter (torch.distributed.ReduceOp).
    AVG (a later torch's addition) is SUM divided by the group's size, for floating-point tensors."""
    SUM = "sum"
    PRODUCT = "product"
    MIN = "min"
    MAX = "max"
    BAND = "band"
    BOR = "bor"
    BXOR = "bxor"
    AVG = "avg"

    def __repr__(self):
        return f"ReduceOp.{self.name}"

    # Members are singletons: hashing by identity spares Enum's Python-level hash of the name
    # (all_reduce looks its (dtype, op) pair up on every call).
    __hash__ = object.__hash__


_BITWISE = (ReduceOp.BAND, ReduceOp.BOR, ReduceOp.BXOR)
_HALF = (core.float16, core.bfloat16)
_INTEGER = (core.uint8, core.int8, core.int16, core.int32, core.int64)


class Reduction:
    """How MPI reduces a tensor: in `dtype` (float16/bfloat16 are reduced in float32 and rounded
    back once, since MPI has no 16-bit float arithmetic) with MPI op `mpi_op` and MPI datatype
    `mpi_type`; `average` divides the sum by the group's size afterwards."""

    def __init__(self, dtype, mpi_op, mpi_type, average):
        self.dtype = dtype
        self.mpi_op = mpi_op
        self.mpi_type = mpi_type
        self.average = average


_CACHE = {}
# The (dtype, op) pairs reduced so far whose tensors MPI reduces as they are (in their own dtype,
# nothing to do afterwards), to the handles of their MPI datatype and op: all_reduce hands such
# tensors to MPI directly.
DIRECT = {}


def reduction(dtype, op, op_name):
    """The Reduction of `op` over tensors of `dtype`, or a clear error where MPI cannot reduce."""
    found = _CACHE.get((dtype, op))
    if found is None:
        found = _CACHE[(dtype, op)] = _make_reduction(dtype, op, op_name)
        if found.dtype == dtype and not found.average:
            DIRECT[(dtype, op)] = (found.mpi_type.handle, found.mpi_op.handle)
    return found


def _make_reduction(dtype, op, op_name):
    if not isinstance(op, ReduceOp):
        raise TypeError(f"{op_name}: op must be a core.distributed.ReduceOp, got {op!r}")
    MPI = _mpi.load()
    mpi_ops = {ReduceOp.SUM: MPI.SUM, ReduceOp.PRODUCT: MPI.PROD, ReduceOp.MIN: MPI.MIN, ReduceOp.MAX: MPI.MAX,
               ReduceOp.BAND: MPI.BAND, ReduceOp.BOR: MPI.BOR, ReduceOp.BXOR: MPI.BXOR, ReduceOp.AVG: MPI.SUM}
    if dtype == core.bool:
        if op is ReduceOp.AVG:
            raise TypeError(f"{op_name}: ReduceOp.AVG is not defined for bool tensors")
        # bools are bytes 0/1: SUM is a logical or (MAX), PRODUCT a logical and (MIN), as torch's NCCL
        op = {ReduceOp.SUM: ReduceOp.MAX, ReduceOp.PRODUCT: ReduceOp.MIN}.get(op, op)
        return Reduction(dtype, mpi_ops[op], MPI.UINT8_T, False)
    if dtype.is_quantized:
        raise TypeError(f"{op_name}: MPI cannot reduce quantized tensors ({dtype})")
    if op in _BITWISE and dtype not in _INTEGER:
        raise TypeError(f"{op_name}: ReduceOp.{op.name} needs an integer or bool tensor, got {dtype}")
    if dtype.is_complex and op in (ReduceOp.MIN, ReduceOp.MAX):
        raise TypeError(f"{op_name}: ReduceOp.{op.name} is not defined for complex tensors ({dtype})")
    if op is ReduceOp.AVG and not (dtype.is_floating_point or dtype.is_complex):
        raise TypeError(f"{op_name}: ReduceOp.AVG needs a floating-point or complex tensor, got {dtype}")
    work_dtype = core.float32 if dtype in _HALF else dtype
    return Reduction(work_dtype, mpi_ops[op], _mpi.datatype(work_dtype, op_name), op is ReduceOp.AVG)
