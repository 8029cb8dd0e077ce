"""Datasets and leak checks for the core.utils.data tests (module level, so `spawn` workers can
unpickle the datasets by reference)."""
import glob
import multiprocessing.forkserver
import multiprocessing.resource_tracker
import os
import random
import signal
import time

import numpy as np
import pytest

import core
from core.utils.data import Dataset, IterableDataset, get_worker_info

SHM_DIR = "/dev/shm"


class _Sized(Dataset):
    n = 0

    def __len__(self):
        return self.n


class SquaresDataset(_Sized):
    """Sample i: (float32 tensor of shape (2, 3) filled with i, the int i * i)."""

    def __init__(self, n):
        self.n = n

    def __getitem__(self, i):
        return core.from_numpy(np.full((2, 3), i, dtype=np.float32)), i * i


class ImageDataset(_Sized):
    """Sample i: a (3, 64, 64) float32 image filled with i (large enough for its own segment)."""

    def __init__(self, n):
        self.n = n

    def __getitem__(self, i):
        return core.from_numpy(np.full((3, 64, 64), i, dtype=np.float32))


class RandomnessDataset(Dataset):
    """Each sample reports the worker seed and one draw of python, numpy and core randomness."""

    def __len__(self):
        return 8

    def __getitem__(self, i):
        info = get_worker_info()
        return {"worker": info.id, "seed": info.seed, "python": random.random(),
                "numpy": float(np.random.rand()), "core": core.default_generator.random()}


class RangeIterable(IterableDataset):
    """start..end-1; sharded over workers when `shard` is set."""

    def __init__(self, start, end, shard=True):
        self.start, self.end, self.shard = start, end, shard

    def __len__(self):
        return self.end - self.start

    def __iter__(self):
        info = get_worker_info()
        if info is None or not self.shard:
            return iter(range(self.start, self.end))
        return iter(range(self.start + info.id, self.end, info.num_workers))


class FailingDataset(_Sized):
    """Raises `error` for index `bad`."""

    def __init__(self, n, bad, error):
        self.n, self.bad, self.error = n, bad, error

    def __getitem__(self, i):
        if i == self.bad:
            raise self.error
        return i


class SuicideDataset(_Sized):
    """The worker that fetches index `bad` kills itself with SIGKILL."""

    def __init__(self, n, bad):
        self.n, self.bad = n, bad

    def __getitem__(self, i):
        if i == self.bad and get_worker_info() is not None:
            os.kill(os.getpid(), signal.SIGKILL)
        return i


class SlowDataset(_Sized):
    """Sleeps `delay` seconds on index `slow`."""

    def __init__(self, n, slow, delay):
        self.n, self.slow, self.delay = n, slow, delay

    def __getitem__(self, i):
        if i == self.slow:
            time.sleep(self.delay)
        return i


class ThreadPoolDataset(Dataset):
    """Runs a core op big enough to use the thread pool in the worker."""

    def __len__(self):
        return 4

    def __getitem__(self, i):
        x = core.ones(1_000_000)
        return float((x + x).numpy()[0]) + i


def child_pids(pid=None):
    """Live (non-zombie) children of `pid` (default: this process), without multiprocessing's
    resource tracker and fork server: per-interpreter helpers that `spawn` and `forkserver`
    start once and keep."""
    pid = os.getpid() if pid is None else pid
    helpers = {getattr(multiprocessing.resource_tracker._resource_tracker, "_pid", None),
               getattr(multiprocessing.forkserver._forkserver, "_forkserver_pid", None)}
    found = set()
    for path in glob.glob(f"/proc/{pid}/task/*/children"):
        try:
            with open(path) as f:
                found.update(int(p) for p in f.read().split())
        except OSError:
            pass
    return {p for p in found if p not in helpers and is_alive(p)}


def is_alive(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            return not any(line.startswith("State:") and "Z" in line.split()[1] for line in f)
    except OSError:
        return False


def shm_entries(pid=None):
    """This process's DataLoader segments in /dev/shm."""
    pid = os.getpid() if pid is None else pid
    return sorted(name for name in os.listdir(SHM_DIR) if name.startswith(f"tzdl.{pid}."))


def wait_until(condition, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.fixture
def no_leaks():
    """Fails the test if a child process or a shared-memory segment outlives it."""
    import gc

    children, segments = child_pids(), shm_entries()
    yield
    gc.collect()
    assert wait_until(lambda: child_pids() <= children, timeout=10), f"children left: {child_pids() - children}"
    assert shm_entries() == segments, f"segments left: {sorted(set(shm_entries()) - set(segments))}"
