"""SyncBatchNorm on uneven shares of a batch (rank r takes samples [starts[r], starts[r + 1])); each
rank saves its outputs, gradients and running statistics to OUT/rank<r>.pt for test_sync_batchnorm.py."""
import os
import sys

import core
import core.distributed as dist
import core.nn as nn
from support_mpi import sync_bn_case

out_dir = sys.argv[1]
dist.init_process_group("mpi")
rank = dist.get_rank()
results = {}
for name, (x, upstream, starts, momentum) in sync_bn_case().items():
    part = x[starts[rank]:starts[rank + 1]].clone().requires_grad_()
    plain = nn.BatchNorm1d(x.shape[1], momentum=momentum) if x.dim() == 3 else nn.BatchNorm2d(x.shape[1], momentum=momentum)
    bn = nn.SyncBatchNorm.convert_sync_batchnorm(nn.Sequential(plain.double()))[0]
    assert isinstance(bn, nn.SyncBatchNorm)
    for _ in range(2):  # twice: the running statistics' update is checked too
        out = bn(part)
    (out * upstream[starts[rank]:starts[rank + 1]]).sum().backward()
    bn.eval()
    results.update({f"{name}/out": out, f"{name}/grad": part.grad, f"{name}/weight_grad": bn.weight.grad,
                    f"{name}/bias_grad": bn.bias.grad, f"{name}/running_mean": bn.running_mean,
                    f"{name}/running_var": bn.running_var, f"{name}/eval": bn(part)})
core.save(results, os.path.join(out_dir, f"rank{rank}.pt"))
