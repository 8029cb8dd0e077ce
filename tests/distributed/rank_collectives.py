"""Every collective on every rank; each rank saves what it got to OUT/rank<r>.pt and the errors
it was given to OUT/errors<r>.json, for test_collectives.py to check against numpy."""
import json
import os
import sys

import numpy as np

import core
import core.distributed as dist
from core._native import _C
from core.distributed import _group
from core.distributed._reduce_op import DIRECT
from mpi4py import MPI
from support_mpi import DTYPES, rank_values, reduce_ops

out_dir = sys.argv[1]
dist.init_process_group("mpi", init_method="env://")
rank, world = dist.get_rank(), dist.get_world_size()
results, errors = {}, {}


def make(r, shape, dtype):
    t = core.from_numpy(np.ascontiguousarray(rank_values(r, shape, dtype)))
    return t.to(core.bfloat16) if dtype == "bfloat16" else t


def error_of(name, fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - recorded for the test to check
        errors[name] = [type(e).__name__, str(e)]


for dtype in DTYPES:
    for op in reduce_ops(dtype):
        t = make(rank, (3, 5), dtype)
        dist.all_reduce(t, getattr(dist.ReduceOp, op))
        results[f"all_reduce/{dtype}/{op}"] = t

# each (dtype, op) again: a blocking all_reduce of a contiguous tensor whose pair has been reduced
# before is one call into MPI (_C._mpi_all_reduce); it says whether it ran
for dtype in DTYPES:
    for op in reduce_ops(dtype):
        t = make(rank, (3, 5), dtype)
        dist.all_reduce(t, getattr(dist.ReduceOp, op))
        results[f"all_reduce_again/{dtype}/{op}"] = t
float_sum = DIRECT[(core.float32, dist.ReduceOp.SUM)]
comm = _group.state().default.handle
direct_ran = [_C._mpi_all_reduce(core.ones(2), *float_sum, comm),
              _C._mpi_all_reduce(core.ones(2, 3).t(), *float_sum, comm),  # not contiguous: not run
              _C._mpi_all_reduce([1.0, 2.0], *float_sum, comm)]
error_of("direct_mpi_error", lambda: _C._mpi_all_reduce(core.ones(2), float_sum[0], MPI.OP_NULL.handle, comm))

# non-contiguous tensors go through a staging copy; async work handles
t = make(rank, (5, 3), "float32").t()
dist.all_reduce(t)
results["all_reduce/transposed"] = t
t = make(rank, (4, 4), "float64")
work = dist.all_reduce(t, dist.ReduceOp.MAX, async_op=True)
results["all_reduce/async"] = work.result()[0]
results["all_reduce/async_completed"] = core.tensor([work.is_completed(), work.is_success()])

for dtype in ("float32", "int64", "bool", "bfloat16"):
    t = make(rank, (2, 3), dtype)
    dist.broadcast(t, src=1)
    results[f"broadcast/{dtype}"] = t
t = make(rank, (3, 4), "float32")[:, 1:3]
dist.broadcast(t, src=1)
results["broadcast/strided"] = t

t = make(rank, (6,), "int32")
dist.reduce(t, dst=1, op=dist.ReduceOp.SUM)
results["reduce/int32"] = t

gathered = [core.empty((2, 3), dtype=core.float32) for _ in range(world)]
dist.all_gather(gathered, make(rank, (2, 3), "float32"))
results["all_gather/list"] = core.stack(gathered)
flat = core.empty((world * 4,), dtype=core.int16)
dist.all_gather(list(flat.chunk(world)), make(rank, (4,), "int16"))  # one buffer: no staging
results["all_gather/chunks"] = flat

gather_list = [core.empty(3, dtype=core.float64) for _ in range(world)] if rank == 0 else None
dist.gather(make(rank, (3,), "float64"), gather_list, dst=0)
if rank == 0:
    results["gather/float64"] = core.stack(gather_list)

t = core.empty(5, dtype=core.int64)
dist.scatter(t, [make(100 + r, (5,), "int64") for r in range(world)] if rank == 1 else None, src=1)
results["scatter/int64"] = t

for op in ("SUM", "MAX"):
    t = core.empty(4, dtype=core.float32)
    dist.reduce_scatter(t, [make(10 * rank + r, (4,), "float32") for r in range(world)], getattr(dist.ReduceOp, op))
    results[f"reduce_scatter/{op}"] = t

# all_to_all with sizes that differ by peer: rank r sends r + p + 1 values to peer p
outputs = [core.empty(p + rank + 1, dtype=core.float32) for p in range(world)]
dist.all_to_all(outputs, [make(rank * 10 + p, (rank + p + 1,), "float32") for p in range(world)])
results["all_to_all/uneven"] = core.cat(outputs)
splits_in = [1 + rank + p for p in range(world)]
splits_out = [1 + p + rank for p in range(world)]
out = core.empty((sum(splits_out), 2), dtype=core.int32)
dist.all_to_all_single(out, make(rank, (sum(splits_in), 2), "int32"), splits_out, splits_in)
results["all_to_all_single/splits"] = out

# point to point around the ring, blocking and not
peer_next, peer_prev = (rank + 1) % world, (rank - 1) % world
received = core.empty(3, dtype=core.float32)
if rank % 2 == 0:
    dist.send(make(rank, (3,), "float32"), peer_next)
    sender = dist.recv(received, peer_prev)
else:
    sender = dist.recv(received)
    dist.send(make(rank, (3,), "float32"), peer_next)
results["recv/value"] = received
results["recv/sender"] = core.tensor([sender])
received = core.empty((2, 2), dtype=core.int64)
recv_work = dist.irecv(received, tag=7)
send_work = dist.isend(make(rank, (2, 2), "int64"), peer_next, tag=7)
send_work.wait()
recv_work.wait()
results["irecv/value"] = received
results["irecv/sender"] = core.tensor([recv_work.source_rank()])
dist.barrier(async_op=True).wait()

objects = [{"rank": rank}, "x" * rank] if rank == 1 else [None, None]
dist.broadcast_object_list(objects, src=1)
everyone = [None] * world
dist.all_gather_object(everyone, ("hello", rank))
at_root = [None] * world if rank == 0 else None
dist.gather_object(rank * 11, at_root, dst=0)
mine = [None]
dist.scatter_object_list(mine, [f"to {r}" for r in range(world)] if rank == 0 else None, src=0)
objects_seen = {"broadcast": objects, "all_gather": everyone, "gather": at_root, "scatter": mine}

# a group of the last rank only
last = dist.new_group([world - 1])
t = make(rank, (3,), "float32")
returned = dist.all_reduce(t, group=last, async_op=True)  # None outside the group
if returned is not None:
    returned.wait()
results["group/all_reduce"] = t
objects_seen["group"] = [dist.get_rank(last), dist.get_world_size(last), returned is None]
objects_seen["direct_ran"] = direct_ran

# errors raised before MPI sees anything
error_of("band_float", lambda: dist.all_reduce(core.ones(2), dist.ReduceOp.BAND))
error_of("avg_int", lambda: dist.all_reduce(core.ones(2, dtype=core.int32), dist.ReduceOp.AVG))
error_of("max_complex", lambda: dist.all_reduce(core.ones(2, dtype=core.complex128), dist.ReduceOp.MAX))
error_of("all_gather_shape", lambda: dist.all_gather([core.empty(3) for _ in range(world)], core.ones(2)))
error_of("all_gather_count", lambda: dist.all_gather([core.empty(2)], core.ones(2)))
error_of("all_gather_dtype", lambda: dist.all_gather([core.empty(2, dtype=core.int64)] * world, core.ones(2)))
error_of("broadcast_src", lambda: dist.broadcast(core.ones(2), src=world))
error_of("send_self", lambda: dist.send(core.ones(2), rank))
error_of("not_tensor", lambda: dist.all_reduce([1, 2]))
error_of("gather_list_on_non_dst", lambda: dist.gather(core.ones(2), [core.ones(2)] * world, dst=(rank + 1) % world))
error_of("init_twice", lambda: dist.init_process_group("mpi"))

core.save(results, os.path.join(out_dir, f"rank{rank}.pt"))
with open(os.path.join(out_dir, f"errors{rank}.json"), "w") as f:
    json.dump({"errors": errors, "objects": objects_seen, "world": world, "backend": dist.get_backend(),
               "available": [dist.is_available(), dist.is_mpi_available(), dist.is_initialized()]}, f)
dist.destroy_process_group()
assert not dist.is_initialized()
