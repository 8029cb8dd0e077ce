"""core.distributed: torch.distributed 1.8's API over MPI (mpi4py and an MPI library from
`pip install 'tensorzoo[distributed]'`, or a cluster's own MPI).

    import core.distributed as dist
    dist.init_process_group("mpi")          # under `mpiexec -n 2 python train.py`
    dist.all_reduce(t)                      # contiguous tensors go to MPI without a copy

Collectives keep torch's signatures and rules (global ranks for src/dst, async_op=True returns a
Work); reductions of float16/bfloat16 run in float32 (MPI has no 16-bit float arithmetic) and
bool SUM/PRODUCT mean or/and. An uncaught exception on one rank aborts every rank (MPI_Abort)
rather than leaving them blocked; TORCH_DISTRIBUTED_DEBUG=DETAIL makes the ranks check before
each collective that they all called the same one with the same dtype and shape.
launcher_info() (tensorzoo's) tells a script whether mpiexec, srun or torchrun started it.
"""
from core.distributed import _mpi
from core.distributed._collectives import (all_gather, all_reduce, all_to_all, all_to_all_single, barrier,
                                           broadcast, gather, reduce, reduce_scatter, scatter)
from core.distributed._launch_env import LaunchInfo, launcher_info
from core.distributed._group import (Backend, GroupMember, ProcessGroup, default_pg_timeout, destroy_process_group,
                                     get_backend, get_rank, get_world_size, group, init_process_group,
                                     is_initialized, new_group)
from core.distributed._objects import all_gather_object, broadcast_object_list, gather_object, scatter_object_list
from core.distributed._p2p import irecv, isend, recv, send
from core.distributed._reduce_op import ReduceOp
from core.distributed._work import Work

__all__ = ["is_available", "is_mpi_available", "is_gloo_available", "is_nccl_available", "Backend", "GroupMember",
           "ProcessGroup", "ReduceOp", "Work", "group", "default_pg_timeout", "init_process_group",
           "destroy_process_group", "is_initialized", "new_group", "get_rank", "get_world_size", "get_backend",
           "barrier", "broadcast", "all_reduce", "reduce", "all_gather", "gather", "scatter", "reduce_scatter",
           "all_to_all", "all_to_all_single", "send", "recv", "isend", "irecv", "broadcast_object_list",
           "all_gather_object", "gather_object", "scatter_object_list", "LaunchInfo", "launcher_info"]


def is_mpi_available():
    """Whether mpi4py and an MPI library can be loaded (MPI itself starts in init_process_group)."""
    return _mpi.available()


def is_available():
    return is_mpi_available()


def is_gloo_available():
    return False


def is_nccl_available():
    return False
