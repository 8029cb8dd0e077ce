"""core.distributed's collectives on 2 MPI ranks against numpy, and its errors."""
import json
import os

import numpy as np
import pytest

import core
import core.distributed as dist
from support_mpi import DTYPES, check_ranks, numpy_reduce, reduce_ops, requires_mpi
from support_mpi import rank_values as values

WORLD = 2


@pytest.fixture(scope="module")
def ranks_output(tmp_path_factory):
    out = tmp_path_factory.mktemp("collectives")
    check_ranks("rank_collectives.py", str(out), ranks=WORLD)
    results = [core.load(str(out / f"rank{r}.pt")) for r in range(WORLD)]
    reports = [json.loads((out / f"errors{r}.json").read_text()) for r in range(WORLD)]
    return results, reports


def as_numpy(t):
    return (t.float() if t.dtype == core.bfloat16 else t).numpy()


def assert_equal(t, expected, dtype=None):
    got = as_numpy(t)
    expected = np.asarray(expected)
    assert got.shape == expected.shape
    if dtype == "float16":  # MPI reduces 16-bit floats in float32; one rounding to float16
        expected = expected.astype(np.float32).astype(np.float16)
    np.testing.assert_array_equal(got, expected.astype(got.dtype))


pytestmark = requires_mpi


@pytest.mark.parametrize("dtype", DTYPES)
def test_all_reduce_every_op_and_dtype(ranks_output, dtype):
    results, _ = ranks_output
    for op in reduce_ops(dtype):
        expected = numpy_reduce([values(r, (3, 5), dtype) for r in range(WORLD)], op)
        for r in range(WORLD):
            assert_equal(results[r][f"all_reduce/{dtype}/{op}"], expected, dtype)
            assert_equal(results[r][f"all_reduce_again/{dtype}/{op}"], expected, dtype)  # the direct path


def test_all_reduce_direct_path(ranks_output):
    _, reports = ranks_output
    for report in reports:  # runs on a contiguous tensor, leaves others to the general path
        assert report["objects"]["direct_ran"] == [True, False, False]


def test_all_reduce_layouts_and_async(ranks_output):
    results, _ = ranks_output
    transposed = sum(values(r, (5, 3), "float32") for r in range(WORLD)).T
    maximum = np.maximum.reduce([values(r, (4, 4), "float64") for r in range(WORLD)])
    for r in range(WORLD):
        assert_equal(results[r]["all_reduce/transposed"], transposed)
        assert_equal(results[r]["all_reduce/async"], maximum)
        assert results[r]["all_reduce/async_completed"].tolist() == [True, True]


def test_broadcast_reduce_gather_scatter(ranks_output):
    results, _ = ranks_output
    for r in range(WORLD):
        for dtype in ("float32", "int64", "bool", "bfloat16"):
            assert_equal(results[r][f"broadcast/{dtype}"], values(1, (2, 3), dtype))
        assert_equal(results[r]["broadcast/strided"], values(1, (3, 4), "float32")[:, 1:3])
        assert_equal(results[r]["all_gather/list"], np.stack([values(p, (2, 3), "float32") for p in range(WORLD)]))
        assert_equal(results[r]["all_gather/chunks"], np.concatenate([values(p, (4,), "int16") for p in range(WORLD)]))
        assert_equal(results[r]["scatter/int64"], values(100 + r, (5,), "int64"))
        for op, fn in (("SUM", np.add), ("MAX", np.maximum)):
            expected = fn.reduce([values(10 * p + r, (4,), "float32") for p in range(WORLD)])
            assert_equal(results[r][f"reduce_scatter/{op}"], expected)
    # reduce: the destination has the sum, the others keep their input
    assert_equal(results[1]["reduce/int32"], sum(values(p, (6,), "int32") for p in range(WORLD)))
    assert_equal(results[0]["reduce/int32"], values(0, (6,), "int32"))
    assert_equal(results[0]["gather/float64"], np.stack([values(p, (3,), "float64") for p in range(WORLD)]))
    assert "gather/float64" not in results[1]


def test_all_to_all(ranks_output):
    results, _ = ranks_output
    for r in range(WORLD):
        uneven = np.concatenate([values(p * 10 + r, (p + r + 1,), "float32") for p in range(WORLD)])
        assert_equal(results[r]["all_to_all/uneven"], uneven)
        # rank p's input has sum(1 + p + q) rows; the rows for rank r start after those for ranks < r
        parts = []
        for p in range(WORLD):
            rows = [1 + p + q for q in range(WORLD)]
            source = values(p, (sum(rows), 2), "int32")
            parts.append(source[sum(rows[:r]):sum(rows[:r + 1])])
        assert_equal(results[r]["all_to_all_single/splits"], np.concatenate(parts))


def test_point_to_point(ranks_output):
    results, _ = ranks_output
    for r in range(WORLD):
        prev = (r - 1) % WORLD
        assert_equal(results[r]["recv/value"], values(prev, (3,), "float32"))
        assert results[r]["recv/sender"].tolist() == [prev]
        assert_equal(results[r]["irecv/value"], values(prev, (2, 2), "int64"))
        assert results[r]["irecv/sender"].tolist() == [prev]


def test_objects_groups_and_queries(ranks_output):
    results, reports = ranks_output
    for r, report in enumerate(reports):
        objects = report["objects"]
        assert objects["broadcast"] == [{"rank": 1}, "x"]
        assert objects["all_gather"] == [["hello", p] for p in range(WORLD)]
        assert objects["gather"] == ([p * 11 for p in range(WORLD)] if r == 0 else None)
        assert objects["scatter"] == [f"to {r}"]
        last = r == WORLD - 1
        assert objects["group"] == ([0, 1, False] if last else [-1, -1, True])
        assert_equal(results[r]["group/all_reduce"], values(r, (3,), "float32"))  # a group of one
        assert report["world"] == WORLD and report["backend"] == "mpi"
        assert report["available"] == [True, True, True]


@pytest.mark.parametrize("case, kind, words", [
    ("band_float", "TypeError", "all_reduce: ReduceOp.BAND needs an integer or bool tensor"),
    ("avg_int", "TypeError", "ReduceOp.AVG needs a floating-point"),
    ("max_complex", "TypeError", "ReduceOp.MAX is not defined for complex"),
    ("all_gather_shape", "RuntimeError", "all_gather: tensor_list[0] has shape (3,), expected (2,)"),
    ("all_gather_count", "ValueError", "one tensor per rank of the group (2), got 1"),
    ("all_gather_dtype", "RuntimeError", "has dtype core.int64, expected core.float32"),
    ("broadcast_src", "ValueError", "broadcast: rank 2 is not part of the group"),
    ("send_self", "ValueError", "send: invalid destination rank"),
    ("not_tensor", "TypeError", "all_reduce: tensor must be a core.Tensor"),
    ("direct_mpi_error", "RuntimeError", "all_reduce: MPI failed: "),
    ("gather_list_on_non_dst", "ValueError", "must NOT be specified on non-destination ranks"),
    ("init_twice", "RuntimeError", "initialize the default process group twice"),
])
def test_errors(ranks_output, case, kind, words):
    _, reports = ranks_output
    for report in reports:
        got_kind, message = report["errors"][case]
        assert got_kind == kind and words in message, (case, got_kind, message)


def test_calls_before_init_raise():
    assert not dist.is_initialized()
    for call in (lambda: dist.get_rank(), lambda: dist.get_world_size(), lambda: dist.all_reduce(core.ones(2)),
                 lambda: dist.barrier(), lambda: dist.new_group([0])):
        with pytest.raises(RuntimeError, match="Default process group has not been initialized"):
            call()


def test_other_backends_are_refused():
    with pytest.raises(RuntimeError, match="backend 'nccl' is not available"):
        dist.init_process_group("nccl")
    assert not dist.is_initialized()
