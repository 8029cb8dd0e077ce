"""DistributedDataParallel on every rank: training, no_sync, unused parameters, buffers. Each rank
saves what it ended with to OUT/rank<r>.pt (and messages to OUT/report<r>.json) for test_ddp.py."""
import json
import os
import sys

import core
import core.distributed as dist
import core.nn as nn
import core.nn.functional as F
from core.nn.parallel import DistributedDataParallel as DDP
from core.nn.parallel import _reducer
from support_mpi import ddp_batches, ddp_model

out_dir = sys.argv[1]
dist.init_process_group("mpi")
rank, world = dist.get_rank(), dist.get_world_size()
_reducer.FIRST_BUCKET_BYTES = 256  # tiny buckets: several all-reduces in flight during backward
results, report = {}, {}


def local(batch):
    x, y = batch
    return x.chunk(world)[rank], y.chunk(world)[rank]


def train(steps, **ddp_args):
    """5 SGD steps of the DDP model on this rank's half of each batch; rank 1 starts from other
    weights, which DDP's start-up broadcast replaces by rank 0's."""
    model = ddp_model(seed=1 if rank == 0 else 99)
    ddp = DDP(model, bucket_cap_mb=0.0005, **ddp_args)
    report["buckets"] = [b.indices for b in ddp.reducer.buckets]
    optimizer = core.optim.SGD(ddp.parameters(), lr=0.2, momentum=0.9)
    for batch in ddp_batches(steps):
        x, y = local(batch)
        loss = F.cross_entropy(ddp(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    report["state_dict_keys"] = list(ddp.state_dict())
    return model.state_dict()


for key, value in train(5).items():
    results[f"train/{key}"] = value
for key, value in train(5, gradient_as_bucket_view=True).items():
    results[f"view/{key}"] = value

# no_sync: two local backward passes, then a synchronised one, reduce the sum of all three
model = ddp_model(batch_norm=None)
ddp = DDP(model, bucket_cap_mb=0.0005)
batches = ddp_batches(3)
with ddp.no_sync():
    for batch in batches[:2]:
        x, y = local(batch)
        F.cross_entropy(ddp(x), y).backward()
results["no_sync/local_grad"] = model[0].weight.grad.clone()
x, y = local(batches[2])
F.cross_entropy(ddp(x), y).backward()
for name, p in model.named_parameters():
    results[f"no_sync/{name}"] = p.grad


class Branches(nn.Module):
    """`extra` is used on rank 0 only; `never` by no rank."""

    def __init__(self):
        super().__init__()
        core.manual_seed(3)
        self.body = nn.Linear(4, 3)
        self.extra = nn.Linear(3, 3)
        self.never = nn.Linear(3, 3)

    def forward(self, x, use_extra):
        h = self.body(x)
        return self.extra(h) if use_extra else h


x = core.arange(8, dtype=core.float32).view(2, 4) * (rank + 1)
ddp = DDP(Branches(), find_unused_parameters=True)
ddp(x, use_extra=rank == 0).sum().backward()
for name, p in ddp.module.named_parameters():
    results[f"unused/{name}"] = p.grad if p.grad is not None else core.tensor([])

ddp = DDP(Branches())  # without find_unused_parameters the next forward reports the parameters left out
ddp(x, use_extra=False).sum().backward()
try:
    ddp(x, use_extra=False)
except RuntimeError as e:
    report["unused_error"] = str(e)

# broadcast_buffers: rank 0's running statistics reach every rank before each forward
for flag in (True, False):
    model = ddp_model(batch_norm="plain")
    ddp = DDP(model, broadcast_buffers=flag)
    model[1].running_mean.fill_(float(rank))
    ddp.eval()
    with core.no_grad():
        ddp(ddp_batches(1)[0][0])
    results[f"buffers/{flag}"] = model[1].running_mean.clone()

core.save(results, os.path.join(out_dir, f"rank{rank}.pt"))
with open(os.path.join(out_dir, f"report{rank}.json"), "w") as f:
    json.dump(report, f)
