"""A training script under `mpiexec -n 2`: data-parallel, logging on rank 0, one checkpoint; and
launcher_info, which tells a script which launcher started it."""
import os

import core
import core.distributed as dist
from support_mpi import check_ranks, requires_mpi


@requires_mpi
def test_training_script_under_mpiexec(tmp_path):
    result = check_ranks("rank_train.py", str(tmp_path), ranks=2)
    lines = result.stdout.splitlines()
    epochs = [line for line in lines if line.startswith("epoch ")]
    assert len(epochs) == 2 and all("24 samples on each of 2 ranks" in line for line in epochs), result.stdout
    assert "replicas equal: True" in lines
    assert os.listdir(tmp_path) == ["checkpoint.pth"]
    checkpoint = core.load(str(tmp_path / "checkpoint.pth"))
    assert checkpoint["epoch"] == 1
    assert not any(key.startswith("module.") for key in checkpoint["model"])


def test_launcher_info_reads_each_launchers_variables():
    assert dist.launcher_info({}) is None
    cases = {
        "env": {"RANK": "1", "WORLD_SIZE": "4", "LOCAL_RANK": "1"},
        "mpich": {"PMI_RANK": "1", "PMI_SIZE": "4", "MPI_LOCALRANKID": "1"},
        "openmpi": {"OMPI_COMM_WORLD_RANK": "1", "OMPI_COMM_WORLD_SIZE": "4", "OMPI_COMM_WORLD_LOCAL_RANK": "1"},
        "slurm": {"SLURM_PROCID": "1", "SLURM_NTASKS": "4", "SLURM_LOCALID": "1"},
    }
    for launcher, environ in cases.items():
        assert dist.launcher_info(environ) == dist.LaunchInfo(launcher, 1, 4, 1)
    assert dist.launcher_info({"PMI_RANK": "3", "PMI_SIZE": "4"}).local_rank == 0
