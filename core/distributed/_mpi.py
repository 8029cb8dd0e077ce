"""The MPI library behind core.distributed: loaded through mpi4py on first use (so `import core`
never starts MPI), MPI datatypes and reduction ops for tensors, and tensors as MPI buffers.

A contiguous tensor reaches MPI as itself: mpi4py reads its memory through the buffer protocol
(core._C._TensorBytes), so nothing is copied. Non-contiguous tensors go through a contiguous copy (see _collectives.Staged).
The blocking all_reduce of a contiguous tensor skips mpi4py: core._C._mpi_all_reduce calls the
MPI_Allreduce of the library mpi4py loaded (bound by bind_direct).
"""
import sys

import core
from core._native import _C

_MPI = None


def load():
    """mpi4py's MPI module, imported without initialising MPI (init_process_group does that)."""
    global _MPI
    if _MPI is None:
        try:
            import mpi4py
        except ImportError as e:
            raise RuntimeError("core.distributed needs mpi4py and an MPI library: "
                               "pip install 'tensorzoo[distributed]'") from e
        if "mpi4py.MPI" not in sys.modules:  # else the importer chose its settings
            mpi4py.rc.initialize = False  # MPI starts in init_process_group, not at import
            mpi4py.rc.finalize = True     # and is finalised at interpreter exit
        from mpi4py import MPI
        _MPI = MPI
    return _MPI


def available():
    try:
        load()
    except (RuntimeError, ImportError, OSError):  # no mpi4py, or no MPI library for it to load
        return False
    return True


def initialize():
    """Starts MPI (once per process) with full thread support: collectives run on a worker
    thread while point-to-point calls and waits happen on the caller's."""
    MPI = load()
    if not MPI.Is_initialized():
        MPI.Init_thread(MPI.THREAD_MULTIPLE)
    elif MPI.Is_finalized():
        raise RuntimeError("init_process_group: MPI has already been finalized in this process")
    level = MPI.Query_thread()
    if level != MPI.THREAD_MULTIPLE:
        names = {MPI.THREAD_SINGLE: "MPI_THREAD_SINGLE", MPI.THREAD_FUNNELED: "MPI_THREAD_FUNNELED",
                 MPI.THREAD_SERIALIZED: "MPI_THREAD_SERIALIZED"}
        raise RuntimeError(f"init_process_group: core.distributed needs an MPI library with "
                           f"MPI_THREAD_MULTIPLE, but {library_version()} provides {names.get(level, level)}")
    return MPI


def bind_direct(MPI):
    """Lets _C._mpi_all_reduce call the MPI library mpi4py loaded (the blocking all_reduce's fast
    path); False where it cannot (handles of mixed widths, an mpi4py without _sizeof)."""
    try:
        widths = {MPI._sizeof(kind) for kind in (MPI.Comm, MPI.Datatype, MPI.Op)}
        in_place = int(MPI.IN_PLACE)
    except (AttributeError, TypeError):
        return False
    return len(widths) == 1 and _C._mpi_bind(MPI.__file__, in_place, widths.pop())


def library_version():
    return load().Get_library_version().splitlines()[0].strip()


# ---- datatypes

def _datatypes(MPI):
    return {
        core.bool: MPI.C_BOOL, core.uint8: MPI.UINT8_T, core.int8: MPI.INT8_T, core.int16: MPI.INT16_T,
        core.int32: MPI.INT32_T, core.int64: MPI.INT64_T, core.float32: MPI.FLOAT, core.float64: MPI.DOUBLE,
        core.complex64: MPI.C_FLOAT_COMPLEX, core.complex128: MPI.C_DOUBLE_COMPLEX,
        # MPI has no 16-bit floats: they travel as 16-bit words (reductions convert, see reduce_dtype)
        core.float16: MPI.UINT16_T, core.bfloat16: MPI.UINT16_T,
    }


_DATATYPES = None


def datatype(dtype, op_name):
    """The MPI datatype that moves elements of `dtype` unchanged."""
    global _DATATYPES
    if _DATATYPES is None:
        _DATATYPES = _datatypes(load())
    try:
        return _DATATYPES[dtype]
    except KeyError:
        raise TypeError(f"{op_name}: tensors of dtype {dtype} cannot be sent through MPI") from None


def buffer(tensor, mpi_type):
    """A contiguous `tensor`'s memory as an MPI buffer of `mpi_type` elements, without a copy. Through
    the buffer protocol rather than DLPack, which costs mpi4py ~10x more per call."""
    return [_C._TensorBytes(tensor), mpi_type]


def error_text(exc):
    return exc.Get_error_string() if hasattr(exc, "Get_error_string") else str(exc)
