"""core's thread pool (iter/thread_pool.cpp): every index exactly once at any thread count and
grain, errors from a worker's chunk reach the caller, nested parallel_for runs inline, sleeping
workers wake up, and a pool replaced while another thread runs a job on it stays alive."""
import time

import numpy as np
import pytest

import core
from support import run_python

_parallel_sum = core._C._parallel_sum
NO_FAILURE = -1


@pytest.fixture
def threads():
    saved = core.get_num_threads()
    yield core.set_num_threads
    core.set_num_threads(saved)


@pytest.mark.parametrize("count", [1, 2, 3, 8])
@pytest.mark.parametrize("n, grain", [(1, 1), (7, 1), (1000, 1), (1000, 999), (1000, 1000), (100_003, 64)])
def test_every_index_once(threads, count, n, grain):
    threads(count)
    assert _parallel_sum(n, grain, NO_FAILURE) == n * (n - 1) // 2


@pytest.mark.parametrize("count", [1, 2, 4])
def test_an_error_in_any_chunk_reaches_the_caller_and_the_pool_goes_on(threads, count):
    threads(count)
    for fail_at in (0, 500, 999):  # the caller's first chunk, a middle one, the last one
        with pytest.raises(RuntimeError, match=f"index {fail_at} fails"):
            _parallel_sum(1000, 10, fail_at)
        assert _parallel_sum(1000, 10, NO_FAILURE) == 499500


def test_sleeping_workers_wake_for_the_next_job(threads):
    threads(2)
    x = core.ones(1 << 20)
    for pause in (0.0, 0.005, 0.05):  # spinning, just asleep, long asleep
        time.sleep(pause)
        assert _parallel_sum(10_000, 1, NO_FAILURE) == 49995000
        assert float((x + x).sum()) == 2 * (1 << 20)


def test_jobs_from_several_python_threads_while_the_pool_is_replaced():
    # Large ops run without the GIL, so the threads' jobs meet in the pool; set_num_threads
    # makes the next job replace the pool while others may still run on the old one.
    code = (
        "import threading, core\n"
        "x = core.arange(1 << 20, dtype=core.float32)\n"
        "expected = float((x * 2).sum())\n"
        "errors = []\n"
        "def work():\n"
        "    for _ in range(150):\n"
        "        if float((x + x).sum()) != expected: errors.append('wrong sum')\n"
        "        if core._C._parallel_sum(20_000, 1, -1) != 199990000: errors.append('wrong count')\n"
        "def resize():\n"
        "    for i in range(150):\n"
        "        core.set_num_threads(1 + i % 3)\n"
        "        core._C._parallel_sum(1000, 1, -1)\n"
        "ts = [threading.Thread(target=work) for _ in range(2)] + [threading.Thread(target=resize)]\n"
        "[t.start() for t in ts]; [t.join() for t in ts]\n"
        "print(errors or 'ok')\n"
    )
    result = run_python(code, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_fork_while_the_pool_is_busy_in_another_thread():
    # The child starts with no workers; its first parallel job must build a new pool, not
    # wait on the parent's (which do not exist there).
    code = (
        "import os, threading, core\n"
        "core.set_num_threads(2)\n"
        "x = core.ones(1 << 20)\n"
        "stop = threading.Event()\n"
        "def busy():\n"
        "    while not stop.is_set(): x + x\n"
        "t = threading.Thread(target=busy); t.start()\n"
        "codes = []\n"
        "for _ in range(5):\n"
        "    pid = os.fork()\n"
        "    if pid == 0:\n"
        "        ok = float((x * 3).sum()) == 3 * (1 << 20) and core._C._parallel_sum(5000, 1, -1) == 12497500\n"
        "        os._exit(0 if ok else 1)\n"
        "    codes.append(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))\n"
        "stop.set(); t.join()\n"
        "print(codes)\n"
    )
    result = run_python(code, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[0, 0, 0, 0, 0]"


def test_results_do_not_depend_on_the_thread_count(threads):
    a = np.random.default_rng(0).standard_normal(3 << 20).astype(np.float32)
    results = []
    for count in (1, 2, 3):
        threads(count)
        t = core.tensor(a)
        results.append(((t + t) * t).numpy())
    np.testing.assert_array_equal(results[0], results[1])
    np.testing.assert_array_equal(results[0], results[2])
