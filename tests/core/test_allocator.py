"""The storage allocator: large blocks are cached for reuse, small ones are not; blocks from 4 MiB
start on a huge page."""
import os

import numpy as np

import core
from core import _C
from support import run_python

BIG = (512, 1024)  # 2 MiB of float32: cached
SMALL = (16,)      # 64 bytes: straight to malloc


def test_large_blocks_are_reused_after_free():
    _C._allocator_empty_cache()
    t = core.empty(BIG)
    del t
    cached = _C._allocator_cached_bytes()
    assert cached >= 2 << 20
    u = core.empty(BIG)  # served from the cache
    assert _C._allocator_cached_bytes() < cached
    del u


def test_small_blocks_are_not_cached():
    _C._allocator_empty_cache()
    t = core.empty(SMALL)
    del t
    assert _C._allocator_cached_bytes() == 0


def test_empty_cache_releases_everything():
    ts = [core.empty(BIG) for _ in range(3)]
    del ts
    assert _C._allocator_cached_bytes() > 0
    _C._allocator_empty_cache()
    assert _C._allocator_cached_bytes() == 0


def test_reused_blocks_hold_correct_values():
    for seed in range(3):
        a = np.random.default_rng(seed).standard_normal(BIG).astype(np.float32)
        t = core.from_numpy(a) * 2 + 1
        np.testing.assert_allclose(t.numpy(), a * 2 + 1, rtol=1e-6)
        assert float(core.zeros(BIG).abs().sum()) == 0.0  # a reused block is still zero-filled


def test_bytes_in_use_counts_live_storages_only():
    before = _C._bytes_in_use()
    t = core.empty(BIG)
    assert _C._bytes_in_use() - before == 2 << 20
    del t
    assert _C._bytes_in_use() == before


def test_tensor_copies_numpy_data_into_the_allocator():
    """core.tensor(ndarray) holds its copy in the allocator's memory (huge pages for big blocks),
    not in a numpy buffer of its own."""
    a = np.ones(BIG, np.float32)
    before = _C._bytes_in_use()
    t = core.tensor(a)
    assert _C._bytes_in_use() - before == a.nbytes
    a[0, 0] = 5
    assert float(t[0, 0]) == 1.0
    del t


def test_cache_limit_from_environment():
    code = ("import core; from core import _C; t = core.empty(512, 1024); del t; "
            "print(_C._allocator_cached_bytes())")
    result = run_python(code, env={**os.environ, "TENSORZOO_ALLOCATOR_CACHE_MB": "0"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "0"


def test_default_cache_limit_is_a_quarter_of_memory():
    memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    try:
        with open("/sys/fs/cgroup/memory.max") as f:
            memory = min(memory, int(f.read()))
    except (OSError, ValueError):  # no cgroup v2 limit ("max")
        pass
    code = "from core import _C; print(_C._allocator_cache_limit())"
    env = {k: v for k, v in os.environ.items() if k != "TENSORZOO_ALLOCATOR_CACHE_MB"}
    result = run_python(code, env=env)
    assert result.returncode == 0, result.stderr
    assert int(result.stdout) == max(1 << 30, memory // 4)
    result = run_python(code, env={**env, "TENSORZOO_ALLOCATOR_CACHE_MB": "3"})
    assert int(result.stdout) == 3 << 20


def test_blocks_from_4_mib_start_a_few_lines_past_a_huge_page():
    _C._allocator_empty_cache()
    huge = 2 << 20
    blocks = [core.empty((1 << 20) + k * 4096) for k in range(4)]  # 4 MiB and a little more
    # 64 to 832 bytes past the boundary, never on it: page-aligned buffers 4K-alias with MPI's
    # page-aligned shared-memory cells; and successive blocks at different offsets, so that an
    # op's operands do not 4K-alias with each other
    offsets = [b.data_ptr() % huge for b in blocks]
    assert all(o in (64, 320, 576, 832) for o in offsets)
    assert len(set(offsets)) == 4
    for b in blocks:
        b.fill_(3.0)
        assert float(b[-1]) == 3.0
    small = core.empty(1 << 18)  # 1 MiB: ordinary 64-byte alignment suffices
    assert small.data_ptr() % 64 == 0
