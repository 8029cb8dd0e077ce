"""Which launcher started this process, from the variables each one sets: torchrun/torch.distributed.launch
(RANK, WORLD_SIZE, LOCAL_RANK), MPICH and Intel MPI (PMI_RANK, PMI_SIZE, MPI_LOCALRANKID), Open MPI
(OMPI_COMM_WORLD_*), MVAPICH (MV2_COMM_WORLD_*) and Slurm's srun (SLURM_PROCID, SLURM_NTASKS,
SLURM_LOCALID). A training script asks it whether to run distributed before init_process_group."""
import collections
import os

__all__ = ["LaunchInfo", "launcher_info"]

LaunchInfo = collections.namedtuple("LaunchInfo", ["launcher", "rank", "world_size", "local_rank"])

_LAUNCHERS = (  # name, rank, world size, local rank variables
    ("env", "RANK", "WORLD_SIZE", "LOCAL_RANK"),
    ("mpich", "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID"),
    ("openmpi", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"),
    ("mvapich", "MV2_COMM_WORLD_RANK", "MV2_COMM_WORLD_SIZE", "MV2_COMM_WORLD_LOCAL_RANK"),
    ("slurm", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"),
)


def launcher_info(environ=None):
    """LaunchInfo(launcher, rank, world_size, local_rank) of the first launcher whose rank and world
    size variables are set, or None for a process started on its own."""
    environ = os.environ if environ is None else environ
    for name, rank, size, local in _LAUNCHERS:
        if environ.get(rank, "") != "" and environ.get(size, "") != "":
            try:
                return LaunchInfo(name, int(environ[rank]), int(environ[size]), int(environ.get(local) or 0))
            except ValueError:
                raise ValueError(f"launcher_info: {rank}={environ[rank]!r}, {size}={environ[size]!r} are not "
                                 f"integers") from None
    return None
