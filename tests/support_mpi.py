"""Running test programs on several MPI ranks from pytest: `mpiexec -n N python program.py` in a
subprocess with a time limit, so a hang fails the test instead of blocking the run."""
import importlib.util
import os
import shutil
import signal
import subprocess
import sys

import numpy as np
import pytest
from support import child_process_options

HERE = os.path.dirname(os.path.abspath(__file__))


def mpiexec():
    """The mpiexec beside this interpreter (the MPI wheel's, in a virtual environment) or on PATH."""
    beside = os.path.join(os.path.dirname(sys.executable), "mpiexec")
    return beside if os.access(beside, os.X_OK) else shutil.which("mpiexec")


def mpi_ready():
    return importlib.util.find_spec("mpi4py") is not None and mpiexec() is not None


requires_mpi = pytest.mark.skipif(not mpi_ready(), reason="needs mpi4py and mpiexec: pip install '.[distributed]'")


def run_ranks(program, *args, ranks=2, timeout=90, env=None):
    """Runs tests/distributed/<program> on `ranks` MPI ranks; returns the CompletedProcess. Each rank
    imports the same `core` as this process and runs on one thread (two ranks share two cores)."""
    options = child_process_options(env)
    options["env"].setdefault("OPENBLAS_NUM_THREADS", "1")
    command = [mpiexec(), "-n", str(ranks), sys.executable, os.path.join(HERE, "distributed", program), *args]
    process = subprocess.Popen(command, **options, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)  # mpiexec and the ranks it started
        out, err = process.communicate()
        pytest.fail(f"{program} on {ranks} ranks hung (killed after {timeout} s)\nstdout:\n{out}\nstderr:\n{err}")
    return subprocess.CompletedProcess(command, process.returncode, out, err)


def check_ranks(program, *args, **kwargs):
    result = run_ranks(program, *args, **kwargs)
    assert result.returncode == 0, f"{program} failed ({result.returncode})\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    return result


def rank_values(rank, shape, dtype):
    """Rank `rank`'s input for the collective tests: small numbers that differ by rank and
    element (exact in every dtype, products included), as a numpy array of `dtype`."""
    n = int(np.prod(shape)) if shape else 1
    values = (np.arange(n) * (rank + 2) + 3 * rank + 1) % 7 - 2
    if dtype == "bool":
        return ((np.arange(n) + rank) % 3 == 0).reshape(shape)
    if dtype in ("uint8",):
        values = np.abs(values)
    if dtype.startswith("complex"):
        return (values + 1j * (values[::-1] if n else values)).astype(dtype).reshape(shape)
    return values.astype("float32" if dtype == "bfloat16" else dtype).reshape(shape)


DTYPES = ["float32", "float64", "int64", "int32", "int16", "int8", "uint8", "bool", "float16", "bfloat16",
          "complex128"]


def reduce_ops(dtype):
    """The ReduceOp names defined for tensors of `dtype`."""
    if dtype == "bool" or dtype.startswith(("int", "uint")):
        return ["SUM", "PRODUCT", "MIN", "MAX", "BAND", "BOR", "BXOR"]
    if dtype.startswith("complex"):
        return ["SUM", "PRODUCT", "AVG"]
    return ["SUM", "PRODUCT", "MIN", "MAX", "AVG"]


def numpy_reduce(arrays, op):
    """What ReduceOp `op` gives over the ranks' numpy arrays (bool SUM/PRODUCT: or/and)."""
    stacked = np.stack(arrays)
    if op == "SUM":
        return stacked.any(0) if stacked.dtype == bool else stacked.sum(0, dtype=stacked.dtype)
    if op == "PRODUCT":
        return stacked.all(0) if stacked.dtype == bool else stacked.prod(0, dtype=stacked.dtype)
    if op == "AVG":
        return stacked.mean(0).astype(stacked.dtype)
    reducer = {"MIN": np.minimum, "MAX": np.maximum, "BAND": np.bitwise_and, "BOR": np.bitwise_or,
               "BXOR": np.bitwise_xor}[op]
    return reducer.reduce(stacked, axis=0)


def ddp_model(seed=1, batch_norm="sync"):
    """The small float64 conv net of the DDP tests (batch_norm: "sync", "plain" or None)."""
    import core
    import core.nn as nn

    core.manual_seed(seed)
    norm = {"sync": [nn.SyncBatchNorm(6)], "plain": [nn.BatchNorm2d(6)], None: []}[batch_norm]
    return nn.Sequential(nn.Conv2d(3, 6, 3, padding=1), *norm, nn.ReLU(), nn.Conv2d(6, 4, 3, stride=2),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 5)).double()


def ddp_batches(steps, batch=8):
    """`steps` (input, target) batches of `batch` samples, the same on every rank."""
    import core

    g = core.Generator()
    g.manual_seed(5)
    return [(core.randn(batch, 3, 7, 7, generator=g, dtype=core.float64), core.randint(0, 5, (batch,), generator=g))
            for _ in range(steps)]


def sync_bn_case():
    """name -> (whole batch, upstream gradient, where each of 2 ranks' shares start, momentum)."""
    import core

    g = core.Generator()
    g.manual_seed(11)
    image = core.randn(8, 3, 4, 5, generator=g, dtype=core.float64) * 3 + 1
    sequence = core.randn(7, 4, 6, generator=g, dtype=core.float64)
    return {"2d": (image, core.randn(image.shape, generator=g, dtype=core.float64), [0, 3, 8], 0.1),
            "1d_cumulative": (sequence, core.randn(sequence.shape, generator=g, dtype=core.float64), [0, 4, 7], None)}
