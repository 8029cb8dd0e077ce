"""DataLoader worker processes: seeding, sharding, shared memory, errors, timeouts, cleanup."""
import gc
import os
import random
import signal
import sys

import numpy as np
import pytest

import core
from core.utils.data import DataLoader, get_worker_info
from core.utils.data import _random
from data_helpers import (FailingDataset, ImageDataset, RandomnessDataset, RangeIterable, SlowDataset, SquaresDataset,
                          SuicideDataset, ThreadPoolDataset, child_pids, is_alive, no_leaks, shm_entries,  # noqa: F401
                          wait_until)
from support import child_process_options
from support import run_python

pytestmark = pytest.mark.usefixtures("no_leaks")


def _seen_by_workers(loader):
    return [sample for batch in loader for sample in _rows(batch)]


def _rows(batch):
    keys = list(batch)
    return [{k: _value(batch[k], i) for k in keys} for i in range(len(batch[keys[0]]))]


def _value(column, i):
    return column[i] if isinstance(column, list) else column.tolist()[i]


def test_get_worker_info_is_none_in_the_main_process():
    assert get_worker_info() is None


def test_workers_are_seeded_from_the_base_seed_like_torch():
    loader = DataLoader(RandomnessDataset(), batch_size=2, num_workers=2, generator=core.Generator().manual_seed(42))
    rows = _seen_by_workers(loader)
    base_seed = _random.random_seed(core.Generator().manual_seed(42))
    for worker in (0, 1):
        mine = [r for r in rows if r["worker"] == worker]
        assert {r["seed"] for r in mine} == {base_seed + worker}
        python_rng = random.Random(base_seed + worker)
        numpy_rng = np.random.RandomState(np.random.SeedSequence(
            [worker, base_seed & 0xFFFFFFFF, base_seed >> 32, 0]).generate_state(4))
        core_rng = core.Generator().manual_seed(base_seed + worker)
        assert [r["python"] for r in mine] == [python_rng.random() for _ in mine]
        assert [r["numpy"] for r in mine] == [numpy_rng.random_sample() for _ in mine]
        assert [r["core"] for r in mine] == [core_rng.random() for _ in mine]
    # Augmentations differ between workers...
    assert rows[0]["python"] != rows[2]["python"] and rows[0]["numpy"] != rows[2]["numpy"]


def test_worker_randomness_is_reproducible_and_new_each_epoch():
    def run(loader):
        return [(r["python"], r["numpy"], r["core"]) for r in _seen_by_workers(loader)]

    first = run(DataLoader(RandomnessDataset(), batch_size=2, num_workers=2, generator=core.Generator().manual_seed(1)))
    again = run(DataLoader(RandomnessDataset(), batch_size=2, num_workers=2, generator=core.Generator().manual_seed(1)))
    assert first == again
    loader = DataLoader(RandomnessDataset(), batch_size=2, num_workers=2, generator=core.Generator().manual_seed(1))
    assert run(loader) != run(loader)  # each iterator draws a new base seed


def test_worker_init_fn_sees_worker_info():
    def init(worker_id):
        info = get_worker_info()
        assert info.id == worker_id and info.num_workers == 2
        info.dataset.offset = 100 * (worker_id + 1)

    class Offset(SquaresDataset):
        offset = 0

        def __getitem__(self, i):
            return self.offset + i

    loader = DataLoader(Offset(4), batch_size=1, num_workers=2, worker_init_fn=init)
    assert [b.tolist() for b in loader] == [[100], [201], [102], [203]]


def test_worker_info_is_frozen():
    class Probe(SquaresDataset):
        def __getitem__(self, i):
            try:
                get_worker_info().id = 5
            except AttributeError:
                return 1
            return 0

    assert [b.tolist() for b in DataLoader(Probe(1), num_workers=1)] == [[1]]


@pytest.mark.filterwarnings("ignore:This DataLoader will create 3 worker processes")
@pytest.mark.parametrize("workers", [2, 3])
def test_sharded_iterable_dataset_has_no_duplicates(workers):
    loader = DataLoader(RangeIterable(0, 23), batch_size=4, num_workers=workers)
    seen = [x for batch in loader for x in batch.tolist()]
    assert sorted(seen) == list(range(23))


def test_unsharded_iterable_dataset_is_replicated_per_worker():
    loader = DataLoader(RangeIterable(0, 5, shard=False), batch_size=2, num_workers=2)
    seen = [x for batch in loader for x in batch.tolist()]
    assert sorted(seen) == sorted(list(range(5)) * 2)


def test_iterable_dataset_drop_last_per_worker():
    # Each worker's stream ends with its own short batch, dropped with drop_last (as torch).
    loader = DataLoader(RangeIterable(0, 10), batch_size=4, num_workers=2, drop_last=True)
    assert sorted(x for batch in loader for x in batch.tolist()) == [0, 1, 2, 3, 4, 5, 6, 7]


def test_batches_arrive_through_shared_memory_zero_copy():
    images = next(iter(DataLoader(ImageDataset(4), batch_size=4, num_workers=1)))
    address = images.data_ptr()
    with open("/proc/self/maps") as f:
        regions = [line.split() for line in f]
    owner = [r for r in regions if int(r[0].split("-")[0], 16) <= address < int(r[0].split("-")[1], 16)]
    assert owner and "/dev/shm/tzdl." in owner[0][-2 if owner[0][-1] == "(deleted)" else -1]
    np.testing.assert_array_equal(images.numpy()[:, 0, 0, 0], [0, 1, 2, 3])


def test_batches_kept_by_the_user_are_never_overwritten():
    loader = DataLoader(ImageDataset(40), batch_size=4, num_workers=2, persistent_workers=True)
    kept = [batch for _ in range(2) for batch in loader]
    del loader
    for k, batch in enumerate(kept):
        expected = np.arange(4 * (k % 10), 4 * (k % 10) + 4, dtype=np.float32)
        np.testing.assert_array_equal(batch.numpy()[:, 1, 2, 3], expected)
        batch.fill_(-1)  # writable, and private to the user now


def test_segments_are_reused_not_piled_up():
    names = set()
    for batch in DataLoader(ImageDataset(128), batch_size=2, num_workers=2):
        names.update(shm_entries())
    # 64 batches; per worker a handful of segments: being filled, prefetched, held, free.
    assert 0 < len(names) <= 2 * 10


def test_small_tensors_and_numpy_payloads_travel_too():
    def collate(batch):
        return {"small": core.tensor(batch), "big": np.zeros((len(batch), 40000)), "text": "x", "empty": core.zeros(0)}

    out = next(iter(DataLoader(SquaresDataset(3), batch_size=3, num_workers=1, collate_fn=lambda b: collate(
        [label for _, label in b]))))
    assert out["small"].tolist() == [0, 1, 4]
    assert isinstance(out["big"], np.ndarray) and out["big"].shape == (3, 40000)
    assert out["text"] == "x" and out["empty"].shape == (0,)


def test_views_of_a_collated_batch_keep_their_layout():
    def collate(batch):
        stacked = core.utils.data.default_collate(batch)  # in shared memory, in the worker
        return stacked.transpose(0, 3), stacked.numpy()[::-1, :, ::2]

    transposed, reversed_ = next(iter(DataLoader(ImageDataset(4), batch_size=4, num_workers=1, collate_fn=collate)))
    expected = np.arange(4, dtype=np.float32)[:, None, None, None] + np.zeros((4, 3, 64, 64), np.float32)
    np.testing.assert_array_equal(transposed.numpy(), expected.transpose(3, 1, 2, 0))
    np.testing.assert_array_equal(reversed_, expected[::-1, :, ::2])
    assert not transposed.is_contiguous()


def test_same_tensor_twice_in_a_batch_stays_one_tensor():
    def collate(batch):
        t = core.tensor([1, 2])
        return [t, t]

    a, b = next(iter(DataLoader(SquaresDataset(1), num_workers=1, collate_fn=collate)))
    assert a is b


def test_persistent_workers_keep_their_processes():
    loader = DataLoader(SquaresDataset(6), batch_size=2, num_workers=2, persistent_workers=True)
    first = [b[1].tolist() for b in loader]
    workers = child_pids()
    assert [b[1].tolist() for b in loader] == first
    assert child_pids() == workers
    it = iter(loader)
    next(it)  # left early: the next epoch must not see its leftovers
    assert [b[1].tolist() for b in loader] == first
    del loader, it


def test_worker_exception_is_reraised_with_its_traceback():
    loader = DataLoader(FailingDataset(6, bad=2, error=ValueError("bad sample 2")), batch_size=1, num_workers=2)
    it = iter(loader)
    assert next(it).tolist() == [0]
    assert next(it).tolist() == [1]
    with pytest.raises(ValueError) as excinfo:
        next(it)
    message = str(excinfo.value)
    assert "Caught ValueError in DataLoader worker process 0." in message
    assert "Original Traceback (most recent call last):" in message
    assert "bad sample 2" in message and "data_helpers.py" in message
    # the workers were shut down before the error reached us, not left to the garbage collector
    assert child_pids() == set()
    with pytest.raises(StopIteration):
        next(it)
    del it


def test_persistent_workers_restart_after_a_worker_error():
    loader = DataLoader(FailingDataset(4, bad=1, error=ValueError("bad")), batch_size=1, num_workers=1,
                        persistent_workers=True)
    for _ in range(2):
        it = iter(loader)
        assert next(it).tolist() == [0]
        with pytest.raises(ValueError, match="bad"):
            next(it)
        assert child_pids() == set()


def test_worker_key_error_and_unpicklable_exception_types():
    with pytest.raises(KeyError, match="Caught KeyError in DataLoader worker process"):
        list(DataLoader(FailingDataset(2, bad=0, error=KeyError("k")), num_workers=1))

    class LocalError(Exception):
        pass

    with pytest.raises(RuntimeError, match="Caught LocalError in DataLoader worker process"):
        list(DataLoader(FailingDataset(2, bad=0, error=LocalError("x")), num_workers=1))


def test_worker_init_fn_exception():
    def init(worker_id):
        raise ZeroDivisionError("init failed")

    with pytest.raises(ZeroDivisionError, match="init failed"):
        list(DataLoader(SquaresDataset(2), num_workers=1, worker_init_fn=init))


def test_killed_worker_raises_instead_of_hanging():
    loader = DataLoader(SuicideDataset(8, bad=3), batch_size=1, num_workers=2, timeout=60)
    with pytest.raises(RuntimeError, match=r"DataLoader worker \(pid \d+\) is killed by signal: Killed\."):
        for _ in loader:
            pass


def test_persistent_loader_recovers_after_a_worker_died():
    loader = DataLoader(SuicideDataset(4, bad=1), batch_size=1, num_workers=1, persistent_workers=True)
    with pytest.raises(RuntimeError, match="is killed by signal"):
        list(loader)
    loader.dataset.bad = -1
    assert [b.tolist() for b in loader] == [[0], [1], [2], [3]]  # fresh workers
    del loader


def test_unpicklable_batch_is_reported():
    with pytest.raises(Exception, match="Caught (PicklingError|AttributeError) in DataLoader worker process 0"):
        next(iter(DataLoader(SquaresDataset(1), num_workers=1, collate_fn=lambda b: [lambda: 0])))


def test_spawn_needs_a_picklable_loader():
    with pytest.raises(Exception, match="pickle|lambda"):
        iter(DataLoader(SquaresDataset(2), num_workers=1, multiprocessing_context="spawn", collate_fn=lambda b: b))


def test_worker_exiting_raises():
    class Exiting(SquaresDataset):
        def __getitem__(self, i):
            os._exit(3)

    with pytest.raises(RuntimeError, match=r"exited unexpectedly with exit code 3"):
        list(DataLoader(Exiting(2), num_workers=1))


def test_timeout():
    loader = DataLoader(SlowDataset(4, slow=0, delay=1.0), batch_size=1, num_workers=1, timeout=0.2)
    with pytest.raises(RuntimeError, match=r"DataLoader timed out after 0.2 seconds"):
        next(iter(loader))


def test_slow_worker_within_the_timeout():
    loader = DataLoader(SlowDataset(2, slow=0, delay=0.3), batch_size=1, num_workers=1, timeout=30)
    assert [b.tolist() for b in loader] == [[0], [1]]


def test_early_exit_cleans_up_processes_and_segments():
    children, segments = child_pids(), shm_entries()
    it = iter(DataLoader(ImageDataset(64), batch_size=2, num_workers=2))
    next(it)
    assert len(child_pids() - children) == 2
    assert wait_until(lambda: len(shm_entries()) > len(segments))
    del it
    assert child_pids() == children
    assert shm_entries() == segments


def test_break_out_of_the_loop_cleans_up():
    children = child_pids()
    for batch in DataLoader(ImageDataset(64), batch_size=2, num_workers=2):
        break
    del batch
    gc.collect()
    assert child_pids() == children
    assert shm_entries() == []


def test_exception_in_the_main_loop_cleans_up():
    children = child_pids()
    with pytest.raises(KeyError):
        for _ in DataLoader(ImageDataset(64), batch_size=2, num_workers=2):
            raise KeyError("user code failed")
    gc.collect()
    assert child_pids() == children
    assert shm_entries() == []


def test_core_thread_pool_works_in_forked_workers():
    x = core.ones(1_000_000)
    assert (x + x).numpy()[0] == 2  # the pool is running in the parent before the fork
    loader = DataLoader(ThreadPoolDataset(), batch_size=2, num_workers=2, timeout=60)
    assert [b.tolist() for b in loader] == [[2.0, 3.0], [4.0, 5.0]]


@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_other_start_methods(method):
    loader = DataLoader(SquaresDataset(6), batch_size=2, num_workers=2, multiprocessing_context=method, timeout=120)
    assert [b[1].tolist() for b in loader] == [[0, 1], [4, 9], [16, 25]]


def test_spawn_workers_are_seeded_like_forked_ones():
    loader = DataLoader(RandomnessDataset(), batch_size=4, num_workers=2, multiprocessing_context="spawn",
                        generator=core.Generator().manual_seed(42))
    fork = DataLoader(RandomnessDataset(), batch_size=4, num_workers=2, generator=core.Generator().manual_seed(42))
    assert _seen_by_workers(loader) == _seen_by_workers(fork)


_EXIT_SCRIPT = """
import os, sys
sys.path.insert(0, {helpers!r})
from core.utils.data import DataLoader
from data_helpers import ImageDataset, child_pids
loader = DataLoader(ImageDataset(64), batch_size=2, num_workers=2, persistent_workers={persistent})
it = iter(loader)
batch = next(it)
print(os.getpid(), *sorted(child_pids()), flush=True)
{ending}
"""


@pytest.mark.parametrize("persistent, ending", [
    (True, "pass"),
    (False, "raise SystemExit(0)"),
    (False, "raise RuntimeError('main process fails')"),
])
def test_interpreter_exit_cleans_up(persistent, ending):
    script = _EXIT_SCRIPT.format(helpers=os.path.dirname(__file__), persistent=persistent, ending=ending)
    result = run_python(script, timeout=60)
    pids = [int(p) for p in result.stdout.split()]
    assert len(pids) == 3, result.stderr
    assert wait_until(lambda: not any(is_alive(p) for p in pids[1:]), timeout=10)
    assert shm_entries(pids[0]) == []
    assert "Traceback" not in result.stderr or "main process fails" in result.stderr


def test_killed_main_process_leaves_nothing_behind():
    import subprocess

    script = _EXIT_SCRIPT.format(helpers=os.path.dirname(__file__), persistent=False,
                                 ending="import time; time.sleep(60)")
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                            **child_process_options())
    try:
        pids = [int(p) for p in proc.stdout.readline().split()]
        assert len(pids) == 3 and shm_entries(pids[0])
        os.kill(pids[0], signal.SIGKILL)
        proc.wait(timeout=10)
        # Orphaned workers notice within their poll interval, unlink their segments and exit.
        assert wait_until(lambda: not any(is_alive(p) for p in pids[1:]), timeout=15)
        assert shm_entries(pids[0]) == []
    finally:
        proc.kill()
        proc.wait()
