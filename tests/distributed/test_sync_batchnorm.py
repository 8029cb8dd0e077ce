"""SyncBatchNorm on 2 MPI ranks (uneven shares) equals BatchNorm on the whole batch."""
import numpy as np
import pytest

import core
import core.nn as nn
from support_mpi import check_ranks, requires_mpi, sync_bn_case

WORLD = 2


def assert_close(a, b):
    np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-9, atol=1e-11)


@requires_mpi
def test_sync_batchnorm_equals_batchnorm_on_the_whole_batch(tmp_path):
    check_ranks("rank_sync_bn.py", str(tmp_path), ranks=WORLD)
    results = [core.load(str(tmp_path / f"rank{r}.pt")) for r in range(WORLD)]
    for name, (x, upstream, starts, momentum) in sync_bn_case().items():
        bn = (nn.BatchNorm1d if x.dim() == 3 else nn.BatchNorm2d)(x.shape[1], momentum=momentum).double()
        whole = x.clone().requires_grad_()
        for _ in range(2):
            out = bn(whole)
        (out * upstream).sum().backward()
        bn.eval()
        evaluated = bn(x)
        for r in range(WORLD):
            share = slice(starts[r], starts[r + 1])
            got = results[r]
            assert_close(got[f"{name}/out"], out[share])
            assert_close(got[f"{name}/grad"], whole.grad[share])
            assert_close(got[f"{name}/running_mean"], bn.running_mean)
            assert_close(got[f"{name}/running_var"], bn.running_var)
            assert_close(got[f"{name}/eval"], evaluated[share])
        # weight and bias gradients stay local: their sum over ranks is the whole batch's
        for param in ("weight", "bias"):
            assert_close(sum(results[r][f"{name}/{param}_grad"] for r in range(WORLD)), getattr(bn, param).grad)


def test_sync_batchnorm_without_a_process_group_is_batchnorm():
    core.manual_seed(0)
    x = core.randn(4, 3, 5, dtype=core.float64)
    sync, plain = nn.SyncBatchNorm(3).double(), nn.BatchNorm1d(3).double()
    assert_close(sync(x), plain(x))
    assert_close(sync.running_var, plain.running_var)
    with pytest.raises(ValueError, match="expected at least 2D input"):
        sync(core.ones(3))
