"""Process groups: init_process_group / destroy_process_group / new_group and the rank queries.

The MPI backend takes rank and world size from the MPI launcher (mpiexec/mpirun/srun), as
torch's does; world_size/rank arguments and the env:// variables (WORLD_SIZE, RANK) are checked
against it, so a script launched the torchrun way fails with a clear message instead of running
as N separate worlds of one.
"""
import datetime
import os
import sys

from core.distributed import _mpi
from core.distributed._work import Worker

__all__ = ["Backend", "GroupMember", "group", "ProcessGroup", "init_process_group", "destroy_process_group",
           "is_initialized", "new_group", "get_rank", "get_world_size", "get_backend", "default_pg_timeout"]

default_pg_timeout = datetime.timedelta(minutes=30)


class Backend(str):
    """Backend names (torch.distributed.Backend); this build has MPI only."""
    UNDEFINED = "undefined"
    GLOO = "gloo"
    NCCL = "nccl"
    MPI = "mpi"

    def __new__(cls, name):
        if not isinstance(name, str):
            raise ValueError(f"Backend name must be a string, but got: {name!r}")
        return str.__new__(cls, name.lower())


class ProcessGroup:
    """A set of ranks and the MPI communicator that connects them. Ranks given to collectives
    (src, dst) are global ranks, as in torch; rank() and size() are within the group."""

    def __init__(self, comm, global_ranks):
        self.comm = comm
        self.handle = comm.handle  # the MPI_Comm, for _C._mpi_all_reduce
        self.global_ranks = list(global_ranks)
        self._group_rank = {g: i for i, g in enumerate(self.global_ranks)}

    def rank(self):
        return self.comm.Get_rank()

    def size(self):
        return self.comm.Get_size()

    def group_rank(self, global_rank, op_name):
        """The rank within this group of `global_rank` (an error when it is not a member)."""
        if not isinstance(global_rank, int) or isinstance(global_rank, bool):
            raise TypeError(f"{op_name}: ranks must be ints, got {global_rank!r}")
        try:
            return self._group_rank[global_rank]
        except KeyError:
            raise ValueError(f"{op_name}: rank {global_rank} is not part of the group "
                             f"(its ranks: {self.global_ranks})") from None

    def global_rank(self, group_rank):
        return self.global_ranks[group_rank]

    def __repr__(self):
        return f"ProcessGroup(backend=mpi, ranks={self.global_ranks})"


class _NonGroupMember:
    def __repr__(self):
        return "GroupMember.NON_GROUP_MEMBER"


class GroupMember:
    WORLD = None                           # the default group, as a `group=` argument
    NON_GROUP_MEMBER = _NonGroupMember()   # what new_group returns on ranks outside the new group


group = GroupMember  # torch.distributed.group.WORLD


class _State:
    default = None   # the default ProcessGroup
    groups = []      # every group made by new_group (freed by destroy_process_group())
    worker = None
    debug = False    # TORCH_DISTRIBUTED_DEBUG=DETAIL: check that ranks call matching collectives
    previous_excepthook = None


def state():
    return _State


def _not_initialized():
    return RuntimeError("Default process group has not been initialized, please make sure to call "
                        "init_process_group.")


def is_initialized():
    return _State.default is not None


def resolve(group, op_name):
    """The ProcessGroup a `group=` argument names, or None on a rank outside that group."""
    if _State.default is None:
        raise _not_initialized()
    if group is None or group is GroupMember.WORLD:
        return _State.default
    if group is GroupMember.NON_GROUP_MEMBER:
        return None
    if not isinstance(group, ProcessGroup):
        raise TypeError(f"{op_name}: group must be a ProcessGroup from new_group, got {type(group).__name__}")
    if group is not _State.default and group not in _State.groups:
        raise RuntimeError(f"{op_name}: the group was destroyed (or belongs to an earlier init_process_group)")
    return group


def _env_int(name):
    value = os.environ.get(name)
    if value is None or value == "":
        return None
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"init_process_group: environment variable {name}={value!r} is not an integer") from None


def _check_launch(mpi_rank, mpi_size, world_size, rank, init_method):
    """world_size/rank arguments and env:// variables must agree with what MPI launched."""
    checks = [("world_size argument", world_size if world_size != -1 else None, mpi_size),
              ("rank argument", rank if rank != -1 else None, mpi_rank)]
    if init_method is None or str(init_method).startswith("env://"):
        checks += [("WORLD_SIZE environment variable", _env_int("WORLD_SIZE"), mpi_size),
                   ("RANK environment variable", _env_int("RANK"), mpi_rank)]
    for what, given, actual in checks:
        if given is not None and given != actual:
            raise RuntimeError(
                f"init_process_group: the {what} says {given}, but the MPI launcher made this process rank "
                f"{mpi_rank} of {mpi_size}. The MPI backend takes ranks from MPI: start the script with "
                f"`mpiexec -n <world size> python ...` (or the cluster's mpirun/srun)")


def init_process_group(backend=None, init_method=None, timeout=default_pg_timeout, world_size=-1, rank=-1,
                       store=None, group_name="", pg_options=None):
    """Joins the default process group. backend must be "mpi" (the only transport here); rank and
    world size come from the MPI launcher. `timeout` is accepted for torch's signature: MPI calls
    have no timeout (a launcher's or the caller's time limit ends a hung job)."""
    if _State.default is not None:
        raise RuntimeError("trying to initialize the default process group twice!")
    name = Backend(backend if backend is not None else Backend.MPI)
    if name != Backend.MPI:
        raise RuntimeError(f"init_process_group: backend {name!r} is not available: tensorzoo's distributed "
                           f"package runs on MPI (backend='mpi')")
    if store is not None and init_method is not None:
        raise ValueError("Cannot specify both init_method and store.")
    MPI = _mpi.initialize()
    _mpi.bind_direct(MPI)
    world = MPI.COMM_WORLD
    _check_launch(world.Get_rank(), world.Get_size(), world_size, rank, init_method)
    comm = world.Dup()  # our traffic never matches a user's own mpi4py calls on COMM_WORLD
    _State.default = ProcessGroup(comm, range(comm.Get_size()))
    _State.worker = Worker()
    _State.debug = os.environ.get("TORCH_DISTRIBUTED_DEBUG", "").upper() == "DETAIL"
    if comm.Get_size() > 1 and _State.previous_excepthook is None:
        _State.previous_excepthook = sys.excepthook
        sys.excepthook = _abort_on_uncaught_exception


def _abort_on_uncaught_exception(exc_type, exc, tb):
    # The other ranks may be blocked in a collective this rank will never join: MPI_Abort ends
    # the job instead of letting it hang.
    (_State.previous_excepthook or sys.__excepthook__)(exc_type, exc, tb)
    MPI = _mpi.load()
    if MPI.Is_initialized() and not MPI.Is_finalized():
        world = MPI.COMM_WORLD
        sys.stderr.write(f"core.distributed: rank {world.Get_rank()} of {world.Get_size()} stopped on an "
                         f"uncaught {exc_type.__name__}; aborting every rank (MPI_Abort)\n")
        sys.stderr.flush()
        world.Abort(1)


def destroy_process_group(group=None):
    """Leaves `group` (default: the default group and every group made since)."""
    if _State.default is None:
        raise _not_initialized()
    if group is GroupMember.NON_GROUP_MEMBER:
        return
    _State.worker.drain()
    if group is None or group is GroupMember.WORLD or group is _State.default:
        for pg in _State.groups:
            pg.comm.Free()
        _State.default.comm.Free()
        _State.worker.stop()
        _State.default, _State.groups, _State.worker = None, [], None
        if _State.previous_excepthook is not None:
            sys.excepthook, _State.previous_excepthook = _State.previous_excepthook, None
        return
    pg = resolve(group, "destroy_process_group")
    _State.groups.remove(pg)
    pg.comm.Free()


def new_group(ranks=None, timeout=None, backend=None, pg_options=None):
    """A group of the given global ranks (all of them by default). Every rank of the default
    group must call it, in the same order; ranks outside get GroupMember.NON_GROUP_MEMBER."""
    default = resolve(None, "new_group")
    size = default.size()
    if backend is not None and Backend(backend) != Backend.MPI:
        raise RuntimeError(f"new_group: backend {backend!r} is not available (MPI only)")
    members = sorted(set(range(size) if ranks is None else ranks))
    for r in members:
        if not isinstance(r, int) or not 0 <= r < size:
            raise ValueError(f"new_group: rank {r!r} is not a rank of the world (size {size})")
    if ranks is not None and len(members) != len(ranks):
        raise ValueError(f"new_group: ranks {list(ranks)} contain duplicates")
    _State.worker.drain()
    world_group = default.comm.Get_group()
    members_group = world_group.Incl(members)
    try:
        comm = default.comm.Create(members_group)
    finally:
        members_group.Free()
        world_group.Free()
    if comm == _mpi.load().COMM_NULL:
        return GroupMember.NON_GROUP_MEMBER
    pg = ProcessGroup(comm, members)
    _State.groups.append(pg)
    return pg


def get_rank(group=None):
    pg = resolve(group, "get_rank")
    return -1 if pg is None else pg.rank()


def get_world_size(group=None):
    pg = resolve(group, "get_world_size")
    return -1 if pg is None else pg.size()


def get_backend(group=None):
    if resolve(group, "get_backend") is None:
        raise RuntimeError("Invalid process group specified")
    return Backend.MPI
