"""DistributedDataParallel on 2 MPI ranks against single-process training on the whole batch."""
import json

import numpy as np
import pytest

import core
import core.nn.functional as F
from core.nn.parallel._reducer import bucket_assignment
from support_mpi import check_ranks, ddp_batches, ddp_model, requires_mpi

WORLD = 2


@pytest.fixture(scope="module")
def ranks_output(tmp_path_factory):
    out = tmp_path_factory.mktemp("ddp")
    check_ranks("rank_ddp.py", str(out), ranks=WORLD)
    return ([core.load(str(out / f"rank{r}.pt")) for r in range(WORLD)],
            [json.loads((out / f"report{r}.json").read_text()) for r in range(WORLD)])


def assert_close(a, b, atol=1e-10):
    np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-9, atol=atol)


def single_process_training(steps):
    """The whole batch on one process: what 2 ranks with half a batch each must reproduce
    (SyncBatchNorm there, BatchNorm here)."""
    model = ddp_model(batch_norm="plain")
    optimizer = core.optim.SGD(model.parameters(), lr=0.2, momentum=0.9)
    for x, y in ddp_batches(steps):
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return model.state_dict()


@requires_mpi
@pytest.mark.parametrize("variant", ["train", "view"])
def test_ddp_training_equals_single_process_on_the_whole_batch(ranks_output, variant):
    results, reports = ranks_output
    expected = single_process_training(5)
    for r in range(WORLD):
        for key, value in expected.items():
            got = results[r][f"{variant}/{key}"]
            if value.dtype.is_floating_point:
                assert_close(got, value)
            else:
                assert got.tolist() == value.tolist(), key  # num_batches_tracked
    assert len(reports[0]["buckets"]) >= 2  # several buckets were in flight
    assert all(key.startswith("module.") for key in reports[0]["state_dict_keys"])  # torch's prefix


@requires_mpi
def test_no_sync_accumulates_locally_then_reduces_the_sum(ranks_output):
    results, _ = ranks_output
    batches = ddp_batches(3)
    whole = ddp_model(batch_norm=None)
    for x, y in batches:
        F.cross_entropy(whole(x), y).backward()
    for r in range(WORLD):
        for name, p in whole.named_parameters():
            assert_close(results[r][f"no_sync/{name}"], p.grad)
        local = ddp_model(batch_norm=None)
        for x, y in batches[:2]:
            F.cross_entropy(local(x.chunk(WORLD)[r]), y.chunk(WORLD)[r]).backward()
        assert_close(results[r]["no_sync/local_grad"], local[0].weight.grad)


@requires_mpi
def test_find_unused_parameters(ranks_output):
    results, reports = ranks_output
    rank_grads = []
    for r in range(WORLD):
        core.manual_seed(3)
        body, extra = core.nn.Linear(4, 3), core.nn.Linear(3, 3)
        x = core.arange(8, dtype=core.float32).view(2, 4) * (r + 1)
        (extra(body(x)) if r == 0 else body(x)).sum().backward()
        rank_grads.append({"body.weight": body.weight.grad, "body.bias": body.bias.grad,
                           "extra.weight": extra.weight.grad, "extra.bias": extra.bias.grad})
    for r in range(WORLD):
        for name in ("body.weight", "body.bias"):
            assert_close(results[r][f"unused/{name}"], sum(g[name] for g in rank_grads) / WORLD, atol=1e-6)
        for name in ("extra.weight", "extra.bias"):  # used on rank 0 only: averaged with rank 1's zeros
            assert_close(results[r][f"unused/{name}"], rank_grads[0][name] / WORLD, atol=1e-6)
        for name in ("never.weight", "never.bias"):  # used by no rank: no gradient
            assert results[r][f"unused/{name}"].numel() == 0
        message = reports[r]["unused_error"]
        assert "Expected to have finished reduction in the prior iteration" in message
        assert "find_unused_parameters=True" in message and "extra.weight" in message


@requires_mpi
def test_broadcast_buffers(ranks_output):
    results, _ = ranks_output
    for r in range(WORLD):
        assert results[r]["buffers/True"].tolist() == [0.0] * 6       # rank 0's
        assert results[r]["buffers/False"].tolist() == [float(r)] * 6  # each its own


def test_bucket_assignment_reverse_order_by_dtype_and_size():
    params = [core.zeros(300_000), core.zeros(10), core.zeros(100_000), core.zeros(5, dtype=core.float64),
              core.zeros(7_000_000), core.zeros(3)]
    # the first bucket of each dtype closes after 1 MiB, the later ones after the cap (25 MiB here)
    assert bucket_assignment(params, 25 * 1024 * 1024) == [[5, 4], [3], [2, 1, 0]]
    assert bucket_assignment(params, 1, first_bucket_bytes=1) == [[5], [4], [3], [2], [1], [0]]


def test_ddp_needs_a_process_group():
    with pytest.raises(RuntimeError, match="Default process group has not been initialized"):
        core.nn.parallel.DistributedDataParallel(ddp_model())
